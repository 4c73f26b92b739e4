package main

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/subplay/subplay/core/httpapi"
)

func TestPct(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	tests := []struct {
		name   string
		sorted []time.Duration
		p      int
		want   time.Duration
	}{
		{"empty", nil, 50, 0},
		{"one", ms(7), 95, 7 * time.Millisecond},
		{"median of four is the second", ms(1, 2, 3, 4), 50, 2 * time.Millisecond},
		{"p95 of twenty is the nineteenth", ms(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20), 95, 19 * time.Millisecond},
		{"p100 is the largest", ms(1, 2, 3), 100, 3 * time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := pct(tc.sorted, tc.p); got != tc.want {
				t.Errorf("pct(%v, %d) = %v, want %v", tc.sorted, tc.p, got, tc.want)
			}
		})
	}
}

func TestRefusesOtherHosts(t *testing.T) {
	body := filepath.Join(t.TempDir(), "body.json")
	os.WriteFile(body, []byte("{}"), 0o644)
	tests := []struct {
		name string
		args []string
	}{
		{"serve on all interfaces", []string{"serve", "-addr", ":0"}},
		{"serve on a private address", []string{"serve", "-addr", "10.0.0.1:8080"}},
		{"load a public host", []string{"load", "-url", "http://example.com/v1/validate", "-body", body}},
		{"mixed load on a public host", []string{"mixed", "-url", "http://example.com", "-body", body}},
		{"mixed load without ordinary clients", []string{"mixed", "-url", "http://127.0.0.1:1", "-body", body, "-c", "2", "-hostile", "2"}},
		{"unknown command", []string{"shout"}},
		{"no command", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run(tc.args, &out, &errb); code == 0 {
				t.Errorf("run(%q) = 0, want a failure", tc.args)
			}
		})
	}
}

// TestLoad runs a short, bounded load against the native handler and
// checks the report adds up.
func TestLoad(t *testing.T) {
	srv := httptest.NewServer(httpapi.Handler())
	defer srv.Close()
	body := filepath.Join(t.TempDir(), "body.json")
	os.WriteFile(body, []byte("{}"), 0o644)
	var out, errb bytes.Buffer
	code := run([]string{"load", "-url", srv.URL + "/v1/version", "-body", body, "-n", "10", "-warmup", "2", "-c", "2", "-d", "200ms", "-max", "50"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if r.Requests == 0 || r.Requests > 50 || r.Errors != 0 || r.P50Ms <= 0 || r.P95Ms < r.P50Ms || !strings.HasSuffix(r.URL, "/v1/version") {
		t.Errorf("implausible report: %+v", r)
	}
}

// TestMixed runs a short, bounded mixed load against the native handler:
// the report must count both phases and every hostile answer.
func TestMixed(t *testing.T) {
	srv := httptest.NewServer(httpapi.Handler())
	defer srv.Close()
	body := filepath.Join(t.TempDir(), "body.json")
	os.WriteFile(body, []byte(`{"text":"topic: projects/p/topics/t\n","format":"yaml"}`), 0o644)
	var out, errb bytes.Buffer
	code := run([]string{"mixed", "-url", srv.URL, "-body", body, "-c", "3", "-hostile", "1", "-slow", "1",
		"-d", "300ms", "-max", "200", "-cases", "^http/invalid-utf8", "-pid", "main=" + strconv.Itoa(os.Getpid())}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r mixedResult
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if r.Unloaded.Requests == 0 || r.Loaded.Requests == 0 || r.Unloaded.Status5xx+r.Loaded.Status5xx != 0 ||
		r.Unloaded.P95Ms < r.Unloaded.P50Ms || !r.ServerUp || r.Ordinary != 2 {
		t.Errorf("implausible report: %+v", r)
	}
	if len(r.HostileByStatus) != 1 || r.HostileByStatus["http/invalid-utf8-in-text 400"] == 0 {
		t.Errorf("hostile answers %v, want only http/invalid-utf8-in-text 400", r.HostileByStatus)
	}
	if r.HostileFailed == nil || len(r.HostileFailed) != 0 {
		t.Errorf("failed hostile answers %v, want none (and an empty map, which the scripts read)", r.HostileFailed)
	}
	// The test's own process stands in for the server's.
	if len(r.Processes) != 1 || r.Processes[0].Name != "main" || r.Processes[0].PID != os.Getpid() ||
		!r.Processes[0].Alive || r.Processes[0].PeakRSSMB <= 0 || r.PeakRSSMB != r.Processes[0].PeakRSSMB {
		t.Errorf("processes %+v, peak %v MB: want this one process, alive, its peak the sum", r.Processes, r.PeakRSSMB)
	}
	if r.SlowEnded["still open at the end"] != 1 {
		t.Errorf("the slow client ended %v, want still open (httptest has no read time-out)", r.SlowEnded)
	}
}

func TestParsePids(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []procPeak
		bad  bool
	}{
		{"none", "", nil, false},
		{"one unnamed", "42", []procPeak{{Name: "server", PID: 42}}, false},
		{"the edge pair", "main=1,extra=2", []procPeak{{Name: "main", PID: 1}, {Name: "extra", PID: 2}}, false},
		{"not a number", "main=x", nil, true},
		{"zero", "0", nil, true},
		{"no name", "=3", nil, true},
		{"a name twice", "main=1,main=2", nil, true},
		{"unnamed among several", "1,extra=2", nil, true},
		{"empty part", "main=1,", nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parsePids(tc.in)
			if (err != nil) != tc.bad {
				t.Fatalf("parsePids(%q) error %v, want error %v", tc.in, err, tc.bad)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("parsePids(%q) = %+v, want %+v", tc.in, got, tc.want)
			}
		})
	}
}

// TestHostileFailure checks which hostile answers the load scripts count
// as failed: a 5xx, except 503, which is a refusal.
func TestHostileFailure(t *testing.T) {
	for status, want := range map[int]bool{200: false, 400: false, 413: false, 500: true, 502: true, 503: false, 504: true} {
		if got := hostileFailure(status); got != want {
			t.Errorf("hostileFailure(%d) = %v, want %v", status, got, want)
		}
	}
}
