package bigquery

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/avroschema"
	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/protoschema"
)

var allTypes = []string{String, Bytes, Integer, Float, Numeric, BigNumeric, Boolean, Timestamp, Date, Time, DateTime,
	Interval, Geography, JSON, Record, Range}

func avroTopic(t *testing.T, text string) *TopicSchema {
	t.Helper()
	topic, ds := avroschema.ParseTopic("topic.avsc", text)
	if diag.HasErrors(ds) {
		t.Fatalf("topic rejected: %v", ds)
	}
	ts, ds := FromAvro(topic)
	if diag.HasErrors(ds) {
		t.Fatalf("topic not usable: %v", ds)
	}
	return ts
}

func protoTopic(t *testing.T, text string) *TopicSchema {
	t.Helper()
	f, ds := protoschema.Parse(text)
	if diag.HasErrors(ds) {
		t.Fatalf("proto rejected: %v", ds)
	}
	ts, ds := FromProto(f, diag.NewSource("topic.proto", text))
	if diag.HasErrors(ds) {
		t.Fatalf("proto not usable: %v", ds)
	}
	return ts
}

// compatibleTypes returns the column types a one-field topic schema can be
// written to, by running Check against a table of each type.
func compatibleTypes(t *testing.T, topic *TopicSchema) []string {
	t.Helper()
	var ok []string
	for _, typ := range allTypes {
		col := `{"name":"f","type":"` + typ + `"`
		if typ == Record {
			col += `,"fields":[{"name":"x","type":"STRING"}]`
		}
		mode := "NULLABLE"
		if topic.Fields[0].Repeated {
			mode = "REPEATED"
		}
		table := mustTable(t, `[`+col+`,"mode":"`+mode+`"}]`)
		if ds := Check(Options{UseTopicSchema: true, DropUnknownFields: true}, table, topic); !diag.HasErrors(ds) && diag.Count(ds, diag.Warning) == 0 {
			ok = append(ok, typ)
		}
	}
	return ok
}

// TestAvroMapping checks the Avro rows of the mapping table, one by one.
func TestAvroMapping(t *testing.T) {
	stringRow := []string{String, Timestamp, Date, Time, DateTime, Numeric, BigNumeric, JSON}
	tests := []struct {
		name string
		typ  string // the field's Avro type, as JSON
		want []string
	}{
		{"null", `"null"`, allTypes},
		{"boolean", `"boolean"`, []string{Boolean}},
		{"int", `"int"`, []string{Integer, Numeric, BigNumeric}},
		{"long", `"long"`, []string{Integer, Numeric, BigNumeric}},
		{"float", `"float"`, []string{Float, Numeric, BigNumeric}},
		{"double", `"double"`, []string{Float, Numeric, BigNumeric}},
		{"bytes", `"bytes"`, []string{Bytes, Numeric, BigNumeric}},
		{"string", `"string"`, stringRow},
		{"record", `{"type":"record","name":"In","fields":[{"name":"x","type":"string"}]}`, []string{Record}},
		{"array", `{"type":"array","items":"long"}`, []string{Integer, Numeric, BigNumeric}},
		{"union with null", `["null","boolean"]`, []string{Boolean}},
		{"union with null last", `["double","null"]`, []string{Float, Numeric, BigNumeric}},
		{"other union", `["int","string"]`, nil},
		{"fixed", `{"type":"fixed","name":"F","size":4}`, []string{Bytes, Numeric, BigNumeric}},
		{"enum", `{"type":"enum","name":"E","symbols":["A"]}`, []string{Integer}},
		{"timestamp-micros", `{"type":"long","logicalType":"timestamp-micros"}`, []string{Timestamp}},
		{"timestamp-millis", `{"type":"long","logicalType":"timestamp-millis"}`, []string{Timestamp}},
		{"date", `{"type":"int","logicalType":"date"}`, []string{Date}},
		{"time-micros", `{"type":"long","logicalType":"time-micros"}`, []string{Time}},
		{"time-millis", `{"type":"int","logicalType":"time-millis"}`, []string{Time}},
		{"duration", `{"type":"fixed","name":"D","size":12,"logicalType":"duration"}`, []string{Interval}},
		{"decimal", `{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}`, []string{Numeric, BigNumeric}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			topic := avroTopic(t, `{"type":"record","name":"R","fields":[{"name":"f","type":`+tc.typ+`}]}`)
			got := compatibleTypes(t, topic)
			want := slices.Clone(tc.want)
			slices.Sort(got)
			slices.Sort(want)
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("compatible with %v, want %v", got, want)
			}
		})
	}
}

