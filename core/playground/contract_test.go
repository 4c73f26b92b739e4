//go:build !nocel && !noavro && !noudf && !nohcl

// The corpus is the contract of the full build; the lean builds (nocel,
// noavro, noudf, nohcl) answer some of its requests otherwise, and have
// tests of their own (filter_nocel_test.go, schema_noavro_test.go, ...).

package playground

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	"github.com/subplay/subplay/internal/golden"
)

// TestContract runs the contract corpus (internal/golden) through Call,
// the function every entry goes through; the HTTP handler, the
// WebAssembly bridge and the CLI run the same corpus in their own tests.
func TestContract(t *testing.T) {
	for _, c := range golden.Cases(t) {
		t.Run(c.Name, func(t *testing.T) {
			out, ok := Call(c.Op, c.Request)
			c.Check(t, out)
			if again, _ := Call(c.Op, c.Request); !bytes.Equal(again, out) {
				t.Errorf("a second call answers differently: the case must fix the time and uuids\n%s\n%s", out, again)
			}
			if !ok {
				return
			}
			// The response decodes into the operation's type and encodes
			// back to the same JSON value (keys of free-form values may
			// come back sorted): the CLI prints text from it.
			resp := reflect.New(Lookup(c.Op).Response)
			if err := json.Unmarshal(out, resp.Interface()); err != nil {
				t.Fatalf("decoding into %s: %v", Lookup(c.Op).Response, err)
			}
			back, _ := json.Marshal(resp.Interface())
			var v, w any
			json.Unmarshal(out, &v)
			json.Unmarshal(back, &w)
			if !reflect.DeepEqual(v, w) {
				t.Errorf("decoding and encoding changes the response")
			}
			checkInputs(t, v, "")
		})
	}
}

// checkInputs fails for every diagnostic in a response that does not say
// which input it is about.
func checkInputs(t *testing.T, v any, at string) {
	switch v := v.(type) {
	case map[string]any:
		_, sev := v["severity"]
		_, code := v["code"]
		if sev && code && v["input"] == nil && v["code"] != "too-many-diagnostics" {
			t.Errorf("diagnostic at %s names no input: %v", at, v)
		}
		for k, x := range v {
			checkInputs(t, x, at+"/"+k)
		}
	case []any:
		for i, x := range v {
			checkInputs(t, x, at+"/"+strconv.Itoa(i))
		}
	}
}
