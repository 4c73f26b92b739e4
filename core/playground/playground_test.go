package playground

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/limits"
)

func call(t *testing.T, op, body string) (map[string]any, bool) {
	t.Helper()
	out, ok := Call(op, []byte(body))
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("%s: response is not JSON: %v\n%s", op, err, out)
	}
	return m, ok
}

// wantCode calls op with body and checks that it answers the error code,
// or answers at all when code is "". A needs-module answer must name
// exactly needs (in any order), and say it in the message too.
func wantCode(t *testing.T, op, body, code string, needs ...string) {
	t.Helper()
	m, ok := call(t, op, body)
	switch {
	case code == "" && !ok:
		t.Fatalf("%s failed: %v", op, m)
	case code != "" && (ok || errorCode(m) != code):
		t.Fatalf("%s: got %v, want error %s", op, m, code)
	case code == CodeNeedsModule:
		e := m["error"].(map[string]any)
		var got []string
		list, _ := e["needs"].([]any)
		for _, n := range list {
			s, _ := n.(string)
			got = append(got, s)
		}
		want := slices.Sorted(slices.Values(needs))
		if !slices.Equal(got, want) {
			t.Fatalf("%s: needs %q, want %q (%v)", op, got, want, m)
		}
	}
}

// lacks holds the Needs values this test binary's build leaves out
// (lacks_no*_test.go fill it in from their build tags).
var lacks = map[string]bool{}

// ifLacking is needs, plus each of maybe that this build lacks: what a
// needs-module answer names when the request needs maybe only for a part
// another tag also leaves out.
func ifLacking(needs []string, maybe ...string) []string {
	out := slices.Clone(needs)
	for _, n := range maybe {
		if lacks[n] {
			out = append(out, n)
		}
	}
	return out
}

func errorCode(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	s, _ := e["code"].(string)
	return s
}

func TestBadRequests(t *testing.T) {
	cases := []struct {
		name, op, body, code string
	}{
		{"unknown operation", "frobnicate", `{}`, "unknown-operation"},
		{"malformed request", "validate", `{"text": `, "bad-request"},
		{"unknown request field", "validate", `{"txt": "{}"}`, "bad-request"},
		{"wrong field type", "validate", `{"text": 5}`, "bad-request"},
		{"no configuration", "validate", `{}`, "bad-request"},
		{"two configurations", "validate", `{"text": "{}", "config": {}}`, "bad-request"},
		{"unknown format", "validate", `{"text": "{}", "format": "toml"}`, "bad-request"},
		{"two values", "validate", `{"text": "{}"} {}`, "bad-request"},
		{"bad old", "validate", `{"text": "{}", "old": {}}`, "bad-request"},
		{"huge request", "validate", `{"text": "` + strings.Repeat("x", limits.RequestBytes) + `"}`, "bad-request"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, ok := call(t, tc.op, tc.body)
			if ok {
				t.Fatalf("succeeded: %v", m)
			}
			if got := errorCode(m); got != tc.code {
				t.Errorf("error code %q, want %q (%v)", got, tc.code, m)
			}
		})
	}
}

func TestFindingsAreNotErrors(t *testing.T) {
	// A broken configuration is a normal response with diagnostics.
	for _, body := range []string{
		`{"text": "{\"ackDeadlineSeconds\": "}`,
		`{"text": "", "format": "yaml"}`,
		`{"text": "` + strings.Repeat("[", 100) + `"}`,
		`{"config": {"ackDeadlineSeconds": 5}}`,
		`{"config": [1, 2]}`,
	} {
		m, ok := call(t, "validate", body)
		if !ok {
			t.Errorf("%s: failed: %v", body, m)
			continue
		}
		if m["valid"] != false || len(m["diagnostics"].([]any)) == 0 {
			t.Errorf("%s: want invalid with diagnostics, got %v", body, m)
		}
	}
}

