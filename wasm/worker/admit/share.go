// Package admit is the Cloudflare worker's admission policy: the share of
// an isolate's time that costly requests may take while others wait. The
// worker passes a Share to core/httpapi's handler (httpapi.WithAdmission);
// nothing else uses it, so it lives with the worker, and the native
// server keeps its own bound on operations running at once.
//
// It links no syscall/js, so its tests run natively (go test
// ./wasm/worker/admit); the worker's suite in workerd (scripts/test-edge)
// runs it where it is deployed.
package admit

import (
	"context"
	"sync"
	"time"

	"github.com/subplay/subplay/core/costclass"
	"github.com/subplay/subplay/core/limits"
)

// Share bounds the time that costly requests take from a server that runs
// one request at a time: the worker, where an isolate runs one Go call at
// a time and nothing interrupts it, so every request that arrives during a
// costly one waits for all of it. While the server is contended (other
// requests were in flight at once lately, limits.WorkerContendedMillis),
// costly work is counted, and once it has used more than its share of the
// time (limits.WorkerCostlyShare, with a saved-up allowance of
// limits.WorkerCostlyBurstMillis) further costly requests are answered 503
// "busy" with a Retry-After, as the native server answers when its slots
// are taken, until time has given the share back. A request that is not
// costly is never refused, and a client alone with the server (one request
// at a time, as a test suite or a single user) never is.
//
// Costly means a body of limits.HTTPLargeBody or more (the native server's
// large class), or a request of a class (costclass: operation and body
// size, to a power of two) whose recent calls each took
// limits.WorkerCostlyMillis or more. A call's cost is the clock's advance
// while it runs. Cloudflare's clock stands still while code runs (a
// defence against timing attacks), so there each stretch of a call is read
// at the start of the isolate's next task instead, and only while
// contended: queued requests start as soon as the call ends or pauses,
// whereas the gap after a call alone may be idle time. A long call pauses
// (the worker's pauser) and others run in its pauses: each of its
// stretches, from its admission or a resumption (Resumed) to the next
// task's start, is its own, and a costly call spends the share for all of
// them, not only for its first.
//
// Share implements httpapi.Admission.
type Share struct {
	mu       sync.Mutex    // calls are sequential in the worker; tests may not be
	frac     float64       // the share of time costly work may take
	burst    time.Duration // the most costly time saved up
	maxCost  time.Duration // no call counts longer (the time limit of one)
	window   time.Duration // contended for this long after others were in flight
	tokens   time.Duration // costly time that may run now
	refilled time.Time
	busy     time.Time         // when others were last in flight at once
	classes  costclass.Classes // a call at least classes.Costly() long is costly
	open     *openCall         // the call whose code ran last: the next task's start measures it
}

// openCall is one admitted call as the share measures it.
type openCall struct {
	class costclass.Class
	start time.Time     // when it last began to run: its admission or its latest resumption
	spent time.Duration // its stretches measured before start
	// costly says it was costly when admitted; counted, that its time
	// counts toward costly work's share (costly, or found to take
	// classes.Costly() or more).
	costly, counted bool
	ended           bool // its operation returned: its class learns its cost once its last stretch is measured
	// unmeasured says a stretch of it went unmeasured: the clock stood
	// still while it ran and nothing else was waiting to tell its length
	// (see measure). Its cost is then unknown, and its class learns
	// nothing from it: counted as the part that was measured, often
	// nothing, a call alone taught a costly class that it was cheap.
	unmeasured bool
}

// NewShare returns a share with a full allowance that has learnt nothing.
func NewShare() *Share {
	return &Share{
		frac:    limits.WorkerCostlyShare,
		burst:   limits.WorkerCostlyBurstMillis * time.Millisecond,
		maxCost: limits.HTTPOperationMillis * time.Millisecond,
		window:  limits.WorkerContendedMillis * time.Millisecond,
		tokens:  limits.WorkerCostlyBurstMillis * time.Millisecond,
		classes: costclass.New(limits.WorkerCostlyMillis * time.Millisecond),
	}
}

// Arrive marks the start of the JavaScript task that brings a request, as
// the handler sees it arrive; WithOthers in ctx says how many others
// compete for the instance.
func (s *Share) Arrive(ctx context.Context) { s.begin(time.Now(), othersOf(ctx)) }

// Admit admits a call of op on a body of size bytes, or refuses it while
// costly work has spent its share; the call's context lets Resumed find
// it, and done ends its measurement.
func (s *Share) Admit(ctx context.Context, op string, size int) (context.Context, func(), bool) {
	o := s.admit(op, size, time.Now())
	if o == nil {
		return nil, nil, false
	}
	return context.WithValue(ctx, callRefKey{}, callRef{s, o}), func() { s.end(o, time.Now()) }, true
}