// TestProtoMapping checks the Protocol Buffer rows of the mapping table.
func TestProtoMapping(t *testing.T) {
	stringRow := []string{String, Timestamp, Date, Time, DateTime, Numeric, BigNumeric, JSON}
	int32Row := []string{Integer, Numeric, BigNumeric, Date}
	int64Row := []string{Integer, Numeric, BigNumeric, Date, DateTime, Timestamp}
	tests := []struct {
		field string // the field declaration
		want  []string
	}{
		{"double f = 1;", []string{Float, Numeric, BigNumeric}},
		{"float f = 1;", []string{Float, Numeric, BigNumeric}},
		{"int32 f = 1;", int32Row},
		{"uint32 f = 1;", int32Row},
		{"fixed32 f = 1;", int32Row},
		{"sfixed32 f = 1;", int32Row},
		{"int64 f = 1;", int64Row},
		{"sint64 f = 1;", int64Row},
		{"sfixed64 f = 1;", int64Row},
		{"sint32 f = 1;", []string{Integer, Numeric, BigNumeric}},
		{"uint64 f = 1;", []string{Numeric, BigNumeric}},
		{"fixed64 f = 1;", []string{Numeric, BigNumeric}},
		{"bool f = 1;", []string{Boolean}},
		{"string f = 1;", stringRow},
		{"bytes f = 1;", []string{Bytes, Numeric, BigNumeric}},
		{"E f = 1;", []string{Integer}},
		{"In f = 1;", []string{Record}},
		{"oneof o { string f = 1; }", nil},
		{"repeated int64 f = 1;", int64Row},
		{"optional bool f = 1;", []string{Boolean}},
	}
	for _, tc := range tests {
		t.Run(tc.field, func(t *testing.T) {
			topic := protoTopic(t, `syntax = "proto3"; message M { `+tc.field+` } enum E { A = 0; } message In { string x = 1; }`)
			got := compatibleTypes(t, topic)
			want := slices.Clone(tc.want)
			slices.Sort(got)
			slices.Sort(want)
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("compatible with %v, want %v", got, want)
			}
		})
	}
}

// TestMapColumns checks that maps need REPEATED RECORD<key, value>, for
// Avro and protobuf alike.
func TestMapColumns(t *testing.T) {
	avro := avroTopic(t, `{"type":"record","name":"R","fields":[{"name":"m","type":{"type":"map","values":"long"}}]}`)
	proto := protoTopic(t, `syntax = "proto3"; message M { map<string, int64> m = 1; }`)
	tests := []struct {
		name  string
		table string
		ok    bool
	}{
		{"repeated key/value record", `[{"name":"m","type":"RECORD","mode":"REPEATED","fields":[{"name":"key","type":"STRING"},{"name":"value","type":"INTEGER"}]}]`, true},
		{"not repeated", `[{"name":"m","type":"RECORD","fields":[{"name":"key","type":"STRING"},{"name":"value","type":"INTEGER"}]}]`, false},
		{"wrong value type", `[{"name":"m","type":"RECORD","mode":"REPEATED","fields":[{"name":"key","type":"STRING"},{"name":"value","type":"BOOLEAN"}]}]`, false},
		{"value column missing", `[{"name":"m","type":"RECORD","mode":"REPEATED","fields":[{"name":"key","type":"STRING"}]}]`, false},
		{"a JSON column", `[{"name":"m","type":"JSON"}]`, false},
	}
	for _, tc := range tests {
		for _, topic := range []*TopicSchema{avro, proto} {
			t.Run(tc.name+"/"+topic.Type, func(t *testing.T) {
				ds := Check(Options{UseTopicSchema: true}, mustTable(t, tc.table), topic)
				if diag.HasErrors(ds) == tc.ok {
					t.Errorf("ok=%v, diagnostics:\n%s", tc.ok, render(ds))
				}
			})
		}
	}
}

