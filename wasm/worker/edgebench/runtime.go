package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/signal"
	"runtime/metrics"
	"slices"
	"strconv"
	"syscall"
	"time"

	"github.com/subplay/subplay/core/playground/hostile"
)

// Where an ordinary request waits while hostile ones run: "edgebench serve
// -metrics FILE" appends a snapshot of the Go runtime's own accounts (CPU
// by class, garbage collections, how long runnable goroutines waited for a
// CPU) to FILE each time it gets SIGUSR1, and "edgebench mixed -metrics
// FILE" asks for one at the start and the end of each phase, takes the
// same figures for its own process, and reports the difference per phase.

// snapshot is one line of a -metrics file.
type snapshot struct {
	CPU       map[string]float64 `json:"cpu"` // seconds by class since the start, of /cpu/classes/
	GCCycles  uint64             `json:"gcCycles"`
	Allocated uint64             `json:"allocatedBytes"` // since the start
	// Cumulative histograms: Bounds has one more entry than Counts.
	SchedWait histogram `json:"schedWait"` // /sched/latencies: runnable to running
	GCPauses  histogram `json:"gcPauses"`  // /sched/pauses/total/gc
	Process   float64   `json:"processCpuSeconds"`
}

type histogram struct {
	Bounds []float64 `json:"bounds"`
	Counts []uint64  `json:"counts"`
}

// cpuClasses are the classes of /cpu/classes that phaseCost reports.
var cpuClasses = []string{"user", "gc/total", "gc/mark/assist", "idle"}

func takeSnapshot() snapshot {
	samples := []metrics.Sample{
		{Name: "/gc/cycles/total:gc-cycles"},
		{Name: "/gc/heap/allocs:bytes"},
		{Name: "/sched/latencies:seconds"},
		{Name: "/sched/pauses/total/gc:seconds"},
	}
	for _, c := range cpuClasses {
		samples = append(samples, metrics.Sample{Name: "/cpu/classes/" + c + ":cpu-seconds"})
	}
	metrics.Read(samples)
	hist := func(v metrics.Value) histogram {
		if v.Kind() != metrics.KindFloat64Histogram {
			return histogram{}
		}
		h := v.Float64Histogram()
		// JSON has no infinity: the open ends become the largest floats.
		bounds := slices.Clone(h.Buckets)
		for i, b := range bounds {
			if math.IsInf(b, 0) {
				bounds[i] = math.Copysign(math.MaxFloat64, b)
			}
		}
		return histogram{Bounds: bounds, Counts: h.Counts}
	}
	s := snapshot{
		CPU:       map[string]float64{},
		GCCycles:  samples[0].Value.Uint64(),
		Allocated: samples[1].Value.Uint64(),
		SchedWait: hist(samples[2].Value),
		GCPauses:  hist(samples[3].Value),
		Process:   hostile.ProcessCPU().Seconds(),
	}
	for i, c := range cpuClasses {
		if v := samples[4+i].Value; v.Kind() == metrics.KindFloat64 {
			s.CPU[c] = v.Float64()
		}
	}
	return s
}

// serveMetrics appends a snapshot to file on every SIGUSR1, for the life
// of the process.
func serveMetrics(file string) error {
	f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGUSR1)
	go func() {
		for range c {
			b, err := json.Marshal(takeSnapshot())
			if err != nil {
				b = []byte(`{"error":` + strconv.Quote(err.Error()) + `}`)
			}
			f.Write(append(b, '\n'))
		}
	}()
	return nil
}

