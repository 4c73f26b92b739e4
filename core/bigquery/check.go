package bigquery

import (
	"slices"
	"strings"

	"github.com/subplay/subplay/core/diag"
)

// Options are a subscription's bigqueryConfig flags.
type Options struct {
	UseTopicSchema    bool
	UseTableSchema    bool
	WriteMetadata     bool
	DropUnknownFields bool
}

// configPath is where the flags live in the subscription, for diagnostics
// about them.
const configPath = "/bigqueryConfig"

// MetadataColumn is a column writeMetadata fills, with the types it may
// have (rules.md table 3 and the product page).
type MetadataColumn struct {
	Name  string
	Types []string
}

// MetadataColumns are the columns writeMetadata writes, in the order
// Generate lists them.
var MetadataColumns = []MetadataColumn{
	{"subscription_name", []string{String}},
	{"message_id", []string{String}},
	{"publish_time", []string{Timestamp}},
	{"attributes", []string{String, JSON}},
}

// dataColumn is the column a subscription without a schema option writes
// the message into.
var dataColumn = MetadataColumn{"data", []string{Bytes, String, JSON}}

// metadataNames are the topic field names that clash with metadata when
// useTopicSchema and writeMetadata are both set (docs/decisions.md D11): the
// columns' snake_case names and their camelCase forms.
var metadataNames = []string{"subscription_name", "message_id", "publish_time", "attributes", "data",
	"subscriptionName", "messageId", "publishTime"}

// Check reports every way the table does not fit the subscription: topic
// is needed for useTopicSchema, and may be nil otherwise. Row-level
// problems of sample messages are Preview's.
func Check(opts Options, table *Table, topic *TopicSchema) []diag.Diagnostic {
	c := &checker{opts: opts}
	if opts.UseTopicSchema && opts.UseTableSchema {
		c.add(diag.Error, "bq-schema-options", configPath, diag.Span{}, "useTopicSchema and useTableSchema cannot both be set",
			"choose one: the topic's schema or the table's")
		return c.finish(table, topic)
	}
	if opts.DropUnknownFields && !opts.UseTopicSchema && !opts.UseTableSchema {
		c.add(diag.Warning, "bq-drop-unknown-unused", configPath+"/dropUnknownFields", diag.Span{},
			"dropUnknownFields does nothing without useTopicSchema or useTableSchema", "")
	}
	if opts.UseTopicSchema && topic != nil && opts.WriteMetadata {
		c.metadataClash(topic)
	}
	if table == nil {
		return c.finish(table, topic)
	}
	cols := table.Columns
	switch {
	case opts.UseTopicSchema:
		// A schema too large for any table has its own finding;
		// matching its columns would say nothing more.
		if topic != nil && !topic.TooLarge {
			c.matchFields(topic.Fields, cols, table.byName, true)
		}
	case opts.UseTableSchema:
		c.plainNames(cols)
		if topic != nil {
			c.add(diag.Info, "bq-topic-encoding-json", TopicPath, diag.Span{},
				"with useTableSchema the topic's message encoding must be JSON", "set the topic's schema encoding to JSON")
		}
	default:
		c.needColumn(cols, dataColumn, "the message data")
		c.unfilled(cols)
	}
	if opts.WriteMetadata {
		for _, m := range MetadataColumns {
			c.needColumn(cols, m, "metadata")
		}
	}
	return c.finish(table, topic)
}

type checker struct {
	opts Options
	ds   []diag.Diagnostic
}

func (c *checker) add(sev diag.Severity, code, path string, span diag.Span, msg, hint string) {
	c.ds = append(c.ds, diag.Diagnostic{Severity: sev, Code: code, Path: path, Span: span, Message: msg, Hint: hint})
}

