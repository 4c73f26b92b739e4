//go:build js && wasm

package main

import (
	"context"
	"net/http"
	"sync"
	"syscall/js"

	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/stop"
	"github.com/subplay/subplay/wasm/worker/admit"
)

// PauseEvery is how many of core/stop's looks a call makes between two
// pauses (limits.WorkerPauseLooks says why 32).
const PauseEvery = limits.WorkerPauseLooks

// The pauser lets a long call give the isolate back to JavaScript. Under
// js/wasm, Go returns to the JavaScript event loop only once every
// goroutine is blocked; until then nothing else of the isolate runs: no
// other request, no abort event. A pausing call blocks on a channel that
// the callback of a zero-delay timer of its own closes, so everything
// queued before the timer runs first.
//
// Each pause has its own timer, queued from the JavaScript that is running
// when it pauses: that of its own request (its start, or its previous
// pause's timer). workerd ends a request it sees waiting for nothing (no
// timer, no I/O of its own) as hung, and cancels a request's timers when
// that request ends: a shared timer, or a wait on a channel alone, would
// leave a call's wake to another request.
//
// At most one call at a time is long (has paused): a second call that
// reaches its first pause pauses again and again until the first has
// ended, so interleaving never holds the memory of two costly calls at
// once. Ordinary calls never pause and so never wait.
type pauser struct {
	mu      sync.Mutex
	waiting map[int]chan struct{} // by the id its timer passes to wake
	next    int
	wake    js.Func
	queue   func(wake js.Func, id int) // queues wake(id) as a JavaScript task
	long    chan struct{}              // holds a token while a long call runs
	// every is how many of its looks a call makes between two pauses
	// (PauseEvery; a test bundle may set another), and looks counts those
	// of work outside any call's state.
	every, looks int
}

// callState is what the pauser knows of one call, kept in its context.
type callState struct {
	looks   int  // core/stop's looks the call made
	pauses  int  // how many times the call paused after PauseEvery looks of its work, or for heavy work
	long    bool // the call holds the pauser's long token
	reached bool // the call reached a pause: it is long, whether or not it got the token
}

type callKey struct{}

// stats counts what the pauser and the entry saw, for the test hooks
// (testhooks_js.go). Goroutines of one instance never run in parallel,
// but they do switch at blocking points, so the counts are under mu.
var stats struct {
	mu         sync.Mutex
	calls      int // calls answered
	running    int // calls inside Go now
	paused     int // calls blocked in a pause now
	cancelled  int // calls answered "cancelled"
	pauses     int // pauses of all calls
	lastPauses int // pauses of the last call answered that paused
}

// testHold, when set (testhooks_js.go), is called at every pause after the
// event loop has run, so a test can keep a call pausing in the middle of
// its work for as long as it needs.
var testHold func(ctx context.Context)

func newPauser(binding js.Value) *pauser {
	p := &pauser{waiting: map[int]chan struct{}{}, long: make(chan struct{}, 1), every: PauseEvery}
	p.wake = js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 1 && args[0].Type() == js.TypeNumber {
			p.mu.Lock()
			id := args[0].Int()
			if c := p.waiting[id]; c != nil {
				close(c)
				delete(p.waiting, id)
			}
			p.mu.Unlock()
		}
		// The glue's timer callback learns from this that the Go program
		// is still alive (a fatal error during the call ends it).
		return true
	})
	// The persistent glue queues the wake itself (binding.subplayPause),
	// so that it notices an instance that died during a resumed call and
	// fails that call's request; syumai's stock glue has no such entry.
	if f := binding.Get("subplayPause"); f.Type() == js.TypeFunction {
		p.queue = func(w js.Func, id int) { f.Invoke(w, id) }
	} else {
		setTimeout := js.Global().Get("setTimeout")
		p.queue = func(w js.Func, id int) { setTimeout.Invoke(w, 0, id) }
	}
	return p
}

