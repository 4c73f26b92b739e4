package hostile_test

import (
	"encoding/json"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/subplay/subplay/core/playground"
	"github.com/subplay/subplay/core/playground/hostile"
)

// The budgets issue 10 sets for each hostile class, generous for a noisy
// machine and far below what the bugs cost.
const (
	budgetTime  = 2 * time.Second
	budgetBytes = 200 << 20
)

func schemaCases() []hostile.Case {
	var out []hostile.Case
	for _, c := range hostile.Cases() {
		if strings.HasPrefix(c.Name, "schema-") {
			out = append(out, c)
		}
	}
	return out
}

// TestSchemaCases runs every schema case through the contract: an answer
// (never an internal error), within the budgets. The shared corpus test
// runs the same cases through every entry; this one keeps the schema
// packages honest on their own.
func TestSchemaCases(t *testing.T) {
	for _, c := range schemaCases() {
		t.Run(c.Name, func(t *testing.T) {
			body := c.Body()
			runtime.GC()
			peak, stop := watchHeap()
			start := cpuTime()
			out, ok := playground.Call(c.Op, body)
			took := cpuTime() - start
			stop()
			if !ok {
				var e playground.ErrorResponse
				if json.Unmarshal(out, &e) != nil || e.Error == nil || e.Error.Code == "internal" {
					t.Fatalf("failed: %.300s", out)
				}
			}
			if *peak > budgetBytes {
				t.Errorf("the heap reached %d MB, over the %d MB budget", *peak>>20, budgetBytes>>20)
			}
			if took > budgetTime {
				t.Errorf("took %v of CPU, over the %v budget", took, budgetTime)
			}
			if len(out) > 64<<20 {
				t.Errorf("the answer is %d MB", len(out)>>20)
			}
		})
	}
}

// watchHeap samples the live heap every millisecond until stop is called,
// and keeps the highest value seen: what a call costs in memory, where the
// total allocated would count garbage collected long before the peak.
func watchHeap() (peak *uint64, stop func()) {
	peak = new(uint64)
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() {
		metrics.Read(sample)
		*peak = max(*peak, sample[0].Value.Uint64())
	}
	read()
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				read()
				return
			case <-tick.C:
				read()
			}
		}
	}()
	return peak, func() { close(done); <-finished }
}

// BenchmarkSchemaCases prints time and memory for each schema case:
// go test -run '^$' -bench . -benchmem ./core/playground/hostile/
func BenchmarkSchemaCases(b *testing.B) {
	for _, c := range schemaCases() {
		body := c.Body()
		b.Run(c.Name, func(b *testing.B) {
			for b.Loop() {
				playground.Call(c.Op, body)
			}
		})
	}
}
