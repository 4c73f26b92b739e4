package admit

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/subplay/subplay/core/costclass"
	"github.com/subplay/subplay/core/httpapi"
	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/playground"
)

// slowCall is the ms a small class's calls take in the share tests:
// costly, and 0.35 of the allowance saved up, so that three fit in it with
// what a tenth to a quarter gives back during them, and four do not.
func slowCall() int {
	return max(limits.WorkerCostlyMillis, 7*limits.WorkerCostlyBurstMillis/20)
}

// TestShare replays sequences of calls at given times (as the worker's
// clock reads them: the start of each call) and checks which the share
// admits.
func TestShare(t *testing.T) {
	large := limits.HTTPLargeBody
	costly := limits.WorkerCostlyMillis
	burst := limits.WorkerCostlyBurstMillis
	window := limits.WorkerContendedMillis
	share := limits.WorkerCostlyShare
	// The sequences hold at a share between a tenth and a quarter: the
	// allowance a costly call of 2 bursts leaves short, and the time a
	// small class's calls take (costly, and 0.35 of the burst: three fit
	// in the burst and what the share gives back, four do not).
	short := float64(burst) * (1 - 2*share)
	slow := slowCall()
	type call struct {
		at     int // ms since the first call
		op     string
		size   int
		others int // other requests in flight, or arrived since the previous call
		admit  bool
		took   int // ms the clock moved during the call; 0: it stood still (Cloudflare)
	}
	tests := []struct {
		name  string
		calls []call
	}{
		{"a small request is never refused, however costly large ones were", []call{
			{0, "validate", large, 0, true, 0},
			{5 * burst, "validate", 500, 3, true, 0}, // the large call cost 5 bursts
			{5*burst + 1, "validate", 500, 1, true, 0},
			{5*burst + 2, "validate", large, 1, false, 0},
		}},
		{"a client alone is never refused", []call{
			{0, "validate", large, 0, true, 5 * burst},
			{5 * burst, "validate", large, 0, true, 5 * burst},
			{10 * burst, "validate", large, 0, true, 0},
			{15 * burst, "validate", large, 0, true, 0},
		}},
		{"costly work gets its share back as time passes", []call{
			{0, "schema", large, 0, true, 0},
			{2 * burst, "validate", 500, 2, true, 0}, // the large call cost 2 bursts: short of the allowance
			{2*burst + 1, "schema", large, 1, false, 0},
			{2*burst + 1 + burst, "schema", large, 1, false, 0},           // a burst's time gives back less than short
			{2*burst + 2 + int(short/share), "schema", large, 1, true, 0}, // a little allowance left
		}},
		{"the limit ends when the contention does", []call{
			{0, "schema", large, 0, true, 0},
			{5 * burst, "validate", 500, 2, true, 0}, // the allowance short by seconds
			{5*burst + 1, "schema", large, 0, false, 0},
			{5*burst + window + 1, "schema", large, 0, true, 0}, // still short, but nobody else is there
		}},
		{"a clock that moves measures a call by its end", []call{
			// 3 s of work, then 3 s idle: -2 s, not the -5 s that the gap
			// to the next call would say.
			{0, "schema", large, 1, true, 3 * burst},
			{6 * burst, "schema", large, 1, false, 0},                      // -2 s + the share of 6 s
			{int(float64(2*burst)/share) + 2, "schema", large, 1, true, 0}, // the 2 s given back
		}},
		{"a small class whose calls were costly becomes costly", []call{
			// Each schema call takes slow (0.35 s), each validate call
			// almost nothing: the burst (1 s) less four calls (1.4 s) plus
			// the share of the time (0.14-0.35 s) leaves less than nothing.
			{0, "schema", 2400, 0, true, 0},
			{slow, "validate", 500, 1, true, 0},
			{slow + 1, "schema", 2400, 0, true, 0},
			{2*slow + 1, "validate", 500, 1, true, 0},
			{2*slow + 2, "schema", 2400, 0, true, 0},
			{3*slow + 2, "validate", 500, 1, true, 0},
			{3*slow + 3, "schema", 2400, 0, true, 0},
			{4*slow + 3, "validate", 500, 1, true, 0},
			{4*slow + 4, "schema", 2400, 0, false, 0},
			{4*slow + 5, "schema", 4800, 0, true, 0}, // another class, not yet known
		}},
		{"one slow call does not make a cheap class costly", []call{
			{0, "validate", 500, 0, true, 0},
			{3, "validate", 500, 1, true, 0},
			{3 + 5*costly, "validate", 500, 1, true, 0}, // this one took 5x costly (a stalled machine)
			{6 + 5*costly, "validate", 500, 1, true, 0},
			{9 + 5*costly, "validate", 500, 1, true, 0},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewShare()
			t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
			for i, c := range tc.calls {
				now := t0.Add(time.Duration(c.at) * time.Millisecond)
				s.begin(now, c.others)
				o := s.admit(c.op, c.size, now)
				if got := o != nil; got != c.admit {
					t.Errorf("call %d (%s, %d bytes, at %d ms, %d others): admitted %v, want %v (tokens %v)",
						i, c.op, c.size, c.at, c.others, got, c.admit, s.tokens)
				}
				if o != nil {
					s.end(o, now.Add(time.Duration(c.took)*time.Millisecond))
				}
			}
		})
	}
}

