package httpapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/subplay/subplay/core/playground"
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
