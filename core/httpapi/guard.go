package httpapi

import (
	"context"
	"fmt"
	"math/bits"
	"net/http"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

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
	classes costClasses
}

func newGate(procs int) *gate {
	procs = max(procs, 1)
	return &gate{
		all:     make(chan struct{}, procs*limits.HTTPOpsPerCPU),
		large:   make(chan struct{}, max(1, int(float64(procs)*limits.HTTPLargeOpsPerCPU))),
		classes: newCostClasses(limits.HTTPCostlyMillis * time.Millisecond),
	}
}

// defaultGate sizes the gate from the CPUs the Go runtime uses.
func defaultGate() *gate { return newGate(runtime.GOMAXPROCS(0)) }

// isCostly says whether an operation op on a body of size bytes takes a
// slot of the large pool.
func (g *gate) isCostly(op string, size int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.classes.isCostly(classOf(op, size), size)
}

// record counts an operation's time d toward its class.
func (g *gate) record(op string, size int, d time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.classes.add(classOf(op, size), d)
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

// share bounds the time that costly requests take from a server that runs
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
// large class), or a request of a class (operation and body size, to a
// power of two) whose recent calls each took limits.WorkerCostlyMillis or
// more. A call's cost is the clock's advance while it runs. Cloudflare's
// clock stands still while code runs (a defence against timing attacks),
// so there each stretch of a call is read at the start of the isolate's
// next task instead, and only while contended: queued requests start as
// soon as the call ends or pauses, whereas the gap after a call alone may
// be idle time. A long call pauses (wasm/worker's pauser) and others run
// in its pauses: each of its stretches, from its admission or a
// resumption (Resumed) to the next task's start, is its own, and a costly
// call spends the share for all of them, not only for its first.
type share struct {
	mu       sync.Mutex    // calls are sequential in the worker; tests may not be
	frac     float64       // the share of time costly work may take
	burst    time.Duration // the most costly time saved up
	maxCost  time.Duration // no call counts longer (the time limit of one)
	window   time.Duration // contended for this long after others were in flight
	tokens   time.Duration // costly time that may run now
	refilled time.Time
	busy     time.Time   // when others were last in flight at once
	classes  costClasses // a call at least classes.costly long is costly
	open     *openCall   // the call whose code ran last: the next task's start measures it
}

type costClass struct {
	op       string
	sizeBits int // bits.Len of the body size: classes by powers of two
}

func classOf(op string, size int) costClass { return costClass{op, bits.Len(uint(size))} }

// costClasses keeps the recent costs of each request class, for the native
// gate and the worker's share alike. The classes are few (the operations
// times the powers of two up to the body limit).
type costClasses struct {
	costly time.Duration // a call at least this long is costly
	m      map[costClass]*classCost
}

func newCostClasses(costly time.Duration) costClasses {
	return costClasses{costly: costly, m: map[costClass]*classCost{}}
}

func (cc costClasses) add(class costClass, d time.Duration) {
	c := cc.m[class]
	if c == nil {
		c = &classCost{}
		cc.m[class] = c
	}
	c.add(d)
}

// isCostly says whether a request of class with a body of size bytes is
// costly: a large body, or a class whose recent calls all were.
func (cc costClasses) isCostly(class costClass, size int) bool {
	if size >= limits.HTTPLargeBody {
		return true
	}
	c := cc.m[class]
	return c != nil && c.cheapest() >= cc.costly
}

// classCost keeps a class's last few costs; a class is costly when even
// the cheapest of them was. A machine that stalls now and then makes a
// cheap call look costly once, never every time.
type classCost struct {
	recent [4]time.Duration
	n      int
}

func (c *classCost) add(d time.Duration) {
	c.recent[c.n%len(c.recent)] = d
	c.n++
}

func (c *classCost) cheapest() time.Duration {
	low := c.recent[0]
	for _, d := range c.recent[1:min(c.n, len(c.recent))] {
		low = min(low, d)
	}
	return low
}

// openCall is one admitted call as the share measures it.
type openCall struct {
	class costClass
	start time.Time     // when it last began to run: its admission or its latest resumption
	spent time.Duration // its stretches measured before start
	// costly says it was costly when admitted; counted, that its time
	// counts toward costly work's share (costly, or found to take
	// classes.costly or more).
	costly, counted bool
	ended           bool // its operation returned: its class learns its cost once its last stretch is measured
	// unmeasured says a stretch of it went unmeasured: the clock stood
	// still while it ran and nothing else was waiting to tell its length
	// (see measure). Its cost is then unknown, and its class learns
	// nothing from it: counted as the part that was measured, often
	// nothing, a call alone taught a costly class that it was cheap.
	unmeasured bool
}

func newShare() *share {
	return &share{
		frac:    limits.WorkerCostlyShare,
		burst:   limits.WorkerCostlyBurstMillis * time.Millisecond,
		maxCost: limits.HTTPOperationMillis * time.Millisecond,
		window:  limits.WorkerContendedMillis * time.Millisecond,
		tokens:  limits.WorkerCostlyBurstMillis * time.Millisecond,
		classes: newCostClasses(limits.WorkerCostlyMillis * time.Millisecond),
	}
}

func (s *share) contended(now time.Time) bool {
	return !s.busy.IsZero() && now.Sub(s.busy) < s.window
}

// begin marks the start of a JavaScript task at now that begins a
// request, others being how many other requests were in flight in the
// server, or reached it since the previous call began. The call that ran
// last is measured up to now. Costly time is given back at the share's
// rate.
func (s *share) begin(now time.Time, others int) {
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
func (s *share) measure(now time.Time, exact bool) {
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
	case o.costly || o.spent >= s.classes.costly:
		o.counted = true
		s.tokens -= o.spent
	}
}

// admit says whether a request for op with a body of size bytes may run
// now, and if so opens its measurement and returns it (nil: refused).
func (s *share) admit(op string, size int, now time.Time) *openCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	now = now.Round(0)
	class := classOf(op, size)
	costly := s.classes.isCostly(class, size)
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
func (s *share) settle() {
	if o := s.open; o != nil && o.ended && !o.unmeasured {
		s.classes.add(o.class, o.spent)
	}
	s.open = nil
}

// resume marks that the call o runs again at now, after a pause in which
// other tasks may have run: what ran last is measured up to now, and o's
// next stretch starts.
func (s *share) resume(o *openCall, now time.Time) {
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
	s *share
	o *openCall
}

type callRefKey struct{}

// Resumed tells the share of the handler whose call ctx is that the call
// runs again after a pause (wasm/worker's pauser calls it as each pause
// ends); for any other context it does nothing. Without it a paused call's
// later stretches were measured as the time of whatever call began in its
// pause, and a long costly call spent the share only for its first one.
func Resumed(ctx context.Context) {
	if r, ok := ctx.Value(callRefKey{}).(callRef); ok {
		r.s.resume(r.o, time.Now())
	}
}

// refuses says whether admit would refuse a request for op with a body of
// size bytes now, without opening a measurement.
func (s *share) refuses(op string, size int, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	now = now.Round(0)
	return s.classes.isCostly(classOf(op, size), size) && s.tokens <= 0 && s.contended(now)
}

// Refuse answers r 503 "busy", as the handler h would, if h limits costly
// work (the worker: see share) and would refuse r now by its declared
// Content-Length and path, and says whether it did. The worker's glue asks
// before it reads a large body, so that a refused one is never read: a
// stream of refused megabyte requests then costs neither the isolate's
// time nor its memory.
func Refuse(h http.Handler, w http.ResponseWriter, r *http.Request) bool {
	hh, ok := h.(*handler)
	if !ok || hh.share == nil || r.Method != http.MethodPost || r.ContentLength < 0 {
		return false
	}
	op := playground.Lookup(strings.TrimPrefix(r.URL.Path, "/v1/"))
	if op == nil || !strings.HasPrefix(r.URL.Path, "/v1/") || r.ContentLength > MaxBody {
		return false
	}
	now := time.Now()
	hh.share.begin(now, othersOf(r.Context()))
	if !hh.share.refuses(op.Name, int(r.ContentLength), now) {
		return false
	}
	setCORS(w.Header())
	w.Header().Set("Retry-After", strconv.Itoa(limits.HTTPRetryAfterSeconds))
	writeError(w, r, http.StatusServiceUnavailable, errServerBusy.Code, errServerBusy.Message)
	return true
}

// end marks the end of the call o at now. If the clock moved while o ran
// last, that is the rest of its cost; if it stood still, the next task's
// start measures it.
func (s *share) end(o *openCall, now time.Time) {
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

// WithOthers returns a context that tells the handler how many other
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