const topicRecord = `{"type":"record","name":"Order","fields":[
 {"name":"id","type":"string"},
 {"name":"note","type":["null","string"]},
 {"name":"tags","type":{"type":"array","items":"string"}}]}`

// TestCheckRules covers each compatibility rule, once met and once broken.
func TestCheckRules(t *testing.T) {
	const idNoteTags = `{"name":"id","type":"STRING"},{"name":"note","type":"STRING"},{"name":"tags","type":"STRING","mode":"REPEATED"}`
	tests := []struct {
		name  string
		opts  Options
		topic string // Avro; "" for none
		table string
		want  string // rendered diagnostics
	}{
		// No schema option: a data column of BYTES, STRING or JSON.
		{"data STRING", Options{}, "", `[{"name":"data","type":"STRING"}]`, ""},
		{"data BYTES", Options{}, "", `[{"name":"data","type":"BYTES"}]`, ""},
		{"data JSON", Options{}, "", `[{"name":"data","type":"JSON"}]`, ""},
		{"data missing", Options{}, "", `[{"name":"payload","type":"STRING"}]`, "error bq-column-missing /tableSchema"},
		{"data wrong type", Options{}, "", `[{"name":"data","type":"INTEGER"}]`, "error bq-column-type-mismatch /tableSchema/0/type 1:24"},
		{"data repeated", Options{}, "", `[{"name":"data","type":"STRING","mode":"REPEATED"}]`, "error bq-column-mode-mismatch /tableSchema/0/mode 1:40"},
		{"other required column never written", Options{}, "", `[{"name":"data","type":"STRING"},{"name":"x","type":"STRING","mode":"REQUIRED"}]`,
			"error bq-column-never-written /tableSchema/1/mode 1:69"},
		{"other nullable column is fine", Options{}, "", `[{"name":"data","type":"STRING"},{"name":"x","type":"STRING"}]`, ""},
		{"dropUnknownFields alone", Options{DropUnknownFields: true}, "", `[{"name":"data","type":"STRING"}]`,
			"warning bq-drop-unknown-unused /bigqueryConfig/dropUnknownFields"},
		// writeMetadata: its columns with their types.
		{"metadata columns", Options{WriteMetadata: true}, "", `[{"name":"data","type":"BYTES"},{"name":"subscription_name","type":"STRING"},
			{"name":"message_id","type":"STRING"},{"name":"publish_time","type":"TIMESTAMP"},{"name":"attributes","type":"JSON"}]`, ""},
		{"metadata attributes as STRING", Options{WriteMetadata: true}, "", `[{"name":"data","type":"BYTES"},{"name":"subscription_name","type":"STRING"},
			{"name":"message_id","type":"STRING"},{"name":"publish_time","type":"TIMESTAMP"},{"name":"attributes","type":"STRING"}]`, ""},
		{"metadata columns missing", Options{WriteMetadata: true}, "", `[{"name":"data","type":"BYTES"}]`,
			"error bq-column-missing /tableSchema\nerror bq-column-missing /tableSchema\nerror bq-column-missing /tableSchema\nerror bq-column-missing /tableSchema"},
		{"metadata wrong type", Options{WriteMetadata: true}, "", `[{"name":"data","type":"BYTES"},{"name":"subscription_name","type":"STRING"},
			{"name":"message_id","type":"STRING"},{"name":"publish_time","type":"STRING"},{"name":"attributes","type":"STRING"}]`,
			"error bq-column-type-mismatch /tableSchema/3/type 2:72"},
		// useTopicSchema.
		{"topic fits", Options{UseTopicSchema: true}, topicRecord, `[` + idNoteTags + `]`, ""},
		{"column names ignore case", Options{UseTopicSchema: true}, topicRecord,
			`[{"name":"ID","type":"STRING"},{"name":"Note","type":"STRING"},{"name":"TAGS","type":"STRING","mode":"REPEATED"}]`, ""},
		{"type incompatible", Options{UseTopicSchema: true}, topicRecord,
			`[{"name":"id","type":"BOOLEAN"},{"name":"note","type":"STRING"},{"name":"tags","type":"STRING","mode":"REPEATED"}]`,
			"error bq-type-mismatch /tableSchema/0/type 1:22"},
		{"optional field needs NULLABLE", Options{UseTopicSchema: true}, topicRecord,
			`[{"name":"id","type":"STRING"},{"name":"note","type":"STRING","mode":"REQUIRED"},{"name":"tags","type":"STRING","mode":"REPEATED"}]`,
			"error bq-mode-mismatch /tableSchema/1/mode 1:70"},
		{"required field may be NULLABLE or REQUIRED", Options{UseTopicSchema: true}, topicRecord,
			`[{"name":"id","type":"STRING","mode":"REQUIRED"},{"name":"note","type":"STRING"},{"name":"tags","type":"STRING","mode":"REPEATED"}]`, ""},
		{"array needs REPEATED", Options{UseTopicSchema: true}, topicRecord,
			`[{"name":"id","type":"STRING"},{"name":"note","type":"STRING"},{"name":"tags","type":"STRING"}]`,
			"error bq-mode-mismatch /tableSchema/2/mode 1:72"},
		{"single value in a REPEATED column", Options{UseTopicSchema: true}, topicRecord,
			`[{"name":"id","type":"STRING","mode":"REPEATED"},{"name":"note","type":"STRING"},{"name":"tags","type":"STRING","mode":"REPEATED"}]`,
			"error bq-mode-mismatch /tableSchema/0/mode 1:38"},
		{"extra NULLABLE column", Options{UseTopicSchema: true}, topicRecord, `[` + idNoteTags + `,{"name":"extra","type":"STRING"}]`, ""},
		{"extra REQUIRED column", Options{UseTopicSchema: true}, topicRecord, `[` + idNoteTags + `,{"name":"extra","type":"STRING","mode":"REQUIRED"}]`,
			"error bq-column-not-in-topic /tableSchema/3/mode 1:153"},
		{"extra topic field without dropUnknownFields", Options{UseTopicSchema: true}, topicRecord,
			`[{"name":"id","type":"STRING"},{"name":"tags","type":"STRING","mode":"REPEATED"}]`,
			"error bq-topic-field-missing /topicSchema/fields/1 3:10"},
		{"extra topic field with dropUnknownFields", Options{UseTopicSchema: true, DropUnknownFields: true}, topicRecord,
			`[{"name":"id","type":"STRING"},{"name":"tags","type":"STRING","mode":"REPEATED"}]`,
			"info bq-topic-field-dropped /topicSchema/fields/1 3:10"},
		{"nested record checked", Options{UseTopicSchema: true},
			`{"type":"record","name":"R","fields":[{"name":"in","type":{"type":"record","name":"In","fields":[{"name":"n","type":"long"}]}}]}`,
			`[{"name":"in","type":"RECORD","fields":[{"name":"n","type":"STRING"}]}]`, "error bq-type-mismatch /tableSchema/0/fields/0/type 1:60"},
		{"recursive record", Options{UseTopicSchema: true},
			`{"type":"record","name":"N","fields":[{"name":"next","type":["null","N"]}]}`,
			`[{"name":"next","type":"RECORD","fields":[{"name":"x","type":"STRING"}]}]`, "error bq-topic-field-unmappable /topicSchema/fields/0 1:47"},
		{"logical type on its base column warns", Options{UseTopicSchema: true},
			`{"type":"record","name":"R","fields":[{"name":"t","type":{"type":"long","logicalType":"timestamp-micros"}}]}`,
			`[{"name":"t","type":"INTEGER"}]`, "warning bq-type-undocumented /tableSchema/0/type 1:21"},
		// D11: metadata names in the topic, snake_case and camelCase.
		{"metadata clash", Options{UseTopicSchema: true, WriteMetadata: true},
			`{"type":"record","name":"R","fields":[{"name":"messageId","type":"string"},{"name":"data","type":"string"}]}`,
			`[{"name":"messageId","type":"STRING"},{"name":"data","type":"STRING"},{"name":"subscription_name","type":"STRING"},
			  {"name":"message_id","type":"STRING"},{"name":"publish_time","type":"TIMESTAMP"},{"name":"attributes","type":"STRING"}]`,
			"error bq-metadata-name-clash /topicSchema/fields/0 1:47\nerror bq-metadata-name-clash /topicSchema/fields/1 1:84"},
		{"metadata clash ignoring case", Options{UseTopicSchema: true, WriteMetadata: true},
			`{"type":"record","name":"R","fields":[{"name":"Publish_Time","type":"string"},{"name":"MESSAGEID","type":"string"}]}`,
			`[{"name":"MESSAGEID","type":"STRING"},{"name":"subscription_name","type":"STRING"},
			  {"name":"message_id","type":"STRING"},{"name":"publish_time","type":"TIMESTAMP"},{"name":"attributes","type":"STRING"}]`,
			"error bq-metadata-name-clash /topicSchema/fields/0 1:47"},
		{"no clash without writeMetadata", Options{UseTopicSchema: true},
			`{"type":"record","name":"R","fields":[{"name":"messageId","type":"string"}]}`, `[{"name":"messageId","type":"STRING"}]`, ""},
		// useTableSchema.
		{"plain column names", Options{UseTableSchema: true}, "", `[{"name":"a_1","type":"STRING"}]`, ""},
		{"flexible column name", Options{UseTableSchema: true}, "", `[{"name":"a-1","type":"STRING"},{"name":"r","type":"RECORD","fields":[{"name":"x y","type":"STRING"}]}]`,
			"error bq-column-name-chars /tableSchema/0/name 1:10\nerror bq-column-name-chars /tableSchema/1/fields/0/name 1:79"},
		{"topic schema needs JSON encoding", Options{UseTableSchema: true}, topicRecord, `[{"name":"id","type":"STRING"}]`,
			"info bq-topic-encoding-json /topicSchema"},
		{"both schema options", Options{UseTopicSchema: true, UseTableSchema: true}, "", `[{"name":"data","type":"STRING"}]`,
			"error bq-schema-options /bigqueryConfig"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var topic *TopicSchema
			if tc.topic != "" {
				topic = avroTopic(t, tc.topic)
			}
			ds := Check(tc.opts, mustTable(t, tc.table), topic)
			if got := render(ds); got != tc.want {
				t.Errorf("diagnostics\n%s\nwant\n%s\n%v", got, tc.want, ds)
			}
		})
	}
}

