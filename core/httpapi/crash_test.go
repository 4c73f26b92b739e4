package httpapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/playground"
	"github.com/subplay/subplay/internal/golden"
)

// TestWorkerdCrash kills the Go instance inside workerd on purpose, in the
// main worker and then in the extra one, and checks what the glue does:
// the request during which it died is answered 500 "internal" in JSON,
// and the next request is served by a fresh instance, with the same
// answer as before. scripts/test-edge serves a
// bundle built with the subplay_testhooks tag (never deployed; the suite
// checks that real builds do not answer the hook) and sets
// SUBPLAY_EDGE_CRASH_URL to it.
func TestWorkerdCrash(t *testing.T) {
	base := os.Getenv("SUBPLAY_EDGE_CRASH_URL")
	if base == "" {
		t.Skip("SUBPLAY_EDGE_CRASH_URL is not set; scripts/test-edge builds the test bundle, starts workerd and sets it")
	}
	tg := &target{base: strings.TrimSuffix(base, "/"), client: &http.Client{Transport: &http.Transport{}}}
	body := sample(t, "validate")
	want := tg.post(t, "/v1/validate", body)
	if want.status != http.StatusOK {
		t.Fatalf("before any crash: status %d, body %.300s", want.status, want.body)
	}
	// Twice: the fresh instance must be as killable, and as recoverable,
	// as the first.
	for i := 1; i <= 2; i++ {
		r := tg.post(t, "/__test/exit", "{}")
		if r.status != http.StatusInternalServerError {
			t.Fatalf("crash %d: status %d, want 500; body %.300s", i, r.status, r.body)
		}
		checkJSONResponse(t, r)
		var e playground.ErrorResponse
		if err := json.Unmarshal(r.body, &e); err != nil || e.Error == nil {
			t.Fatalf("crash %d: not an error body: %s", i, r.body)
		}
		if e.Error.Code != "internal" || !strings.Contains(e.Error.Message, "restarted") {
			t.Errorf("crash %d: error %+v, want code internal saying the worker was restarted", i, *e.Error)
		}
		got := tg.post(t, "/v1/validate", body)
		if got.status != http.StatusOK || !bytes.Equal(got.body, want.body) {
			t.Errorf("after crash %d: status %d, body %.300s; want the answer from before the crash", i, got.status, got.body)
		}
		if h := tg.do(t, http.MethodGet, "/healthz", nil, nil); h.status != http.StatusOK {
			t.Errorf("after crash %d: /healthz status %d", i, h.status)
		}
	}

	// The extra worker (scripts/build-worker's second one, reached through
	// the main worker's service binding) dies the same way: the client
	// gets its glue's JSON 500, and both workers go on serving, the extra
	// one with a fresh instance.
	udf := contractRequest(t, "validate-udf")
	wantUDF := tg.post(t, "/v1/validate", udf)
	if wantUDF.status != http.StatusOK {
		t.Fatalf("a UDF, before any crash: status %d, body %.300s", wantUDF.status, wantUDF.body)
	}
	for i := 1; i <= 2; i++ {
		r := tg.post(t, "/__test/exit-extra", "{}")
		if r.status != http.StatusInternalServerError {
			t.Fatalf("extra crash %d: status %d, want 500; body %.300s", i, r.status, r.body)
		}
		checkJSONResponse(t, r)
		var e playground.ErrorResponse
		if err := json.Unmarshal(r.body, &e); err != nil || e.Error == nil {
			t.Fatalf("extra crash %d: not an error body: %s", i, r.body)
		}
		if e.Error.Code != "internal" || !strings.Contains(e.Error.Message, "restarted") {
			t.Errorf("extra crash %d: error %+v, want code internal saying the worker was restarted", i, *e.Error)
		}
		if got := tg.post(t, "/v1/validate", body); got.status != http.StatusOK || !bytes.Equal(got.body, want.body) {
			t.Errorf("after extra crash %d, the main worker: status %d, body %.300s; want the answer from before", i, got.status, got.body)
		}
		if got := tg.post(t, "/v1/validate", udf); got.status != http.StatusOK || !bytes.Equal(got.body, wantUDF.body) {
			t.Errorf("after extra crash %d, a UDF: status %d, body %.300s; want the answer from before", i, got.status, got.body)
		}
	}
}

// contractRequest is the request of the contract case name
// (core/playground/testdata/contract/NAME.txtar).
func contractRequest(t *testing.T, name string) string {
	t.Helper()
	for _, c := range golden.Cases(t) {
		if c.Name == name {
			return string(c.Request)
		}
	}
	t.Fatalf("no contract case %q", name)
	return ""
}
