package hostile

import (
	"strconv"
	"strings"

	"github.com/subplay/subplay/core/limits"
)

// The subscriptions the schema cases are sent with: each schema path of the
// "schema" operation, BigQuery with and without the topic's schema, and
// Cloud Storage with Avro output.
const (
	bqTopicConfig = `{"name": "projects/p/subscriptions/s", "topic": "projects/p/topics/t",` +
		` "bigqueryConfig": {"table": "p.d.t", "useTopicSchema": true}}`
	bqTableConfig = `{"name": "projects/p/subscriptions/s", "topic": "projects/p/topics/t",` +
		` "bigqueryConfig": {"table": "p.d.t", "useTableSchema": true, "dropUnknownFields": true}}`
	gcsAvroTopicConfig = `{"name": "projects/p/subscriptions/s", "topic": "projects/p/topics/t",` +
		` "cloudStorageConfig": {"bucket": "b", "avroConfig": {"useTopicSchema": true}}}`
)

// schemaRequest builds a request for the "schema" operation; empty
// arguments are left out. messages is a JSON array, written as is.
func schemaRequest(config, topic, table, messages string) []byte {
	var b strings.Builder
	b.Grow(len(config) + len(topic) + len(table) + len(messages) + 128)
	b.WriteString(`{"text":`)
	writeJSONString(&b, config)
	if topic != "" {
		b.WriteString(`,"topicSchema":`)
		writeJSONString(&b, topic)
	}
	if table != "" {
		b.WriteString(`,"tableSchema":`)
		writeJSONString(&b, table)
	}
	if messages != "" {
		b.WriteString(`,"messages":` + messages)
	}
	b.WriteString(`,"time":"2024-05-01T12:00:00Z"}`)
	return []byte(b.String())
}

// protoDAG is a .proto schema where each message has two fields of the
// one before: the columns double at every level.
func protoDAG(levels int) string {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\n")
	for i := levels; i >= 1; i-- {
		if i == 1 {
			b.WriteString("message M1 { int64 a = 1; int64 b = 2; }\n")
			continue
		}
		p := "M" + strconv.Itoa(i-1)
		b.WriteString("message M" + strconv.Itoa(i) + " { " + p + " a = 1; " + p + " b = 2; }\n")
	}
	return b.String()
}

// avroDAG is protoDAG in Avro: each record defined inline where first
// used, and used again by name.
func avroDAG(levels int) string {
	typ := `{"type":"record","name":"M1","fields":[{"name":"a","type":"long"},{"name":"b","type":"long"}]}`
	for i := 2; i <= levels; i++ {
		prev := `"M` + strconv.Itoa(i-1) + `"`
		typ = `{"type":"record","name":"M` + strconv.Itoa(i) + `","fields":[{"name":"a","type":` + typ + `},{"name":"b","type":` + prev + `}]}`
	}
	return typ
}

// protoChain is n messages, each holding the next: a chain of references
// n deep in a flat text.
func protoChain(n int) string {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\n")
	for i := 0; i < n; i++ {
		b.WriteString("message C" + strconv.Itoa(i) + " { C" + strconv.Itoa(i+1) + " next = 1; }\n")
	}
	b.WriteString("message C" + strconv.Itoa(n) + " { string end = 1; }\n")
	return b.String()
}

// avroChain is n records, each defined in a field of the root and each
// holding the one defined before it: references n deep at a text depth of
// a few levels.
func avroChain(n int) string {
	var b strings.Builder
	b.WriteString(`{"type":"record","name":"Root","fields":[`)
	b.WriteString(`{"name":"c0","type":{"type":"record","name":"C0","fields":[{"name":"end","type":"string"}]}}`)
	for i := 1; i <= n; i++ {
		s := strconv.Itoa(i)
		b.WriteString(`,{"name":"c` + s + `","type":{"type":"record","name":"C` + s + `","fields":[{"name":"prev","type":"C` + strconv.Itoa(i-1) + `"}]}}`)
	}
	b.WriteString(`]}`)
	return b.String()
}

// avroWide is a record of n long fields, and a message that sets them all.
// widestAvro is about the most fields avroWide fits in a schema of
// limits.TopicSchemaBytes (fields of 24-31 bytes); a test checks it fits.
const widestAvro = 9_500