func TestProtoOptionalRules(t *testing.T) {
	topic := protoTopic(t, `syntax = "proto2"; message M { required string a = 1; optional string b = 2; optional In c = 3; }
	  message In { optional string x = 1; }`)
	ds := Check(Options{UseTopicSchema: true}, mustTable(t, `[{"name":"a","type":"STRING","mode":"REQUIRED"},
	  {"name":"b","type":"STRING","mode":"REQUIRED"},{"name":"c","type":"RECORD","mode":"REQUIRED","fields":[{"name":"x","type":"STRING"}]}]`), topic)
	if got := render(ds); got != "error bq-mode-mismatch /tableSchema/1/mode 2:39\nerror bq-mode-mismatch /tableSchema/2/mode 2:86" {
		t.Errorf("diagnostics\n%s", got)
	}
}

func TestGenerate(t *testing.T) {
	tests := []struct {
		name  string
		opts  Options
		topic *TopicSchema
		data  string
		want  string
		diags string
	}{
		{"data only", Options{}, nil, "", `[{"name":"data","type":"BYTES","mode":"NULLABLE"}]`, ""},
		{"data as STRING with metadata", Options{WriteMetadata: true}, nil, String,
			`[{"name":"data","type":"STRING","mode":"NULLABLE"},{"name":"subscription_name","type":"STRING","mode":"NULLABLE"},
			  {"name":"message_id","type":"STRING","mode":"NULLABLE"},{"name":"publish_time","type":"TIMESTAMP","mode":"NULLABLE"},
			  {"name":"attributes","type":"STRING","mode":"NULLABLE"}]`, ""},
		{"avro topic", Options{UseTopicSchema: true}, avroTopic(t, `{"type":"record","name":"R","fields":[
			{"name":"id","type":"string"},{"name":"t","type":{"type":"long","logicalType":"timestamp-micros"}},
			{"name":"tags","type":{"type":"array","items":"string"}},{"name":"m","type":{"type":"map","values":"double"}},
			{"name":"in","type":["null",{"type":"record","name":"In","fields":[{"name":"e","type":{"type":"enum","name":"E","symbols":["A"]}}]}]},
			{"name":"u","type":["int","string"]}]}`), "",
			`[{"name":"id","type":"STRING","mode":"NULLABLE"},{"name":"t","type":"TIMESTAMP","mode":"NULLABLE"},
			  {"name":"tags","type":"STRING","mode":"REPEATED"},
			  {"name":"m","type":"RECORD","mode":"REPEATED","fields":[{"name":"key","type":"STRING","mode":"NULLABLE"},{"name":"value","type":"FLOAT","mode":"NULLABLE"}]},
			  {"name":"in","type":"RECORD","mode":"NULLABLE","fields":[{"name":"e","type":"INTEGER","mode":"NULLABLE"}]}]`,
			"warning bq-topic-field-unmappable /topicSchema/fields/5 5:12"},
		{"proto topic with metadata", Options{UseTopicSchema: true, WriteMetadata: true},
			protoTopic(t, `syntax = "proto3"; message M { uint64 n = 1; repeated bytes b = 2; }`), "",
			`[{"name":"n","type":"NUMERIC","mode":"NULLABLE"},{"name":"b","type":"BYTES","mode":"REPEATED"},
			  {"name":"subscription_name","type":"STRING","mode":"NULLABLE"},{"name":"message_id","type":"STRING","mode":"NULLABLE"},
			  {"name":"publish_time","type":"TIMESTAMP","mode":"NULLABLE"},{"name":"attributes","type":"STRING","mode":"NULLABLE"}]`, ""},
		{"names that differ only in case", Options{UseTopicSchema: true},
			protoTopic(t, `syntax = "proto3"; message M { int64 M = 1; map<string, M> m = 2; message In { string a = 1; string A = 2; } In in = 3; }`), "",
			`[{"name":"M","type":"INTEGER","mode":"NULLABLE"},{"name":"in","type":"RECORD","mode":"NULLABLE","fields":[{"name":"a","type":"STRING","mode":"NULLABLE"}]}]`,
			"warning bq-topic-field-case-clash /topicSchema 1:60\nwarning bq-topic-field-case-clash /topicSchema 1:101"},
		{"metadata names get no column of their own", Options{UseTopicSchema: true, WriteMetadata: true},
			avroTopic(t, `{"type":"record","name":"R","fields":[{"name":"id","type":"string"},{"name":"Attributes","type":"string"}]}`), "",
			`[{"name":"id","type":"STRING","mode":"NULLABLE"},{"name":"subscription_name","type":"STRING","mode":"NULLABLE"},
			  {"name":"message_id","type":"STRING","mode":"NULLABLE"},{"name":"publish_time","type":"TIMESTAMP","mode":"NULLABLE"},
			  {"name":"attributes","type":"STRING","mode":"NULLABLE"}]`, ""},
		{"table schema has nothing to generate from", Options{UseTableSchema: true}, nil, "", `null`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ds := Generate(tc.opts, tc.topic, tc.data)
			b, _ := json.Marshal(got)
			var g, w any
			_ = json.Unmarshal(b, &g)
			if err := json.Unmarshal([]byte(tc.want), &w); err != nil {
				t.Fatal(err)
			}
			gj, _ := json.Marshal(g)
			wj, _ := json.Marshal(w)
			if string(gj) != string(wj) {
				t.Errorf("schema\n%s\nwant\n%s", gj, wj)
			}
			if r := render(ds); r != tc.diags {
				t.Errorf("diagnostics\n%s\nwant\n%s", r, tc.diags)
			}
			// What is generated must pass the check it was made for.
			if tc.topic != nil && got != nil {
				table := mustTable(t, string(b))
				// A clash of the topic's names with the metadata columns
				// is the topic's fault, whatever the table.
				cds := slices.DeleteFunc(Check(tc.opts, table, tc.topic), func(d diag.Diagnostic) bool { return d.Code == "bq-metadata-name-clash" })
				if diag.HasErrors(cds) && tc.diags == "" {
					t.Errorf("the generated table fails its own check:\n%s", render(cds))
				}
			}
		})
	}
}
