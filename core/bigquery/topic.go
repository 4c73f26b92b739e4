package bigquery

import (
	"strings"

	"github.com/subplay/subplay/core/avroschema"
	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/protoschema"
	"github.com/subplay/subplay/core/schemaresult"
)

// Topic schema types (core/schemaresult holds them, for the builds without
// Avro).
const (
	Avro     = schemaresult.TopicSchemaAvro
	Protobuf = schemaresult.TopicSchemaProtobuf
)

// TopicSchema is a topic schema reduced to what decides its columns: named
// fields, each with the column types it may be written to.
type TopicSchema struct {
	Type   string // Avro or Protobuf
	Fields []*TopicField
	Source *diag.Source // the schema text, to locate diagnostics
	// TooLarge says the schema makes more columns, or nests them deeper,
	// than a BigQuery table holds: Fields is then empty, and a diagnostic
	// says where the limit is passed.
	TooLarge bool
}

// TopicField is one field of a topic schema.
type TopicField struct {
	Name string
	// Kind is the field's type in the topic schema's own words: "long",
	// "timestamp-micros", "int32", "enum", "record", "map", ...
	Kind string
	// Allowed lists the column types the field may be written to, the most
	// natural first (what Generate picks). Empty means unmappable, and
	// Unmappable says why.
	Allowed    []string
	Unmappable string
	// Tolerated lists types that fit the field's base type but that the
	// documentation does not list for its logical type.
	Tolerated []string
	AnyType   bool // an Avro null: any NULLABLE column
	Optional  bool // may be absent or null: needs a NULLABLE column
	Repeated  bool
	Fields    []*TopicField // of a record, message or map entry
	Path      string        // JSON pointer (Avro) into the schema text
	Span      diag.Span     // of the field's name in the schema text
}

// The mapping table of rules.md table 8, one row per topic type.
var (
	stringTargets = []string{String, JSON, Timestamp, DateTime, Date, Time, Numeric, BigNumeric}
	avroTypes     = map[avroschema.Kind][]string{
		avroschema.Boolean: {Boolean},
		avroschema.Int:     {Integer, Numeric, BigNumeric},
		avroschema.Long:    {Integer, Numeric, BigNumeric},
		avroschema.Float:   {Float, Numeric, BigNumeric},
		avroschema.Double:  {Float, Numeric, BigNumeric},
		avroschema.Bytes:   {Bytes, Numeric, BigNumeric},
		avroschema.String:  stringTargets,
		avroschema.Fixed:   {Bytes, Numeric, BigNumeric},
		avroschema.Enum:    {Integer},
	}
	avroLogical = map[string][]string{
		"timestamp-micros": {Timestamp},
		"timestamp-millis": {Timestamp},
		"date":             {Date},
		"time-micros":      {Time},
		"time-millis":      {Time},
		"duration":         {Interval},
		"decimal":          {Numeric, BigNumeric},
	}
	protoTypes = map[string][]string{
		"double": {Float, Numeric, BigNumeric}, "float": {Float, Numeric, BigNumeric},
		"int32": {Integer, Numeric, BigNumeric, Date}, "uint32": {Integer, Numeric, BigNumeric, Date},
		"fixed32": {Integer, Numeric, BigNumeric, Date}, "sfixed32": {Integer, Numeric, BigNumeric, Date},
		"int64": {Integer, Numeric, BigNumeric, Date, DateTime, Timestamp}, "sint64": {Integer, Numeric, BigNumeric, Date, DateTime, Timestamp},
		"sfixed64": {Integer, Numeric, BigNumeric, Date, DateTime, Timestamp},
		"sint32":   {Integer, Numeric, BigNumeric},
		"uint64":   {Numeric, BigNumeric}, "fixed64": {Numeric, BigNumeric},
		"bool":   {Boolean},
		"string": stringTargets,
		"bytes":  {Bytes, Numeric, BigNumeric},
	}
)

// FromAvro reduces an Avro topic schema. Its root must be a record; a
// diagnostic says so otherwise.
func FromAvro(t *avroschema.Topic) (*TopicSchema, []diag.Diagnostic) {
	ts := &TopicSchema{Type: Avro, Source: t.Doc.Source}
	if t.Root == nil {
		return ts, nil
	}
	if t.Root.Kind != avroschema.Record {
		ds := []diag.Diagnostic{{Severity: diag.Error, Code: "bq-topic-root", Path: TopicPath, Span: t.Root.Span,
			Message: "the topic schema's root is " + article(t.Root.TypeName()) + "; its fields become columns only when it is a record",
			Hint:    "wrap the type in a record, or do not use useTopicSchema"}}
		ts.Source.Locate(ds)
		return ts, ds
	}
	if over := measure(t.Root, avroChildren); over != nil {
		return ts.tooLarge(*over)
	}
	ts.Fields = avroFields(t.Root, map[*avroschema.Type]bool{t.Root: true})
	return ts, nil
}

func avroFields(rec *avroschema.Type, visiting map[*avroschema.Type]bool) []*TopicField {
	var out []*TopicField
	for _, f := range rec.Fields {
		tf := &TopicField{Name: f.Name, Path: TopicPath + f.Path, Span: f.Span}
		avroType(tf, f.Type, visiting)
		out = append(out, tf)
	}
	return out
}

