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
			wantCode(t, "names", tc.body, tc.code)
		})
	}
}
