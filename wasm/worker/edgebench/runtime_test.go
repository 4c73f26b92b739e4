package main

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/subplay/subplay/core/httpapi"
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
	if first.CPU["user"] <= 0 || len(second.SchedWait.Counts) == 0 || second.Process < first.Process {
		t.Errorf("snapshots without figures: %+v then %+v", first.CPU, second.CPU)
	}
}

// TestMixedMetrics runs a short mixed load with -metrics: with a server
// that answers the signal (this process stands in for it) each phase has
// its figures; with one that has died the run still reports, without
// them, since a death is what the load test is there to count.
func TestMixedMetrics(t *testing.T) {
	srv := httptest.NewServer(httpapi.Handler())
	defer srv.Close()
	dir := t.TempDir()
	body := filepath.Join(dir, "body.json")
	os.WriteFile(body, []byte(`{"text":"topic: projects/p/topics/t\n","format":"yaml"}`), 0o644)
	file := filepath.Join(dir, "metrics")
	if err := serveMetrics(file); err != nil {
		t.Fatal(err)
	}
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	for _, tc := range []struct {
		name  string
		pid   int
		alive bool
	}{
		{"a live server", os.Getpid(), true},
		{"a dead one", gone.Process.Pid, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run([]string{"mixed", "-url", srv.URL, "-body", body, "-c", "3", "-hostile", "1", "-slow", "1",
				"-d", "200ms", "-max", "200", "-cases", "^http/invalid-utf8", "-pid", "server=" + strconv.Itoa(tc.pid), "-metrics", file}, &out, &errb)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			var r mixedResult
			if err := json.Unmarshal(out.Bytes(), &r); err != nil {
				t.Fatalf("%v: %s", err, out.String())
			}
			if !tc.alive {
				if r.RuntimeError == "" || r.Runtime != nil || r.ServerUp {
					t.Errorf("runtime %+v, error %q, server up %v: want no figures, the reason, and the death", r.Runtime, r.RuntimeError, r.ServerUp)
				}
				return
			}
			for _, phase := range []string{"unloaded", "loaded"} {
				p, ok := r.Runtime[phase]
				if !ok || p.ServerCPUSeconds <= 0 || p.AllocatedMB <= 0 || p.ClientCPUSeconds <= 0 {
					t.Errorf("%s: %+v (error %q), want the phase's CPU and allocation", phase, p, r.RuntimeError)
				}
			}
		})
	}
}
