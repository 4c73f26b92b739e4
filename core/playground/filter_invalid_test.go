//go:build !nocel

package playground

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestInvalidMessagesGetNoVerdict holds the rule of outcomeInvalid in the
// three places that give sample messages a fate: a message with errors of
// its own gets no filter verdict, no transform runs on it, and no preview
// writes it, because the service would refuse to publish it. A message
// with only warnings is still published.
func TestInvalidMessagesGetNoVerdict(t *testing.T) {
	many := map[string]string{"k": "v"}
	for i := range 100 {
		many["a"+strconv.Itoa(i)] = "v"
	}
	manyJSON, _ := json.Marshal(map[string]any{"attributes": many})
	cases := []struct {
		name, message string
		invalid       bool
	}{
		{"an attribute value that is not a string", `{"attributes": {"k": 5}}`, true},
		{"data that is not base64", `{"data": "not base64!", "attributes": {"k": "v"}}`, true},
		{"an attribute key over the limit", `{"attributes": {"k": "v", "` + strings.Repeat("x", 257) + `": "v"}}`, true},
		{"an attribute value over the limit", `{"attributes": {"k": "` + strings.Repeat("x", 1025) + `"}}`, true},
		{"more attributes than allowed", string(manyJSON), true},
		{"an empty attribute key", `{"attributes": {"k": "v", "": "v"}}`, true},
		{"neither data nor attributes", `{}`, true},
		{"a publishTime that is not a time", `{"attributes": {"k": "v"}, "publishTime": "yesterday"}`, true},
		{"an ordering key over the limit", `{"attributes": {"k": "v"}, "orderingKey": "` + strings.Repeat("o", 1025) + `"}`, true},
		{"an unknown field is only a warning", `{"attributes": {"k": "v"}, "colour": "blue"}`, false},
	}
	const valid = `{"text": "a", "attributes": {"k": "v"}}`
	const cfg = "name: projects/p/subscriptions/s\ntopic: projects/p/topics/t\ncloudStorageConfig:\n  bucket: my-bucket\n"
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msgs := json.RawMessage("[" + valid + "," + tc.message + "]")
			wantOutcome, wantInvalid, wantWritten := "delivered", 0, []int{0, 1}
			if tc.invalid {
				wantOutcome, wantInvalid, wantWritten = outcomeInvalid, 1, []int{0}
			}

			f := filterCall(t, mustJSON(t, map[string]any{"filter": "attributes:k", "messages": msgs}))
			r := f.Results[1]
			if r.Outcome != wantOutcome || f.Invalid != wantInvalid || f.Delivered != 2-wantInvalid || f.Acked != 0 {
				t.Errorf("filter: outcome %q, %d delivered, %d acked, %d invalid", r.Outcome, f.Delivered, f.Acked, f.Invalid)
			}
			if tc.invalid && (r.Match != nil || len(r.Deciding) > 0 || r.Reason != invalidReason) {
				t.Errorf("filter: an invalid message got a verdict: %+v", r)
			}

			var tr TransformResponse
			callInto(t, "transform", map[string]any{"text": cfg + "filter: attributes:k\n", "format": "yaml", "messages": msgs}, &tr)
			x := tr.Results[1]
			if x.Outcome != wantOutcome || tr.Invalid != wantInvalid || tr.Delivered != 2-wantInvalid {
				t.Errorf("transform: outcome %q, %d delivered, %d invalid", x.Outcome, tr.Delivered, tr.Invalid)
			}
			if tc.invalid && (x.Match != nil || x.MatchOriginal != nil || x.Final != nil || len(x.Steps) > 0) {
				t.Errorf("transform: an invalid message went through: %+v", x)
			}

			// No transform and no filter: only the invalid message makes a
			// pipeline, and it is left out of the files.
			var n NamesResponse
			callInto(t, "names", map[string]any{"text": cfg, "format": "yaml", "messages": msgs, "time": "2024-05-01T12:00:00Z", "uuid": "u"}, &n)
			if !tc.invalid {
				if n.Pipeline != nil {
					t.Errorf("names: a pipeline with nothing to do: %+v", n.Pipeline)
				}
				return
			}
			p := n.Pipeline
			if p == nil || !slices.Equal(p.Written, wantWritten) || p.Messages[1].Outcome != outcomeInvalid || p.Invalid != 1 || p.Delivered != 1 {
				t.Fatalf("names: pipeline %+v", p)
			}
			if n.Summary == nil || n.Summary.Messages != 1 {
				t.Errorf("names: summary %+v, want one message written", n.Summary)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func callInto(t *testing.T, op string, req map[string]any, into any) {
	t.Helper()
	out, ok := Call(op, []byte(mustJSON(t, req)))
	if !ok {
		t.Fatalf("%s failed: %s", op, out)
	}
	if err := json.Unmarshal(out, into); err != nil {
		t.Fatal(err)
	}
}
