package bigquery

import (
	"strconv"
	"strings"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/limits"
)

// Path prefixes of diagnostics, by the text they point into.
const (
	TablePath   = "/tableSchema"
	TopicPath   = "/topicSchema"
	MessagePath = "/messages"
)

// The BigQuery column types, as `bq show --schema` spells them.
const (
	String     = "STRING"
	Bytes      = "BYTES"
	Integer    = "INTEGER"
	Float      = "FLOAT"
	Numeric    = "NUMERIC"
	BigNumeric = "BIGNUMERIC"
	Boolean    = "BOOLEAN"
	Timestamp  = "TIMESTAMP"
	Date       = "DATE"
	Time       = "TIME"
	DateTime   = "DATETIME"
	Interval   = "INTERVAL"
	Geography  = "GEOGRAPHY"
	JSON       = "JSON"
	Record     = "RECORD"
	Range      = "RANGE"
)

// typeNames maps every accepted spelling (standard SQL names and aliases
// included, rules.md table 8) to the type.
var typeNames = map[string]string{
	"STRING": String, "BYTES": Bytes,
	"INTEGER": Integer, "INT64": Integer, "INT": Integer, "SMALLINT": Integer, "BIGINT": Integer, "TINYINT": Integer, "BYTEINT": Integer,
	"FLOAT": Float, "FLOAT64": Float,
	"NUMERIC": Numeric, "DECIMAL": Numeric, "BIGNUMERIC": BigNumeric, "BIGDECIMAL": BigNumeric,
	"BOOLEAN": Boolean, "BOOL": Boolean,
	"TIMESTAMP": Timestamp, "DATE": Date, "TIME": Time, "DATETIME": DateTime, "INTERVAL": Interval,
	"GEOGRAPHY": Geography, "JSON": JSON, "RECORD": Record, "STRUCT": Record, "RANGE": Range,
}

// Column modes.
const (
	Nullable = "NULLABLE"
	Required = "REQUIRED"
	Repeated = "REPEATED"
)

// Column is one column of a table schema.
type Column struct {
	Name    string
	Type    string // one of the type constants
	Written string // the type as the user wrote it
	Mode    string
	Fields  []*Column
	Path    string    // JSON pointer into the table schema text
	Span    diag.Span // of the name
	TypeAt  diag.Span
	ModeAt  diag.Span
	// byName finds Fields by foldName, so matching a message or a topic
	// schema against a wide record costs one lookup a field.
	byName map[string]*Column
}

// Table is a table schema read from its JSON text.
type Table struct {
	Doc     *doc.Doc
	Columns []*Column
	byName  map[string]*Column // Columns by foldName
}

// maxColumnName is the longest column name BigQuery accepts.
const maxColumnName = limits.BigQueryColumnName

var reservedPrefixes = []string{"_TABLE_", "_FILE_", "_PARTITION", "_ROW_TIMESTAMP", "__ROOT__", "_COLIDENTIFIER",
	"_CHANGE_SEQUENCE_NUMBER", "_CHANGE_TYPE", "_CHANGE_TIMESTAMP"}

// ParseTable reads a table schema: the list `bq show --schema` prints, or
// an object holding it as "fields" or "schema.fields" (what `bq show
// --format=json` and the API print). Diagnostics are located and their
// paths start with TablePath.
func ParseTable(name, text string) (*Table, []diag.Diagnostic) {
	d, ds := doc.Parse(name, text, doc.JSON)
	t := &Table{Doc: d}
	if d.Root == nil {
		return t, prefix(ds, TablePath)
	}
	list, path := d.Root, ""
	if list.Kind == doc.Object {
		if s := list.Get("schema"); s != nil && s.Get("fields") != nil {
			list, path = s.Get("fields"), "/schema/fields"
		} else if f := list.Get("fields"); f != nil {
			list, path = f, "/fields"
		}
	}
	r := &tableReader{}
	if list.Kind != doc.Array {
		r.add(diag.Error, "bq-table-shape", path, list.Span, "a table schema is a list of columns, found "+article(list.Kind.String()),
			`write [{"name": "data", "type": "STRING", "mode": "NULLABLE"}], as bq show --schema prints`)
	} else {
		t.Columns, t.byName = r.readColumns(list, path, 1)
	}
	d.Source.Locate(r.ds)
	return t, diag.Finish(append(prefix(ds, TablePath), r.ds...))
}

func article(s string) string {
	if s != "" && strings.ContainsRune("aeiouAEIOU", rune(s[0])) && !strings.HasPrefix(strings.ToLower(s), "uni") {
		return "an " + s
	}
	return "a " + s
}

// prefix puts p before the path of every diagnostic.
func prefix(ds []diag.Diagnostic, p string) []diag.Diagnostic {
	for i := range ds {
		ds[i].Path = p + ds[i].Path
	}
	return ds
}

type tableReader struct {
	ds      []diag.Diagnostic
	columns int // read so far, nested ones included
}

func (r *tableReader) add(sev diag.Severity, code, path string, span diag.Span, msg, hint string) {
	r.ds = append(r.ds, diag.Diagnostic{Severity: sev, Code: code, Path: TablePath + path, Span: span, Message: msg, Hint: hint})
}

