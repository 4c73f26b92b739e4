package httpapi

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/playground"
)

// gate bounds the operations running at once. Every operation holds a slot
// of all; one on a large body also holds a slot of large, a smaller pool,
// so that large requests (where the cost is) can never take every CPU from
// ordinary ones.
type gate struct {
	all, large chan struct{}
}

func newGate(procs int) *gate {
	procs = max(procs, 1)
	return &gate{
		all:   make(chan struct{}, procs*limits.HTTPOpsPerCPU),
		large: make(chan struct{}, max(1, int(float64(procs)*limits.HTTPLargeOpsPerCPU))),
	}
}

// defaultGate sizes the gate from the CPUs the Go runtime uses.
func defaultGate() *gate { return newGate(runtime.GOMAXPROCS(0)) }

// acquire waits at most wait for the slots an operation on a body of size
// bytes needs. It returns the function that frees them, or the reason it
// could not have them: ctx's error when the client went away, errBusy when
// the wait ran out.
func (g *gate) acquire(ctx context.Context, size int, wait time.Duration) (release func(), err error) {
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
	if size >= limits.HTTPLargeBody {
		if err := take(g.large); err != nil {
			return nil, err
		}
		if err := take(g.all); err != nil {
			<-g.large
			return nil, err
		}
		return func() { <-g.all; <-g.large }, nil
	}
	if err := take(g.all); err != nil {
		return nil, err
	}
	return func() { <-g.all }, nil
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
	release, err := h.gate.acquire(ctx, len(body), h.queueWait)
	if err == errBusy {
		return outcome{err: errServerBusy}, true
	}
	if err != nil {
		return outcome{}, false
	}
	done := make(chan outcome, 1)
	go func() {
		defer release()
		defer func() {
			if v := recover(); v != nil {
				done <- outcome{panic: v, stack: debug.Stack()}
			}
		}()
		out, err := h.run(op, body)
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

var errServerBusy = &playground.Error{Code: codeBusy, Message: fmt.Sprintf(
	"the server is busy with other requests; retry in %d s", limits.HTTPRetryAfterSeconds)}
