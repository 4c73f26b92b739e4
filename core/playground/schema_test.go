//go:build !noavro

package playground

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag"
)

func schemaCall(t *testing.T, req map[string]any) *SchemaResponse {
	t.Helper()
	body, _ := json.Marshal(req)
	out, ok := Call("schema", body)
	if !ok {
		t.Fatalf("schema failed: %s", out)
	}
	var resp SchemaResponse
	if err := json.Unmarshal(out, &resp); err != nil {
		t.Fatal(err)
	}
	return &resp
}

// diagSummary lists "severity code path" for each diagnostic, for
// comparisons that do not care about wording.
func diagSummary(ds []diag.Diagnostic) string {
	var out []string
	for _, d := range ds {
		out = append(out, string(d.Severity)+" "+d.Code+" "+d.Path)
	}
	return strings.Join(out, "\n")
}

const (
	storageAvro = "name: projects/p/subscriptions/archive\ntopic: projects/p/topics/orders\n" +
		"cloudStorageConfig:\n  bucket: my-bucket\n  avroConfig:\n    writeMetadata: true\n"
	orderAvro  = `{"type":"record","name":"Order","fields":[{"name":"id","type":"string"},{"name":"n","type":"long"}]}`
	orderProto = "syntax = \"proto3\";\nmessage Order {\n  string id = 1;\n  int64 n = 2;\n}\n"
	bqTopic    = "name: projects/p/subscriptions/to-bq\ntopic: projects/p/topics/orders\n" +
		"bigqueryConfig:\n  table: my-project.d.orders\n  useTopicSchema: true\n"
)

func TestSchemaCloudStorage(t *testing.T) {
	tests := []struct {
		name     string
		req      map[string]any
		avroName string // the output record's name, "" for none
		ocf      bool
		diags    string // errors and warnings only
		msgDiags string
	}{
		{"metadata schema and file", map[string]any{"text": storageAvro,
			"messages": []any{map[string]any{"data": "aGk=", "orderingKey": "k"}}, "time": "2024-05-01T12:00:00Z"},
			"PubsubMessageWithMetadata", true, "", ""},
		{"no messages, no file", map[string]any{"text": storageAvro}, "PubsubMessageWithMetadata", false, "", ""},
		{"topic schema used", map[string]any{"text": strings.Replace(storageAvro, "writeMetadata", "useTopicSchema", 1),
			"topicSchema": orderAvro, "messagesText": `[{"json": {"id": "a", "n": 1}}, {"json": {"id": 1}}]`},
			"Order", true, "", "error avro-message-mismatch /1/json"},
		{"topic schema with a metadata clash", map[string]any{"text": storageAvro + "    useTopicSchema: true\n",
			"topicSchema": `{"type":"record","name":"R","fields":[{"name":"message_id","type":"string"}]}`},
			"", false, "error avro-metadata-name-clash /topicSchema/fields/0", ""},
		{"invalid topic schema", map[string]any{"text": storageAvro + "    useTopicSchema: true\n", "topicSchema": `{"type":"record"}`},
			"", false, "error avro-name-missing /topicSchema/name\nerror avro-record-fields /topicSchema/fields", ""},
		{"protobuf topic schema cannot be used", map[string]any{"text": storageAvro + "    useTopicSchema: true\n", "topicSchema": orderProto},
			"", false, "error avro-topic-schema-not-avro /cloudStorageConfig/avroConfig/useTopicSchema", ""},
		{"text output", map[string]any{"text": "name: projects/p/subscriptions/archive\ntopic: projects/p/topics/t\ncloudStorageConfig:\n  bucket: my-bucket\n"},
			"", false, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp := schemaCall(t, tc.req)
			var name string
			if resp.Avro != nil {
				var s struct{ Name string }
				_ = json.Unmarshal(resp.Avro, &s)
				name = s.Name
			}
			if name != tc.avroName {
				t.Errorf("avro schema %q, want %q: %s", name, tc.avroName, resp.Avro)
			}
			if (resp.OCF != nil) != tc.ocf || (tc.ocf && !bytes.HasPrefix(resp.OCF, []byte("Obj\x01"))) {
				t.Errorf("ocf %q", resp.OCF)
			}
			if got := diagSummary(notInfo(resp.Diagnostics)); got != tc.diags {
				t.Errorf("diagnostics\n%s\nwant\n%s", got, tc.diags)
			}
			if got := diagSummary(resp.MessageDiagnostics); got != tc.msgDiags {
				t.Errorf("message diagnostics\n%s\nwant\n%s", got, tc.msgDiags)
			}
		})
	}
}

func notInfo(ds []diag.Diagnostic) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range ds {
		if d.Severity != diag.Info {
			out = append(out, d)
		}
	}
	return out
}

