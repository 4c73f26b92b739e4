//go:build noudf

package playground

import (
	"encoding/json"
	"testing"
)

// A build without the JavaScript engine answers needs-module for any
// request whose configuration has an enabled UDF, and answers the others.
func TestNoUDF(t *testing.T) {
	const udf = `{"topic":"projects/p/topics/t","messageTransforms":[{"javascriptUdf":{"functionName":"f","code":"function f(m) { return m }"}}]}`
	const off = `{"topic":"projects/p/topics/t","messageTransforms":[{"disabled":true,"javascriptUdf":{"functionName":"f","code":"function f(m) { return m }"}}]}`
	cases := []struct {
		name, op, body, code string
	}{
		{"transform", "transform", `{"config":` + udf + `,"messages":[{"text":"x"}]}`, "needs-module"},
		{"validate", "validate", `{"config":` + udf + `}`, "needs-module"},
		{"effective", "effective", `{"config":` + udf + `}`, "needs-module"},
		{"disabled udf", "validate", `{"config":` + off + `}`, ""},
		{"transform without udfs", "transform", `{"config":` + off + `,"messages":[{"text":"x"}]}`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, ok := Call(tc.op, []byte(tc.body))
			var e ErrorResponse
			_ = json.Unmarshal(out, &e)
			switch {
			case tc.code == "" && !ok:
				t.Fatalf("failed: %s", out)
			case tc.code != "" && (ok || e.Error == nil || e.Error.Code != tc.code):
				t.Fatalf("got %s, want error %s", out, tc.code)
			}
		})
	}
}
