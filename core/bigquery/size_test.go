package bigquery

import (
	"encoding/json"
	"github.com/subplay/subplay/core/diag/diagtest"
	"strconv"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/avroschema"
	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/protoschema"
)

// protoDAG: each message has two fields of the one before, so the columns
// double at every level.
func protoDAG(levels int) string {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\n")
	for i := levels; i >= 2; i-- {
		p := "M" + strconv.Itoa(i-1)
		b.WriteString("message M" + strconv.Itoa(i) + " { " + p + " a = 1; " + p + " b = 2; }\n")
	}
	b.WriteString("message M1 { int64 a = 1; int64 b = 2; }\n")
	return b.String()
}

// protoNest: n messages, each holding the next once.
func protoNest(n int) string {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\n")
	for i := 1; i < n; i++ {
		b.WriteString("message N" + strconv.Itoa(i) + " { N" + strconv.Itoa(i+1) + " n = 1; }\n")
	}
	b.WriteString("message N" + strconv.Itoa(n) + " { string s = 1; }\n")
	return b.String()
}

// avroNest: records nested n deep, each defined inline.
func avroNest(n int) string {
	typ := `"string"`
	for i := n; i >= 1; i-- {
		typ = `{"type":"record","name":"R` + strconv.Itoa(i) + `","fields":[{"name":"n","type":` + typ + `}]}`
	}
	return typ
}

func avroDAG(levels int) string {
	typ := `{"type":"record","name":"M1","fields":[{"name":"a","type":"long"},{"name":"b","type":"long"}]}`
	for i := 2; i <= levels; i++ {
		typ = `{"type":"record","name":"M` + strconv.Itoa(i) + `","fields":[{"name":"a","type":` + typ + `},{"name":"b","type":"M` + strconv.Itoa(i-1) + `"}]}`
	}
	return typ
}

// protoWide: levels messages, each with n fields of the next.
func protoWide(levels, n int) string {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\n")
	for i := 1; i <= levels; i++ {
		b.WriteString("message W" + strconv.Itoa(i) + " {")
		for j := 1; j <= n; j++ {
			typ := "W" + strconv.Itoa(i+1)
			if i == levels {
				typ = "int64"
			}
			b.WriteString(" " + typ + " f" + strconv.Itoa(j) + " = " + strconv.Itoa(j) + ";")
		}
		b.WriteString(" }\n")
	}
	return b.String()
}

func fromText(t *testing.T, text string) (*TopicSchema, []diag.Diagnostic) {
	t.Helper()
	if strings.HasPrefix(text, "{") {
		topic, ds := avroschema.ParseTopic("topic.avsc", text)
		if diag.HasErrors(ds) {
			t.Fatalf("topic rejected: %v", ds)
		}
		return FromAvro(topic)
	}
	f, ds := protoschema.Parse(text)
	if diag.HasErrors(ds) {
		t.Fatalf("proto rejected: %v", ds)
	}
	return FromProto(f, diag.NewSource("topic.proto", text))
}

// TestTableLimits checks that a topic schema over BigQuery's limits gets
// one positioned finding and no table, and one within them gets a table
// that ParseTable accepts back.
func TestTableLimits(t *testing.T) {
	tests := []struct {
		name string
		text string
		want string // "code line:column", or "" for a table that fits
	}{
		{"doubling 12 levels fits", protoDAG(12), ""},
		{"doubling 13 levels is too many columns", protoDAG(13), "bq-too-many-columns 2:30"},
		{"doubling 40 levels", protoDAG(40), "bq-record-depth 16:19"},
		{"avro doubling 12 levels fits", avroDAG(12), ""},
		{"avro doubling 20 levels", avroDAG(20), "bq-record-depth 1:871"},
		{"wide and shallow", protoWide(3, 30), "bq-too-many-columns 2:129"},
		{"nesting 15 messages fits", protoNest(15), ""},
		{"nesting 16 messages is too deep", protoNest(16), "bq-record-depth 16:19"},
		{"avro nesting 15 fits", avroNest(15), ""},
		{"avro nesting 16 is too deep", avroNest(16), "bq-record-depth 1:866"},
		{"recursion is left out", `syntax = "proto3"; message T { T next = 1; repeated T kids = 2; string s = 3; }`, ""},
		{"maps count their entries", `syntax = "proto3"; message M { map<string, M> m = 1; string s = 2; }`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			topic, ds := fromText(t, tc.text)
			table, gds := Generate(Options{UseTopicSchema: true}, topic, "")
			if tc.want == "" {
				if diag.HasErrors(ds) || diag.HasErrors(gds) {
					t.Fatalf("findings %v %v", ds, gds)
				}
				text, _ := json.Marshal(table)
				back, tds := ParseTable("table.json", string(text))
				if diag.HasErrors(tds) {
					t.Fatalf("the generated table is refused: %v", tds)
				}
				// Fields with no column (recursions) are dropped.
				if cds := Check(Options{UseTopicSchema: true, DropUnknownFields: true}, back, topic); diag.HasErrors(cds) {
					t.Errorf("the generated table does not fit its topic: %v", cds)
				}
				return
			}
			if len(ds) != 1 || !topic.TooLarge || table != nil {
				t.Fatalf("want one finding and no table, got %v, %d columns", ds, len(table))
			}
			d := ds[0]
			got := d.Code + " " + strconv.Itoa(d.Line) + ":" + strconv.Itoa(d.Column)
			if got != tc.want {
				t.Errorf("got %s (%s), want %s", got, d.Message, tc.want)
			}
			if d.Message == "" || strings.HasSuffix(d.Message, ".") || diagtest.Capitalized(d.Message) {
				t.Errorf("badly formed message %q", d.Message)
			}
			if cds := Check(Options{UseTopicSchema: true}, mustTable(t, `[{"name":"a","type":"STRING"}]`), topic); len(cds) != 0 {
				t.Errorf("Check adds to the finding: %v", cds)
			}
		})
	}
}

func TestTableColumnLimit(t *testing.T) {
	cols := make([]string, 10_001)
	for i := range cols {
		cols[i] = `{"name":"c` + strconv.Itoa(i) + `","type":"STRING"}`
	}
	_, ds := ParseTable("t.json", "["+strings.Join(cols[:10_000], ",")+"]")
	if diag.HasErrors(ds) {
		t.Errorf("10,000 columns refused: %v", ds)
	}
	_, ds = ParseTable("t.json", "["+strings.Join(cols, ",")+"]")
	if len(ds) != 1 || ds[0].Code != "bq-too-many-columns" || ds[0].Path != "/tableSchema/10000/name" {
		t.Errorf("10,001 columns: %v", ds)
	}
}

// BenchmarkFromProtoDAG measures the column count of a schema describing
// 2^40 columns: it stops at the limit.
func BenchmarkFromProtoDAG(b *testing.B) {
	f, _ := protoschema.Parse(protoDAG(40))
	src := diag.NewSource("topic.proto", "")
	for b.Loop() {
		FromProto(f, src)
	}
}
