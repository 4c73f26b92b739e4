package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// longNames is a valid names request whose stream makes a million files:
// about a million turns of the batcher's loop, each a look at the call's
// context every 32 (core/stop), so the worker pauses about a thousand
// times during it (every PauseEvery looks, wasm/worker/pause_js.go), while
// its body stays small, out of the worker's class of costly requests.
const longNames = `{"config":{"topic":"projects/p/topics/t","cloudStorageConfig":{"bucket":"b","maxBytes":"1000"}},` +
	`"stream":{"rate":1000,"size":1000,"duration":"1000s"}}`

// longNamesItems is how many turns of the loop longNames makes, about.
const longNamesItems = 1_000_000

// workerStats is the answer of the test bundle's /__test/pauses
// (wasm/worker/testhooks_js.go).
type workerStats struct {
	Calls, Running, Paused, Held, Cancelled, Pauses, LastPauses int
}

// pauseStats is the worker's answer to GET /__test/pauses.
func pauseStats(t *testing.T, tg *target) workerStats {
	t.Helper()
	r := tg.do(t, http.MethodGet, "/__test/pauses", nil, nil)
	var s workerStats
	if r.status != http.StatusOK || json.Unmarshal(r.body, &s) != nil {
		t.Fatalf("/__test/pauses: status %d, body %.300s", r.status, r.body)
	}
	return s
}

// TestWorkerdPause checks in workerd that a long call lets its isolate go
// on: it pauses in the middle of its work (wasm/worker/pause_js.go), an
// ordinary request sent while it is held in a pause is answered before
// it, and a client that disconnects during it stops it (workerd's
// request.signal, compatibility flag enable_request_signal), far short of
// its work. scripts/test-edge serves the test bundle (built with the
// subplay_testhooks tag) and sets SUBPLAY_EDGE_TESTHOOKS_URL. Nothing is
// timed: the test waits for what the worker reports, up to a bound that
// only a broken worker reaches.
func TestWorkerdPause(t *testing.T) {
	base := os.Getenv("SUBPLAY_EDGE_TESTHOOKS_URL")
	if base == "" {
		t.Skip("SUBPLAY_EDGE_TESTHOOKS_URL is not set; scripts/test-edge builds the test bundle, starts workerd and sets it")
	}
	tg := &target{base: strings.TrimSuffix(base, "/"), client: &http.Client{Transport: &http.Transport{}}}
	stats := func() workerStats {
		t.Helper()
		return pauseStats(t, tg)
	}
	// waitFor polls the worker until cond holds, or fails once a bound far
	// beyond any working run has passed (or ended, when it ends first).
	waitFor := func(what string, ended <-chan reply, cond func(workerStats) bool) workerStats {
		t.Helper()
		deadline := time.Now().Add(2 * time.Minute)
		for {
			s := stats()
			if cond(s) {
				return s
			}
			select {
			case r := <-ended:
				t.Fatalf("waiting for %s, the long call ended first: status %d, body %.300s; worker %+v", what, r.status, r.body, s)
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("waiting for %s: the worker reports %+v", what, s)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	// start sends longNames in the background; its reply arrives on the
	// channel (status 0 when the client gave up).
	start := func(ctx context.Context, client *http.Client) <-chan reply {
		ch := make(chan reply, 1)
		go func() {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, tg.base+"/v1/names", strings.NewReader(longNames))
			if err != nil {
				ch <- reply{}
				return
			}
			req.Header.Set("Content-Type", "application/json")
			resp, err := client.Do(req)
			if err != nil {
				ch <- reply{}
				return
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				ch <- reply{}
				return
			}
			ch <- reply{status: resp.StatusCode, body: b}
		}()
		return ch
	}
	// A client that gives up resets its connection: local workerd aborts
	// request.signal when the connection is reset, not when it is closed
	// in order (a FIN; measured with workerd 1.20261117.1), while
	// Cloudflare's front end cancels a request whose client has gone either
	// way. The linger of 0 makes Close send a reset.
	resetting := &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
			if tc, ok := c.(*net.TCPConn); ok {
				tc.SetLinger(0)
			}
			return c, err
		},
	}}
	ordinary := sample(t, "validate")
	wantOrdinary := tg.post(t, "/v1/validate", ordinary)
	if wantOrdinary.status != http.StatusOK {
		t.Fatalf("the ordinary request alone: status %d, body %.300s", wantOrdinary.status, wantOrdinary.body)
	}

	// A long call alone pauses, and still answers in full.
	before := stats()
	full := tg.post(t, "/v1/names", longNames)
	if full.status != http.StatusOK || !strings.Contains(string(full.body), `"names":[`) {
		t.Fatalf("the long call alone: status %d, body %.300s", full.status, full.body)
	}
	after := stats()
	fullPauses := after.LastPauses
	if after.Pauses-before.Pauses < 2 || fullPauses < 2 {
		t.Fatalf("the long call paused %d times (the worker reports %+v); want a few, or nothing else could run during it",
			after.Pauses-before.Pauses, after)
	}
	t.Logf("the long call alone paused %d times", fullPauses)

	// An ordinary request while the long call is held in a pause: the
	// isolate answers it, and the long call is still inside Go.
	if r := tg.post(t, "/__test/hold", ""); r.status != http.StatusNoContent {
		t.Fatalf("/__test/hold: status %d, body %.300s", r.status, r.body)
	}
	long := start(context.Background(), tg.client)
	waitFor("the long call to be held in a pause", long, func(s workerStats) bool { return s.Held == 1 })
	got := tg.post(t, "/v1/validate", ordinary)
	if got.status != http.StatusOK || string(got.body) != string(wantOrdinary.body) {
		t.Errorf("the ordinary request during the long call: status %d, body %.300s; want its answer alone", got.status, got.body)
	}
	select {
	case r := <-long:
		t.Fatalf("the long call answered (status %d) before it was released", r.status)
	default:
	}
	if s := stats(); s.Held != 1 || s.Running != 1 {
		t.Errorf("after the ordinary answer the worker reports %+v; want the long call still held, alone inside Go", s)
	}
	if r := tg.post(t, "/__test/release", ""); r.status != http.StatusNoContent {
		t.Fatalf("/__test/release: status %d, body %.300s", r.status, r.body)
	}
	if r := <-long; r.status != http.StatusOK || !strings.Contains(string(r.body), `"names":[`) {
		t.Errorf("the long call, released: status %d, body %.300s", r.status, r.body)
	}

	// A client that disconnects while its call is held: the call stops
	// at its next look, answered "cancelled", long before its end.
	before = stats()
	if r := tg.post(t, "/__test/hold", ""); r.status != http.StatusNoContent {
		t.Fatalf("/__test/hold: status %d, body %.300s", r.status, r.body)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	long = start(ctx, resetting)
	waitFor("the long call to be held in a pause", long, func(s workerStats) bool { return s.Held == 1 })
	cancel()
	if r := <-long; r.status != 0 {
		t.Fatalf("the client gave up, yet got status %d", r.status)
	}
	s := waitFor("the abandoned call to end", nil, func(s workerStats) bool { return s.Running == 0 && s.Held == 0 })
	if s.Cancelled != before.Cancelled+1 {
		t.Errorf("the worker answered %d calls cancelled, want 1 (it reports %+v)", s.Cancelled-before.Cancelled, s)
	}
	// Each pause follows PauseEvery looks of 32 items: a call that
	// stopped at its first pause did a few thousand of the million.
	if s.LastPauses >= fullPauses/2 {
		t.Errorf("the abandoned call paused %d times, the whole call %d: it did not stop early", s.LastPauses, fullPauses)
	}
	t.Logf("the abandoned call stopped after %d pauses of the whole call's %d (about %d of %d items)",
		s.LastPauses, fullPauses, longNamesItems*s.LastPauses/fullPauses, longNamesItems)
	if r := tg.do(t, http.MethodGet, "/healthz", nil, nil); r.status != http.StatusOK {
		t.Errorf("/healthz after the cancelled call: status %d", r.status)
	}
}

