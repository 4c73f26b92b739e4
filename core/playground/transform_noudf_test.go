//go:build noudf

package playground

import "testing"

// A build without the JavaScript engine answers needs-module for any
// request whose configuration has an enabled UDF, and answers the others.
func TestNoUDF(t *testing.T) {
	const udf = `{"topic":"projects/p/topics/t","messageTransforms":[{"javascriptUdf":{"functionName":"f","code":"function f(m) { return m }"}}]}`
	const off = `{"topic":"projects/p/topics/t","messageTransforms":[{"disabled":true,"javascriptUdf":{"functionName":"f","code":"function f(m) { return m }"}}]}`
	cases := []struct {
		name, op, body, code string
		needs                []string
	}{
		{"transform", "transform", `{"config":` + udf + `,"messages":[{"text":"x"}]}`, "needs-module", []string{NeedsUDF}},
		{"validate", "validate", `{"config":` + udf + `}`, "needs-module", []string{NeedsUDF}},
		{"effective", "effective", `{"config":` + udf + `}`, "needs-module", []string{NeedsUDF}},
		{"disabled udf", "validate", `{"config":` + off + `}`, "", nil},
		// The downstream previews run the transforms first: without the
		// engine they refuse rather than preview the untransformed messages.
		// A build without Avro says it lacks that too.
		{"schema", "schema", `{"config":` + udf + `,"messages":[{"text":"x"}]}`, "needs-module", ifLacking([]string{NeedsUDF}, NeedsAvro)},
		{"names", "names", `{"config":` + udf + `,"messages":[{"text":"x"}],"time":"2024-01-01T00:00:00Z"}`, "needs-module", []string{NeedsUDF}},
		{"transform without udfs", "transform", `{"config":` + off + `,"messages":[{"text":"x"}]}`, "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantCode(t, tc.op, tc.body, tc.code, tc.needs...)
		})
	}
}
