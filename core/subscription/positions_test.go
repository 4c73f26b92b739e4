package subscription

import (
	"strings"
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
		{"wrapped subscription: the wrapper's key, not updateMask", "{\"updateMask\": \"ackDeadlineSeconds\", \"subscription\": {\"topic\": \"projects/my-project/topics/t-1\"}}",
			"wrapped-subscription", 1, 38, 52},
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

// TestMistypedFieldIsNotValid: a misspelt ackDeadlineSeconds is an error,
// so the configuration is not valid, and the effective deadline says it is
// the default, not a value that was set.
func TestMistypedFieldIsNotValid(t *testing.T) {
	c := Decode("t", base(`"ackDeadlineSecond": 60`), "")
	if c.Valid() {
		t.Error("valid with a misspelt field")
	}
	var hint string
	for _, d := range c.Validate() {
		if d.Code == "unknown-field" {
			hint = d.Hint
		}
	}
	if hint != `did you mean "ackDeadlineSeconds"?` {
		t.Errorf("hint %q", hint)
	}
	e := c.Effective()
	v, _ := e.Value("/ackDeadlineSeconds")
	if o := e.Origins["/ackDeadlineSeconds"]; o != Default || *v.(*Int32) != 10 {
		t.Errorf("ackDeadlineSeconds = %v (%s), want the default 10", *v.(*Int32), o)
	}
	if _, ok := e.Origins["/ackDeadlineSecond"]; ok {
		t.Error("the unknown field has an origin")
	}
}

// TestLongUnknownKeyStaysShort: a huge unknown key gives a short message
// and hint, and a path without the key.
func TestLongUnknownKeyStaysShort(t *testing.T) {
	key := strings.Repeat("k", 900_000)
	ds := Decode("t", `{"topic": "projects/my-project/topics/t-1", "retryPolicy": {"`+key+`": 1}}`, "").Validate()
	found := false
	for _, d := range ds {
		if len(d.Message)+len(d.Hint)+len(d.Path) > 1000 {
			t.Errorf("%s: %d bytes of message, %d of hint, %d of path", d.Code, len(d.Message), len(d.Hint), len(d.Path))
		}
		if d.Code == "unknown-field" {
			found = true
			if d.Path != "/retryPolicy" || d.Column != 61 {
				t.Errorf("path %q column %d, want /retryPolicy at column 61", d.Path, d.Column)
			}
		}
	}
	if !found {
		t.Fatalf("no unknown-field:\n%s", dump(ds))
	}
}
