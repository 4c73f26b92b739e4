package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/subplay/subplay/core/playground"
)

// serve runs one request through a handler whose operations are run by
// run, and returns the recorded response and what was logged.
func serve(t *testing.T, run func(context.Context, *playground.Op, []byte) ([]byte, error), method, path, body string) (*httptest.ResponseRecorder, string) {
	t.Helper()
	var logs bytes.Buffer
	h := Handler(WithLogger(log.New(&logs, "", 0))).(*handler)
	if run != nil {
		h.run = run
	}
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec, logs.String()
}

func TestFailures(t *testing.T) {
	tests := []struct {
		name     string
		run      func(context.Context, *playground.Op, []byte) ([]byte, error)
		status   int
		code     string
		logged   string // a substring the log must hold; "" means nothing logged
		leakFree string // a substring the body must not hold
	}{
		{"a panic in the handler", func(context.Context, *playground.Op, []byte) ([]byte, error) { panic("boom in the handler") },
			500, "internal", "boom in the handler", "boom"},
		{"an internal error", func(context.Context, *playground.Op, []byte) ([]byte, error) {
			return nil, &playground.Error{Code: "internal", Message: "operation failed: index out of range"}
		}, 500, "internal", "index out of range", ""},
		{"an error that is not a playground error", func(context.Context, *playground.Op, []byte) ([]byte, error) {
			return nil, errors.New("disk on fire")
		}, 500, "internal", "disk on fire", ""},
		{"an unknown playground code", func(context.Context, *playground.Op, []byte) ([]byte, error) {
			return nil, &playground.Error{Code: "teapot", Message: "short and stout"}
		}, 500, "teapot", "short and stout", ""},
		{"a bad request", func(context.Context, *playground.Op, []byte) ([]byte, error) {
			return nil, &playground.Error{Code: "bad-request", Message: "field \"x\" must be a string"}
		}, 400, "bad-request", "", ""},
		{"an unknown operation from the playground", func(context.Context, *playground.Op, []byte) ([]byte, error) {
			return nil, &playground.Error{Code: "unknown-operation", Message: "gone"}
		}, 404, "unknown-operation", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec, logs := serve(t, tc.run, "POST", "/v1/version", "{}")
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d; body %s", rec.Code, tc.status, rec.Body)
			}
			var e playground.ErrorResponse
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error == nil {
				t.Fatalf("not a JSON error: %s", rec.Body)
			}
			if e.Error.Code != tc.code {
				t.Errorf("code %q, want %q", e.Error.Code, tc.code)
			}
			if tc.logged == "" && logs != "" {
				t.Errorf("logged %q, want nothing", logs)
			}
			if tc.logged != "" && !strings.Contains(logs, tc.logged) {
				t.Errorf("log %q does not mention %q", logs, tc.logged)
			}
			if tc.leakFree != "" && strings.Contains(rec.Body.String(), tc.leakFree) {
				t.Errorf("the body shows %q: %s", tc.leakFree, rec.Body)
			}
			if rec.Header().Get("Access-Control-Allow-Origin") != "*" {
				t.Errorf("an error without CORS headers cannot be read by a page")
			}
		})
	}
}

// A needs-module refusal reaches an HTTP client whole, with the list of
// what the build lacks, as the wasm bridge gives it to the page's router.
func TestNeedsPassThrough(t *testing.T) {
	run := func(context.Context, *playground.Op, []byte) ([]byte, error) {
		return nil, &playground.Error{Code: playground.CodeNeedsModule, Message: "no engine here",
			Needs: []string{playground.NeedsHCL, playground.NeedsUDF}}
	}
	rec, _ := serve(t, run, "POST", "/v1/version", "{}")
	var e playground.ErrorResponse
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error == nil {
		t.Fatalf("not a JSON error: %s", rec.Body)
	}
	if e.Error.Code != playground.CodeNeedsModule || strings.Join(e.Error.Needs, ",") != "hcl,udf" {
		t.Errorf("got code %q needs %q, want needs-module with [hcl udf]: %s", e.Error.Code, e.Error.Needs, rec.Body)
	}
}

