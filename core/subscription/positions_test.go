package subscription

import (
	"testing"

	"github.com/subplay/subplay/core/diag"
)

// TestPositions checks that findings point at the user's own line and
// column, in JSON and in YAML, for values, keys and missing fields.
func TestPositions(t *testing.T) {
	cases := []struct {
		name, in       string
		code           string
		line, col, end int // end is the end column on the same line (0: not checked)
	}{
		{"json value", "{\n  \"name\": \"projects/my-project/subscriptions/sub-1\",\n  \"topic\": \"projects/my-project/topics/t-1\",\n  \"ackDeadlineSeconds\": 601\n}",
			"value-too-large", 4, 25, 28},
		{"json unknown key", "{\"topic\": \"projects/my-project/topics/t-1\", \"ackDeadline\": 5}", "unknown-field", 1, 45, 58},
		{"json inside a string", `{"topic": "projects/my-project/topics/t-1", "bigqueryConfig": {"table": "my-project:ds.t"}}`,
			"bigquery-table", 1, 84, 85},
		{"json missing field points at the parent key", "{\n  \"topic\": \"projects/my-project/topics/t-1\",\n  \"cloudStorageConfig\": {}\n}",
			"missing-field", 3, 3, 23},
		{"yaml value", "topic: projects/my-project/topics/t-1\nretryPolicy:\n  minimumBackoff: 700s\n", "value-too-large", 3, 19, 23},
		{"yaml quoted value", "topic: projects/my-project/topics/t-1\nmessageRetentionDuration: '7d'\n", "duration-format", 2, 27, 31},
		{"yaml inside a plain string", "topic: projects/my-project/topics/t-1\nname: projects/My-Project/subscriptions/s-1\n", "resource-name", 2, 16, 17},
		{"yaml multi-byte before", "topic: projects/my-project/topics/t-1\nlabels: {ключ: Значение}\n", "label-value", 2, 16, 24},
		{"crlf", "{\r\n\"topic\": \"projects/my-project/topics/t-1\",\r\n\"ackDeadlineSeconds\": 5\r\n}", "value-too-small", 3, 23, 24},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ds := Decode("t", tc.in, "").Validate()
			var d *diag.Diagnostic
			for i := range ds {
				if ds[i].Code == tc.code {
					d = &ds[i]
					break
				}
			}
			if d == nil {
				t.Fatalf("no %s diagnostic:\n%s", tc.code, dump(ds))
			}
			if d.Line != tc.line || d.Column != tc.col || (tc.end != 0 && (d.EndLine != tc.line || d.EndColumn != tc.end)) {
				t.Errorf("%s at %d:%d-%d:%d, want %d:%d-%d:%d", tc.code, d.Line, d.Column, d.EndLine, d.EndColumn, tc.line, tc.col, tc.line, tc.end)
			}
		})
	}
}

func TestObjectInputHasNoPositions(t *testing.T) {
	ds := DecodeObject([]byte(`{"topic": "projects/my-project/topics/t-1", "ackDeadlineSeconds": 601}`)).Validate()
	if len(ds) == 0 {
		t.Fatal("expected findings")
	}
	for _, d := range ds {
		if d.Line != 0 || d.Column != 0 {
			t.Errorf("%s has a position %d:%d, but the input was an object", d.Code, d.Line, d.Column)
		}
		if d.Path == "" {
			t.Errorf("%s has no path", d.Code)
		}
	}
}
