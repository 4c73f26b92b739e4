package outputschema

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/subplay/subplay/core/bigquery"
	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/subscription"
)

const orderAvro = `{"type": "record", "name": "Order", "fields": [
  {"name": "id", "type": "string"},
  {"name": "amount", "type": "double"}
]}`

func ptr(s string) *string { return &s }

func codes(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Code)
	}
	return out
}

func TestCheck(t *testing.T) {
	bqConfig := `topic: projects/p/topics/t
bigqueryConfig:
  table: p.d.t
  useTopicSchema: true
`
	tests := []struct {
		name        string
		config      string
		topicSchema *string
		tableSchema *string
		messages    string
		check       func(t *testing.T, r *Result)
	}{
		{
			name:   "pull has no output schema",
			config: "topic: projects/p/topics/t\n",
			check: func(t *testing.T, r *Result) {
				if r.DeliveryType != subscription.Pull || r.Avro != nil || r.BigQuery != nil {
					t.Errorf("pull gave %s, avro %s, bigquery %v", r.DeliveryType, r.Avro, r.BigQuery)
				}
				if !slices.Contains(codes(r.Diagnostics), "schema-not-applicable") {
					t.Errorf("diagnostics %v lack schema-not-applicable", codes(r.Diagnostics))
				}
			},
		},
		{
			name:     "cloud storage avro writes an object container file",
			config:   "topic: projects/p/topics/t\ncloudStorageConfig:\n  bucket: bkt\n  avroConfig: {}\n",
			messages: `[{"data": "aGVsbG8=", "messageId": "1"}, {"data": "d29ybGQ=", "messageId": "2"}]`,
			check: func(t *testing.T, r *Result) {
				if r.DeliveryType != subscription.CloudStorage || len(r.Avro) == 0 {
					t.Fatalf("delivery %s, avro %q", r.DeliveryType, r.Avro)
				}
				// An Avro object container file starts with "Obj" and
				// format version 1, and holds the payloads as written.
				if !bytes.HasPrefix(r.OCF, []byte("Obj\x01")) {
					t.Errorf("OCF starts %q, want the Avro magic", r.OCF[:min(4, len(r.OCF))])
				}
				for _, p := range []string{"hello", "world"} {
					if !bytes.Contains(r.OCF, []byte(p)) {
						t.Errorf("OCF lacks payload %q", p)
					}
				}
				if diag.HasErrors(r.Diagnostics) {
					t.Errorf("unexpected errors: %v", r.Diagnostics)
				}
			},
		},
		{
			name:        "bigquery table that fits the topic schema",
			config:      bqConfig,
			topicSchema: ptr(orderAvro),
			tableSchema: ptr(`[{"name": "id", "type": "STRING"}, {"name": "amount", "type": "FLOAT"}]`),
			check: func(t *testing.T, r *Result) {
				bq := r.BigQuery
				if bq == nil || !bq.Checked || !bq.Compatible {
					t.Fatalf("bigquery = %+v, diagnostics %v", bq, r.Diagnostics)
				}
				var names []string
				for _, f := range bq.TableSchema {
					names = append(names, f.Name)
				}
				if !slices.Equal(names, []string{"id", "amount"}) {
					t.Errorf("generated table columns %v, want [id amount]", names)
				}
			},
		},
		{
			// docs/decisions.md D11 holds whether or not a table is given, and the
			// proposed table never names a column twice (ignoring case).
			name:   "bigquery metadata clash without a table",
			config: bqConfig + "  writeMetadata: true\n",
			topicSchema: ptr(`{"type": "record", "name": "R", "fields": [{"name": "id", "type": "string"},
			  {"name": "message_id", "type": "string"}, {"name": "Attributes", "type": "string"}, {"name": "ID", "type": "long"}]}`),
			check: func(t *testing.T, r *Result) {
				bq := r.BigQuery
				if bq == nil || bq.Checked || bq.Compatible {
					t.Fatalf("bigquery = %+v", bq)
				}
				var clashes []string
				for _, d := range r.Diagnostics {
					if d.Code == "bq-metadata-name-clash" || d.Code == "bq-topic-field-case-clash" {
						clashes = append(clashes, string(d.Severity)+" "+d.Code+" "+d.Path)
					}
				}
				want := []string{"error bq-metadata-name-clash /topicSchema/fields/1", "error bq-metadata-name-clash /topicSchema/fields/2",
					"warning bq-topic-field-case-clash /topicSchema/fields/3"}
				if !slices.Equal(clashes, want) {
					t.Errorf("clash findings %q, want %q", clashes, want)
				}
				var names []string
				for _, f := range bq.TableSchema {
					names = append(names, f.Name)
				}
				if !slices.Equal(names, []string{"id", "subscription_name", "message_id", "publish_time", "attributes"}) {
					t.Errorf("generated table columns %v", names)
				}
			},
		},
		{
			name:        "bigquery data column rows, one not written",
			config:      "topic: projects/p/topics/t\nbigqueryConfig:\n  table: p.d.t\n",
			tableSchema: ptr(`[{"name": "data", "type": "STRING"}]`),
			messages:    `[{"text": "hello"}, {"data": "/w=="}]`,
			check: func(t *testing.T, r *Result) {
				bq := r.BigQuery
				if bq == nil || len(bq.Rows) != 2 || !bq.Rows[0].Written || bq.Rows[1].Written || bq.Compatible {
					t.Fatalf("bigquery = %+v", bq)
				}
				if got := codes(r.MessageDiagnostics); !slices.Equal(got, []string{"bq-row-rejected"}) {
					t.Errorf("message diagnostics %v, want [bq-row-rejected]", got)
				}
				if p := r.MessageDiagnostics[0].MessageIndex; p == nil || *p != 1 {
					t.Errorf("the rejected row points at message %v, want 1", p)
				}
			},
		},
		{
			name:        "bigquery column of the wrong type",
			config:      bqConfig,
			topicSchema: ptr(orderAvro),
			tableSchema: ptr(`[{"name": "id", "type": "STRING"}, {"name": "amount", "type": "BOOLEAN"}]`),
			check: func(t *testing.T, r *Result) {
				if r.BigQuery == nil || !r.BigQuery.Checked || r.BigQuery.Compatible {
					t.Fatalf("bigquery = %+v, want checked and incompatible", r.BigQuery)
				}
				var onTable bool
				for _, d := range r.Diagnostics {
					onTable = onTable || (d.Severity == diag.Error && strings.HasPrefix(d.Path, "/tableSchema"))
				}
				if !onTable {
					t.Errorf("no error points into the table schema: %v", r.Diagnostics)
				}
			},
		},
		{
			name:        "bigquery without a table schema proposes one and checks nothing",
			config:      bqConfig,
			topicSchema: ptr(orderAvro),
			check: func(t *testing.T, r *Result) {
				if r.BigQuery == nil || r.BigQuery.Checked || r.BigQuery.Compatible || len(r.BigQuery.TableSchema) != 2 {
					t.Errorf("bigquery = %+v", r.BigQuery)
				}
			},
		},
		{
			name:        "a topic schema past the Pub/Sub limit is not read",
			config:      bqConfig,
			topicSchema: ptr(strings.Repeat(" ", limits.TopicSchemaBytes+1) + orderAvro),
			check: func(t *testing.T, r *Result) {
				if !slices.Contains(codes(r.Diagnostics), "topic-schema-too-large") {
					t.Errorf("diagnostics %v lack topic-schema-too-large", codes(r.Diagnostics))
				}
			},
		},
	}
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := subscription.Decode("config.yaml", "name: projects/p/subscriptions/s\n"+tc.config, doc.YAML)
			if cfg.Sub == nil {
				t.Fatalf("config does not decode: %v", cfg.Validate())
			}
			in := Input{Config: cfg, TopicSchema: tc.topicSchema, TableSchema: tc.tableSchema, Now: now}
			if tc.messages != "" {
				d, ds := message.Parse("messages.json", tc.messages, doc.JSON)
				if diag.HasErrors(ds) {
					t.Fatalf("messages: %v", ds)
				}
				in.Messages = d
			}
			tc.check(t, Check(in))
		})
	}
}

func TestDataTypeFor(t *testing.T) {
	tests := []struct {
		name string
		msgs []message.Message
		want string
	}{
		{"no messages", nil, bigquery.Bytes},
		{"all text", []message.Message{{Data: []byte("a")}, {Data: []byte("é")}}, bigquery.String},
		{"one binary", []message.Message{{Data: []byte("a")}, {Data: []byte{0xff, 0xfe}}}, bigquery.Bytes},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := dataTypeFor(tc.msgs); got != tc.want {
				t.Errorf("dataTypeFor = %s, want %s", got, tc.want)
			}
		})
	}
}
