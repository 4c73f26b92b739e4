//go:build nocel

package playground

import "testing"

// A build without the filter evaluator cannot say which sample messages
// the subscription delivers, so a downstream preview of sample messages
// under a filter refuses (the page's router then asks the extra build);
// previews that do not depend on the filter answer as before.
func TestDownstreamWithoutEvaluator(t *testing.T) {
	const cfg = `{"name":"projects/p/subscriptions/s","topic":"projects/p/topics/t","filter":"attributes.a = \"1\"","cloudStorageConfig":{"bucket":"my-bucket"}}`
	const bad = `{"name":"projects/p/subscriptions/s","topic":"projects/p/topics/t","filter":"attributes.a = ","cloudStorageConfig":{"bucket":"my-bucket"}}`
	cases := []struct {
		name, body, code string
	}{
		{"sample messages", `{"config":` + cfg + `,"messages":[{"text":"x"}],"time":"2024-01-01T00:00:00Z","uuid":"u"}`, "needs-module"},
		{"names only", `{"config":` + cfg + `,"time":"2024-01-01T00:00:00Z","uuid":"u"}`, ""},
		{"a stream", `{"config":` + cfg + `,"stream":{"rate":1,"size":1,"duration":"60s"},"time":"2024-01-01T00:00:00Z","uuid":"u"}`, ""},
		{"an invalid filter selects nothing", `{"config":` + bad + `,"messages":[{"text":"x"}],"time":"2024-01-01T00:00:00Z","uuid":"u"}`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantCode(t, "names", tc.body, tc.code, needsIf(tc.code, NeedsCEL)...)
		})
	}
}

// TestSchemaWithoutEvaluator: the schema preview of sample messages
// under a filter needs the evaluator too (and Avro, in a build without).
func TestSchemaWithoutEvaluator(t *testing.T) {
	const cfg = `{"name":"projects/p/subscriptions/s","topic":"projects/p/topics/t","filter":"attributes.a = \"1\"","cloudStorageConfig":{"bucket":"my-bucket","avroConfig":{}}}`
	wantCode(t, "schema", `{"config":`+cfg+`,"messages":[{"text":"x"}],"time":"2024-01-01T00:00:00Z"}`, CodeNeedsModule, ifLacking([]string{NeedsCEL}, NeedsAvro)...)
}

// needsIf is needs when code is needs-module, else nothing.
func needsIf(code string, needs ...string) []string {
	if code != CodeNeedsModule {
		return nil
	}
	return needs
}
