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
// or blocks. SetPause installs a function that Check calls every so many
// looks; the Cloudflare worker installs one that blocks until a JavaScript
// task has run. Nothing else installs one, so elsewhere Check is what it
// was: one test of a package variable more per look.
package stop

import (
	"context"
	"sync/atomic"
)

// Every is how many items a loop handles between two looks at its
// context: a look (ctx.Err, a lock or an atomic load) is cheap next to one
// item (a sample message decoded or run through a schema, a file named),
// and 32 items of the costliest kind are still a short wait.
const Every = 32

// pause is called by Check every pauseEvery looks, counted across all
// calls, and by Heavy at once (heavy true). The worker installs it with
// pauseEvery 1 and counts each call's looks itself.
var (
	pause      func(ctx context.Context, heavy bool)
	pauseEvery uint32
	looks      atomic.Uint32
)

// SetPause makes Check call f(ctx, false) once every every looks (every*Every
// items), before it looks at ctx, and Heavy call f(ctx, true) at each of
// its looks; or neither again when f is nil. It is meant to be called
// once, at start-up, before any call runs: Check reads the setting without
// a lock.
func SetPause(f func(ctx context.Context, heavy bool), every int) {
	if f == nil || every < 1 {
		pause, pauseEvery = nil, 0
		return
	}
	pause, pauseEvery = f, uint32(every)
	looks.Store(0)
}

// Check returns ctx's error when i is a multiple of Every and ctx is done,
// nil otherwise. Loops pass their item index, which starts at 0, so a call
// cancelled before it began stops at its first item.
func Check[I int | int64](ctx context.Context, i I) error {
	if i%Every != 0 {
		return nil
	}
	if pause != nil && looks.Add(1)%pauseEvery == 0 {
		// The pause comes first so that a cancellation it lets in (the
		// client's abort, delivered by the event loop) is seen at once.
		pause(ctx, false)
	}
	return ctx.Err()
}

// Heavy is a look for a loop whose items differ widely in cost, made after
// a known amount of work rather than a count of items (a UDF's steps: one
// may build a megabyte string, the next add 1 and 1): where a pause is
// installed it is called with heavy true, then Heavy looks at ctx. The
// caller decides how much work is worth a pause.
func Heavy(ctx context.Context) error {
	if pause != nil {
		pause(ctx, true)
	}
	return ctx.Err()
}