// A panic after the response started cannot change its status; it must
// still be logged and must not write a second body.
func TestPanicAfterWrite(t *testing.T) {
	var logs bytes.Buffer
	h := Handler(WithLogger(log.New(&logs, "", 0))).(*handler)
	h.run = func(context.Context, *playground.Op, []byte) ([]byte, error) { return []byte(`{}`), nil }
	rec := httptest.NewRecorder()
	w := &panickyWriter{ResponseRecorder: rec}
	req := httptest.NewRequest("POST", "/v1/version", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(w, req)
	if rec.Code != 200 || rec.Body.String() != "" {
		t.Errorf("status %d body %q, want the 200 that was already sent and nothing more", rec.Code, rec.Body)
	}
	if !strings.Contains(logs.String(), "connection lost") {
		t.Errorf("the panic was not logged: %q", logs.String())
	}
}

type panickyWriter struct{ *httptest.ResponseRecorder }

func (w *panickyWriter) Write([]byte) (int, error) { panic("connection lost") }

func TestCheckMediaType(t *testing.T) {
	tests := []struct {
		ct string
		ok bool
	}{
		{"application/json", true},
		{"application/json; charset=utf-8", true},
		{"Application/JSON; Charset=UTF-8", true},
		{"application/json;charset=\"utf-8\"", true},
		{"", false},
		{"text/json", false},
		{"application/json-patch+json", false},
		{"application/json; charset=utf-16", false},
		{"application/json; charset", false},
		{";;;", false},
	}
	for _, tc := range tests {
		t.Run(tc.ct, func(t *testing.T) {
			if got := checkMediaType(tc.ct) == ""; got != tc.ok {
				t.Errorf("checkMediaType(%q) accepts = %v, want %v (%s)", tc.ct, got, tc.ok, checkMediaType(tc.ct))
			}
		})
	}
}

// A refused type is quoted shortened: a header can be far longer than a
// message may be.
func TestCheckMediaTypeLong(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	for _, ct := range []string{"text/" + long, "application/json; charset=" + long} {
		if why := checkMediaType(ct); why == "" || len(why) > 300 {
			t.Errorf("a %d-byte type: %d-byte reason %.80q", len(ct), len(why), why)
		}
	}
}

// Types that exercise every rule of the schema generator.
type (
	inner struct {
		A string `json:"a"`
	}
	Embedded struct {
		E      int    `json:"e"`
		Shadow string `json:"shadow"`
	}
	tree struct {
		Children []*tree `json:"children,omitempty"`
	}
	marshalsToString struct{ n int }
	textual          struct{}
	sample           struct {
		Embedded
		*inner
		Shadow   bool              `json:"shadow"`
		Name     string            `json:"name"`
		Opt      *int32            `json:"opt,omitempty"`
		Ptr      *int64            `json:"ptr"`
		List     []string          `json:"list"`
		OptList  []float64         `json:"optList,omitempty"`
		Map      map[string]bool   `json:"map,omitzero"`
		Raw      json.RawMessage   `json:"raw,omitempty"`
		Any      any               `json:"any"`
		Bytes    []byte            `json:"bytes,omitempty"`
		When     time.Time         `json:"when"`
		Quoted   int64             `json:"quoted,string"`
		Custom   marshalsToString  `json:"custom"`
		Text     textual           `json:"text"`
		Tree     *tree             `json:"tree,omitempty"`
		Anon     struct{ X uint8 } `json:"anon"`
		Skipped  string            `json:"-"`
		unexport string
		NoTag    bool
	}
)

func (m marshalsToString) MarshalJSON() ([]byte, error) { return []byte(`"x"`), nil }
func (textual) MarshalText() ([]byte, error)            { return []byte("t"), nil }

func TestSchemaOf(t *testing.T) {
	set := newSchemaSet()
	ref := set.ref(reflect.TypeFor[sample]())
	if ref["$ref"] != "#/components/schemas/sample" {
		t.Fatalf("ref = %v", ref)
	}
	s := set.components["sample"]
	props := s["properties"].(Schema)
	tests := []struct {
		prop string
		want string // the property's schema as JSON; "" means absent
	}{
		{"e", `{"format":"int64","type":"integer"}`},
		{"a", `{"type":"string"}`},
		{"shadow", `{"type":"boolean"}`},
		{"name", `{"type":"string"}`},
		{"opt", `{"format":"int32","type":"integer"}`},
		{"ptr", `{"format":"int64","type":["integer","null"]}`},
		{"list", `{"items":{"type":"string"},"type":["array","null"]}`},
		{"optList", `{"items":{"type":"number"},"type":"array"}`},
		{"map", `{"additionalProperties":{"type":"boolean"},"type":"object"}`},
		{"raw", `{}`},
		{"any", `{}`},
		{"bytes", `{"contentEncoding":"base64","type":"string"}`},
		{"when", `{"format":"date-time","type":"string"}`},
		{"quoted", `{"type":"string"}`},
		{"custom", `{"type":"string"}`},
		{"text", `{"type":"string"}`},
		{"tree", `{"$ref":"#/components/schemas/tree"}`},
		{"anon", `{"additionalProperties":false,"properties":{"X":{"format":"int32","type":"integer"}},"required":["X"],"type":"object"}`},
		{"NoTag", `{"type":"boolean"}`},
		{"Skipped", ``},
		{"unexport", ``},
		{"inner", ``},
		{"Embedded", ``},
	}
	for _, tc := range tests {
		t.Run(tc.prop, func(t *testing.T) {
			got, ok := props[tc.prop]
			if tc.want == "" {
				if ok {
					t.Errorf("property %q present: %v", tc.prop, got)
				}
				return
			}
			b, _ := json.Marshal(got)
			if string(b) != tc.want {
				t.Errorf("got %s\nwant %s", b, tc.want)
			}
		})
	}
	req, _ := json.Marshal(s["required"])
	if want := `["NoTag","a","anon","any","custom","e","list","name","ptr","quoted","shadow","text","when"]`; string(req) != want {
		t.Errorf("required = %s\nwant       %s", req, want)
	}
	tr, _ := json.Marshal(set.components["tree"])
	if want := `{"additionalProperties":false,"properties":{"children":{"items":{"anyOf":[{"$ref":"#/components/schemas/tree"},{"type":"null"}]},"type":"array"}},"type":"object"}`; string(tr) != want {
		t.Errorf("tree = %s\nwant   %s", tr, want)
	}
}

// The generator must agree with encoding/json itself: every key the
// encoder writes for a value is a property, and every required property
// is written.
func TestSchemaMatchesEncoder(t *testing.T) {
	set := newSchemaSet()
	set.ref(reflect.TypeFor[sample]())
	s := set.components["sample"]
	v := sample{inner: &inner{A: "a"}}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	props := s["properties"].(Schema)
	for k := range m {
		if _, ok := props[k]; !ok {
			t.Errorf("the encoder writes %q; the schema does not list it", k)
		}
	}
	for _, r := range s["required"].([]string) {
		if _, ok := m[r]; !ok {
			t.Errorf("%q is required but the encoder left it out of %s", r, b)
		}
	}
}

func TestComponentNameClash(t *testing.T) {
	set := newSchemaSet()
	set.taken["inner"] = reflect.TypeFor[int]() // as if another package's "inner" came first
	ref := set.ref(reflect.TypeFor[inner]())
	if ref["$ref"] != "#/components/schemas/httpapi.inner" {
		t.Errorf("ref = %v, want the package-qualified name", ref)
	}
}

// FuzzHandler sends arbitrary requests: whatever arrives, the answer is
// JSON with CORS headers and never a server error.
func FuzzHandler(f *testing.F) {
	seeds := []struct{ method, path, ct, body string }{
		{"POST", "/v1/version", "application/json", "{}"},
		{"POST", "/v1/version", "application/json", `{"`},
		{"GET", "/v1/version", "", ""},
		{"GET", "/healthz", "", ""},
		{"HEAD", "/v1/openapi.json", "", ""},
		{"OPTIONS", "/v1/version", "", ""},
		{"PUT", "/v1/x", "text/plain", "x"},
		{"POST", "/v1/validate", "application/json; charset=utf-8", `{"text": "name: x\n", "format": "yaml"}`},
		{"POST", "/v1/effective", "application/json", `{"config": {"name": 1}}`},
		{"POST", "/v1/filter", "application/json", `{"filter": "attributes.a = \"b\""}`},
		{"POST", "/v1/", "application/json", `[[[[`},
		{"DELETE", "/", "", ""},
	}
	for _, s := range seeds {
		f.Add(s.method, s.path, s.ct, s.body)
	}
	// The time limits are an hour: with the server's own (10 s per
	// operation, 2 s in the queue) a costly input on a loaded machine got
	// a 503 timeout or busy, a failure that depends on the clock, not a
	// defect. Each operation's cost is bounded by steps and sizes, which
	// this target does check.
	h := Handler(WithLogger(log.New(&bytes.Buffer{}, "", 0)), WithTimeLimits(time.Hour, time.Hour))
	f.Fuzz(func(t *testing.T, method, path, ct, body string) {
		if !validMethod(method) || !strings.HasPrefix(path, "/") {
			return
		}
		req, err := http.NewRequest(method, "http://x"+path, strings.NewReader(body))
		if err != nil {
			return
		}
		req.Header.Set("Content-Type", ct)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %s: status %d: %s", method, path, rec.Code, rec.Body)
		}
		if rec.Header().Get("Access-Control-Allow-Origin") != "*" {
			t.Fatalf("no CORS header")
		}
		if rec.Code != http.StatusNoContent && method != "HEAD" && !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s %s: not JSON: %q", method, path, rec.Body)
		}
	})
}

func validMethod(m string) bool {
	if m == "" {
		return false
	}
	for _, r := range m {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}