// busyHandler returns the API handler with a share whose allowance is
// spent and is not given back during the test, contended.
func busyHandler() (http.Handler, *Share) {
	s := NewShare()
	h := httpapi.Handler(httpapi.WithAdmission(s))
	return h, s
}

func spend(s *Share) {
	s.tokens = -time.Second
	s.refilled = time.Now().Add(time.Hour) // no refill during the test
}

func errorCode(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	var e playground.ErrorResponse
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error == nil {
		t.Fatalf("status %d, not a JSON error: %s", rec.Code, rec.Body)
	}
	return e.Error.Code
}

// A request the share refuses is answered 503 busy with a Retry-After, as
// the native server answers when its slots are taken; a small one is
// answered as ever.
func TestShareAnswersBusy(t *testing.T) {
	h, s := busyHandler()
	largeBody := `{}` + strings.Repeat(" ", limits.HTTPLargeBody)
	tests := []struct {
		name   string
		body   string
		status int
	}{
		{"large", largeBody, http.StatusServiceUnavailable},
		{"small", `{}`, http.StatusOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spend(s)
			req := httptest.NewRequest(http.MethodPost, "/v1/version", strings.NewReader(tc.body)).WithContext(WithOthers(context.Background(), 1))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d; body %s", rec.Code, tc.status, rec.Body)
			}
			if tc.status == http.StatusServiceUnavailable {
				if code := errorCode(t, rec); code != "busy" {
					t.Errorf("code %q, want %q", code, "busy")
				}
				if got := rec.Header().Get("Retry-After"); got != "1" {
					t.Errorf("Retry-After = %q, want 1", got)
				}
			}
		})
	}
}

// httpapi.Refuse answers a large declared body 503 busy before it is read,
// exactly when the share would refuse it, and leaves every other request
// alone.
func TestRefuseBeforeTheBody(t *testing.T) {
	h, s := busyHandler()
	tests := []struct {
		name, method, path string
		length             int64
		refused            bool
	}{
		{"a large body while costly work is over its share", http.MethodPost, "/v1/validate", limits.HTTPLargeBody, true},
		{"a small body", http.MethodPost, "/v1/validate", 100, false},
		{"an unknown length", http.MethodPost, "/v1/validate", -1, false},
		{"over the body limit (413 later)", http.MethodPost, "/v1/validate", httpapi.MaxBody + 1, false},
		{"no operation", http.MethodPost, "/v1/no-such-op", limits.HTTPLargeBody, false},
		{"not the API", http.MethodPost, "/healthz", limits.HTTPLargeBody, false},
		{"not a POST", http.MethodGet, "/v1/version", limits.HTTPLargeBody, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spend(s)
			req := httptest.NewRequest(tc.method, tc.path, nil).WithContext(WithOthers(context.Background(), 1))
			req.ContentLength = tc.length
			rec := httptest.NewRecorder()
			if got := httpapi.Refuse(h, rec, req); got != tc.refused {
				t.Fatalf("Refuse = %v, want %v", got, tc.refused)
			}
			if !tc.refused {
				if rec.Body.Len() != 0 {
					t.Errorf("wrote %q for a request it did not refuse", rec.Body)
				}
				return
			}
			if rec.Code != http.StatusServiceUnavailable || errorCode(t, rec) != "busy" || rec.Header().Get("Retry-After") != "1" {
				t.Errorf("status %d, Retry-After %q, body %s; want 503 busy with Retry-After 1", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
			}
		})
	}
}

// TestShareCarriedOver checks what a fresh instance of the worker inherits
// from the one it succeeds (ShareState, RestoreShare): the allowance spent,
// the classes learnt and the costly call still being measured, so that it
// refuses what the retired one would have refused; a fresh share would
// admit it. Malformed state is refused whole and leaves the share alone.
func TestShareCarriedOver(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	old := NewShare()
	// A small class made costly by four slow calls (0.35 s each), the
	// last one left open, as a clock that stood still leaves the call that
	// retired the instance: its cost is measured by the next call's start,
	// which finds the allowance spent (1 s - 1.4 s + the share of 1.4 s,
	// at a share of a tenth to a quarter).
	slow := slowCall()
	for i := range 4 {
		start := at(i * slow)
		old.begin(start, 1)
		o := old.admit("schema", 2400, start)
		if o == nil {
			t.Fatalf("call %d refused by the old share (tokens %v)", i, old.tokens)
		}
		old.end(o, start) // measured by the next start
	}
	state := old.State()
	if state == nil {
		t.Fatal("no state from the share")
	}
	next := at(4*slow + 1)
	fresh := NewShare()
	fresh.begin(next, 1)
	if fresh.admit("schema", 2400, next) == nil {
		t.Fatal("a fresh share refused the call; the test proves nothing")
	}
	carried := NewShare()
	if err := carried.Restore(state); err != nil {
		t.Fatal(err)
	}
	carried.begin(next, 1)
	if carried.admit("schema", 2400, next) != nil {
		t.Errorf("the carried-over share admitted a call the old one would refuse (tokens %v)", carried.tokens)
	}
	old.begin(next, 1)
	if old.admit("schema", 2400, next) != nil {
		t.Errorf("the old share admitted the call too: the test's sequence is wrong (tokens %v)", old.tokens)
	}

	for _, bad := range []string{`{`, `{"classes":[{"op":"schema","sizeBits":-1,"n":1}]}`, `{"tokens":"x"}`} {
		s := NewShare()
		tokens := s.tokens
		if err := s.Restore([]byte(bad)); err == nil {
			t.Errorf("Restore(%s) accepted it", bad)
		}
		if s.tokens != tokens || s.classes.Len() != 0 {
			t.Errorf("Restore(%s) changed the share", bad)
		}
	}
}

