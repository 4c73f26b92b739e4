// Package stop lets the core's long loops end early when nobody waits for
// their answer any more (an HTTP client that went away). A loop over user
// input looks at its context.Context every Every items, so the look costs
// nothing measurable on the way through and a cancelled call ends within
// Every items of work.
//
// A loop that stops returns the context's error; the playground turns it
// into the error "cancelled" and answers nothing else, so a cancelled call
// never yields half an answer.
//
// The same looks are where a long call can let others run: under js/wasm a
// Go call keeps the JavaScript event loop (and every other request of its
// isolate, and the news that its own client left) waiting until it returns
// or blocks. A call whose context carries a pause (WithPause) calls it at
// every look; the Cloudflare worker gives each request's context one that
// blocks until a JavaScript task has run. Any other call's look only asks
// its context for a pause it does not have.
package stop

import (
	"context"
)

// Every is how many items a loop handles between two looks at its
// context: a look (ctx.Err, a lock or an atomic load) is cheap next to one
// item (a sample message decoded or run through a schema, a file named),
// and 32 items of the costliest kind are still a short wait.
const Every = 32

// Pause is called at a look of a call whose context carries it: by Check
// with heavy false, by Heavy with heavy true. ctx is the context of the
// look, so a pause can find what its caller put there (the worker's state
// of the call).
type Pause func(ctx context.Context, heavy bool)

type pauseKey struct{}

// WithPause returns a context whose looks (Check, Heavy) call p, before
// they look at the context's error. The pause decides itself how many
// looks go by between two real pauses.
func WithPause(ctx context.Context, p Pause) context.Context {
	return context.WithValue(ctx, pauseKey{}, p)
}

func pauseOf(ctx context.Context) Pause {
	p, _ := ctx.Value(pauseKey{}).(Pause)
	return p
}

// Check returns ctx's error when i is a multiple of Every and ctx is done,
// nil otherwise. Loops pass their item index, which starts at 0, so a call
// cancelled before it began stops at its first item.
func Check[I int | int64](ctx context.Context, i I) error {
	if i%Every != 0 {
		return nil
	}
	if p := pauseOf(ctx); p != nil {
		// The pause comes first so that a cancellation it lets in (the
		// client's abort, delivered by the event loop) is seen at once.
		p(ctx, false)
	}
	return ctx.Err()
}

// Heavy is a look for a loop whose items differ widely in cost, made after
// a known amount of work rather than a count of items (a UDF's steps: one
// may build a megabyte string, the next add 1 and 1): where ctx carries a
// pause it is called with heavy true, then Heavy looks at ctx. The caller
// decides how much work is worth a pause.
func Heavy(ctx context.Context) error {
	if p := pauseOf(ctx); p != nil {
		p(ctx, true)
	}
	return ctx.Err()
}