// look is core/stop's hook, called at every look of a call's loops (each
// stop.Every items) and for heavy work (stop.Heavy, a UDF's allocations).
// A call pauses after every `every` looks of its own, so that an ordinary
// call, which makes a few, never pauses: counted across calls, the looks
// of many ordinary calls added up to a pause in one of them now and then,
// which made it long, and so made it wait for the long token, behind a costly call, and taught the extra worker's glue that its
// kind of request was long (persistent.mjs, learn).
func (p *pauser) look(ctx context.Context, heavy bool) {
	if !heavy {
		n := &p.looks
		if st, _ := ctx.Value(callKey{}).(*callState); st != nil {
			n = &st.looks
		}
		*n++
		if *n%p.every != 0 {
			return
		}
	}
	p.pause(ctx)
}

// pause lets the event loop run once, and the first time in a call waits
// for the long token.
func (p *pauser) pause(ctx context.Context) {
	st, _ := ctx.Value(callKey{}).(*callState)
	if st != nil {
		st.reached = true
	}
	for st != nil && !st.long {
		select {
		case p.long <- struct{}{}:
			st.long = true
			continue
		default:
		}
		// Another call is long: let it (and everyone) run, and try again
		// (a pause that is no part of this call's work: not counted in st).
		p.wait(ctx, nil)
		if ctx.Err() != nil {
			return
		}
	}
	p.wait(ctx, st)
	if testHold != nil {
		testHold(ctx)
	}
}

// wait blocks until a JavaScript task queued now has run, or until ctx
// is done: workerd drops the timers of a request its client has left, and
// the abort event that cancels ctx is then the call's last chance to run.
func (p *pauser) wait(ctx context.Context, st *callState) {
	c := make(chan struct{})
	p.mu.Lock()
	id := p.next
	p.next++
	p.waiting[id] = c
	p.mu.Unlock()
	p.queue(p.wake, id)
	stats.mu.Lock()
	stats.paused++
	stats.pauses++
	stats.mu.Unlock()
	if st != nil {
		st.pauses++
	}
	select {
	case <-c:
		// The call runs again: the share (admit.Share) measures what ran
		// in the pause up to now, and this call's next stretch from now.
		admit.Resumed(ctx)
	case <-ctx.Done():
		p.mu.Lock()
		delete(p.waiting, id)
		p.mu.Unlock()
	}
	stats.mu.Lock()
	stats.paused--
	stats.mu.Unlock()
}

// begin returns ctx with the state of a new call in it.
func (p *pauser) begin(ctx context.Context) (context.Context, *callState) {
	st := &callState{}
	stats.mu.Lock()
	stats.running++
	stats.mu.Unlock()
	return context.WithValue(ctx, callKey{}, st), st
}

// end marks the end of the call st, answered with error code code ("" for
// an answer that is no error).
func (p *pauser) end(st *callState, code string) {
	if st.long {
		st.long = false
		<-p.long
	}
	stats.mu.Lock()
	stats.running--
	stats.calls++
	if st.pauses > 0 {
		stats.lastPauses = st.pauses
	}
	if code == "cancelled" {
		stats.cancelled++
	}
	stats.mu.Unlock()
}

// thePauser is the instance's pauser, once installed.
var thePauser *pauser

// installPause makes the calls of this instance pause (withPause).
func installPause(binding js.Value) *pauser {
	thePauser = newPauser(binding)
	return thePauser
}

// withPause gives every request's context the pauser's hook (core/stop
// calls it at each look of the call's loops), once the pauser is
// installed: so under both glues, the persistent one (subplayServe) and
// syumai's stock one (workers.Serve), as when core/stop kept one hook for
// the whole process. TestWorkerdPause holds the pauses in workerd.
func withPause(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := thePauser; p != nil {
			r = r.WithContext(stop.WithPause(r.Context(), p.look))
		}
		h.ServeHTTP(w, r)
	})
}