// BenchmarkWorkerdPause measures what a pause costs in workerd: longNames
// with a pause every look (about 31,000 pauses), every PauseEvery looks
// (the deployed interval, about 1,000) and never. Against the test
// bundle (SUBPLAY_EDGE_TESTHOOKS_URL, scripts/edge-serve can serve
// dist/worker-testhooks), one request at a time:
//
//	SUBPLAY_EDGE_TESTHOOKS_URL=http://127.0.0.1:8787 go test -run '^$' -bench WorkerdPause -benchtime 5x ./core/httpapi
//
// A pause's cost is (ns/op of every-look - ns/op of never) / pauses/op of
// every-look.
func BenchmarkWorkerdPause(b *testing.B) {
	base := os.Getenv("SUBPLAY_EDGE_TESTHOOKS_URL")
	if base == "" {
		b.Skip("SUBPLAY_EDGE_TESTHOOKS_URL is not set")
	}
	base = strings.TrimSuffix(base, "/")
	do := func(method, path, body string) (int, []byte) {
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		out, err := io.ReadAll(resp.Body)
		if err != nil {
			b.Fatal(err)
		}
		return resp.StatusCode, out
	}
	pauses := func() int {
		status, body := do(http.MethodGet, "/__test/pauses", "")
		var s workerStats
		if status != http.StatusOK || json.Unmarshal(body, &s) != nil {
			b.Fatalf("/__test/pauses: status %d, body %.300s", status, body)
		}
		return s.Pauses
	}
	defer do(http.MethodPost, "/__test/pause-every", "")
	for _, bb := range []struct{ name, every string }{
		{"every-look", "1"}, {"deployed", ""}, {"never", "1000000000"},
	} {
		b.Run(bb.name, func(b *testing.B) {
			if status, body := do(http.MethodPost, "/__test/pause-every?n="+bb.every, ""); status != http.StatusNoContent {
				b.Fatalf("/__test/pause-every: status %d, body %.300s", status, body)
			}
			p0 := pauses()
			b.ResetTimer()
			for b.Loop() {
				if status, body := do(http.MethodPost, "/v1/names", longNames); status != http.StatusOK {
					b.Fatalf("status %d, body %.300s", status, body)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(pauses()-p0)/float64(b.N), "pauses/op")
		})
	}
}

// TestWorkerdBeside checks in workerd that the extra worker, which lets
// one request at a time into Go, still answers a short request while a
// long one holds the turn: a request of a kind whose recent calls were all
// short goes in beside the long call (wasm/worker/persistent.mjs,
// takeTurn). The long call is held in a pause (/__test/hold) for as long
// as the test needs, and the test's own requests (the look at the
// worker's counts, the validations, the release) must be answered
// meanwhile. A worker that queued them behind it would answer them only
// once the turn counts as lost (30 s, turnStaleMs): their bound of 20 s
// fails the test first (as it does against the glue before this, at the
// first look during the hold). scripts/test-edge sets
// SUBPLAY_EDGE_EXTRA_URL to the extra worker of the test bundles.
func TestWorkerdBeside(t *testing.T) {
	base := os.Getenv("SUBPLAY_EDGE_EXTRA_URL")
	if base == "" {
		t.Skip("SUBPLAY_EDGE_EXTRA_URL is not set; scripts/test-edge starts the test bundles and sets it")
	}
	tg := &target{base: strings.TrimSuffix(base, "/"), client: &http.Client{Transport: &http.Transport{}, Timeout: 2 * time.Minute}}
	// During the hold, every request but the long one gets 20 s.
	held := &target{base: tg.base, client: &http.Client{Transport: &http.Transport{}, Timeout: 20 * time.Second}}
	udf, err := os.ReadFile("../../wasm/worker/edgebench/testdata/validate-udf.json")
	if err != nil {
		t.Fatal(err)
	}
	// Each kind that must go beside is sent once alone first: the worker
	// learns from its answers which kinds are short.
	alone := tg.post(t, "/v1/validate", string(udf))
	if alone.status != http.StatusOK || !strings.Contains(string(alone.body), `"diagnostics"`) {
		t.Fatalf("the UDF validation alone: status %d, body %.300s", alone.status, alone.body)
	}
	pauseStats(t, tg)
	if r := tg.post(t, "/__test/release", ""); r.status != http.StatusNoContent {
		t.Fatalf("/__test/release: status %d, body %.300s", r.status, r.body)
	}
	if r := tg.post(t, "/__test/hold", ""); r.status != http.StatusNoContent {
		t.Fatalf("/__test/hold: status %d, body %.300s", r.status, r.body)
	}
	long := make(chan reply, 1)
	go func() {
		resp, err := (&http.Client{Transport: &http.Transport{}}).Post(tg.base+"/v1/names", "application/json", strings.NewReader(longNames))
		if err != nil {
			long <- reply{}
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		long <- reply{status: resp.StatusCode, body: b}
	}()
	deadline := time.Now().Add(2 * time.Minute)
	for s := pauseStats(t, held); s.Held != 1; s = pauseStats(t, held) {
		select {
		case r := <-long:
			t.Fatalf("the long call ended (status %d, body %.300s) before it was held", r.status, r.body)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for the long call to be held, the worker reports %+v", s)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for i := range 3 {
		got := held.post(t, "/v1/validate", string(udf))
		if got.status != http.StatusOK || string(got.body) != string(alone.body) {
			t.Errorf("UDF validation %d while the long call held the turn: status %d, body %.300s; want its answer alone", i, got.status, got.body)
		}
	}
	if s := pauseStats(t, held); s.Held != 1 {
		t.Errorf("after the short answers the worker reports %+v; want the long call still held", s)
	}
	select {
	case r := <-long:
		t.Fatalf("the long call answered (status %d) before it was released", r.status)
	default:
	}
	if r := held.post(t, "/__test/release", ""); r.status != http.StatusNoContent {
		t.Fatalf("/__test/release: status %d, body %.300s", r.status, r.body)
	}
	if r := <-long; r.status != http.StatusOK || !strings.Contains(string(r.body), `"names":[`) {
		t.Errorf("the long call, released: status %d, body %.300s", r.status, r.body)
	}
}
