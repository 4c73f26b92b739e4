package httpapi_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/subplay/subplay/core/playground"
	"github.com/subplay/subplay/core/playground/hostile"
)

// TestWorkerdExtraProcess ends the extra worker's whole workerd process
// (TestWorkerdCrash ends only its Go instance), the local counterpart of
// the extra worker's isolate going away on Cloudflare. While it is gone,
// the main worker answers what it forwards with its own JSON 500 and serves
// everything else as before; once scripts/edge-procs.sh has started the
// process again, forwarded requests get the answers they got before.
//
// scripts/test-edge sets SUBPLAY_EDGE_EXTRA_PROCESS_URL (the main worker),
// SUBPLAY_EDGE_EXTRA_PIDFILE (where the supervisor writes the extra
// process's pid) and SUBPLAY_EDGE_EXTRA_HOLD (while that file exists the
// supervisor does not restart the process, so that the test sees it gone
// whatever the machine's speed).
func TestWorkerdExtraProcess(t *testing.T) {
	base, pidfile, hold := os.Getenv("SUBPLAY_EDGE_EXTRA_PROCESS_URL"), os.Getenv("SUBPLAY_EDGE_EXTRA_PIDFILE"), os.Getenv("SUBPLAY_EDGE_EXTRA_HOLD")
	if base == "" || pidfile == "" || hold == "" {
		t.Skip("SUBPLAY_EDGE_EXTRA_PROCESS_URL, _PIDFILE and _HOLD are not set; scripts/test-edge starts the two workerd processes and sets them")
	}
	tg := &target{base: strings.TrimSuffix(base, "/"), client: &http.Client{Transport: &http.Transport{}}}
	body, udf := sample(t, "validate"), contractRequest(t, "validate-udf")
	want, wantUDF := tg.post(t, "/v1/validate", body), tg.post(t, "/v1/validate", udf)
	if want.status != http.StatusOK || wantUDF.status != http.StatusOK {
		t.Fatalf("before: status %d (ordinary) and %d (a UDF), want 200; bodies %.300s %.300s", want.status, wantUDF.status, want.body, wantUDF.body)
	}

	old := readPid(t, pidfile)
	if err := os.WriteFile(hold, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	held := true
	defer func() {
		if held {
			os.Remove(hold)
		}
	}()
	p, err := os.FindProcess(old)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Kill(); err != nil {
		t.Fatalf("ending the extra worker's process %d: %v", old, err)
	}
	// SIGKILL is delivered asynchronously; a process that has ended has
	// closed its socket, whether or not its parent has reaped it yet.
	for i := 0; alive(old); i++ {
		if i == 200 {
			t.Fatalf("the extra worker's process %d still runs 10 s after SIGKILL", old)
		}
		time.Sleep(50 * time.Millisecond)
	}

	r := tg.post(t, "/v1/validate", udf)
	if r.status != http.StatusInternalServerError {
		t.Fatalf("a UDF with the extra process gone: status %d, want 500; body %.300s", r.status, r.body)
	}
	checkJSONResponse(t, r)
	var e playground.ErrorResponse
	if err := json.Unmarshal(r.body, &e); err != nil || e.Error == nil || e.Error.Code != "internal" || !strings.Contains(e.Error.Message, "failed") {
		t.Errorf("a UDF with the extra process gone: body %s, want error code internal saying the worker failed", r.body)
	}
	if got := tg.post(t, "/v1/validate", body); got.status != http.StatusOK || !bytes.Equal(got.body, want.body) {
		t.Errorf("the main worker with the extra process gone: status %d, body %.300s; want the answer from before", got.status, got.body)
	}
	if h := tg.do(t, http.MethodGet, "/healthz", nil, nil); h.status != http.StatusOK {
		t.Errorf("with the extra process gone: /healthz status %d", h.status)
	}

	// Restarted: workerd compiles the extra module before it listens,
	// which takes minutes on a loaded machine.
	os.Remove(hold)
	held = false
	var got reply
	for i := 0; ; i++ {
		if i == 1200 {
			t.Fatalf("no answer from a restarted extra worker 10 minutes after its process ended; the last: status %d, body %.300s", got.status, got.body)
		}
		time.Sleep(500 * time.Millisecond)
		if readPid(t, pidfile) == old {
			continue
		}
		if got = tg.post(t, "/v1/validate", udf); got.status == http.StatusOK {
			break
		}
	}
	if !bytes.Equal(got.body, wantUDF.body) {
		t.Errorf("a UDF after the restart: body %.300s; want the answer from before", got.body)
	}
}

// readPid reads the pid the supervisor wrote.
func readPid(t *testing.T, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		t.Fatalf("%s holds %q, not a pid", file, b)
	}
	return pid
}

// alive says whether the process runs: neither gone nor a zombie waiting
// for its parent (Linux's /proc, where scripts/test-edge runs).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command's closing parenthesis.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

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
	first, grower := hostileCase(t, "schema-columns/proto-dag-16"), hostileCase(t, "terraform-eval/provider-project-per-topic")
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
	// The instance the Terraform case will run in hands a function out for
	// good (a test-bundle path), as one that the isolate still holds after
	// the retirement: the Go object it belongs to must not keep the
	// instance (the glue's release drops the pending promise of
	// wasm_exec's run, whose frame holds the instance; before, the memory
	// stayed through the 10 requests below).
	if r := extra.do(t, http.MethodPost, "/__test/keep", nil, nil); r.status != http.StatusNoContent {
		t.Fatalf("POST /__test/keep on the extra worker: status %d, want 204 (a test bundle); body %.300s", r.status, r.body)
	}
	pid := readPid(t, pidfile)
	before, peakBefore := procMB(t, pid, "VmRSS"), procMB(t, pid, "VmHWM")
	kept := string(grower.Body())
	if r := tg.post(t, "/v1/"+grower.Op, kept); r.status != http.StatusOK {
		t.Fatalf("%s: status %d, want 200; body %.300s", grower.Name, r.status, r.body)
	}
	// At once, a request straight to the extra worker that starts a fresh
	// instance (a test-bundle path) while the retiring request may still
	// be finishing: the sequence after which the old instance's memory
	// stayed, with only the retiring request's own collection, for good.
	memory()
	// The case (a Terraform text whose evaluation allocates some 130 MB
	// natively) grows the Go instance's memory past the bound at which it
	// is retired: the process's peak shows it, if it is a new peak (the
	// process is a fresh one). A UDF no longer does: its engine's memory
	// is an instance of its own, outside Go's.
	const least = 40
	peak := procMB(t, pid, "VmHWM")
	if peak-before < least || peak <= peakBefore {
		t.Fatalf("%s took the extra process from %d MB (its peak so far %d) to a peak of %d MB; this test needs a new peak %d MB or more above the start",
			grower.Name, before, peakBefore, peak, least)
	}
	udf := contractRequest(t, "validate-udf")
	for i := 0; ; i++ {
		if now := procMB(t, pid, "VmRSS"); peak-now >= least {
			t.Logf("the extra process: %d MB before %s, a peak of %d MB, %d MB after %d more requests", before, grower.Name, peak, now, i)
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
