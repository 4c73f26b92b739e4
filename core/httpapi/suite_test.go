package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/subplay/subplay/core/httpapi"
	"github.com/subplay/subplay/core/playground"
	"github.com/subplay/subplay/core/playground/hostile"
)

// The suite speaks HTTP to a base URL, so the same cases run against the
// native handler (TestNative) and against the worker bundle in workerd
// (TestWorkerd, started by scripts/test-edge).

func TestNative(t *testing.T) {
	var logs syncBuffer
	srv := httptest.NewServer(httpapi.Handler(httpapi.WithLogger(log.New(&logs, "", 0))))
	defer srv.Close()
	cases := hostile.Cases()
	if runtime.GOOS == "js" {
		// js/wasm is a V8 host: hostile.V8Host says which cases it leaves out.
		cases = hostile.V8Host()
	}
	runSuite(t, srv.URL, cases)
	// A hostile case past the time limit is the handler protecting itself
	// (its answer, a 503, is checked by the hostile subtest): on a loaded
	// machine it can happen, and it is reported, not failed. Anything
	// else logged is a failure inside the handler.
	var failures []string
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		switch {
		case line == "":
		case strings.Contains(line, "passed its time limit"):
			t.Logf("time limit reached: %s", line)
		default:
			failures = append(failures, line)
		}
	}
	if len(failures) > 0 {
		t.Errorf("the handler logged during the suite (no case should fail inside it):\n%s", strings.Join(failures, "\n"))
	}
}

// TestWorkerd runs the suite against SUBPLAY_EDGE_URL, where
// scripts/test-edge serves the built worker in workerd.
func TestWorkerd(t *testing.T) {
	base := os.Getenv("SUBPLAY_EDGE_URL")
	if base == "" {
		t.Skip("SUBPLAY_EDGE_URL is not set; scripts/test-edge builds the worker, starts workerd and sets it")
	}
	// workerd is a V8 host: hostile.V8Host says which cases it leaves out.
	runSuite(t, strings.TrimSuffix(base, "/"), hostile.V8Host())
}

func runSuite(t *testing.T, base string, hostileCases []hostile.Case) {
	tg := &target{base: base, client: &http.Client{Transport: &http.Transport{}}}
	t.Run("operations", func(t *testing.T) { testOperations(t, tg) })
	t.Run("contract", func(t *testing.T) { testContract(t, tg) })
	t.Run("get-routes", func(t *testing.T) { testGetRoutes(t, tg) })
	t.Run("errors", func(t *testing.T) { testErrors(t, tg) })
	t.Run("body-limit", func(t *testing.T) { testBodyLimit(t, tg) })
	t.Run("nesting", func(t *testing.T) { testNesting(t, tg) })
	t.Run("cors", func(t *testing.T) { testCORS(t, tg) })
	t.Run("openapi", func(t *testing.T) { testOpenAPI(t, tg) })
	t.Run("concurrent", func(t *testing.T) { testConcurrent(t, tg) })
	// Every entry's hostile run is the full tier's (scripts/test --full);
	// with -short the suite checks the server's ordinary answers.
	if !testing.Short() {
		t.Run("hostile", func(t *testing.T) { testHostile(t, tg, hostileCases) })
	}
}

// testHostile sends every case of the hostile corpus: the server must
// answer each with JSON (findings, a refusal, or 503 when it protects
// itself) and still answer afterwards. Time and memory are bounded by
// TestHostileNative, natively; here the point is that the server stays up.
func testHostile(t *testing.T, tg *target, cases []hostile.Case) {
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			r := tg.post(t, "/v1/"+c.Op, string(c.Body()))
			if !slices.Contains([]int{200, 400, 413, 503}, r.status) {
				t.Errorf("status %d, want 200, 400, 413 or 503; body %.300s", r.status, r.body)
			}
			checkJSONResponse(t, r)
			if h := tg.do(t, http.MethodGet, "/healthz", nil, nil); h.status != http.StatusOK {
				t.Fatalf("the server no longer answers /healthz: status %d", h.status)
			}
		})
	}
}

// target is the server under test.
type target struct {
	base   string
	client *http.Client
}

type reply struct {
	status int
	header http.Header
	body   []byte
}