func TestValidateResponseShape(t *testing.T) {
	m, ok := call(t, "validate", `{"text": "{\n  \"topic\": \"projects/my-project/topics/t-1\",\n  \"ackDeadlineSeconds\": 700\n}"}`)
	if !ok {
		t.Fatal(m)
	}
	var d map[string]any
	for _, x := range m["diagnostics"].([]any) {
		if x.(map[string]any)["code"] == "value-too-large" {
			d = x.(map[string]any)
		}
	}
	if d == nil {
		t.Fatalf("no value-too-large diagnostic: %v", m)
	}
	for k, want := range map[string]any{"severity": "error", "code": "value-too-large", "path": "/ackDeadlineSeconds", "line": 3.0, "column": 25.0} {
		if d[k] != want {
			t.Errorf("diagnostic %s = %v, want %v", k, d[k], want)
		}
	}
	if m["deliveryType"] != "pull" || m["effective"] == nil {
		t.Errorf("want deliveryType pull and effective settings: %v", m)
	}
	counts := m["counts"].(map[string]any)
	if counts["errors"] != 1.0 {
		t.Errorf("counts = %v", counts)
	}
}

func TestValidateOld(t *testing.T) {
	m, _ := call(t, "validate", `{"config": {"topic": "projects/my-project/topics/t-1", "filter": "attributes:a"},
		"old": {"config": {"topic": "projects/my-project/topics/t-1", "filter": "attributes:b"}}}`)
	found := false
	for _, d := range m["diagnostics"].([]any) {
		if d.(map[string]any)["code"] == "immutable-field" {
			found = true
		}
	}
	if !found || m["valid"] != false {
		t.Errorf("want an immutable-field error: %v", m)
	}
}

func TestEffectiveSettings(t *testing.T) {
	m, ok := call(t, "effective", `{"text": "topic: projects/my-project/topics/t-1\ncloudStorageConfig:\n  bucket: my-bucket\n"}`)
	if !ok {
		t.Fatal(m)
	}
	settings := map[string]map[string]any{}
	for _, s := range m["settings"].([]any) {
		s := s.(map[string]any)
		settings[s["path"].(string)] = s
	}
	md := settings["/cloudStorageConfig/maxDuration"]
	if md == nil || md["value"] != "300s" || md["origin"] != "default" {
		t.Fatalf("maxDuration setting = %v", md)
	}
	f := md["field"].(map[string]any)
	if f["min"] != "60s" || f["max"] != "600s" || f["help"] == "" {
		t.Errorf("field metadata = %v", f)
	}
	if _, push := settings["/pushConfig/pushEndpoint"]; push {
		t.Error("push settings listed for a Cloud Storage subscription")
	}
	if s := settings["/cloudStorageConfig/maxBytes"]; s == nil || s["origin"] != nil {
		t.Errorf("maxBytes (unset, no default) = %v", s)
	}
}

func TestDescribeListsTheRuleTable(t *testing.T) {
	m, ok := call(t, "describe", `{}`)
	if !ok {
		t.Fatal(m)
	}
	n := 0
	for _, f := range m["fields"].([]any) {
		f := f.(map[string]any)
		if f["help"] == "" || f["source"] == "" {
			t.Errorf("%v has no help or source", f["path"])
		}
		n++
	}
	if n < 50 {
		t.Errorf("only %d fields described", n)
	}
}

func TestPanicsAreRecovered(t *testing.T) {
	register("test-panic", "panics, for the test", func(*struct{}) (*struct{}, error) { panic("boom") })
	defer delete(ops, "test-panic")
	var hooked string
	PanicHook = func(op string, v any, stack []byte) { hooked = op }
	defer func() { PanicHook = nil }()
	m, ok := call(t, "test-panic", `{}`)
	if ok || errorCode(m) != "internal" {
		t.Errorf("got %v", m)
	}
	if hooked != "test-panic" {
		t.Error("PanicHook not called")
	}
	if msg := m["error"].(map[string]any)["message"].(string); strings.Contains(msg, "goroutine") {
		t.Errorf("the error leaks a stack: %s", msg)
	}
}

// TestExamplesValidate runs every example through the contract, as the
// page's gallery does.
func TestExamplesValidate(t *testing.T) {
	files, _ := filepath.Glob("../subscription/testdata/examples/*")
	if len(files) < 8 {
		t.Fatalf("only %d examples", len(files))
	}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := json.Marshal(map[string]string{"text": string(text), "file": filepath.Base(f)})
		m, ok := call(t, "validate", string(body))
		if !ok || m["valid"] != true {
			t.Errorf("%s: %v", f, m)
		}
		for _, d := range m["diagnostics"].([]any) {
			if sev := d.(map[string]any)["severity"]; sev != "info" {
				t.Errorf("%s: %v", f, d)
			}
		}
	}
}
