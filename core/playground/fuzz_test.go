package playground_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/diag/diagtest"
	"github.com/subplay/subplay/core/playground"
	"github.com/subplay/subplay/core/playground/hostile"
	"github.com/subplay/subplay/internal/golden"
)

// FuzzCall runs every operation end to end through Call, the function the
// page, the HTTP API and the CLI all go through, on request bodies grown
// from the contract corpus: whatever the bytes, the answer is bounded JSON,
// an error is the request's fault (never "internal"), and every diagnostic
// is well-formed and placed inside the input it names.
func FuzzCall(f *testing.F) {
	for _, c := range golden.Cases(f) {
		f.Add(c.Op, c.Request)
	}
	for _, s := range [][2]string{{"validate", ""}, {"validate", `{"text":`}, {"nope", `{}`}, {"filter", `{"filter":1}`},
		{"schema", `{"text":"{}","messages":[1],"messagesText":"x"}`}, {"names", `{"text":"{}"} {}`}} {
		f.Add(s[0], []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, op string, body []byte) {
		out, ok := playground.Call(op, body)
		checkCall(t, op, body, out, ok)
	})
}

// FuzzCallText puts the fuzzer's text in one string field of a contract
// request (the configuration, the messages, a schema, the filter, a format,
// a time), so that every input of every operation gets hostile text in a
// request that is otherwise well-formed JSON.
func FuzzCallText(f *testing.F) {
	cases := golden.Cases(f)
	for i, c := range cases {
		req, keys := stringFields(c.Request)
		for j, k := range keys {
			var s string
			json.Unmarshal(req[k], &s)
			f.Add(uint16(i), uint8(j), s)
		}
	}
	f.Fuzz(func(t *testing.T, ci uint16, fi uint8, text string) {
		c := cases[int(ci)%len(cases)]
		req, keys := stringFields(c.Request)
		if len(keys) == 0 {
			return
		}
		req[keys[int(fi)%len(keys)]], _ = json.Marshal(text)
		body, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		out, ok := playground.Call(c.Op, body)
		checkCall(t, c.Op, body, out, ok)
	})
}

// stringFields decodes a request object and lists its string fields, sorted.
func stringFields(body []byte) (map[string]json.RawMessage, []string) {
	var req map[string]json.RawMessage
	json.Unmarshal(body, &req)
	var keys []string
	for k, v := range req {
		if len(v) > 0 && v[0] == '"' {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return req, keys
}

// inputFields names the request field that holds each input's text.
var inputFields = map[string][]string{
	diag.InputConfig:      {"text"},
	diag.InputMessages:    {"messagesText", "messages"},
	diag.InputTopicSchema: {"topicSchema"},
	diag.InputTableSchema: {"tableSchema"},
	diag.InputFilter:      {"filter"},
}

// maxErrorBytes bounds an error response: a code and one sentence that
// quotes at most a short piece of the request.
const maxErrorBytes = 4096

// checkCall checks one answer of Call to op with body.
func checkCall(t *testing.T, op string, body, out []byte, ok bool) {
	t.Helper()
	if len(out) > hostile.BudgetOutput {
		t.Fatalf("%s: a response of %d bytes", op, len(out))
	}
	if !ok {
		var e playground.ErrorResponse
		if err := json.Unmarshal(out, &e); err != nil || e.Error == nil {
			t.Fatalf("%s: the error is not JSON: %v\n%.500s", op, err, out)
		}
		d := diag.Diagnostic{Severity: diag.Error, Code: e.Error.Code, Message: e.Error.Message}
		if e.Error.Code == "internal" || len(out) > maxErrorBytes {
			t.Fatalf("%s: error of %d bytes: %.500s", op, len(out), out)
		}
		if p := diagtest.WordsProblem(d); p != "" {
			t.Fatalf("%s: error %s: %s", op, e.Error.Code, p)
		}
		return
	}
	var resp any
	if err := json.Unmarshal(out, &resp); err != nil {
		t.Fatalf("%s: the response is not JSON: %v\n%.500s", op, err, out)
	}
	var req map[string]json.RawMessage
	json.Unmarshal(body, &req)
	texts := map[string]string{}
	for input, fields := range inputFields {
		for _, f := range fields {
			raw, has := req[f]
			if !has {
				continue
			}
			if f == "messages" {
				// Read as JSON as it is, whatever it holds: a string
				// there is not text but a value that is not a list.
				texts[input] = string(raw)
			} else if s := ""; json.Unmarshal(raw, &s) == nil {
				texts[input] = s
			}
			break
		}
	}
	walkDiagnostics(t, resp, "", func(at string, n int, raw []byte) {
		if n > diag.MaxDiagnostics+1 {
			t.Fatalf("%s: %d diagnostics at %s", op, n, at)
		}
		var d diag.Diagnostic
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatalf("%s: the diagnostic at %s does not decode: %v", op, at, err)
		}
		text, has := texts[d.Input]
		var p string
		if has {
			p = diagtest.Problem(text, d)
		} else {
			p = diagtest.WordsProblem(d)
		}
		if p != "" {
			t.Fatalf("%s: diagnostic %s at %s (input %q): %s\n%.300s", op, d.Code, at, d.Input, p, raw)
		}
	})
}

// walkDiagnostics calls f for every object of v shaped like a diagnostic
// (a severity and a code), with the length of the list holding it.
func walkDiagnostics(t *testing.T, v any, at string, f func(at string, n int, raw []byte)) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			walkDiagnostics(t, x, at+"/"+k, f)
		}
	case []any:
		for _, x := range v {
			m, isMap := x.(map[string]any)
			if _, sev := m["severity"]; isMap && sev && m["code"] != nil {
				raw, _ := json.Marshal(m)
				f(at, len(v), raw)
				continue
			}
			walkDiagnostics(t, x, at+"/*", f)
		}
	}
}
