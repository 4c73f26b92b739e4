package main

import (
	"encoding/json"
	"testing"

	"github.com/subplay/subplay/core/playground/hostile"
)

// TestHostile runs every hostile case through the bridge, as the page's
// worker calls it (scripts/test-site runs this as js/wasm under Node): the
// instance must answer each with JSON, never exit, and stay in budget.
// Under js/wasm there is no CPU clock, so time is held to the wide
// wall-clock bound only.
func TestHostile(t *testing.T) {
	for _, c := range hostile.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			req := string(c.Body())
			var body string
			var ok bool
			cost := hostile.Measure(func() { body, ok = invoke(c.Op, req) })
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