func avroType(tf *TopicField, t *avroschema.Type, visiting map[*avroschema.Type]bool) {
	tf.Kind = string(t.Kind)
	if t.Kind == avroschema.Union {
		inner, ok := t.Optional()
		if !ok {
			if len(t.Branches) == 1 {
				avroType(tf, t.Branches[0], visiting)
				return
			}
			tf.Unmappable = "a union of several types has no column type; only a union of null and one type does"
			return
		}
		tf.Optional = true
		t = inner
		tf.Kind = string(t.Kind)
	}
	if t.Kind == avroschema.Array {
		if tf.Repeated {
			tf.Unmappable = "an array of arrays has no column type; BigQuery has no repeated repeated columns"
			return
		}
		tf.Repeated = true
		tf.Optional = false // a missing array is written as an empty one
		avroType(tf, t.Items, visiting)
		if tf.Optional && tf.Unmappable == "" {
			tf.Unmappable = "an array of nullable elements has no column type; REPEATED columns hold no nulls"
		}
		return
	}
	switch t.Kind {
	case avroschema.Null:
		tf.AnyType, tf.Optional = true, true
		tf.Allowed = []string{String}
	case avroschema.Record:
		if visiting[t] {
			tf.Unmappable = "the record " + t.Name + " contains itself; BigQuery columns cannot recurse"
			return
		}
		visiting[t] = true
		tf.Kind = "record"
		tf.Allowed = []string{Record}
		tf.Fields = avroFields(t, visiting)
		delete(visiting, t)
	case avroschema.Map:
		if tf.Repeated {
			tf.Unmappable = "an array of maps has no column type; a map is itself a REPEATED column"
			return
		}
		tf.Kind, tf.Repeated, tf.Allowed = "map", true, []string{Record}
		key := &TopicField{Name: "key", Kind: "string", Allowed: []string{String}, Path: tf.Path, Span: tf.Span}
		val := &TopicField{Name: "value", Path: tf.Path, Span: tf.Span}
		avroType(val, t.Values, visiting)
		tf.Fields = []*TopicField{key, val}
	default:
		tf.Allowed = avroTypes[t.Kind]
		if l, ok := avroLogical[t.Logical]; ok {
			tf.Kind = t.Logical
			tf.Tolerated = tf.Allowed
			tf.Allowed = l
		}
	}
}

// FromProto reduces a Protocol Buffer topic schema: its first top-level
// message, as the service reads it.
func FromProto(f *protoschema.File, src *diag.Source) (*TopicSchema, []diag.Diagnostic) {
	ts := &TopicSchema{Type: Protobuf, Source: src}
	root := f.Root()
	if root == nil {
		ds := []diag.Diagnostic{{Severity: diag.Error, Code: "bq-topic-root", Path: TopicPath,
			Message: "the Protocol Buffer schema declares no message", Hint: "declare the message the topic carries"}}
		return ts, ds
	}
	if over := measure(root, protoChildren); over != nil {
		return ts.tooLarge(*over)
	}
	ts.Fields = protoFields(root, f.Syntax, map[*protoschema.Message]bool{root: true})
	return ts, nil
}

func protoFields(m *protoschema.Message, syntax string, visiting map[*protoschema.Message]bool) []*TopicField {
	var out []*TopicField
	for _, f := range m.Fields {
		tf := &TopicField{Name: f.Name, Kind: f.Type, Span: f.Span, Path: TopicPath}
		out = append(out, tf)
		switch {
		case f.Oneof != "":
			tf.Kind = "oneof"
			tf.Unmappable = "a field of the oneof " + f.Oneof + " has no column type"
			continue
		case f.IsMap():
			tf.Kind, tf.Repeated, tf.Allowed = "map", true, []string{Record}
			key := &TopicField{Name: "key", Kind: f.MapKey, Allowed: protoTypes[f.MapKey], Path: TopicPath, Span: f.Span}
			val := &TopicField{Name: "value", Kind: f.Type, Path: TopicPath, Span: f.Span}
			protoType(val, f, syntax, visiting)
			tf.Fields = []*TopicField{key, val}
			continue
		}
		tf.Repeated = f.Label == protoschema.Repeated
		// Absent means null for proto2 optional fields, proto3 "optional"
		// fields and message fields; a proto3 scalar always has a value.
		tf.Optional = f.Label == protoschema.Optional || (f.Message != nil && f.Label != protoschema.Required && !tf.Repeated)
		protoType(tf, f, syntax, visiting)
	}
	return out
}

func protoType(tf *TopicField, f *protoschema.Field, syntax string, visiting map[*protoschema.Message]bool) {
	switch {
	case f.Enum != nil:
		tf.Kind, tf.Allowed = "enum", []string{Integer}
	case f.Message != nil:
		if visiting[f.Message] {
			tf.Unmappable = "the message " + f.Message.FullName() + " contains itself; BigQuery columns cannot recurse"
			return
		}
		visiting[f.Message] = true
		tf.Kind, tf.Allowed = "message", []string{Record}
		tf.Fields = protoFields(f.Message, syntax, visiting)
		delete(visiting, f.Message)
	default:
		tf.Kind, tf.Allowed = f.Type, protoTypes[f.Type]
	}
}

// tooLarge marks the schema as having no table and locates the finding.
func (ts *TopicSchema) tooLarge(d diag.Diagnostic) (*TopicSchema, []diag.Diagnostic) {
	ts.TooLarge = true
	ds := []diag.Diagnostic{d}
	if ts.Source != nil {
		ts.Source.Locate(ds)
	}
	return ts, ds
}

// describeTypes writes a list of column types for a message.
func describeTypes(ts []string) string {
	switch len(ts) {
	case 0:
		return "none"
	case 1:
		return ts[0]
	}
	return strings.Join(ts[:len(ts)-1], ", ") + " or " + ts[len(ts)-1]
}