// askSnapshot signals the server pid and returns the snapshot it appends
// to file, waiting at most 5 s for it.
func askSnapshot(pid int, file string) (snapshot, error) {
	// The complete lines in file: the server writes each with its newline.
	complete := func() [][]byte {
		b, _ := os.ReadFile(file)
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			return bytes.Split(b[:i], []byte("\n"))
		}
		return nil
	}
	before := len(complete())
	if err := syscall.Kill(pid, syscall.SIGUSR1); err != nil {
		return snapshot{}, err
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if lines := complete(); len(lines) > before {
			var s struct {
				snapshot
				Error string `json:"error"`
			}
			if err := json.Unmarshal(lines[len(lines)-1], &s); err != nil {
				return snapshot{}, fmt.Errorf("%s: %w", file, err)
			}
			if s.Error != "" {
				return snapshot{}, fmt.Errorf("the server's snapshot: %s", s.Error)
			}
			return s.snapshot, nil
		}
	}
	return snapshot{}, fmt.Errorf("the server (pid %d) wrote no snapshot to %s within 5 s", pid, file)
}

// phaseRuntime is what a phase cost the server's and the client's
// processes, from two snapshots of each.
type phaseRuntime struct {
	ServerCPUSeconds float64 `json:"serverCpuSeconds"` // the process's user and system time
	// The Go runtime's account of its Ps' time (/cpu/classes, an
	// estimate that counts a P whose thread waits for a core, so it can
	// pass ServerCPUSeconds): running goroutines (user), the collector's
	// part (gc, of which the part goroutines paid while allocating:
	// assist), and idle Ps.
	UserSeconds   float64 `json:"userSeconds"`
	GCSeconds     float64 `json:"gcSeconds"`
	AssistSeconds float64 `json:"assistSeconds"`
	IdleSeconds   float64 `json:"idleSeconds"`
	GCCycles      uint64  `json:"gcCycles"`
	AllocatedMB   float64 `json:"allocatedMB"`
	// How long the server's runnable goroutines waited for a CPU.
	SchedWaitP50Us float64 `json:"schedWaitP50Us"`
	SchedWaitP95Us float64 `json:"schedWaitP95Us"`
	SchedWaitP99Us float64 `json:"schedWaitP99Us"`
	GCPauseP99Us   float64 `json:"gcPauseP99Us"`
	// The load generator's own CPU time (user and system) in the phase: on
	// one machine it shares the cores with the server.
	ClientCPUSeconds float64 `json:"clientCpuSeconds"`
}

func phaseCost(a, b snapshot, clientA, clientB float64) phaseRuntime {
	d := func(c string) float64 { return b.CPU[c] - a.CPU[c] }
	return phaseRuntime{
		ServerCPUSeconds: b.Process - a.Process,
		UserSeconds:      d("user"),
		GCSeconds:        d("gc/total"),
		AssistSeconds:    d("gc/mark/assist"),
		IdleSeconds:      d("idle"),
		GCCycles:         b.GCCycles - a.GCCycles,
		AllocatedMB:      float64(b.Allocated-a.Allocated) / (1 << 20),
		SchedWaitP50Us:   histDiffPct(a.SchedWait, b.SchedWait, 50) * 1e6,
		SchedWaitP95Us:   histDiffPct(a.SchedWait, b.SchedWait, 95) * 1e6,
		SchedWaitP99Us:   histDiffPct(a.SchedWait, b.SchedWait, 99) * 1e6,
		GCPauseP99Us:     histDiffPct(a.GCPauses, b.GCPauses, 99) * 1e6,
		ClientCPUSeconds: clientB - clientA,
	}
}

// histDiffPct is the p-th percentile of the samples that b counts and a
// did not (the same histogram read twice), as the upper bound of the
// bucket it falls in (the lower one for the last, unbounded bucket).
func histDiffPct(a, b histogram, p float64) float64 {
	if len(b.Counts) == 0 || len(a.Counts) != len(b.Counts) {
		return 0
	}
	var total uint64
	for i := range b.Counts {
		total += b.Counts[i] - a.Counts[i]
	}
	if total == 0 {
		return 0
	}
	want := uint64(float64(total)*p/100 + 0.5)
	var seen uint64
	for i := range b.Counts {
		seen += b.Counts[i] - a.Counts[i]
		if seen >= max(want, 1) {
			hi := b.Bounds[i+1]
			if hi == math.MaxFloat64 {
				return b.Bounds[i]
			}
			return hi
		}
	}
	return b.Bounds[len(b.Bounds)-1]
}
