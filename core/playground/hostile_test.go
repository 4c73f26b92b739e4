package playground_test

import (
	"context"
	"encoding/json"
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/playground"
	"github.com/subplay/subplay/core/playground/hostile"
	"github.com/subplay/subplay/core/stop"
)

// TestHostile runs every hostile case through the contract: no panic, a
// well-formed JSON response that is not an internal error, and cost within
// the budgets.
func TestHostile(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("SKIPPED under js/wasm: this process has no CPU clock there and the heap sampler cannot run during a call, so the budgets could not trip; wasm/browser's TestHostile runs the corpus as js/wasm with Node's CPU clock and the instance's memory")
	}
	for _, c := range hostile.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			body := c.Body()
			var out []byte
			var ok bool
			cost := hostile.Measure(func() { out, ok = playground.Call(c.Op, body) })
			checkHostileResponse(t, out, ok)
			for _, o := range cost.Over() {
				t.Error(o)
			}
		})
	}
}

// checkHostileResponse checks the shape every entry must give a hostile
// request: JSON, bounded, and either a response or an error that is the
// request's fault.
func checkHostileResponse(t *testing.T, out []byte, ok bool) {
	t.Helper()
	if len(out) > hostile.BudgetOutput {
		t.Errorf("response is %d bytes, more than %d", len(out), hostile.BudgetOutput)
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("response is not JSON: %v", err)
	}
	if !ok {
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] == "internal" || e["message"] == "" {
			t.Fatalf("error response %.300s", out)
		}
	}
}

// BenchmarkHostile measures every hostile case natively: time, the live
// heap's peak and bytes allocated per request (go test -run '^$' -bench Hostile -benchmem
// ./core/playground/), and hold-ms, the longest stretch of a request
// without a pause where the worker would pause (every
// limits.WorkerPauseLooks of core/stop's looks): how long, natively, the
// case would keep every other request of a worker's isolate waiting; in
// workerd it is several times longer. Over several requests (-benchtime),
// the least of their longest stretches.
func BenchmarkHostile(b *testing.B) {
	var last time.Time
	var longest time.Duration
	looks := 0
	paused := stop.WithPause(context.Background(), func(_ context.Context, heavy bool) {
		if !heavy {
			if looks++; looks%limits.WorkerPauseLooks != 0 {
				return
			}
		}
		now := time.Now()
		longest = max(longest, now.Sub(last))
		last = now
	})
	for _, c := range hostile.Cases() {
		b.Run(c.Name, func(b *testing.B) {
			body := c.Body()
			b.ReportAllocs()
			hold := time.Duration(math.MaxInt64)
			cost := hostile.Measure(func() {
				for b.Loop() {
					longest, last = 0, time.Now()
					playground.CallContext(paused, c.Op, body)
					hold = min(hold, max(longest, time.Since(last)))
				}
			})
			b.ReportMetric(float64(cost.CPU.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(cost.Peak)/(1<<20), "peak-MB")
			b.ReportMetric(float64(hold.Microseconds())/1e3, "hold-ms")
		})
	}
}

// TestV8UnboundedList checks that every case the V8-host suites leave out
// (hostile/testdata/v8-unbounded.txt) is a case of the corpus, so that a
// renamed case is not silently dropped from them.
func TestV8UnboundedList(t *testing.T) {
	names := map[string]bool{}
	for _, c := range hostile.Cases() {
		names[c.Name] = true
	}
	for n := range hostile.V8Unbounded() {
		if !names[n] {
			t.Errorf("v8-unbounded.txt names %s, which is not a case of the corpus", n)
		}
	}
	if len(hostile.V8Host())+len(hostile.V8Unbounded()) != len(hostile.Cases()) {
		t.Errorf("V8Host and V8Unbounded do not split the corpus")
	}
}
