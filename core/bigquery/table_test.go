package bigquery

import (
	"strconv"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/diag/diagtest"
)

// render lists diagnostics as "severity code path [line:col]".
func render(ds []diag.Diagnostic) string {
	var out []string
	for _, d := range ds {
		s := string(d.Severity) + " " + d.Code + " " + d.Path
		if d.Line > 0 {
			s += " " + strconv.Itoa(d.Line) + ":" + strconv.Itoa(d.Column)
		}
		out = append(out, s)
	}
	return strings.Join(out, "\n")
}

func mustTable(t *testing.T, text string) *Table {
	t.Helper()
	tb, ds := ParseTable("table.json", text)
	if diag.HasErrors(ds) {
		t.Fatalf("table rejected:\n%s", render(ds))
	}
	return tb
}

func TestParseTable(t *testing.T) {
	tests := []struct {
		name string
		text string
		want string // the columns as name:TYPE:MODE, nested in ()
		diag string
	}{
		{"bq show --schema", `[{"name":"data","type":"STRING","mode":"NULLABLE"},{"name":"n","type":"INTEGER","mode":"REQUIRED"}]`,
			"data:STRING:NULLABLE n:INTEGER:REQUIRED", ""},
		{"mode defaults to NULLABLE", `[{"name":"a","type":"string"}]`, "a:STRING:NULLABLE", ""},
		{"aliases", `[{"name":"a","type":"INT64"},{"name":"b","type":"FLOAT64"},{"name":"c","type":"BOOL"},
			{"name":"d","type":"DECIMAL"},{"name":"e","type":"BIGDECIMAL"},{"name":"f","type":"BYTEINT"},
			{"name":"g","type":"SMALLINT"},{"name":"h","type":"BIGINT"},{"name":"i","type":"TINYINT"},{"name":"j","type":"INT"},
			{"name":"k","type":"STRUCT","fields":[{"name":"x","type":"JSON"}]}]`,
			"a:INTEGER:NULLABLE b:FLOAT:NULLABLE c:BOOLEAN:NULLABLE d:NUMERIC:NULLABLE e:BIGNUMERIC:NULLABLE f:INTEGER:NULLABLE " +
				"g:INTEGER:NULLABLE h:INTEGER:NULLABLE i:INTEGER:NULLABLE j:INTEGER:NULLABLE k:RECORD:NULLABLE(x:JSON:NULLABLE)", ""},
		{"wrapped in schema.fields", `{"schema":{"fields":[{"name":"a","type":"DATE"}]}}`, "a:DATE:NULLABLE", ""},
		{"wrapped in fields", `{"fields":[{"name":"a","type":"TIME"}]}`, "a:TIME:NULLABLE", ""},
		{"unknown type", `[{"name":"a","type":"TEXT"}]`, "", "error bq-unknown-type /tableSchema/0/type 1:21"},
		{"unknown mode", `[{"name":"a","type":"STRING","mode":"OPTIONAL"}]`, "a:STRING:NULLABLE", "error bq-column-mode /tableSchema/0/mode 1:37"},
		{"duplicate ignoring case", `[{"name":"a","type":"STRING"},{"name":"A","type":"STRING"}]`, "a:STRING:NULLABLE",
			"error bq-duplicate-column /tableSchema/1/name 1:39"},
		{"record without fields", `[{"name":"r","type":"RECORD"}]`, "r:RECORD:NULLABLE", "error bq-record-fields /tableSchema/0 1:21"},
		{"fields on a scalar", `[{"name":"s","type":"STRING","fields":[{"name":"x","type":"STRING"}]}]`, "s:STRING:NULLABLE",
			"error bq-fields-not-record /tableSchema/0/fields 1:39"},
		{"reserved prefix", `[{"name":"_PARTITIONTIME","type":"TIMESTAMP"}]`, "_PARTITIONTIME:TIMESTAMP:NULLABLE",
			"error bq-column-name /tableSchema/0/name 1:10"},
		{"no name", `[{"type":"STRING"}]`, "", "error bq-column-name /tableSchema/0/name 1:2"},
		{"not a list", `"x"`, "", "error bq-table-shape /tableSchema 1:1"},
		{"not JSON", `[{]`, "", "error json-syntax /tableSchema 1:3"},
		{"too deep", nested(16), "", "error bq-record-depth /tableSchema" + strings.Repeat("/0/fields", 14) + "/0 1:553"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb, ds := ParseTable("table.json", tc.text)
			if got := render(ds); got != tc.diag {
				t.Errorf("diagnostics\n%s\nwant\n%s", got, tc.diag)
			}
			if tc.want == "" {
				return
			}
			if got := columnsText(tb.Columns); got != tc.want {
				t.Errorf("columns\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func nested(depth int) string {
	s := `{"name":"leaf","type":"STRING"}`
	for range depth {
		s = `{"name":"r","type":"RECORD","fields":[` + s + `]}`
	}
	return "[" + s + "]"
}

func columnsText(cols []*Column) string {
	var parts []string
	for _, c := range cols {
		s := c.Name + ":" + c.Type + ":" + c.Mode
		if len(c.Fields) > 0 {
			s += "(" + columnsText(c.Fields) + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func FuzzParseTable(f *testing.F) {
	for _, s := range []string{
		`[{"name":"data","type":"STRING","mode":"NULLABLE"}]`,
		`[{"name":"r","type":"RECORD","mode":"REPEATED","fields":[{"name":"x","type":"INT64"}]}]`,
		`{"schema":{"fields":[{"name":"a","type":"DATE","description":"d"}]}}`,
		`{"fields":[]}`, `[]`, `[1]`, `[{"name":""}]`, `[{"name":"a","type":"x","mode":7}]`, nested(3), `[`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		tb, ds := ParseTable("fuzz", text)
		diagtest.Check(t, text, ds)
		for _, d := range ds {
			if !strings.HasPrefix(d.Path, TablePath) {
				t.Fatalf("diagnostic %s has the path %q", d.Code, d.Path)
			}
		}
		// Whatever was read must check and generate without trouble.
		for _, o := range []Options{{}, {UseTableSchema: true, WriteMetadata: true}} {
			Check(o, tb, nil)
		}
	})
}
