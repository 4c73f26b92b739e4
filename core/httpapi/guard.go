package httpapi

import (
	"context"
	"crypto/sha256"
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
// a small request whose recent calls each took limits.HTTPCostlyMillis or
// more (see costClasses): a UDF that loops until its step budget stops it
// is a few hundred bytes.
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

// isCostly says whether a request k takes a slot of the large pool.
func (g *gate) isCostly(k costKey) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.classes.isCostly(k)
}

// record counts a request's time d toward what is known of its kind.
func (g *gate) record(k costKey, d time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.classes.add(k, d)
}

// acquire waits at most wait for the slots a request k needs. It returns
// the function that frees them and whether the operation counted as
// costly, or the reason it could not have them: ctx's error when the
// client went away, errBusy when the wait ran out.
func (g *gate) acquire(ctx context.Context, k costKey, wait time.Duration) (release func(), costly bool, err error) {
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
	if g.isCostly(k) {
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
	k := keyOf(op.Name, body)
	release, costly, err := h.gate.acquire(ctx, k, h.queueWait)
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
		defer func() { h.gate.record(k, time.Since(start)) }()
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
// large class), or a small request whose recent calls each took
// limits.WorkerCostlyMillis or more (see costClasses). A call's cost is the clock's advance while it runs. Cloudflare's
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

// costKey names a request for costClasses: its class and, for a body
// smaller than limits.HTTPLargeBody, a digest of the body.
type costKey struct {
	class costClass
	large bool    // the body has limits.HTTPLargeBody bytes or more
	sum   bodySum // zero for a large body: its size makes it costly
}

// bodySum is the first half of a body's SHA-256: a request sent again is
// known by it, and nobody can make an ordinary request's body share its
// sum with one of theirs.
type bodySum [16]byte

// keyOf is the key of a request for op with body.
func keyOf(op string, body []byte) costKey {
	k := sizeKey(op, len(body))
	if !k.large {
		full := sha256.Sum256(body)
		copy(k.sum[:], full[:])
	}
	return k
}

// sizeKey is the key of a request for op with a body of size bytes not yet
// read: its class alone.
func sizeKey(op string, size int) costKey {
	return costKey{class: classOf(op, size), large: size >= limits.HTTPLargeBody}
}

// costClasses keeps recent costs, for the native gate and the worker's
// share alike: of each class of request (operation and body size, to a
// power of two; the operations times the powers of two up to the body
// limit), and of each small body seen lately. A small request is costly
// when the body was seen before and its recent calls all were, or, for a
// body not seen, when its class's recent calls all were. The class alone
// could not tell a costly body from the ordinary ones its size class
// holds: a UDF that doubles a string until its allocation bound stops it
// is as long as an ordinary UDF validation, and sent again and again it
// was admitted every time, because the ordinary calls between kept the
// class cheap. Known by its body, it is costly from its second call on.
// (A body varied for every call is judged by its class, as before.)
type costClasses struct {
	costly time.Duration // a call at least this long is costly
	m      map[costClass]*classCost
	// bodies and older are the recent costs of small bodies, in two
	// generations: once bodies holds maxBodies, it becomes older and a
	// new one starts, and a body found in older moves to bodies. At most
	// twice maxBodies are kept, and those sent lately are never dropped.
	bodies, older map[costKey]*classCost
}

// maxBodies is how many bodies a generation of costClasses holds: the
// hostile corpus cycled whole sends 321 different bodies, all remembered
// by two generations.
const maxBodies = 256

func newCostClasses(costly time.Duration) costClasses {
	return costClasses{costly: costly, m: map[costClass]*classCost{}, bodies: map[costKey]*classCost{}}
}

// body returns what is known of the body of k, or nil.
func (cc *costClasses) body(k costKey) *classCost {
	if k.sum == (bodySum{}) {
		return nil
	}
	if c := cc.bodies[k]; c != nil {
		return c
	}
	c := cc.older[k]
	if c != nil {
		delete(cc.older, k)
		cc.keep(k, c)
	}
	return c
}

// keep adds the body of k, known as c, to the current generation.
func (cc *costClasses) keep(k costKey, c *classCost) {
	if len(cc.bodies) >= maxBodies {
		cc.older, cc.bodies = cc.bodies, make(map[costKey]*classCost, maxBodies)
	}
	cc.bodies[k] = c
}

// add counts a call of k that took d.
func (cc *costClasses) add(k costKey, d time.Duration) {
	c := cc.m[k.class]
	if c == nil {
		c = &classCost{}
		cc.m[k.class] = c
	}
	c.add(d)
	if k.sum == (bodySum{}) {
		return
	}
	b := cc.body(k)
	if b == nil {
		b = &classCost{}
		cc.keep(k, b)
	}
	b.add(d)
}

// isCostly says whether a request k is costly: a large body, a body whose
// recent calls all were, or an unknown body of a class whose recent calls
// all were.
func (cc *costClasses) isCostly(k costKey) bool {
	if k.large {
		return true
	}
	c := cc.body(k)
	if c == nil {
		c = cc.m[k.class]
	}
	return c != nil && c.cheapest() >= cc.costly
}

// classCost keeps the last few costs of a class or a body; it is costly
// when even the cheapest of them was. A machine that stalls now and then
// makes a cheap call look costly once, never every time.
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
	key   costKey
	start time.Time     // when it last began to run: its admission or its latest resumption
	spent time.Duration // its stretches measured before start
	// costly says it was costly when admitted; counted, that its time
	// counts toward costly work's share (costly, or found to take
	// classes.costly or more).
	costly, counted bool
	ended           bool // its operation returned: its key learns its cost once its last stretch is measured
	// unmeasured says a stretch of it went unmeasured: the clock stood
	// still while it ran and nothing else was waiting to tell its length
	// (see measure). Its cost is then unknown, and its key learns nothing
	// from it: counted as the part that was measured, often nothing, a
	// call alone taught a costly body that it was cheap.
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

// admit says whether a request k may run now, and if so opens its
// measurement and returns it (nil: refused).
func (s *share) admit(k costKey, now time.Time) *openCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	now = now.Round(0)
	costly := s.classes.isCostly(k)
	if costly && s.tokens <= 0 && s.contended(now) {
		return nil
	}
	s.measure(now, false)
	s.settle()
	s.open = &openCall{key: k, start: now, costly: costly}
	return s.open
}

// settle lets go of the open call if it has ended: its key learns its
// cost. One that has not (it paused) is measured again when it resumes.
func (s *share) settle() {
	if o := s.open; o != nil && o.ended && !o.unmeasured {
		s.classes.add(o.key, o.spent)
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
	return s.classes.isCostly(sizeKey(op, size)) && s.tokens <= 0 && s.contended(now)
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
