//go:build noavro

package playground

import "testing"

// TestSchemaWithoutAvro: a build without Avro has the schema operation,
// answers needs-module naming avro (and whatever else the request needs
// that the build lacks), and answers what it can answer alike in every
// build: a bad request, a configuration that does not decode.
func TestSchemaWithoutAvro(t *testing.T) {
	const storage = `{"name":"projects/p/subscriptions/s","topic":"projects/p/topics/t","cloudStorageConfig":{"bucket":"my-bucket","avroConfig":{}}}`
	const bigquery = `{"name":"projects/p/subscriptions/s","topic":"projects/p/topics/t","bigqueryConfig":{"table":"p.d.t"}}`
	const udf = `{"name":"projects/p/subscriptions/s","topic":"projects/p/topics/t","cloudStorageConfig":{"bucket":"my-bucket","avroConfig":{}},"messageTransforms":[{"javascriptUdf":{"functionName":"f","code":"function f(m) { return m }"}}]}`
	cases := []struct {
		name, body, code string
		needs            []string
	}{
		{"cloud storage avro", `{"config":` + storage + `}`, CodeNeedsModule, []string{NeedsAvro}},
		{"bigquery with messages", `{"config":` + bigquery + `,"messages":[{"text":"x"}],"time":"2024-01-01T00:00:00Z"}`, CodeNeedsModule, []string{NeedsAvro}},
		{"a udf", `{"config":` + udf + `,"messages":[{"text":"x"}]}`, CodeNeedsModule, ifLacking([]string{NeedsAvro}, NeedsUDF)},
		{"bad topic schema type", `{"config":` + storage + `,"topicSchemaType":"XML"}`, "bad-request", nil},
		{"bad time", `{"config":` + storage + `,"time":"yesterday"}`, "bad-request", nil},
		{"no configuration", `{}`, "bad-request", nil},
		{"a configuration that does not decode", `{"text":"{\"topic\": "}`, "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantCode(t, "schema", tc.body, tc.code, tc.needs...)
		})
	}
}