// TestSharePausedCall: a costly call that pauses, with ordinary calls run
// in its pauses, spends the share for every stretch it runs, as the
// starts of the tasks after them measure them (the clock stands still
// while code runs), not only for the stretch before the first ordinary
// call began; the ordinary calls' class learns their own time, not the
// costly call's next stretch.
func TestSharePausedCall(t *testing.T) {
	t0 := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	s := NewShare()
	s.begin(at(0), 1)
	p := s.admit("filter", limits.HTTPLargeBody, at(0))
	if p == nil {
		t.Fatal("the first costly call was refused")
	}
	// 20 stretches of 100 ms, each followed by an ordinary call of 5 ms
	// in the pause: 2 s of costly work in 2.1 s.
	ms := 0
	for range 20 {
		ms += 100
		s.begin(at(ms), 1)
		o := s.admit("validate", 500, at(ms))
		if o == nil {
			t.Fatalf("an ordinary call was refused at %d ms", ms)
		}
		s.end(o, at(ms))
		ms += 5
		s.resume(p, at(ms))
	}
	s.end(p, at(ms))
	s.begin(at(ms+1), 1)
	// Its last stretch ended as the clock stood still: the next task's
	// start, 1 ms later, measures it.
	if got, want := p.spent, 2*time.Second+time.Millisecond; got != want {
		t.Errorf("the costly call spent %v, want %v", got, want)
	}
	// The burst (1 s) less 2 s of costly work plus a tenth of 2.1 s.
	if s.admit("filter", limits.HTTPLargeBody, at(ms+1)) != nil {
		t.Errorf("after 2 s of costly work in 2.1 s a costly call was admitted (tokens %v)", s.tokens)
	}
	if got, want := cheapest(s, "validate", 500), 5*time.Millisecond; got != want {
		t.Errorf("the ordinary class learnt %v, want %v", got, want)
	}
	if got, want := cheapest(s, "filter", limits.HTTPLargeBody), p.spent; got != want {
		t.Errorf("the costly class learnt %v, want %v", got, want)
	}
}

// TestResumedReachesTheShare: the context Admit gives a call is what
// Resumed needs, so that the pauser's word reaches the share; the handler
// runs the call with that context (core/httpapi's
// TestAdmissionRunsTheCall).
func TestResumedReachesTheShare(t *testing.T) {
	s := NewShare()
	ctx, done, ok := s.Admit(context.Background(), "validate", 2)
	if !ok {
		t.Fatal("a small call was refused")
	}
	o := s.open
	s.open = nil // as if another call had begun in a pause
	Resumed(ctx)
	if s.open != o {
		t.Error("Resumed did not make the call the share's open one again")
	}
	done()
	if !o.ended {
		t.Error("done did not end the call")
	}
	Resumed(context.Background()) // no call: nothing happens
}

// TestLoneCallTeachesNothing: a call that ran alone, with the clock
// standing still and nothing waiting to tell its length, leaves what its
// class cost as it was; counted as nothing, as before, it made a costly
// class cheap for its next four calls.
func TestLoneCallTeachesNothing(t *testing.T) {
	t0 := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	const op, size = "transform", 300
	s := NewShare()
	s.begin(at(0), 1)
	o := s.admit(op, size, at(0))
	s.end(o, at(limits.WorkerCostlyBurstMillis)) // the clock moved: measured whole
	if !s.classes.IsCostly(costclass.Of(op, size), size) {
		t.Fatal("the class is not costly after a costly call; the test proves nothing")
	}
	alone := limits.WorkerCostlyBurstMillis + 10*limits.WorkerContendedMillis
	s.begin(at(alone), 0)
	o = s.admit(op, size, at(alone))
	if o == nil {
		t.Fatal("a call alone was refused")
	}
	s.end(o, at(alone))       // the clock stood still
	s.begin(at(alone+500), 0) // nothing waited: its length is unknown
	s.begin(at(alone+501), 1) // and stays unknown
	if !s.classes.IsCostly(costclass.Of(op, size), size) {
		c, _ := s.classes.Get(costclass.Of(op, size))
		t.Errorf("a call alone taught its class it was cheap: %v", c.Recent)
	}
}

func cheapest(s *Share, op string, size int) time.Duration {
	c, _ := s.classes.Get(costclass.Of(op, size))
	return c.Cheapest()
}