// Refuses says whether Admit would refuse a call of op on a body of size
// bytes now.
func (s *Share) Refuses(op string, size int) bool { return s.refuses(op, size, time.Now()) }

func (s *Share) contended(now time.Time) bool {
	return !s.busy.IsZero() && now.Sub(s.busy) < s.window
}

// begin marks the start of a JavaScript task at now that begins a
// request, others being how many other requests were in flight in the
// server, or reached it since the previous call began. The call that ran
// last is measured up to now. Costly time is given back at the share's
// rate.
func (s *Share) begin(now time.Time, others int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now = now.Round(0) // the wall clock: a frozen monotonic one tells nothing more
	if others > 0 {
		s.busy = now
	}
	s.measure(now, false)
	if o := s.open; o != nil && o.ended {
		s.settle()
	}
	if !s.refilled.IsZero() {
		s.tokens += time.Duration(float64(max(now.Sub(s.refilled), 0)) * s.frac)
	}
	s.tokens = min(s.tokens, s.burst)
	s.refilled = now
}

// measure counts the time since the open call last began to run, as now
// shows it, as that call's: all of it when exact (the clock moved while
// the call ran, and it has just ended), else only while contended, when
// the next task started as soon as the call let go.
func (s *Share) measure(now time.Time, exact bool) {
	o := s.open
	if o == nil {
		return
	}
	from := o.start
	d := now.Sub(from)
	if d <= 0 {
		return // the clock stood still: the next task's start will tell
	}
	o.start = now
	if !exact && !s.contended(now) {
		o.unmeasured = true
		return
	}
	d = min(d, s.maxCost-o.spent) // no call counts longer than the time limit of one
	if d <= 0 {
		return
	}
	o.spent += d
	if !s.contended(from) && !s.contended(now) {
		return
	}
	switch {
	case o.counted:
		s.tokens -= d
	case o.costly || o.spent >= s.classes.Costly():
		o.counted = true
		s.tokens -= o.spent
	}
}

// admit says whether a request for op with a body of size bytes may run
// now, and if so opens its measurement and returns it (nil: refused).
func (s *Share) admit(op string, size int, now time.Time) *openCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	now = now.Round(0)
	class := costclass.Of(op, size)
	costly := s.classes.IsCostly(class, size)
	if costly && s.tokens <= 0 && s.contended(now) {
		return nil
	}
	s.measure(now, false)
	s.settle()
	s.open = &openCall{class: class, start: now, costly: costly}
	return s.open
}

// settle lets go of the open call if it has ended: its class learns its
// cost. One that has not (it paused) is measured again when it resumes.
func (s *Share) settle() {
	if o := s.open; o != nil && o.ended && !o.unmeasured {
		s.classes.Add(o.class, o.spent)
	}
	s.open = nil
}

// resume marks that the call o runs again at now, after a pause in which
// other tasks may have run: what ran last is measured up to now, and o's
// next stretch starts.
func (s *Share) resume(o *openCall, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now = now.Round(0)
	if o.ended {
		return
	}
	s.measure(now, false)
	if s.open != o {
		s.settle()
		s.open = o
	}
	o.start = now
}

type callRef struct {
	s *Share
	o *openCall
}

type callRefKey struct{}

// Resumed tells the share that admitted the call whose context is ctx that
// the call runs again after a pause (the worker's pauser calls it as each
// pause ends); for any other context it does nothing. Without it a paused
// call's later stretches were measured as the time of whatever call began
// in its pause, and a long costly call spent the share only for its first
// one (TestSharePausedCall).
func Resumed(ctx context.Context) {
	if r, ok := ctx.Value(callRefKey{}).(callRef); ok {
		r.s.resume(r.o, time.Now())
	}
}

// refuses says whether admit would refuse a request for op with a body of
// size bytes now, without opening a measurement.
func (s *Share) refuses(op string, size int, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	now = now.Round(0)
	return s.classes.IsCostly(costclass.Of(op, size), size) && s.tokens <= 0 && s.contended(now)
}

// end marks the end of the call o at now. If the clock moved while o ran
// last, that is the rest of its cost; if it stood still, the next task's
// start measures it.
func (s *Share) end(o *openCall, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now = now.Round(0)
	o.ended = true
	if s.open != o {
		// It ran last before another call began, and nothing told of its
		// resumption: what it spent since is another's, and its own cost
		// is unknown.
		return
	}
	if now.After(o.start) {
		s.measure(now, true)
		s.settle()
	}
}

type othersKey struct{}

// WithOthers returns a context that tells the share how many other
// requests were in flight in the single-threaded instance serving this one,
// or reached it since its previous call began (the worker's glue counts
// them): costly work is limited only while others compete for the
// instance.
func WithOthers(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, othersKey{}, n)
}

func othersOf(ctx context.Context) int {
	n, _ := ctx.Value(othersKey{}).(int)
	return n
}
