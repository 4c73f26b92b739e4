package main

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

func TestHistDiffPct(t *testing.T) {
	// Buckets [0,1) [1,2) [2,4) [4,+inf): a is the first read, b the second.
	bounds := []float64{0, 1, 2, 4, math.MaxFloat64}
	a := histogram{Bounds: bounds, Counts: []uint64{100, 0, 0, 0}}
	b := histogram{Bounds: bounds, Counts: []uint64{100, 90, 9, 1}}
	tests := []struct {
		p    float64
		want float64
	}{
		{50, 2},  // the samples before a do not count: 90 of 100 new ones are in [1,2)
		{95, 4},  // the 95th of the new samples is in [2,4)
		{100, 4}, // the last, in the open bucket, is given by its lower bound
	}
	for _, tc := range tests {
		if got := histDiffPct(a, b, tc.p); got != tc.want {
			t.Errorf("p%v = %v, want %v", tc.p, got, tc.want)
		}
	}
	if got := histDiffPct(b, b, 50); got != 0 {
		t.Errorf("no new samples: p50 = %v, want 0", got)
	}
}

// TestSnapshotBySignal has this process serve snapshots and ask itself for
// two, as edgebench mixed asks edgebench serve.
func TestSnapshotBySignal(t *testing.T) {
	file := filepath.Join(t.TempDir(), "metrics")
	if err := serveMetrics(file); err != nil {
		t.Fatal(err)
	}
	first, err := askSnapshot(os.Getpid(), file)
	if err != nil {
		t.Fatal(err)
	}
	work := make([][]byte, 0, 1000)
	for range 1000 {
		work = append(work, make([]byte, 4096))
	}
	second, err := askSnapshot(os.Getpid(), file)
	if err != nil {
		t.Fatal(err)
	}
	p := phaseCost(first, second, 0, 0)
	if p.AllocatedMB < 3.9 || len(work) != 1000 {
		t.Errorf("allocated %.2f MB between the snapshots, want at least 3.9 (1000 × 4 KiB)", p.AllocatedMB)
	}
	if first.CPU["total"] <= 0 || len(second.SchedWait.Counts) == 0 || second.Process < first.Process {
		t.Errorf("snapshots without figures: %+v then %+v", first.CPU, second.CPU)
	}
}
