package httpapi_test

import (
	"bufio"
	"bytes"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/playground/hostile"
)

// TestWorkerdRetiredFreed checks that the memory of a Go instance the extra
// worker retired (its WebAssembly memory passed
// limits.WorkerRetireMemoryMB) goes back to the system within a few
// requests, in the local extra process that runs with --expose-gc
// (scripts/build-worker): the glue's sweepRetired collects at the start of
// the requests after a retirement. Without it, the retired instance's
// memory stayed resident until V8's own next full collection, which an
// extra process that receives few requests may not reach for a long time
// (the collection the retiring request ran itself freed nothing).
//
// scripts/test-edge sets SUBPLAY_EDGE_EXTRA_PROCESS_URL (the main worker,
// which forwards UDF requests to the extra one) and
// SUBPLAY_EDGE_EXTRA_PIDFILE (the extra process's pid), as for
// TestWorkerdExtraProcess, and SUBPLAY_EDGE_EXTRA_URL (the extra worker
// itself, built with the subplay_testhooks tag), on a pair it has just
// started, that no request has reached yet.
func TestWorkerdRetiredFreed(t *testing.T) {
	base, pidfile, extraURL := os.Getenv("SUBPLAY_EDGE_EXTRA_PROCESS_URL"), os.Getenv("SUBPLAY_EDGE_EXTRA_PIDFILE"), os.Getenv("SUBPLAY_EDGE_EXTRA_URL")
	if base == "" || pidfile == "" || extraURL == "" {
		t.Skip("SUBPLAY_EDGE_EXTRA_PROCESS_URL, _PIDFILE and SUBPLAY_EDGE_EXTRA_URL are not set; scripts/test-edge starts the two workerd processes (test bundles) and sets them")
	}
	tg := &target{base: strings.TrimSuffix(base, "/"), client: &http.Client{Transport: &http.Transport{}}}
	extra := &target{base: strings.TrimSuffix(extraURL, "/"), client: &http.Client{Transport: &http.Transport{}}}
	first, doubling := hostileCase(t, "schema-columns/proto-dag-16"), hostileCase(t, "transform/string-doubling")
	// The extra process's first instance, started by a schema request:
	// the sequence after which the retiring request's own collection freed
	// nothing, in 2 of 3 runs against that glue (with an instance started
	// otherwise, or a later one, it freed it), so scripts/test-edge runs
	// this test first on fresh processes.
	if r := tg.post(t, "/v1/"+first.Op, string(first.Body())); r.status != http.StatusOK {
		t.Fatalf("%s: status %d, want 200; body %.300s", first.Name, r.status, r.body)
	}
	memory := func() {
		t.Helper()
		if r := extra.do(t, http.MethodGet, "/__test/memory", nil, nil); r.status != http.StatusOK {
			t.Fatalf("GET /__test/memory on the extra worker: status %d, want 200 (a test bundle); body %.300s", r.status, r.body)
		}
	}
	memory()
	pid := readPid(t, pidfile)
	before, peakBefore := procMB(t, pid, "VmRSS"), procMB(t, pid, "VmHWM")
	if r := tg.post(t, "/v1/"+doubling.Op, string(doubling.Body())); r.status != http.StatusOK {
		t.Fatalf("string-doubling: status %d, want 200; body %.300s", r.status, r.body)
	}
	// At once, a request straight to the extra worker that starts a fresh
	// instance (a test-bundle path) while the retiring request may still
	// be finishing: the sequence after which the old instance's memory
	// stayed, with only the retiring request's own collection, for good.
	memory()
	// The case takes the instance's memory to about 90 MB, past the bound
	// at which it is retired: the process's peak shows it, if it is a new
	// peak (the process is a fresh one).
	const least = 40
	peak := procMB(t, pid, "VmHWM")
	if peak-before < least || peak <= peakBefore {
		t.Fatalf("string-doubling took the extra process from %d MB (its peak so far %d) to a peak of %d MB; this test needs a new peak %d MB or more above the start",
			before, peakBefore, peak, least)
	}
	udf := contractRequest(t, "validate-udf")
	for i := 0; ; i++ {
		if now := procMB(t, pid, "VmRSS"); peak-now >= least {
			t.Logf("the extra process: %d MB before string-doubling, a peak of %d MB, %d MB after %d more requests", before, peak, now, i)
			return
		} else if i == 10 {
			t.Fatalf("the extra process stayed at %d MB (its peak %d) through 10 requests after the retirement; want %d MB or more back", now, peak, least)
		}
		if r := tg.post(t, "/v1/validate", udf); r.status != http.StatusOK {
			t.Fatalf("a UDF after the retirement: status %d, want 200; body %.300s", r.status, r.body)
		}
	}
}

// hostileCase is the case of the hostile corpus with that name.
func hostileCase(t *testing.T, name string) hostile.Case {
	t.Helper()
	for _, c := range hostile.Cases() {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("the hostile corpus has no case %s", name)
	return hostile.Case{}
}

// procMB reads a field of a process's /proc status (Linux), in kB there,
// in MB: VmRSS, its resident memory, or VmHWM, the peak of it.
func procMB(t *testing.T, pid int, field string) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kib, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			if err != nil {
				t.Fatalf("%s of %d: %q", field, pid, v)
			}
			return kib / 1024
		}
	}
	t.Fatalf("/proc/%d/status has no %s", pid, field)
	return 0
}