func (tg *target) do(t *testing.T, method, path string, header map[string]string, body io.Reader) reply {
	t.Helper()
	req, err := http.NewRequest(method, tg.base+path, body)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := tg.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the response: %v", method, path, err)
	}
	return reply{resp.StatusCode, resp.Header, b}
}

func (tg *target) post(t *testing.T, path, body string) reply {
	t.Helper()
	return tg.do(t, http.MethodPost, path, map[string]string{"Content-Type": "application/json"}, strings.NewReader(body))
}

// sample returns the request the suite sends to an operation, from
// testdata/requests/<op>.json. A new operation without one fails the suite,
// so nothing reaches the API untested.
func sample(t *testing.T, op string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "requests", op+".json"))
	if err != nil {
		t.Fatalf("operation %q has no sample request: add testdata/requests/%s.json (%v)", op, op, err)
	}
	return string(b)
}

// unstable lists, per operation, the JSON pointers whose value may differ
// between a build and the test binary: the worker is stamped with its own
// version.
var unstable = map[string][]string{
	"version": {"/version"},
}

func testOperations(t *testing.T, tg *target) {
	for _, op := range playground.Ops() {
		t.Run(op.Name, func(t *testing.T) {
			body := sample(t, op.Name)
			r := tg.post(t, "/v1/"+op.Name, body)
			if r.status != http.StatusOK {
				t.Fatalf("POST /v1/%s: status %d, body %s", op.Name, r.status, r.body)
			}
			checkJSONResponse(t, r)
			// The API answers exactly what the CLI and the WebAssembly
			// bridge answer, because all three run the same operation.
			want, ok := playground.Call(op.Name, []byte(body))
			if !ok {
				t.Fatalf("playground.Call(%q) failed on the sample: %s", op.Name, want)
			}
			if d := jsonDiff(decode(t, want), decode(t, r.body), unstable[op.Name]); d != "" {
				t.Errorf("POST /v1/%s differs from playground.Call: %s", op.Name, d)
			}
		})
	}
}