func (r *tableReader) readColumns(list *doc.Node, path string, depth int) ([]*Column, map[string]*Column) {
	var cols []*Column
	seen := map[string]*Column{}
	for i, n := range list.Items {
		p := path + "/" + strconv.Itoa(i)
		if n.Kind != doc.Object {
			r.add(diag.Error, "bq-column-shape", p, n.Span, "a column is an object with a name and a type, found "+article(n.Kind.String()), "")
			continue
		}
		c := r.column(n, p, depth)
		if c == nil {
			continue
		}
		if r.columns++; r.columns == maxColumns+1 {
			r.add(diag.Error, "bq-too-many-columns", p+"/name", c.Span,
				"the table has more than "+thousands(maxColumns)+" columns, nested ones included, BigQuery's limit; this is column "+thousands(maxColumns+1),
				"split the data over several tables, or keep a nested part in one JSON column")
		}
		key := foldName(c.Name)
		if seen[key] != nil {
			r.add(diag.Error, "bq-duplicate-column", p+"/name", c.Span, "two columns are called "+diag.Quote(c.Name),
				"column names are unique regardless of case")
			continue
		}
		seen[key] = c
		cols = append(cols, c)
	}
	return cols, seen
}

func (r *tableReader) column(n *doc.Node, p string, depth int) *Column {
	nn := n.Get("name")
	if nn == nil || nn.Kind != doc.String || nn.Value == "" {
		at := n
		if nn != nil {
			at = nn
		}
		r.add(diag.Error, "bq-column-name", p+"/name", at.Span, "this column has no name", `add "name": "..."`)
		return nil
	}
	c := &Column{Name: nn.Value, Path: TablePath + p, Span: nn.Span, Mode: Nullable, ModeAt: nn.Span, TypeAt: nn.Span}
	r.checkName(c, p)
	tn := n.Get("type")
	if tn == nil || tn.Kind != doc.String {
		r.add(diag.Error, "bq-column-type", p+"/type", nn.Span, "column "+diag.Quote(c.Name)+" has no type", `add e.g. "type": "STRING"`)
		return nil
	}
	c.Written, c.TypeAt = tn.Value, tn.Span
	c.Type = typeNames[strings.ToUpper(tn.Value)]
	if c.Type == "" {
		r.add(diag.Error, "bq-unknown-type", p+"/type", tn.Span, "unknown column type "+diag.Quote(tn.Value),
			"BigQuery types: STRING, BYTES, INTEGER, FLOAT, NUMERIC, BIGNUMERIC, BOOLEAN, TIMESTAMP, DATE, TIME, DATETIME, INTERVAL, GEOGRAPHY, JSON, RECORD, RANGE")
		return nil
	}
	if mn := n.Get("mode"); mn != nil {
		c.ModeAt = mn.Span
		switch m := strings.ToUpper(mn.Value); {
		case mn.Kind == doc.String && (m == Nullable || m == Required || m == Repeated):
			c.Mode = m
		case mn.Kind == doc.String && m == "":
		default:
			r.add(diag.Error, "bq-column-mode", p+"/mode", mn.Span, "unknown mode "+diag.Quote(mn.Value),
				"a mode is NULLABLE (the default), REQUIRED or REPEATED")
		}
	}
	fn := n.Get("fields")
	switch {
	case c.Type == Record && (fn == nil || fn.Kind != doc.Array || len(fn.Items) == 0):
		r.add(diag.Error, "bq-record-fields", p, tn.Span, "the RECORD column "+diag.Quote(c.Name)+" has no fields",
			`list its columns in "fields"`)
	case c.Type == Record && depth >= maxNesting:
		r.add(diag.Error, "bq-record-depth", p, tn.Span, "RECORD columns nest at most "+strconv.Itoa(maxNesting)+" levels deep", "")
	case c.Type == Record:
		c.Fields, c.byName = r.readColumns(fn, p+"/fields", depth+1)
	case fn != nil && fn.Kind == doc.Array && len(fn.Items) > 0:
		r.add(diag.Error, "bq-fields-not-record", p+"/fields", fn.Span, "only a RECORD column has fields; "+diag.Quote(c.Name)+" is "+c.Type,
			`set "type": "RECORD", or remove "fields"`)
	}
	return c
}

// checkName applies the naming rules every table has. Characters beyond
// letters, digits and _ are allowed by flexible column names, so they are
// checked only where a subscription needs plain names.
func (r *tableReader) checkName(c *Column, p string) {
	name := c.Name
	if len(name) > maxColumnName {
		r.add(diag.Error, "bq-column-name", p+"/name", c.Span,
			"column names are at most "+strconv.Itoa(maxColumnName)+" characters; this one has "+strconv.Itoa(len(name)), "")
	}
	upper := strings.ToUpper(name)
	for _, rp := range reservedPrefixes {
		if strings.HasPrefix(upper, rp) {
			r.add(diag.Error, "bq-column-name", p+"/name", c.Span, "column names cannot start with "+rp+", which BigQuery reserves", "")
			break
		}
	}
}

// plainName reports whether s uses only letters, digits and _, what
// useTableSchema requires.
func plainName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
			return false
		}
	}
	return s != ""
}

// foldName is the key column names are compared by: BigQuery ignores case.
func foldName(s string) string { return strings.ToLower(s) }

// findColumn finds a column by name in cols, through its index when there
// is one (tables read by ParseTable have them).
func findColumn(cols []*Column, byName map[string]*Column, name string) *Column {
	if byName != nil {
		return byName[foldName(name)]
	}
	return columnNamed(cols, name)
}

// columnNamed finds a column by name, ignoring case as BigQuery does.
func columnNamed(cols []*Column, name string) *Column {
	for _, c := range cols {
		if strings.EqualFold(c.Name, name) {
			return c
		}
	}
	return nil
}
