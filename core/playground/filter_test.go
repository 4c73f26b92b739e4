package playground

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag"
)

// These tests hold in every build, with or without the evaluator.

func filterCall(t *testing.T, body string) *FilterResponse {
	t.Helper()
	out, ok := Call("filter", []byte(body))
	if !ok {
		t.Fatalf("filter %s failed: %s", body, out)
	}
	var r FilterResponse
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func diagAt(d diag.Diagnostic) string {
	return string(d.Severity) + ":" + d.Code + "@" + d.Path + ":" + itoa(d.Line) + ":" + itoa(d.Column)
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestFilterBadRequests(t *testing.T) {
	cases := []struct{ name, body string }{
		{"no filter and no configuration", `{"messages": []}`},
		{"messages twice", `{"filter": "", "messages": [], "messagesText": "[]"}`},
		{"unknown messages format", `{"filter": "", "messagesText": "[]", "messagesFormat": "xml"}`},
		{"messages not JSON", `{"filter": "", "messages": [}`},
		{"unknown field", `{"filter": "", "filters": ""}`},
		{"filter not a string", `{"filter": 5}`},
		{"two configurations", `{"text": "{}", "config": {}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, ok := call(t, "filter", tc.body)
			if ok || errorCode(m) != "bad-request" {
				t.Errorf("want a bad-request error, got %v", m)
			}
		})
	}
}

func TestFilterInvalid(t *testing.T) {
	r := filterCall(t, `{"filter": "attributes:a and\nattributes.b == \"c\"", "messages": [{"attributes": {"a": "1"}}]}`)
	if r.Valid || r.Evaluated || r.Canonical != "" || r.CEL != "" {
		t.Errorf("invalid filter: %+v", r)
	}
	var got []string
	for _, d := range r.Diagnostics {
		got = append(got, diagAt(d))
	}
	want := []string{"error:filter-case@:1:14", "error:filter-unsupported-operator@:2:14"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("diagnostics %v, want %v", got, want)
	}
	if len(r.Results) != 1 || r.Results[0].Reason != "" {
		t.Errorf("results %+v: one per message, not evaluated", r.Results)
	}
}

func TestFilterFromConfig(t *testing.T) {
	cases := []struct {
		name, body string
		want       []string // diagnostics
		canonical  string
	}{
		{"json text with escapes", `{"text": "{\n  \"topic\": \"projects/p/topics/t\",\n  \"filter\": \"attributes.\\\"a.b\\\" = \\\"x\\\" and attributes:c\"\n}"}`,
			// The filter's "and" is at byte 23 of the filter; in the file,
			// the quote opening the string and the four escaped quotes
			// before it push it to column 41.
			[]string{"error:filter-case@/filter:3:41"}, ""},
		{"yaml text", `{"text": "topic: projects/p/topics/t\nfilter: attributes:a OR attributes:b AND attributes:c\n", "format": "yaml"}`,
			[]string{"error:filter-mixed-and-or@/filter:2:38"}, ""},
		{"valid filter in yaml", `{"text": "topic: projects/p/topics/t\nfilter: '-attributes:a'\n"}`, nil, "NOT attributes:a"},
		{"no filter in the configuration", `{"text": "topic: projects/p/topics/t\n"}`, nil, ""},
		{"configuration as an object: paths only", `{"config": {"topic": "projects/p/topics/t", "filter": "attributes:a OR"}}`,
			[]string{"error:filter-missing-condition@/filter:0:0"}, ""},
		{"the filter field wins over the configuration", `{"filter": "attributes:z", "config": {"filter": "nonsense"}}`, nil, "attributes:z"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := filterCall(t, tc.body)
			var got []string
			for _, d := range r.Diagnostics {
				if d.Severity != diag.Info {
					got = append(got, diagAt(d))
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("diagnostics %v, want %v", got, tc.want)
			}
			if r.Valid != (tc.want == nil) || r.Canonical != tc.canonical {
				t.Errorf("valid %v canonical %q, want %v %q", r.Valid, r.Canonical, tc.want == nil, tc.canonical)
			}
		})
	}
}

func TestFilterUndecodableConfig(t *testing.T) {
	r := filterCall(t, `{"text": "{\"filter\": "}`)
	if r.Valid || len(r.Diagnostics) == 0 || r.Diagnostics[0].Line != 1 {
		t.Errorf("want the configuration's own errors, got %+v", r)
	}
	r = filterCall(t, `{"text": "topic: projects/p/topics/t\nfilter: [a]\n", "messages": [{"text": "x"}]}`)
	if r.Valid || r.Evaluated || len(r.Diagnostics) != 1 || r.Diagnostics[0].Path != "/filter" || r.Diagnostics[0].Line != 2 {
		t.Errorf("a filter that is not a string is not a valid filter: %+v", r)
	}
}

func TestFilterMessageDiagnostics(t *testing.T) {
	r := filterCall(t, `{"filter": "attributes:a", "messagesText": "- attributes:\n    a: x\n- data: '!!'\n- {}\n", "messagesFormat": "yaml"}`)
	if len(r.Results) != 3 {
		t.Fatalf("%d results", len(r.Results))
	}
	want := [][]string{nil, {"error:message-data-base64@/1/data:3:9"}, {"error:message-empty@/2:4:3"}}
	for i, res := range r.Results {
		var got []string
		for _, d := range res.Diagnostics {
			got = append(got, diagAt(d))
		}
		if strings.Join(got, " ") != strings.Join(want[i], " ") || res.Index != i {
			t.Errorf("message %d: index %d, diagnostics %v, want %v", i, res.Index, got, want[i])
		}
	}
	r = filterCall(t, `{"filter": "", "messages": {"neither": "a list"}}`)
	if len(r.Results) != 1 || len(r.Results[0].Diagnostics) == 0 {
		t.Errorf("a lone object is one message; its unknown field is its own problem: %+v", r)
	}
	r = filterCall(t, `{"filter": "", "messages": 5}`)
	if len(r.Results) != 0 || len(r.MessageDiagnostics) != 1 || r.MessageDiagnostics[0].Code != "messages-shape" {
		t.Errorf("want a messages-shape diagnostic, got %+v", r)
	}
}
