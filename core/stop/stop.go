// Package stop lets the core's long loops end early when nobody waits for
// their answer any more (an HTTP client that went away). A loop over user
// input looks at its context.Context every Every items, so the look costs
// nothing measurable on the way through and a cancelled call ends within
// Every items of work.
//
// A loop that stops returns the context's error; the playground turns it
// into the error "cancelled" and answers nothing else, so a cancelled call
// never yields half an answer.
package stop

import "context"

// Every is how many items a loop handles between two looks at its
// context: a look (ctx.Err, a lock or an atomic load) is cheap next to one
// item (a sample message decoded or run through a schema, a file named),
// and 32 items of the costliest kind are still a short wait.
const Every = 32

// Check returns ctx's error when i is a multiple of Every and ctx is done,
// nil otherwise. Loops pass their item index, which starts at 0, so a call
// cancelled before it began stops at its first item.
func Check[I int | int64](ctx context.Context, i I) error {
	if i%Every != 0 {
		return nil
	}
	return ctx.Err()
}
