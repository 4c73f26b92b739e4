package bigquery

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/avroschema"
	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/diag/diagtest"
	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/protoschema"
)

// wellFormed fails on a diagnostic that breaks the house rules: a code, a
// message starting in lower case without a final period, a position
// inside the text it points into, a bounded size.
func wellFormed(t *testing.T, text string, ds []diag.Diagnostic) {
	t.Helper()
	for _, d := range ds {
		if p := diagtest.Problem(text, d); p != "" {
			t.Fatalf("diagnostic %s: %s: %+v", d.Code, p, d)
		}
		if len(d.Message) > 2000+4*len(text) {
			t.Fatalf("a message of %d bytes", len(d.Message))
		}
	}
}

// countColumns counts a generated table's columns and deepest level.
func countColumns(fs []SchemaField, level int) (n, deepest int) {
	deepest = level
	for _, f := range fs {
		n++
		sub, d := countColumns(f.Fields, level+1)
		n += sub
		if len(f.Fields) > 0 {
			deepest = max(deepest, d)
		}
	}
	return n, deepest
}

// FuzzTopicTable reads a topic schema (.proto, or Avro when it starts with
// {, [ or "), reduces it to columns and generates the table: whatever the
// schema, the table fits BigQuery's limits and ParseTable accepts it back.
func FuzzTopicTable(f *testing.F) {
	for _, s := range []string{
		`syntax = "proto3"; message M { string a = 1; repeated int64 b = 2; map<string, M> m = 3; oneof o { bool c = 4; } E e = 5; enum E { X = 0; } }`,
		`syntax = "proto2"; message M { required bytes a = 1; optional M next = 2; repeated group G = 3 {} }`,
		`syntax = "proto3"; message A { B x = 1; B y = 2; } message B { C x = 1; C y = 2; } message C { int32 z = 1; }`,
		protoDAG(14), protoNest(17), protoWide(3, 25), protoNest(3),
		`{"type":"record","name":"R","fields":[{"name":"a","type":["null",{"type":"array","items":"long"}]},{"name":"m","type":{"type":"map","values":{"type":"map","values":"R"}}}]}`,
		`{"type":"record","name":"R","fields":[{"name":"u","type":["string","long"]},{"name":"n","type":"null"},{"name":"t","type":{"type":"long","logicalType":"timestamp-micros"}}]}`,
		avroDAG(13), avroNest(16), `"string"`, `["null","string"]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var topic *TopicSchema
		var ds []diag.Diagnostic
		if t2 := strings.TrimLeft(text, " \t\r\n"); t2 != "" && strings.ContainsRune(`{["`, rune(t2[0])) {
			at, pds := avroschema.ParseTopic("t", text)
			wellFormed(t, text, pds)
			if diag.HasErrors(pds) {
				return
			}
			topic, ds = FromAvro(at)
		} else {
			pf, pds := protoschema.Parse(text)
			wellFormed(t, text, pds)
			if diag.HasErrors(pds) {
				return
			}
			topic, ds = FromProto(pf, diag.NewSource("t", text))
		}
		wellFormed(t, text, ds)
		table, gds := Generate(Options{UseTopicSchema: true, WriteMetadata: true}, topic, "")
		wellFormed(t, text, gds)
		if topic.TooLarge && !diag.HasErrors(ds) {
			t.Fatalf("TooLarge %v with findings %v", topic.TooLarge, ds)
		}
		n, deepest := countColumns(table, 1)
		if n > maxColumns || deepest > maxNesting {
			t.Fatalf("a table of %d columns, %d levels deep", n, deepest)
		}
		if len(table) == 0 {
			return
		}
		b, _ := json.Marshal(table)
		if _, tds := ParseTable("t", string(b)); diag.HasErrors(tds) {
			t.Fatalf("the generated table is refused: %v", tds)
		}
	})
}

// previewTable has a column of every type, a record and repeated modes,
// for FuzzPreview.
const previewTable = `[{"name":"s","type":"STRING"},{"name":"n","type":"NUMERIC"},{"name":"i","type":"INTEGER","mode":"REPEATED"},
{"name":"d","type":"DATE"},{"name":"ts","type":"TIMESTAMP"},{"name":"t","type":"TIME"},{"name":"dt","type":"DATETIME"},
{"name":"b","type":"BYTES"},{"name":"j","type":"JSON"},{"name":"f","type":"FLOAT"},{"name":"ok","type":"BOOLEAN"},
{"name":"r","type":"RECORD","mode":"REPEATED","fields":[{"name":"x","type":"BIGNUMERIC"},{"name":"rr","type":"RECORD","fields":[{"name":"y","type":"STRING","mode":"REQUIRED"}]}]}]`

// FuzzPreview turns a JSON payload into the row useTableSchema writes:
// whatever the payload, a row that is written is valid JSON of bounded
// size, and one that is not says why.
func FuzzPreview(f *testing.F) {
	for _, s := range []string{`{}`, `{"s":"a","n":"1.5","i":[1,2],"d":"2024-05-01","ts":"2024-05-01T00:00:00Z","t":"12:00","dt":"2024-05-01 12:00"}`,
		`{"b":"aGk=","j":{"a":[1,{"b":null}]},"f":1e300,"ok":true,"r":[{"x":"12345678901234567890123456789","rr":{"y":"q"}}]}`,
		`{"S":"case","unknown":1}`, `{"i":[null]}`, `{"r":[{"rr":{}}]}`, `{"n":123456789012345678901234567890}`, `[1]`, `"x"`,
		`{"d":19000,"t":1234,"dt":5,"ts":1714521600000000}`, `{"s":"a","s":"b"}`} {
		f.Add([]byte(s))
	}
	table, ds := ParseTable("t", previewTable)
	if diag.HasErrors(ds) {
		f.Fatal(ds)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opts := range []Options{{UseTableSchema: true}, {UseTableSchema: true, DropUnknownFields: true, WriteMetadata: true}} {
			rows, rds := Preview(opts, table, []message.Message{{Data: data}}, rowSample)
			if len(rows) != 1 {
				t.Fatalf("%d rows", len(rows))
			}
			wellFormed(t, string(data), rds)
			r := rows[0]
			if r.Written != (r.Problem == "") || r.Written == (len(rds) > 0) {
				t.Fatalf("written %v, problem %q, findings %v", r.Written, r.Problem, rds)
			}
			if r.Written && !json.Valid(r.Values) {
				t.Fatalf("the row is not JSON: %s", r.Values)
			}
			if len(r.Values) > 4*len(data)+4096 {
				t.Fatalf("a row of %d bytes from %d bytes", len(r.Values), len(data))
			}
		}
	})
}