func testGetRoutes(t *testing.T, tg *target) {
	tests := []struct {
		name, path string
		check      func(t *testing.T, v any)
	}{
		{"healthz", "/healthz", func(t *testing.T, v any) {
			if !reflect.DeepEqual(v, map[string]any{"status": "ok"}) {
				t.Errorf("healthz = %v", v)
			}
		}},
		{"version", "/v1/version", func(t *testing.T, v any) {
			ops, _ := v.(map[string]any)["operations"].([]any)
			var names []string
			for _, o := range ops {
				names = append(names, fmt.Sprint(o))
			}
			if !slices.Equal(names, playground.Names()) {
				t.Errorf("the server offers %v; this build has %v", names, playground.Names())
			}
		}},
		{"openapi", "/v1/openapi.json", func(t *testing.T, v any) {
			if got := v.(map[string]any)["openapi"]; got != "3.1.0" {
				t.Errorf("openapi = %v, want 3.1.0", got)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tg.do(t, http.MethodGet, tc.path, nil, nil)
			if r.status != http.StatusOK {
				t.Fatalf("GET %s: status %d, body %s", tc.path, r.status, r.body)
			}
			checkJSONResponse(t, r)
			tc.check(t, decode(t, r.body))

			h := tg.do(t, http.MethodHead, tc.path, nil, nil)
			if h.status != http.StatusOK || len(h.body) != 0 {
				t.Errorf("HEAD %s: status %d with %d body bytes, want 200 and none", tc.path, h.status, len(h.body))
			}
		})
	}
}

// postOnlyOp is an operation that takes input, so GET is not allowed on it.
func postOnlyOp(t *testing.T) string {
	t.Helper()
	for _, op := range playground.Ops() {
		if op.Request.NumField() > 0 {
			return op.Name
		}
	}
	t.Skip("no registered operation takes input yet")
	return ""
}

func testErrors(t *testing.T, tg *target) {
	jsonCT := map[string]string{"Content-Type": "application/json"}
	tests := []struct {
		name, method, path string
		header             map[string]string
		body               string
		status             int
		code               string
		allow              string // the Allow header a 405 must carry
	}{
		{"malformed json", "POST", "/v1/version", jsonCT, `{"`, 400, "bad-request", ""},
		{"not an object", "POST", "/v1/version", jsonCT, `[1, 2]`, 400, "bad-request", ""},
		{"unknown field", "POST", "/v1/version", jsonCT, `{"nonsense": true}`, 400, "bad-request", ""},
		{"two values", "POST", "/v1/version", jsonCT, `{} {}`, 400, "bad-request", ""},
		{"unknown operation", "POST", "/v1/no-such-op", jsonCT, `{}`, 404, "unknown-operation", ""},
		{"no operation name", "POST", "/v1/", jsonCT, `{}`, 404, "unknown-operation", ""},
		{"unknown path", "GET", "/v2/version", nil, "", 404, "not-found", ""},
		{"root", "GET", "/", nil, "", 404, "not-found", ""},
		{"put on an operation", "PUT", "/v1/version", jsonCT, `{}`, 405, "method-not-allowed", "GET, HEAD, POST, OPTIONS"},
		{"delete on an operation", "DELETE", "/v1/version", nil, "", 405, "method-not-allowed", "GET, HEAD, POST, OPTIONS"},
		{"post to healthz", "POST", "/healthz", jsonCT, `{}`, 405, "method-not-allowed", "GET, HEAD, OPTIONS"},
		{"post to openapi", "POST", "/v1/openapi.json", jsonCT, `{}`, 405, "method-not-allowed", "GET, HEAD, OPTIONS"},
		{"no content type", "POST", "/v1/version", nil, `{}`, 415, "unsupported-media-type", ""},
		{"text/plain", "POST", "/v1/version", map[string]string{"Content-Type": "text/plain"}, `{}`, 415, "unsupported-media-type", ""},
		{"form", "POST", "/v1/version", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, `a=b`, 415, "unsupported-media-type", ""},
		{"latin-1 json", "POST", "/v1/version", map[string]string{"Content-Type": "application/json; charset=iso-8859-1"}, `{}`, 415, "unsupported-media-type", ""},
		{"utf-8 json is fine", "POST", "/v1/version", map[string]string{"Content-Type": "application/json; charset=UTF-8"}, `{}`, 200, "", ""},
		{"empty body is an empty request", "POST", "/v1/version", jsonCT, ``, 200, "", ""},
		{"wrong method wins over media type", "PUT", "/v1/version", map[string]string{"Content-Type": "text/plain"}, `x`, 405, "method-not-allowed", "GET, HEAD, POST, OPTIONS"},
		{"unknown op wins over method", "GET", "/v1/no-such-op", nil, "", 404, "unknown-operation", ""},
		// Only the test bundle of TestWorkerdCrash answers this path.
		{"no test hook in a real build", "POST", "/__test/exit", jsonCT, `{}`, 404, "not-found", ""},
		{"no extra test hook in a real build", "POST", "/__test/exit-extra", jsonCT, `{}`, 404, "not-found", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader
			if tc.body != "" {
				body = strings.NewReader(tc.body)
			}
			r := tg.do(t, tc.method, tc.path, tc.header, body)
			if r.status != tc.status {
				t.Fatalf("%s %s: status %d, want %d; body %s", tc.method, tc.path, r.status, tc.status, r.body)
			}
			checkJSONResponse(t, r)
			if tc.code != "" {
				checkError(t, r, tc.code)
			}
			if got := r.header.Get("Allow"); got != tc.allow {
				t.Errorf("Allow = %q, want %q", got, tc.allow)
			}
		})
	}
	t.Run("invalid utf-8 says where", func(t *testing.T) {
		r := tg.post(t, "/v1/version", "{ \xff }")
		if r.status != http.StatusBadRequest {
			t.Fatalf("status %d, want 400; body %s", r.status, r.body)
		}
		checkJSONResponse(t, r)
		checkError(t, r, "bad-request")
		if !bytes.Contains(r.body, []byte("byte 2 ")) {
			t.Errorf("the message does not give the offset of the bad byte (2): %s", r.body)
		}
	})
	t.Run("get on an operation with input", func(t *testing.T) {
		op := postOnlyOp(t)
		r := tg.do(t, http.MethodGet, "/v1/"+op, nil, nil)
		if r.status != http.StatusMethodNotAllowed {
			t.Fatalf("GET /v1/%s: status %d, want 405", op, r.status)
		}
		checkError(t, r, "method-not-allowed")
		if got := r.header.Get("Allow"); got != "POST, OPTIONS" {
			t.Errorf("Allow = %q, want %q", got, "POST, OPTIONS")
		}
	})
}