func avroWide(n int) (schema, payload string) {
	var s, p strings.Builder
	s.WriteString(`{"type":"record","name":"Wide","fields":[`)
	p.WriteString(`{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			s.WriteByte(',')
			p.WriteByte(',')
		}
		f := "f" + strconv.Itoa(i)
		s.WriteString(`{"name":"` + f + `","type":"long"}`)
		p.WriteString(`"` + f + `":` + strconv.Itoa(i))
	}
	s.WriteString(`]}`)
	p.WriteString(`}`)
	return s.String(), p.String()
}

// jsonMessages writes a messages array of n copies of one JSON payload.
func jsonMessages(payload string, n int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"json":` + payload + `}`)
	}
	b.WriteByte(']')
	return b.String()
}

// protoFields is one message of n fields; dup repeats every name and
// number once more.
func protoFields(n int, dup bool) string {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\nmessage Many {\n")
	for i := 1; i <= n; i++ {
		s, num := strconv.Itoa(i), strconv.Itoa(fieldNumber(i))
		b.WriteString("  int64 f" + s + " = " + num + ";\n")
		if dup {
			b.WriteString("  int64 f" + s + " = " + num + ";\n")
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// fieldNumber is the i-th valid field number: protobuf reserves 19000 to
// 19999.
func fieldNumber(i int) int {
	if i >= 19000 {
		return i + 1000
	}
	return i
}

// tableColumns is a table schema of n columns; depth nests them in
// RECORDs that deep.
func tableColumns(n int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name":"c` + strconv.Itoa(i) + `","type":"STRING"}`)
	}
	b.WriteByte(']')
	return b.String()
}

func tableNested(depth int) string {
	return strings.Repeat(`[{"name":"r","type":"RECORD","fields":`, depth) + `[{"name":"x","type":"STRING"}]` + strings.Repeat(`}]`, depth)
}

// wideObject is a JSON object of n keys.
func wideObject(n int) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"c` + strconv.Itoa(i) + `":"v"`)
	}
	b.WriteByte('}')
	return b.String()
}

func init() {
	add(
		// Columns that double at every level of reuse: 20 levels ran
		// out of memory and killed `subplay serve`.
		Case{Name: "schema-columns/proto-dag-16", Op: "schema", Body: func() []byte {
			return schemaRequest(bqTopicConfig, protoDAG(16), "", "")
		}},
		Case{Name: "schema-columns/proto-dag-20", Op: "schema", Body: func() []byte {
			return schemaRequest(bqTopicConfig, protoDAG(20), "", "")
		}},
		Case{Name: "schema-columns/proto-dag-60", Op: "schema", Body: func() []byte {
			return schemaRequest(bqTopicConfig, protoDAG(60), "", "")
		}},
		Case{Name: "schema-columns/avro-dag-20", Op: "schema", Body: func() []byte {
			return schemaRequest(bqTopicConfig, avroDAG(20), "", "")
		}},
		Case{Name: "schema-columns/avro-dag-20-cloud-storage", Op: "schema", Body: func() []byte {
			return schemaRequest(gcsAvroTopicConfig, avroDAG(20), "", "")
		}},
		Case{Name: "schema-columns/proto-dag-20-table", Op: "schema", Body: func() []byte {
			return schemaRequest(bqTopicConfig, protoDAG(20), tableColumns(3), "")
		}},
		Case{Name: "schema-columns/proto-cycles", Op: "schema", Body: func() []byte {
			// Twelve messages that each hold all the others: every
			// simple path is a different column layout.
			var b strings.Builder
			b.WriteString("syntax = \"proto3\";\n")
			for i := 0; i < 12; i++ {
				b.WriteString("message K" + strconv.Itoa(i) + " {")
				for j := 0; j < 12; j++ {
					b.WriteString(" K" + strconv.Itoa(j) + " k" + strconv.Itoa(j) + " = " + strconv.Itoa(j+1) + ";")
				}
				b.WriteString(" }\n")
			}
			return schemaRequest(bqTopicConfig, b.String(), "", "")
		}},
		// Reference chains: 5,000 messages deep used about 1 GB and
		// broke the JSON output.
		Case{Name: "schema-depth/proto-chain-5000", Op: "schema", Body: func() []byte {
			return schemaRequest(bqTopicConfig, protoChain(5000), "", "")
		}},
		Case{Name: "schema-depth/avro-chain-5000", Op: "schema", Body: func() []byte {
			return schemaRequest(bqTopicConfig, avroChain(5000), "", "")
		}},
		Case{Name: "schema-depth/avro-chain-5000-cloud-storage", Op: "schema", Body: func() []byte {
			return schemaRequest(gcsAvroTopicConfig, avroChain(5000), "", `[{"json":{}}]`)
		}},
		Case{Name: "schema-depth/proto-nested-declarations", Op: "schema", Body: func() []byte {
			return schemaRequest(bqTopicConfig, "syntax = \"proto3\";\n"+strings.Repeat("message N { ", 20_000)+strings.Repeat("}", 20_000), "", "")
		}},
		Case{Name: "schema-depth/proto-option-brackets", Op: "schema", Body: func() []byte {
			return schemaRequest(bqTopicConfig, "syntax = \"proto3\";\noption x = "+strings.Repeat("{", 200_000)+";\nmessage A { int64 a = 1; }", "", "")
		}},
		Case{Name: "schema-depth/avro-nested-arrays", Op: "schema", Body: func() []byte {
			return schemaRequest(bqTopicConfig, `{"type":"record","name":"R","fields":[{"name":"a","type":`+
				strings.Repeat(`{"type":"array","items":`, 50_000)+`"long"`+strings.Repeat(`}`, 50_000)+`}]}`, "", "")
		}},
		Case{Name: "schema-depth/avro-nested-unions-maps", Op: "schema", Body: func() []byte {
			return schemaRequest(bqTopicConfig, `{"type":"record","name":"R","fields":[{"name":"a","type":`+
				strings.Repeat(`["null",{"type":"map","values":`, 30_000)+`"long"`+strings.Repeat(`}]`, 30_000)+`}]}`, "", "")
		}},
		// Quadratic loops over fields.
		Case{Name: "schema-fields/avro-payload-30k", Op: "schema", Body: func() []byte {
			s, p := avroWide(30_000)
			return schemaRequest(gcsAvroTopicConfig, s, "", jsonMessages(p, 2))
		}},
		Case{Name: "schema-fields/avro-payload-widest", Op: "schema", Body: func() []byte {
			// The widest record Pub/Sub takes (a schema of at most
			// limits.TopicSchemaBytes): the 30k cases are refused by
			// that limit before any reading, so this one is what
			// converting payloads costs at the largest legal size.
			s, p := avroWide(widestAvro)
			return schemaRequest(gcsAvroTopicConfig, s, "", jsonMessages(p, 2))
		}},
		Case{Name: "schema-fields/avro-binary-widest", Op: "schema", Body: func() []byte {
			s, _ := avroWide(widestAvro)
			return schemaRequest(gcsAvroTopicConfig, s, "", `[{"data":"AAAA"},{"data":"AgQG"}]`)
		}},
		Case{Name: "schema-fields/avro-binary-30k", Op: "schema", Body: func() []byte {
			// Data that is not JSON is read as Avro binary, by
			// hamba/avro, which prints the schema first.
			s, _ := avroWide(30_000)
			return schemaRequest(gcsAvroTopicConfig, s, "", `[{"data":"AAAA"},{"data":"AgQG"}]`)
		}},
		Case{Name: "schema-avro/huge-enum-binary", Op: "schema", Body: func() []byte {
			var s strings.Builder
			s.WriteString(`{"type":"record","name":"E","fields":[{"name":"e","type":{"type":"enum","name":"Big","symbols":[`)
			for i := 0; i < 40_000; i++ {
				if i > 0 {
					s.WriteByte(',')
				}
				s.WriteString(`"S` + strconv.Itoa(i) + `"`)
			}
			s.WriteString(`]}}]}`)
			return schemaRequest(gcsAvroTopicConfig, s.String(), "", `[{"data":"AgQG"}]`)
		}},
		Case{Name: "schema-fields/proto-30k", Op: "schema", Body: func() []byte {
			return schemaRequest(bqTopicConfig, protoFields(30_000, false), "", "")
		}},
		Case{Name: "schema-fields/proto-30k-duplicates", Op: "schema", Body: func() []byte {
			return schemaRequest(bqTopicConfig, protoFields(15_000, true), "", "")
		}},
		Case{Name: "schema-fields/proto-huge-numbers", Op: "schema", Body: func() []byte {
			var b strings.Builder
			b.WriteString("syntax = \"proto3\";\nmessage H {\n")
			for i := 0; i < 20_000; i++ {
				b.WriteString("  int64 f" + strconv.Itoa(i) + " = 99999999999999999999" + strconv.Itoa(i) + ";\n")
			}
			b.WriteString("}\n")
			return schemaRequest(bqTopicConfig, b.String(), "", "")
		}},
		Case{Name: "schema-fields/proto-noise", Op: "schema", Body: func() []byte {
			// Imports, options and services by the thousand around one
			// message.
			var b strings.Builder
			b.WriteString("syntax = \"proto3\";\npackage " + strings.Repeat("p.", 60) + "q;\n")
			for i := 0; i < 5000; i++ {
				s := strconv.Itoa(i)
				b.WriteString("import \"f" + s + ".proto\";\noption (o" + s + ") = {a: [1, {b: 2}]};\nservice S" + s + " { rpc R(A) returns (A); }\n")
			}
			b.WriteString("message A { int64 a = 1 [(x) = {y: 1}]; }\n")
			return schemaRequest(bqTopicConfig, b.String(), "", "")
		}},
		Case{Name: "schema-fields/proto-long-scopes", Op: "schema", Body: func() []byte {
			// Long names nested deep, then many declarations and
			// unknown references in the deepest scope: every full name
			// and every lookup is as long as the scope.
			var b strings.Builder
			b.WriteString("syntax = \"proto3\";\n")
			name := strings.Repeat("N", 4000)
			for i := 0; i < 60; i++ {
				b.WriteString("message " + name + " { ")
			}
			for i := 0; i < 20_000; i++ {
				// One a line: locating findings is not what this measures.
				b.WriteString("message D" + strconv.Itoa(i) + " {}\nU" + strconv.Itoa(i) + " u" + strconv.Itoa(i) + " = " + strconv.Itoa(fieldNumber(i+1)) + ";\n")
			}
			b.WriteString(strings.Repeat("}", 60))
			return schemaRequest(bqTopicConfig, b.String(), "", "")
		}},
		// Avro oddities.
		Case{Name: "schema-avro/huge-enum", Op: "schema", Body: func() []byte {
			var s, p strings.Builder
			s.WriteString(`{"type":"record","name":"E","fields":[{"name":"e","type":{"type":"array","items":{"type":"enum","name":"Big","symbols":[`)
			p.WriteString(`{"e":[`)
			for i := 0; i < 40_000; i++ {
				if i > 0 {
					s.WriteByte(',')
					p.WriteByte(',')
				}
				s.WriteString(`"S` + strconv.Itoa(i) + `"`)
				p.WriteString(`"S39999"`)
			}
			s.WriteString(`]}}}]}`)
			p.WriteString(`]}`)
			return schemaRequest(gcsAvroTopicConfig, s.String(), "", jsonMessages(p.String(), 1))
		}},
		Case{Name: "schema-avro/names-reused", Op: "schema", Body: func() []byte {
			var b strings.Builder
			b.WriteString(`{"type":"record","name":"R","fields":[`)
			for i := 0; i < 10_000; i++ {
				if i > 0 {
					// One a line: locating findings is not what this
					// measures.
					b.WriteString(",\n")
				}
				b.WriteString(`{"name":"f` + strconv.Itoa(i) + `","type":{"type":"fixed","name":"Same","size":1}}`)
			}
			b.WriteString(`]}`)
			return schemaRequest(bqTopicConfig, b.String(), "", "")
		}},
		Case{Name: "schema-avro/recursive", Op: "schema", Body: func() []byte {
			return schemaRequest(bqTopicConfig, `{"type":"record","name":"Node","fields":[{"name":"kids","type":{"type":"array","items":"Node"}},`+
				`{"name":"next","type":["null","Node"]},{"name":"m","type":{"type":"map","values":"Node"}}]}`, "", "")
		}},
		Case{Name: "schema-avro/union-branches", Op: "schema", Body: func() []byte {
			// Unions of three records at every level, and a payload
			// that fits none deep down: trying each branch in full is
			// exponential in the depth.
			const depth = 12 // as deep as JSON nesting allows
			typ := `"long"`
			for i := depth; i >= 1; i-- {
				// Three records a level, the second and third with an
				// optional field of the first's type.
				s := strconv.Itoa(i)
				typ = `[{"type":"record","name":"A` + s + `","fields":[{"name":"x","type":` + typ + `}]},` +
					`{"type":"record","name":"B` + s + `","fields":[{"name":"x","type":["null","A` + s + `"]},{"name":"y","type":"long","default":0}]},` +
					`{"type":"record","name":"C` + s + `","fields":[{"name":"x","type":["null","A` + s + `"]},{"name":"z","type":"long","default":0}]}]`
			}
			schema := `{"type":"record","name":"Root","fields":[{"name":"x","type":` + typ + `}]}`
			payload := strings.Repeat(`{"x":`, depth) + `"not a long"` + strings.Repeat(`}`, depth)
			return schemaRequest(gcsAvroTopicConfig, schema, "", jsonMessages(`{"x":`+payload+`}`, 1))
		}},
		// Table schemas.
		Case{Name: "schema-table/100k-columns", Op: "schema", Body: func() []byte {
			// Over the size of any text read: refused whole.
			return schemaRequest(bqTableConfig, "", tableColumns(100_000), "")
		}},
		Case{Name: "schema-table/30k-columns", Op: "schema", Body: func() []byte {
			// Three times BigQuery's column limit, with messages that
			// set every column.
			return schemaRequest(bqTableConfig, "", tableColumns(30_000), jsonMessages(wideObject(30_000), 2))
		}},
		Case{Name: "schema-table/deep-records", Op: "schema", Body: func() []byte {
			return schemaRequest(bqTableConfig, "", tableNested(5000), "")
		}},
		Case{Name: "schema-table/wide-rows", Op: "schema", Body: func() []byte {
			// A table at BigQuery's column limit and messages that set
			// every column: matching keys to columns was quadratic.
			return schemaRequest(bqTableConfig, "", tableColumns(9_999), jsonMessages(wideObject(9_999), 4))
		}},
		// Sample payloads.
		Case{Name: "schema-payload/deep-json-bigquery", Op: "schema", Body: func() []byte {
			return schemaRequest(bqTableConfig, "", tableNested(14), jsonMessages(strings.Repeat(`{"r":`, 5000)+`1`+strings.Repeat(`}`, 5000), 1))
		}},
		Case{Name: "schema-payload/deep-json-avro", Op: "schema", Body: func() []byte {
			schema := `{"type":"record","name":"T","fields":[{"name":"r","type":["null","T"]}]}`
			return schemaRequest(gcsAvroTopicConfig, schema, "", jsonMessages(strings.Repeat(`{"r":`, 5000)+`null`+strings.Repeat(`}`, 5000), 1))
		}},
		Case{Name: "schema-payload/long-keys-deep", Op: "schema", Body: func() []byte {
			// Long keys at every level and many values at the bottom
			// (as many as one object may hold): a path built for every
			// value is as long as the nesting.
			key := strings.Repeat("k", 8000)
			schema := `{"type":"record","name":"T","fields":[{"name":"` + key + `","type":["null","T"]},{"name":"m","type":{"type":"map","values":"long"}}]}`
			inner := `{"` + key + `":null,"m":` + strings.ReplaceAll(wideObject(limits.ObjectMembers), `"v"`, `1`) + `}`
			payload := strings.Repeat(`{"m":{},"`+key+`":`, 40) + inner + strings.Repeat(`}`, 40)
			return schemaRequest(gcsAvroTopicConfig, schema, "", jsonMessages(payload, 1))
		}},
	)
}
