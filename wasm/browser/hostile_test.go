package main

import (
	"encoding/json"
	"runtime"
	"testing"
	"time"

	"github.com/subplay/subplay/core/playground/hostile"
)

// TestHostile runs every hostile case through the bridge, as the page's
// worker calls it (scripts/test-site runs this as js/wasm under Node): the
// instance must answer each with JSON, never exit, and stay in budget.
// Under js/wasm the CPU clock is Node's (process.cpuUsage), and memory is
// held by what a case grows the instance to (hostile.Cost.Mapped).
// Natively, with -short, it leaves the corpus to core/playground's
// TestHostile: scripts/test runs it once natively and once here as js/wasm.
func TestHostile(t *testing.T) {
	clock := hostile.ProcessCPU
	if _, ok := nodeCPU(); ok {
		clock = func() time.Duration { d, _ := nodeCPU(); return d }
	} else if runtime.GOARCH == "wasm" {
		t.Fatal("no CPU clock under js/wasm (Node's process.cpuUsage is missing): the CPU budget could not trip")
	} else if testing.Short() {
		t.Skip("SKIPPED natively with -short: core/playground's TestHostile runs the corpus natively; scripts/test --full runs it here too")
	}
	for _, c := range hostile.V8Host() {
		t.Run(c.Name, func(t *testing.T) {
			req := string(c.Body())
			var body string
			var ok bool
			cost := hostile.MeasureCPU(clock, func() { body, ok = invoke(c.Op, req) })
			if len(body) > hostile.BudgetOutput {
				t.Errorf("response is %d bytes", len(body))
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(body), &m); err != nil {
				t.Fatalf("response is not JSON: %v", err)
			}
			if e, _ := m["error"].(map[string]any); !ok && (e == nil || e["code"] == "internal") {
				t.Fatalf("error response %.300s", body)
			}
			for _, o := range cost.Over() {
				t.Error(o)
			}
		})
	}
}