func TestSchemaBigQuery(t *testing.T) {
	fitting := `[{"name":"id","type":"STRING"},{"name":"n","type":"INTEGER"}]`
	tests := []struct {
		name       string
		req        map[string]any
		checked    bool
		compatible bool
		columns    string // names of the generated columns
		diags      string // errors and warnings
		rows       int
	}{
		{"avro topic fits", map[string]any{"text": bqTopic, "topicSchema": orderAvro, "tableSchema": fitting}, true, true, "id,n", "", 0},
		{"protobuf topic fits", map[string]any{"text": bqTopic, "topicSchema": orderProto, "tableSchema": fitting}, true, true, "id,n", "", 0},
		{"proto forced as avro", map[string]any{"text": bqTopic, "topicSchema": orderProto, "topicSchemaType": "AVRO", "tableSchema": fitting},
			false, false, "", "error json-syntax /topicSchema", 0},
		{"type mismatch", map[string]any{"text": bqTopic, "topicSchema": orderAvro, "tableSchema": `[{"name":"id","type":"STRING"},{"name":"n","type":"BOOLEAN"}]`},
			true, false, "id,n", "error bq-type-mismatch /tableSchema/1/type", 0},
		{"no table: not checked", map[string]any{"text": bqTopic, "topicSchema": orderAvro}, false, false, "id,n", "", 0},
		{"broken table", map[string]any{"text": bqTopic, "topicSchema": orderAvro, "tableSchema": `[{"name":"id"}]`},
			false, false, "id,n", "error bq-column-type /tableSchema/0/type", 0},
		{"plain subscription with rows", map[string]any{"text": strings.Replace(bqTopic, "useTopicSchema", "writeMetadata", 1),
			"tableSchema": `[{"name":"data","type":"STRING"},{"name":"subscription_name","type":"STRING"},{"name":"message_id","type":"STRING"},
			  {"name":"publish_time","type":"TIMESTAMP"},{"name":"attributes","type":"STRING"}]`,
			"messages": []any{map[string]any{"data": "aGk="}}}, true, true, "data,subscription_name,message_id,publish_time,attributes", "", 1},
		{"both schema options", map[string]any{"text": bqTopic + "  useTableSchema: true\n", "topicSchema": orderAvro, "tableSchema": fitting},
			true, false, "", "error bigquery-schema-choice /bigqueryConfig/useTableSchema", 0},
		{"table schema rows", map[string]any{"text": strings.Replace(bqTopic, "useTopicSchema", "useTableSchema", 1),
			"tableSchema": fitting, "messagesText": `[{"json": {"id": "a", "n": 2}}, {"json": {"id": "b", "n": "x"}}]`},
			true, false, "", "", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp := schemaCall(t, tc.req)
			bq := resp.BigQuery
			if bq == nil {
				t.Fatalf("no bigquery result: %+v", resp)
			}
			if bq.Checked != tc.checked || bq.Compatible != tc.compatible {
				t.Errorf("checked %v compatible %v, want %v %v\n%s", bq.Checked, bq.Compatible, tc.checked, tc.compatible, diagSummary(resp.Diagnostics))
			}
			var cols []string
			for _, c := range bq.TableSchema {
				cols = append(cols, c.Name)
			}
			if strings.Join(cols, ",") != tc.columns {
				t.Errorf("generated %v, want %s", cols, tc.columns)
			}
			if got := diagSummary(notInfo(resp.Diagnostics)); got != tc.diags {
				t.Errorf("diagnostics\n%s\nwant\n%s", got, tc.diags)
			}
			if len(bq.Rows) != tc.rows {
				t.Errorf("%d rows, want %d", len(bq.Rows), tc.rows)
			}
		})
	}
}

func TestSchemaBadRequests(t *testing.T) {
	for _, body := range []string{
		`{}`,
		`{"text": "name: x", "time": "yesterday"}`,
		`{"text": "name: x", "topicSchemaType": "JSON"}`,
		`{"text": "name: x", "messages": [], "messagesText": "[]"}`,
	} {
		m, ok := call(t, "schema", body)
		if ok || errorCode(m) != "bad-request" {
			t.Errorf("%s: %v", body, m)
		}
	}
}

func TestSchemaPullSubscription(t *testing.T) {
	resp := schemaCall(t, map[string]any{"config": map[string]any{"name": "projects/p/subscriptions/s", "topic": "projects/p/topics/t"}})
	if got := diagSummary(resp.Diagnostics); got != "info schema-not-applicable " || resp.Avro != nil || resp.BigQuery != nil {
		t.Errorf("%s %+v", got, resp)
	}
}
