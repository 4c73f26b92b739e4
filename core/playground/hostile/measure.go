package hostile

import (
	"runtime"
	"runtime/metrics"
	"time"
)

// The budgets every entry's test holds a case to. The goal is 1 s and
// 200 MB per class on a 2-core machine. Tests check CPU time, not the wall
// clock: a machine shared by several builds at once makes a wall-clock
// bound measure the neighbours. They allow twice the goal's second
// for what noise remains in CPU time (the GC's workers, a descheduled
// thread), and a wide wall-clock bound still catches a stall.
const (
	BudgetCPU  = 2 * time.Second
	BudgetWall = 20 * time.Second
	// BudgetHeap bounds the live heap's peak during a case: the memory a
	// request holds at once, which is what exhausts a server or a wasm
	// instance. Garbage made and collected on the way is reported (Alloc)
	// but not held to it.
	BudgetHeap = 200 << 20
	// BudgetOutput bounds a response or a command's output. Diagnostics are
	// capped, but a response holds a result for each of up to 10,000
	// sample messages (a few hundred bytes each), and a path may hold a key
	// of the request: linear in the request, and this bounds the factor.
	BudgetOutput = 8 << 20
)

// Cost is what running a case cost.
type Cost struct {
	Wall, CPU time.Duration
	// Alloc is the bytes allocated (runtime.MemStats.TotalAlloc's growth).
	Alloc uint64
	// Peak is the highest live heap seen, sampled every millisecond.
	Peak uint64
	// Mapped is the memory the Go runtime had mapped after the case, and
	// Grew whether the case made it larger. In js/wasm an instance's
	// memory only grows, so a case that grew it past BudgetHeap is what
	// exhausts the instance; there the heap sampler cannot run during a
	// call, and this is the bound that can trip.
	Mapped uint64
	Grew   bool
}

// Measure runs f and returns its cost, with the process's CPU time (user
// and system) from ProcessCPU, so callers run nothing else meanwhile; it is
// 0 where the platform does not say (js/wasm: see MeasureCPU).
func Measure(f func()) Cost { return MeasureCPU(ProcessCPU, f) }

// MeasureCPU is Measure with another CPU clock: under js/wasm in Node,
// wasm/browser's tests pass Node's process.cpuUsage, which the core cannot
// read (it never imports syscall/js).
func MeasureCPU(cpuClock func() time.Duration, f func()) Cost {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	peak, stop := watchHeap()
	cpu := cpuClock()
	start := time.Now()
	f()
	c := Cost{Wall: time.Since(start), CPU: cpuClock() - cpu}
	stop()
	runtime.ReadMemStats(&after)
	c.Alloc = after.TotalAlloc - before.TotalAlloc
	c.Peak = *peak
	c.Mapped, c.Grew = after.Sys, after.Sys > before.Sys
	return c
}

// watchHeap samples the live heap every millisecond until stop is called,
// and keeps the highest value seen. Under js/wasm the sampler runs only
// when f yields, so the peak there is a lower bound.
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

// Over lists the budgets c exceeds, in words for a test failure.
func (c Cost) Over() []string {
	var over []string
	if c.CPU > BudgetCPU {
		over = append(over, "used "+c.CPU.String()+" of CPU, budget "+BudgetCPU.String())
	}
	if c.Wall > BudgetWall {
		over = append(over, "took "+c.Wall.String()+", budget "+BudgetWall.String())
	}
	if c.Peak > BudgetHeap {
		over = append(over, "the live heap reached "+itoa(c.Peak>>20)+" MB, budget "+itoa(BudgetHeap>>20)+" MB")
	}
	if runtime.GOARCH == "wasm" && c.Grew && c.Mapped > BudgetHeap {
		over = append(over, "grew the instance's memory to "+itoa(c.Mapped>>20)+" MB, budget "+itoa(BudgetHeap>>20)+" MB")
	}
	return over
}

func itoa(n uint64) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