// unsized hides a reader's length, so the client streams it chunked and
// the server learns the size only by reading.
type unsized struct{ io.Reader }

func testBodyLimit(t *testing.T, tg *target) {
	// "{}" followed by spaces is a valid empty request of any length.
	padded := func(n int) []byte { return append([]byte("{}"), bytes.Repeat([]byte(" "), n-2)...) }
	tests := []struct {
		name    string
		body    []byte
		chunked bool
		status  int
	}{
		{"exactly the limit", padded(httpapi.MaxBody), false, 200},
		// A declared length over the limit is refused before the body is
		// read; one that is not declared, after one byte too many.
		{"the limit + 1 with a length", padded(httpapi.MaxBody + 1), false, 413},
		{"the limit + 1 chunked", padded(httpapi.MaxBody + 1), true, 413},
		{"exactly the limit chunked", padded(httpapi.MaxBody), true, 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r reply
			switch {
			case tc.status == 413:
				// Every request over the limit asks first and reads an
				// early answer (postOverLimit): a server may refuse it
				// while the body is still being sent.
				r = tg.postOverLimit(t, "/v1/version", tc.body, tc.chunked)
			case tc.chunked:
				r = tg.do(t, http.MethodPost, "/v1/version", map[string]string{"Content-Type": "application/json"}, unsized{bytes.NewReader(tc.body)})
			default:
				r = tg.post(t, "/v1/version", string(tc.body))
			}
			if r.status != tc.status {
				t.Fatalf("status %d, want %d; body %.300s", r.status, tc.status, r.body)
			}
			checkJSONResponse(t, r)
			if tc.status == 413 {
				checkError(t, r, "request-too-large")
			}
		})
	}
}

func testNesting(t *testing.T, tg *target) {
	op := "version"
	if playground.Lookup("validate") != nil {
		op = "validate"
	}
	nested := func(depth int) string {
		return `{"config": ` + strings.Repeat(`{"a": [`, depth) + `1` + strings.Repeat(`]}`, depth) + `}`
	}
	tests := []struct {
		name  string
		body  string
		codes []int
	}{
		// Beyond encoding/json's nesting limit the request itself is refused.
		{"100k levels", nested(50_000), []int{400}},
		// Below it, the configuration decoder's own depth limit answers with
		// a diagnostic (or, for an operation without a config, a 400).
		{"2k levels", nested(1_000), []int{200, 400}},
		{"bare arrays", strings.Repeat("[", 200_000), []int{400}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tg.post(t, "/v1/"+op, tc.body)
			if !slices.Contains(tc.codes, r.status) {
				t.Fatalf("status %d, want one of %v; body %.300s", r.status, tc.codes, r.body)
			}
			checkJSONResponse(t, r)
		})
	}
}

func testCORS(t *testing.T, tg *target) {
	origin := map[string]string{"Origin": "https://docs.example.com", "Content-Type": "application/json"}
	t.Run("simple request", func(t *testing.T) {
		r := tg.do(t, http.MethodPost, "/v1/version", origin, strings.NewReader("{}"))
		checkCORS(t, r)
	})
	t.Run("error response", func(t *testing.T) {
		r := tg.do(t, http.MethodPost, "/v1/version", origin, strings.NewReader("{"))
		if r.status != 400 {
			t.Fatalf("status %d, want 400", r.status)
		}
		checkCORS(t, r)
	})
	preflights := []struct {
		name, path, methods string
	}{
		{"operation", "/v1/version", "GET, HEAD, POST, OPTIONS"},
		{"healthz", "/healthz", "GET, HEAD, OPTIONS"},
	}
	for _, tc := range preflights {
		t.Run("preflight "+tc.name, func(t *testing.T) {
			r := tg.do(t, http.MethodOptions, tc.path, map[string]string{
				"Origin":                         "https://docs.example.com",
				"Access-Control-Request-Method":  "POST",
				"Access-Control-Request-Headers": "content-type",
			}, nil)
			if r.status != http.StatusNoContent {
				t.Fatalf("OPTIONS %s: status %d, want 204", tc.path, r.status)
			}
			checkCORS(t, r)
			if got := r.header.Get("Access-Control-Allow-Methods"); got != tc.methods {
				t.Errorf("Access-Control-Allow-Methods = %q, want %q", got, tc.methods)
			}
			if got := strings.ToLower(r.header.Get("Access-Control-Allow-Headers")); !strings.Contains(got, "content-type") {
				t.Errorf("Access-Control-Allow-Headers = %q, want it to allow content-type", got)
			}
			if r.header.Get("Access-Control-Max-Age") == "" {
				t.Errorf("no Access-Control-Max-Age: every call would be preflighted again")
			}
		})
	}
}

