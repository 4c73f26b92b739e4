//go:build !nocel && !noavro && !noudf

package playground

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestDownstream checks when the previews run the pipeline and what they
// write: the contract corpus (pipeline-*.txtar) holds the full answers.
func TestDownstream(t *testing.T) {
	const head = "name: projects/p/subscriptions/s\ntopic: projects/p/topics/t\n"
	const storage = "cloudStorageConfig:\n  bucket: my-bucket\n"
	const avro = storage + "  avroConfig: {}\n"
	const dropAll = "messageTransforms:\n  - javascriptUdf:\n      functionName: f\n      code: 'function f(m) { return null; }'\n"
	const upper = "messageTransforms:\n  - javascriptUdf:\n      functionName: f\n      code: 'function f(m) { m.data = m.data.toUpperCase(); return m; }'\n"
	const disabled = "messageTransforms:\n  - disabled: true\n    javascriptUdf:\n      functionName: f\n      code: 'function f(m) { return null; }'\n"
	const messages = `[{"text":"a","attributes":{"k":"1"}},{"text":"b","attributes":{"k":"2"}},{"text":"c"}]`
	cases := []struct {
		name, op, config string
		// pipeline is false when the previews must write the samples as
		// published, with no pipeline in the answer.
		pipeline bool
		written  []int
		// contents is the text files' contents joined by "|" (names), or
		// whether a sample file is written (schema: "ocf" or "").
		contents string
	}{
		{"no transforms, no filter", "names", head + storage, false, nil, "a\nb\nc"},
		{"a disabled UDF", "names", head + storage + disabled, false, nil, "a\nb\nc"},
		{"an invalid filter selects nothing", "names", head + "filter: 'attributes.k ='\n" + storage, false, nil, "a\nb\nc"},
		{"the filter alone", "names", head + "filter: attributes.k = \"2\"\n" + storage, true, []int{1}, "b"},
		{"a UDF changes the data", "names", head + storage + upper, true, []int{0, 1, 2}, "A\nB\nC"},
		{"every message dropped: no file", "names", head + storage + dropAll, true, []int{}, ""},
		{"every message dropped: no sample file", "schema", head + avro + dropAll, true, []int{}, ""},
		{"the filter on the transformed message", "schema", head + "filter: attributes:k\n" + avro + upper, true, []int{0, 1}, "ocf"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := map[string]any{"text": tc.config, "format": "yaml", "messages": json.RawMessage(messages), "time": "2024-05-01T12:00:00Z"}
			if tc.op == "names" {
				req["uuid"] = "u"
			}
			body, _ := json.Marshal(req)
			out, ok := Call(tc.op, body)
			if !ok {
				t.Fatalf("failed: %s", out)
			}
			var got struct {
				Pipeline *Pipeline     `json:"pipeline"`
				Contents *FileContents `json:"contents"`
				OCF      []byte        `json:"ocf"`
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			if (got.Pipeline != nil) != tc.pipeline {
				t.Fatalf("pipeline %+v, want present: %v", got.Pipeline, tc.pipeline)
			}
			if got.Pipeline != nil && !slices.Equal(got.Pipeline.Written, tc.written) {
				t.Errorf("written %v, want %v", got.Pipeline.Written, tc.written)
			}
			var contents string
			switch {
			case tc.op == "schema" && len(got.OCF) > 0:
				contents = "ocf"
			case got.Contents != nil:
				var files []string
				for _, f := range got.Contents.Text {
					files = append(files, f.Text)
				}
				contents = strings.Join(files, "|")
			}
			if contents != tc.contents {
				t.Errorf("contents %q, want %q", contents, tc.contents)
			}
		})
	}
}