// finish locates each diagnostic in the text its path points into.
func (c *checker) finish(table *Table, topic *TopicSchema) []diag.Diagnostic {
	for i := range c.ds {
		d := &c.ds[i]
		switch {
		case strings.HasPrefix(d.Path, TablePath):
			d.Input = diag.InputTableSchema
			if table != nil {
				table.Doc.Source.Locate(c.ds[i : i+1])
			}
		case strings.HasPrefix(d.Path, TopicPath):
			d.Input = diag.InputTopicSchema
			if topic != nil && topic.Source != nil {
				topic.Source.Locate(c.ds[i : i+1])
			}
		}
	}
	return diag.Finish(c.ds)
}

func (c *checker) metadataClash(topic *TopicSchema) {
	for _, f := range topic.Fields {
		if slices.Contains(metadataNames, f.Name) {
			c.add(diag.Error, "bq-metadata-name-clash", f.Path, f.Span,
				"the topic schema has a field "+diag.Quote(f.Name)+", which clashes with a metadata column of writeMetadata",
				"rename the field (snake_case and camelCase forms of subscription_name, message_id, publish_time, attributes and data are taken), or turn writeMetadata off")
		} else if m := metadataColumnFor(f.Name); m != "" {
			// Not a name the rule lists, but the same column to BigQuery.
			c.add(diag.Error, "bq-metadata-name-clash", f.Path, f.Span,
				"the topic schema has a field "+diag.Quote(f.Name)+", whose column would be the metadata column "+diag.Quote(m)+" of writeMetadata: BigQuery column names ignore case",
				"rename the field, or turn writeMetadata off")
		}
	}
}

// metadataColumnFor returns the name of the writeMetadata column that a
// column called name would be to BigQuery (ignoring case), or "".
func metadataColumnFor(name string) string {
	for _, m := range MetadataColumns {
		if strings.EqualFold(m.Name, name) {
			return m.Name
		}
	}
	return ""
}

// needColumn checks that a column the service writes exists with a type it
// can write.
func (c *checker) needColumn(cols []*Column, want MetadataColumn, what string) {
	col := columnNamed(cols, want.Name)
	if col == nil {
		c.add(diag.Error, "bq-column-missing", TablePath, diag.Span{},
			"the table has no column "+diag.Quote(want.Name)+" for "+what,
			`add {"name": "`+want.Name+`", "type": "`+want.Types[0]+`"}`)
		return
	}
	if !slices.Contains(want.Types, col.Type) {
		c.add(diag.Error, "bq-column-type-mismatch", col.Path+"/type", col.TypeAt,
			"column "+diag.Quote(col.Name)+" is "+col.Type+"; "+what+" is written to "+describeTypes(want.Types),
			"change the column's type")
	}
	if col.Mode == Repeated {
		c.add(diag.Error, "bq-column-mode-mismatch", col.Path+"/mode", col.ModeAt,
			"column "+diag.Quote(col.Name)+" is REPEATED; "+what+" is a single value", "make it NULLABLE or REQUIRED")
	}
}

// unfilled flags REQUIRED columns a subscription without a schema option
// never writes.
func (c *checker) unfilled(cols []*Column) {
	for _, col := range cols {
		if strings.EqualFold(col.Name, dataColumn.Name) || (c.opts.WriteMetadata && isMetadata(col.Name)) {
			continue
		}
		if col.Mode == Required {
			c.add(diag.Error, "bq-column-never-written", col.Path+"/mode", col.ModeAt,
				"column "+diag.Quote(col.Name)+" is REQUIRED but the subscription writes only data"+ifMetadata(c.opts.WriteMetadata),
				"make it NULLABLE, or use useTopicSchema or useTableSchema to fill it")
		}
	}
}

func ifMetadata(on bool) string {
	if on {
		return " and metadata"
	}
	return ""
}

func isMetadata(name string) bool {
	for _, m := range MetadataColumns {
		if strings.EqualFold(m.Name, name) {
			return true
		}
	}
	return false
}

// plainNames applies useTableSchema's rule on column names at every level.
func (c *checker) plainNames(cols []*Column) {
	for _, col := range cols {
		if !plainName(col.Name) {
			c.add(diag.Error, "bq-column-name-chars", col.Path+"/name", col.Span,
				"with useTableSchema column names may hold only letters, digits and _; "+diag.Quote(col.Name)+" does not",
				"rename the column")
		}
		c.plainNames(col.Fields)
	}
}

