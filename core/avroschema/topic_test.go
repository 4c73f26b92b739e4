package avroschema

import (
	"strconv"
	"strings"
	"testing"

	"github.com/hamba/avro/v2"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/diag/diagtest"
)

func itoa(n int) string { return strconv.Itoa(n) }

func mustParse(t *testing.T, text string) avro.Schema {
	t.Helper()
	s, err := avro.ParseWithCache(text, "", &avro.SchemaCache{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestParseTopic(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string // "severity code line:col"
	}{
		{"primitive", `"string"`, nil},
		{"primitive object", `{"type": "long"}`, nil},
		{"record of every kind", `{"type":"record","name":"R","namespace":"a.b","fields":[
			{"name":"n","type":"null"},{"name":"b","type":"boolean"},{"name":"i","type":"int"},
			{"name":"l","type":"long"},{"name":"f","type":"float"},{"name":"d","type":"double"},
			{"name":"y","type":"bytes"},{"name":"s","type":"string"},
			{"name":"e","type":{"type":"enum","name":"E","symbols":["A","B"],"default":"A"}},
			{"name":"a","type":{"type":"array","items":"E"}},
			{"name":"m","type":{"type":"map","values":"a.b.E"}},
			{"name":"x","type":{"type":"fixed","name":"F","size":16,"logicalType":"uuid"}},
			{"name":"u","type":["null","R"]},
			{"name":"t","type":{"type":"long","logicalType":"timestamp-micros"}},
			{"name":"dec","type":{"type":"bytes","logicalType":"decimal","precision":10,"scale":2}}]}`, nil},
		{"not JSON", `{"type": }`, []string{"error json-syntax 1:10"}},
		{"unknown primitive", `{"type":"record","name":"R","fields":[{"name":"a","type":"integer"}]}`,
			[]string{"error avro-unknown-type 1:58"}},
		{"unknown named type", "{\"type\":\"record\",\"name\":\"R\",\"fields\":[\n {\"name\":\"a\",\"type\":\"Missing\"}]}",
			[]string{"error avro-unknown-type 2:21"}},
		{"type missing", `{"name":"x"}`, []string{"error avro-type-missing 1:1"}},
		{"record without name", `{"type":"record","fields":[]}`, []string{"error avro-name-missing 1:1"}},
		{"record without fields", `{"type":"record","name":"R"}`, []string{"error avro-record-fields 1:1"}},
		{"bad record name", `{"type":"record","name":"1R","fields":[]}`, []string{"error avro-invalid-name 1:25"}},
		{"bad field name", `{"type":"record","name":"R","fields":[{"name":"a-b","type":"int"}]}`, []string{"error avro-invalid-name 1:47"}},
		{"duplicate field", `{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"a","type":"int"}]}`,
			[]string{"error avro-duplicate-field 1:73"}},
		{"field without type", `{"type":"record","name":"R","fields":[{"name":"a"}]}`, []string{"error avro-field-type 1:47"}},
		{"duplicate type", `["null",{"type":"enum","name":"E","symbols":["A"]},{"type":"enum","name":"E","symbols":["B"]}]`,
			[]string{"error avro-union-duplicate 1:52", "error avro-duplicate-name 1:74"}},
		{"nested union", `["null",["int","long"]]`, []string{"error avro-union-nested 1:9"}},
		{"duplicate union branch", `["int","int"]`, []string{"error avro-union-duplicate 1:8"}},
		{"empty union", `[]`, []string{"error avro-union-empty 1:1"}},
		{"array without items", `{"type":"array"}`, []string{"error avro-array-items 1:1"}},
		{"map without values", `{"type":"map"}`, []string{"error avro-map-values 1:1"}},
		{"fixed without size", `{"type":"fixed","name":"F"}`, []string{"error avro-fixed-size 1:1"}},
		{"enum symbol twice", `{"type":"enum","name":"E","symbols":["A","A"]}`, []string{"error avro-enum-symbol 1:42"}},
		{"enum default not a symbol", `{"type":"enum","name":"E","symbols":["A"],"default":"B"}`, []string{"error avro-enum-default 1:53"}},
		{"a number is no type", `5`, []string{"error avro-type-shape 1:1"}},
		{"logical type on the wrong base", `{"type":"string","logicalType":"date"}`, []string{"warning avro-logical-type-ignored 1:32"}},
		{"unknown logical type", `{"type":"long","logicalType":"epoch"}`, []string{"warning avro-logical-type-unknown 1:30"}},
		{"decimal without precision", `{"type":"bytes","logicalType":"decimal"}`, []string{"warning avro-logical-type-ignored 1:31"}},
		{"hamba catches a bad default", "{\"type\":\"record\",\"name\":\"R\",\"fields\":[\n{\"name\":\"count\",\"type\":\"int\",\"default\":\"x\"}]}",
			[]string{"error avro-schema-invalid 2:9"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			topic, ds := ParseTopic("topic.avsc", tc.text)
			checkDiags(t, ds, tc.want)
			if !diag.HasErrors(ds) && topic.Schema == nil {
				t.Error("no errors but no schema")
			}
			if diag.HasErrors(ds) && topic.Schema != nil {
				t.Error("errors but a schema")
			}
		})
	}
}

// TestParseTopicCacheIsolation makes sure a name defined by one schema is
// unknown to the next: hamba/avro's default cache would remember it.
func TestParseTopicCacheIsolation(t *testing.T) {
	mustTopic(t, `{"type":"record","name":"Leaky","fields":[]}`)
	_, ds := ParseTopic("t", `{"type":"record","name":"R","fields":[{"name":"a","type":"Leaky"}]}`)
	if !diag.HasErrors(ds) {
		t.Fatal("a type from an earlier schema was visible")
	}
}

func TestTypeModel(t *testing.T) {
	topic := mustTopic(t, orderSchema)
	r := topic.Root
	if r.Kind != Record || r.Name != "com.example.Order" || len(r.Fields) != 3 {
		t.Fatalf("root %+v", r)
	}
	note := r.FieldNamed("note")
	inner, ok := note.Type.Optional()
	if !ok || inner.Kind != String || !note.HasDefault || note.Path != "/fields/2" {
		t.Errorf("note: %+v optional=%v", note, ok)
	}
	if _, ok := r.FieldNamed("id").Type.Optional(); ok {
		t.Error("a plain string is not optional")
	}
	if got := r.TypeName(); got != "record com.example.Order" {
		t.Errorf("TypeName %q", got)
	}
}

// chainSchema is n records, each defined in a field of the root and each
// holding the one before by name: types n deep in a shallow text.
func chainSchema(n int) string {
	var b strings.Builder
	b.WriteString(`{"type":"record","name":"Root","fields":[{"name":"c0","type":{"type":"record","name":"C0","fields":[{"name":"s","type":"string"}]}}`)
	for i := 1; i <= n; i++ {
		s := strconv.Itoa(i)
		b.WriteString(`,{"name":"c` + s + `","type":{"type":"record","name":"C` + s + `","fields":[{"name":"p","type":"C` + strconv.Itoa(i-1) + `"}]}}`)
	}
	b.WriteString(`]}`)
	return b.String()
}

func TestReferenceDepth(t *testing.T) {
	if _, ds := ParseTopic("t", chainSchema(61)); diag.HasErrors(ds) {
		t.Errorf("types 64 levels deep: %v", ds)
	}
	_, ds := ParseTopic("t", chainSchema(5000))
	if len(ds) != 1 || ds[0].Code != "avro-depth" || ds[0].Line != 1 {
		t.Fatalf("a chain 5,000 deep: %v", ds)
	}
}

func FuzzParseTopic(f *testing.F) {
	for _, seed := range []string{
		`"string"`, `"null"`, `{"type":"long","logicalType":"timestamp-micros"}`, orderSchema,
		`["null","string"]`, `{"type":"array","items":"int"}`, `{"type":"map","values":"bytes"}`,
		`{"type":"enum","name":"E","symbols":["A","B"],"default":"A"}`,
		`{"type":"fixed","name":"F","size":12,"logicalType":"duration"}`,
		`{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}`,
		`{"type":"record","name":"N","fields":[{"name":"next","type":["null","N"]}]}`,
		`{"type":"error","name":"E","fields":[]}`, `{"type":{"type":"string"}}`,
		`{"type":"record","name":"a.b.R","fields":[{"name":"x","type":"a.b.R"}]}`, `[`, `{}`,
		chainSchema(70), chainSchema(3),
		`{"type":"record","name":"R","fields":[{"name":"a","type":{"type":"record","name":"S","fields":[]}},{"name":"b","type":"S"},{"name":"c","type":{"type":"array","items":{"type":"map","values":["null","S"]}}}]}`,
		`{"type":"record","name":"R","fields":[{"name":"f","type":{"type":"fixed","name":"F","size":1}},{"name":"g","type":{"type":"fixed","name":"F","size":1}}]}`,
		`{"type":"record","name":"R","fields":[{"name":"e","type":{"type":"enum","name":"E","symbols":["A","A","1"]}},{"name":"d","type":"long","default":"x"}]}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		topic, ds := ParseTopic("fuzz", text)
		for _, d := range ds {
			if p := diagtest.Problem(text, d); p != "" {
				t.Fatalf("diagnostic %s: %s: %+v", d.Code, p, d)
			}
			if d.Span.IsValid() && (d.Line < 1 || d.Column < 1) {
				t.Fatalf("a span without a line and column: %+v", d)
			}
		}
		if topic.Schema != nil {
			for _, opts := range []Options{{UseTopicSchema: true}, {UseTopicSchema: true, WriteMetadata: true}} {
				if out, _ := OutputSchema(opts, topic); out != nil && out.Schema == nil {
					t.Fatal("output without a schema")
				}
			}
		}
	})
}
