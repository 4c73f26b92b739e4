package main

import (
	"runtime/metrics"
	"testing"
	"time"

	"github.com/subplay/subplay/core/playground/hostile"
	"github.com/subplay/subplay/internal/golden"
)

// BenchmarkHostile measures every hostile case through the bridge, the
// page worker's path: natively, and as js/wasm in Node, whose V8 is the
// one Chromium runs the page's module in (scripts/hostile --wasm runs both
// and prints them side by side). Metrics per request:
//   - cpu-ms/op: the process's CPU time. Under js/wasm Go has no CPU clock,
//     so it is Node's (process.cpuUsage: the wasm code, V8's compiler and
//     GC threads); on a loaded machine it says far more than the wall
//     clock, which mostly measures the neighbours.
//   - peak-MB: the live heap's highest sample (a lower bound under
//     js/wasm, where the sampler runs only when the request yields).
//   - mem-MB: the memory the Go runtime holds from the system after the
//     case; under js/wasm that is the instance's linear memory, which only
//     grows, so it is the high-water mark of every case run so far in
//     this process, and a case that raises it needed that much.
//
// The contract corpus runs once first, unmeasured: the page's instance has
// answered ordinary requests before anyone pastes a hostile one, and V8
// compiles a function's code on its first calls, which would otherwise be
// charged to whichever case comes first. Then it runs the request the
// page's worker warms the engine with once it is idle (warmRequest), and
// waits settleTime with the instance idle, as it is while a person types:
// V8 optimises hot functions on other threads, and on this two-core
// machine that work, still going when the first case started, took a core
// from it (the first looping UDF's wall time was 2-3 times its time after a
// pause).
func BenchmarkHostile(b *testing.B) {
	for _, c := range golden.Cases(b) {
		invoke(c.Op, string(c.Request))
	}
	warm()
	time.Sleep(settleTime)
	total := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	for _, c := range hostile.V8Host() {
		b.Run(c.Name, func(b *testing.B) {
			req := string(c.Body())
			b.ReportAllocs()
			cpu0, node := nodeCPU()
			cost := hostile.Measure(func() {
				for b.Loop() {
					invoke(c.Op, req)
				}
			})
			cpu := cost.CPU
			if node {
				cpu1, _ := nodeCPU()
				cpu = cpu1 - cpu0
			}
			metrics.Read(total)
			b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(cost.Peak)/(1<<20), "peak-MB")
			b.ReportMetric(float64(total[0].Value.Uint64())/(1<<20), "mem-MB")
		})
	}
}
