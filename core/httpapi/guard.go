package httpapi

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/subplay/subplay/core/costclass"
	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/playground"
)

// gate bounds the operations running at once. Every operation holds a slot
// of all; a costly one also holds a slot of large, a smaller pool, so that
// costly requests can never take every CPU from ordinary ones. Costly
// means a large body (limits.HTTPLargeBody), where most of the cost is, or
// a request of a class (operation and body size, to a power of two) whose
// recent calls each took limits.HTTPCostlyMillis or more: a UDF that loops
// until its step budget stops it is a few hundred bytes.
type gate struct {
	all, large chan struct{}

	mu      sync.Mutex
	classes costclass.Classes
}

func newGate(procs int) *gate {
	procs = max(procs, 1)
	return &gate{
		all:     make(chan struct{}, procs*limits.HTTPOpsPerCPU),
		large:   make(chan struct{}, max(1, int(float64(procs)*limits.HTTPLargeOpsPerCPU))),
		classes: costclass.New(limits.HTTPCostlyMillis * time.Millisecond),
	}
}

// defaultGate sizes the gate from the CPUs the Go runtime uses.
func defaultGate() *gate { return newGate(runtime.GOMAXPROCS(0)) }

// isCostly says whether an operation op on a body of size bytes takes a
// slot of the large pool.
func (g *gate) isCostly(op string, size int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.classes.IsCostly(costclass.Of(op, size), size)
}

// record counts an operation's time d toward its class.
func (g *gate) record(op string, size int, d time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.classes.Add(costclass.Of(op, size), d)
}

// acquire waits at most wait for the slots an operation op on a body of
// size bytes needs. It returns the function that frees them and whether
// the operation counted as costly, or the reason it could not have them:
// ctx's error when the client went away, errBusy when the wait ran out.
func (g *gate) acquire(ctx context.Context, op string, size int, wait time.Duration) (release func(), costly bool, err error) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	take := func(c chan struct{}) error {
		select {
		case c <- struct{}{}:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
			return errBusy
		}
	}
	if g.isCostly(op, size) {
		if err := take(g.large); err != nil {
			return nil, true, err
		}
		if err := take(g.all); err != nil {
			<-g.large
			return nil, true, err
		}
		return func() { <-g.all; <-g.large }, true, nil
	}
	if err := take(g.all); err != nil {
		return nil, false, err
	}
	return func() { <-g.all }, false, nil
}

var errBusy = fmt.Errorf("no free slot")

// outcome is what an operation run in its own goroutine hands back.
type outcome struct {
	out   []byte
	err   error
	panic any
	stack []byte
}

// runGuarded runs op within the gate and the time limit. The handler stops
// waiting when the client goes away or the time limit passes, but the
// operation's slot is freed only when the operation really ends: Go cannot
// stop a computation from outside, and a slot freed early would let
// abandoned work pile up beyond the bound.
//
// It returns the outcome, or ok false when the client is gone and nothing
// should be written; a busy server or a time-out is an outcome with an
// *playground.Error.
func (h *handler) runGuarded(ctx context.Context, op *playground.Op, body []byte) (o outcome, ok bool) {
	release, costly, err := h.gate.acquire(ctx, op.Name, len(body), h.queueWait)
	if err == errBusy {
		return outcome{err: errServerBusy}, true
	}
	if err != nil {
		return outcome{}, false
	}
	done := make(chan outcome, 1)
	go func() {
		if n := costlyNice.Load(); costly && n > 0 {
			lowerThisThread(int(n))
		}
		defer release()
		start := time.Now()
		defer func() { h.gate.record(op.Name, len(body), time.Since(start)) }()
		defer func() {
			if v := recover(); v != nil {
				done <- outcome{panic: v, stack: debug.Stack()}
			}
		}()
		out, err := h.run(ctx, op, body)
		done <- outcome{out: out, err: err}
	}()
	timer := time.NewTimer(h.opTimeout)
	defer timer.Stop()
	select {
	case o := <-done:
		return o, true
	case <-timer.C:
		h.log.Printf("operation %q passed its time limit of %v on a %d-byte body; it keeps its slot until it ends", op.Name, h.opTimeout, len(body))
		return outcome{err: &playground.Error{Code: codeTimeout, Message: fmt.Sprintf(
			"the operation did not finish within its time limit of %v; the input is too costly to check here", h.opTimeout)}}, true
	case <-ctx.Done():
		return outcome{}, false
	}
}

// costlyNice is the priority a costly operation's thread is lowered to
// (limits.HTTPCostlyNice), set by ListenAndServe: only a native server
// lowers its threads, never a test's handler or the worker.
var costlyNice atomic.Int32

var errServerBusy = &playground.Error{Code: codeBusy, Message: fmt.Sprintf(
	"the server is busy with other requests; retry in %d s", limits.HTTPRetryAfterSeconds)}