func checkCORS(t *testing.T, r reply) {
	t.Helper()
	if got := r.header.Get("Access-Control-Allow-Origin"); got != "*" {
		t.Errorf("Access-Control-Allow-Origin = %q, want *", got)
	}
	if got := r.header.Get("Access-Control-Allow-Credentials"); got != "" {
		t.Errorf("Access-Control-Allow-Credentials = %q, want none", got)
	}
}

func testConcurrent(t *testing.T, tg *target) {
	op := "version"
	if playground.Lookup("validate") != nil {
		op = "validate"
	}
	body := sample(t, op)
	want := tg.post(t, "/v1/"+op, body)
	if want.status != 200 {
		t.Fatalf("status %d", want.status)
	}
	const workers, each = 8, 6
	var wg sync.WaitGroup
	errs := make(chan string, workers*each)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				req, _ := http.NewRequest(http.MethodPost, tg.base+"/v1/"+op, strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				resp, err := tg.client.Do(req)
				if err != nil {
					errs <- err.Error()
					continue
				}
				b, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != 200 || !bytes.Equal(b, want.body) {
					errs <- fmt.Sprintf("status %d, err %v, body %.200s", resp.StatusCode, err, b)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// checkJSONResponse checks what every response of the API has in common.
func checkJSONResponse(t *testing.T, r reply) {
	t.Helper()
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	if !json.Valid(r.body) {
		t.Errorf("the body is not JSON: %.300s", r.body)
	}
	checkCORS(t, r)
	// Errors explain themselves without the server's insides.
	for _, leak := range []string{"goroutine ", ".go:", "panic("} {
		if bytes.Contains(r.body, []byte(leak)) {
			t.Errorf("the body leaks %q: %.300s", leak, r.body)
		}
	}
}

func checkError(t *testing.T, r reply, code string) {
	t.Helper()
	var e playground.ErrorResponse
	if err := json.Unmarshal(r.body, &e); err != nil || e.Error == nil {
		t.Fatalf("not an error body: %s", r.body)
	}
	if e.Error.Code != code {
		t.Errorf("code = %q, want %q (message %q)", e.Error.Code, code, e.Error.Message)
	}
	if e.Error.Message == "" {
		t.Errorf("the error has no message")
	}
}

func decode(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decoding %.200s: %v", b, err)
	}
	return v
}

// jsonDiff describes the first difference between two decoded JSON values,
// skipping the given JSON pointers.
func jsonDiff(want, got any, skip []string) string {
	var walk func(path string, a, b any) string
	walk = func(path string, a, b any) string {
		if slices.Contains(skip, path) {
			return ""
		}
		switch a := a.(type) {
		case map[string]any:
			bm, ok := b.(map[string]any)
			if !ok {
				return fmt.Sprintf("%s: want an object, got %v", path, b)
			}
			for k := range a {
				if d := walk(path+"/"+k, a[k], bm[k]); d != "" {
					return d
				}
			}
			for k := range bm {
				if _, ok := a[k]; !ok && !slices.Contains(skip, path+"/"+k) {
					return fmt.Sprintf("%s/%s: unexpected", path, k)
				}
			}
			return ""
		case []any:
			bs, ok := b.([]any)
			if !ok || len(bs) != len(a) {
				return fmt.Sprintf("%s: want %d items, got %v", path, len(a), b)
			}
			for i := range a {
				if d := walk(fmt.Sprintf("%s/%d", path, i), a[i], bs[i]); d != "" {
					return d
				}
			}
			return ""
		}
		if !reflect.DeepEqual(a, b) {
			return fmt.Sprintf("%s: want %v, got %v", path, a, b)
		}
		return ""
	}
	return walk("", want, got)
}

// syncBuffer is a bytes.Buffer a logger may write from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuffer) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Len()
}