// matchFields compares topic fields with the columns at one level.
func (c *checker) matchFields(fields []*TopicField, cols []*Column, byName map[string]*Column, top bool) {
	used := map[*Column]bool{}
	for _, f := range fields {
		col := findColumn(cols, byName, f.Name)
		if col == nil {
			if c.opts.DropUnknownFields {
				c.add(diag.Info, "bq-topic-field-dropped", f.Path, f.Span,
					"the table has no column "+diag.Quote(f.Name)+"; this field is dropped from every row", "")
			} else {
				c.add(diag.Error, "bq-topic-field-missing", f.Path, f.Span,
					"the table has no column for the topic field "+diag.Quote(f.Name)+"; messages with it stay in the backlog",
					"add the column, or set dropUnknownFields to drop the field")
			}
			continue
		}
		used[col] = true
		c.compare(f, col)
	}
	for _, col := range cols {
		if used[col] || (top && c.opts.WriteMetadata && isMetadata(col.Name)) {
			continue
		}
		switch col.Mode {
		case Required:
			c.add(diag.Error, "bq-column-not-in-topic", col.Path+"/mode", col.ModeAt,
				"column "+diag.Quote(col.Name)+" is REQUIRED but the topic schema has no such field", "make it NULLABLE")
		case Repeated:
			c.add(diag.Warning, "bq-column-not-in-topic", col.Path+"/mode", col.ModeAt,
				"column "+diag.Quote(col.Name)+" is not in the topic schema; such columns should be NULLABLE", "make it NULLABLE")
		}
	}
}

// compare checks one topic field against its column.
func (c *checker) compare(f *TopicField, col *Column) {
	name := diag.Quote(f.Name)
	if f.Unmappable != "" {
		c.add(diag.Error, "bq-topic-field-unmappable", f.Path, f.Span, "the field "+name+" cannot be written to a column: "+f.Unmappable,
			"change the field's type in the topic schema")
		return
	}
	switch {
	case f.Repeated && col.Mode != Repeated:
		c.add(diag.Error, "bq-mode-mismatch", col.Path+"/mode", col.ModeAt,
			"the topic field "+name+" is "+repeatedWhat(f)+", so its column must be REPEATED, not "+col.Mode, "set \"mode\": \"REPEATED\"")
		return
	case !f.Repeated && col.Mode == Repeated:
		c.add(diag.Error, "bq-mode-mismatch", col.Path+"/mode", col.ModeAt,
			"the topic field "+name+" holds one value, but its column is REPEATED", "make the column NULLABLE")
		return
	case f.Optional && col.Mode == Required:
		c.add(diag.Error, "bq-mode-mismatch", col.Path+"/mode", col.ModeAt,
			"the topic field "+name+" is optional, so its column must be NULLABLE, not REQUIRED", "set \"mode\": \"NULLABLE\"")
	}
	if f.AnyType {
		return
	}
	if !slices.Contains(f.Allowed, col.Type) {
		if slices.Contains(f.Tolerated, col.Type) {
			c.add(diag.Warning, "bq-type-undocumented", col.Path+"/type", col.TypeAt,
				"the topic field "+name+" is "+f.Kind+"; the documented column type for it is "+describeTypes(f.Allowed)+", not "+col.Type,
				"use "+f.Allowed[0]+" to be sure it is accepted")
		} else {
			c.add(diag.Error, "bq-type-mismatch", col.Path+"/type", col.TypeAt,
				"the topic field "+name+" is "+f.Kind+", which cannot be written to a "+col.Type+" column",
				"use "+describeTypes(f.Allowed))
		}
		return
	}
	if col.Type == Record {
		c.matchFields(f.Fields, col.Fields, col.byName, false)
	}
}

func repeatedWhat(f *TopicField) string {
	if f.Kind == "map" {
		return "a map"
	}
	return "repeated"
}
