package hostile_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/playground"
	"github.com/subplay/subplay/core/playground/hostile"
)

// expect is what each case's answer holds: the finding that names the
// limit it hits, or the output it still gives.
var expect = map[string]string{
	"schema-columns/proto-dag-16":                `"bq-record-depth"`,
	"schema-columns/proto-dag-20":                `"bq-record-depth"`,
	"schema-columns/proto-dag-60":                `"bq-record-depth"`,
	"schema-columns/avro-dag-20":                 `"bq-record-depth"`,
	"schema-columns/avro-dag-20-cloud-storage":   `"avro":`,
	"schema-columns/proto-dag-20-table":          `"bq-record-depth"`,
	"schema-columns/proto-cycles":                `"bq-too-many-columns"`,
	"schema-depth/proto-chain-5000":              `"proto-depth"`,
	"schema-depth/avro-chain-5000":               `"avro-depth"`,
	"schema-depth/avro-chain-5000-cloud-storage": `"avro-depth"`,
	"schema-depth/proto-nested-declarations":     `nested more than 64 deep`,
	"schema-depth/proto-option-brackets":         `brackets are nested too deep`,
	"schema-fields/avro-payload-30k":             `"ocf":`,
	"schema-fields/avro-payload-widest":          `"ocf":`,
	"schema-fields/avro-binary-widest":           `"avro-message-mismatch"`,
	"schema-fields/avro-binary-30k":              `"avro-message-mismatch"`,
	"schema-avro/huge-enum-binary":               `"ocf":`,
	"schema-fields/proto-30k":                    `"bq-too-many-columns"`,
	"schema-fields/proto-30k-duplicates":         `"proto-duplicate-field"`,
	"schema-fields/proto-huge-numbers":           `expected a field number`,
	"schema-fields/proto-noise":                  `"tableSchema":[{"name":"a"`,
	"schema-fields/proto-long-scopes":            `"proto-unknown-type"`,
	"schema-avro/huge-enum":                      `"ocf":`,
	"schema-avro/names-reused":                   `"avro-duplicate-name"`,
	"schema-avro/recursive":                      `contains itself`,
	"schema-avro/union-branches":                 `"avro-message-mismatch"`,
	"schema-table/30k-columns":                   `"bq-too-many-columns"`,
	"schema-table/wide-rows":                     `"written":true`,
	"schema-payload/long-keys-deep":              `"ocf":`,
}

// overTopicLimit reports whether a request's topic schema is over
// Pub/Sub's own limit on a schema definition.
func overTopicLimit(t *testing.T, body []byte) bool {
	t.Helper()
	var req struct {
		TopicSchema *string `json:"topicSchema"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("request: %v", err)
	}
	return req.TopicSchema != nil && len(*req.TopicSchema) > limits.TopicSchemaBytes
}

func schemaCases() []hostile.Case {
	var out []hostile.Case
	for _, c := range hostile.Cases() {
		if strings.HasPrefix(c.Name, "schema-") {
			out = append(out, c)
		}
	}
	return out
}

// TestSchemaCases runs every schema case through the contract: an answer
// (never an internal error), within the budgets. The shared corpus test
// runs the same cases through every entry; this one keeps the schema
// packages honest on their own.
func TestSchemaCases(t *testing.T) {
	for _, c := range schemaCases() {
		t.Run(c.Name, func(t *testing.T) {
			body := c.Body()
			var out []byte
			var ok bool
			cost := hostile.Measure(func() { out, ok = playground.Call(c.Op, body) })
			if !ok {
				var e playground.ErrorResponse
				if json.Unmarshal(out, &e) != nil || e.Error == nil || e.Error.Code == "internal" {
					t.Fatalf("failed: %.300s", out)
				}
			}
			for _, o := range cost.Over() {
				t.Error(o)
			}
			want := expect[c.Name]
			if overTopicLimit(t, body) {
				// Pub/Sub takes no schema definition over 300 KB: such a
				// schema is reported, not read. The readers' own tests and
				// fuzzers hold their bounds at larger sizes.
				want = `"topic-schema-too-large"`
			}
			if want != "" && !strings.Contains(string(out), want) {
				t.Errorf("the answer does not hold %s: %.600s", want, out)
			}
			if len(out) > 64<<20 {
				t.Errorf("the answer is %d MB", len(out)>>20)
			}
		})
	}
}

// BenchmarkSchemaCases prints time and memory for each schema case:
// go test -run '^$' -bench . -benchmem ./core/playground/hostile/
func BenchmarkSchemaCases(b *testing.B) {
	for _, c := range schemaCases() {
		body := c.Body()
		b.Run(c.Name, func(b *testing.B) {
			for b.Loop() {
				playground.Call(c.Op, body)
			}
		})
	}
}

// TestWidestAvroFits keeps the widest cases at the largest schema Pub/Sub
// takes: under the limit, and within 5% of it.
func TestWidestAvroFits(t *testing.T) {
	for _, name := range []string{"schema-fields/avro-payload-widest", "schema-fields/avro-binary-widest"} {
		for _, c := range hostile.Cases() {
			if c.Name != name {
				continue
			}
			var req struct {
				TopicSchema string `json:"topicSchema"`
			}
			if err := json.Unmarshal(c.Body(), &req); err != nil {
				t.Fatal(err)
			}
			if n := len(req.TopicSchema); n > limits.TopicSchemaBytes || n < limits.TopicSchemaBytes*95/100 {
				t.Errorf("%s: the schema is %d bytes; want just under %d", name, n, limits.TopicSchemaBytes)
			}
		}
	}
}
