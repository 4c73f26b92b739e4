package bigquery

import (
	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/schemaresult"
)

// SchemaField is one column in the JSON form `bq mk --schema FILE` reads
// and `bq show --schema` prints (in core/schemaresult, so that builds
// without Avro can describe it).
type SchemaField = schemaresult.SchemaField

// Generate returns a table schema that fits the subscription. With
// useTopicSchema it holds a column for each topic field, of the first
// documented type, NULLABLE unless repeated; without a schema option it holds the data column (of
// dataType, BYTES when empty). Metadata columns come last when
// writeMetadata is set. Topic fields that have no column type are left out,
// each with a diagnostic. useTableSchema has nothing to generate from; the
// result is nil.
func Generate(opts Options, topic *TopicSchema, dataType string) ([]SchemaField, []diag.Diagnostic) {
	var out []SchemaField
	var ds []diag.Diagnostic
	switch {
	case opts.UseTableSchema:
		return nil, nil
	case opts.UseTopicSchema:
		if topic == nil || topic.TooLarge {
			// No table fits a schema over BigQuery's limits, which
			// FromProto or FromAvro reported.
			return nil, nil
		}
		// A topic field that would share a metadata column gets none:
		// Check reports the clash (bq-metadata-name-clash).
		taken := map[string]string{}
		if opts.WriteMetadata {
			for _, m := range MetadataColumns {
				taken[foldName(m.Name)] = ""
			}
		}
		out, ds = generateFields(topic.Fields, taken)
		if topic.Source != nil {
			topic.Source.Locate(ds)
		}
	default:
		if dataType == "" {
			dataType = Bytes
		}
		out = append(out, SchemaField{Name: dataColumn.Name, Type: dataType, Mode: Nullable})
	}
	if opts.WriteMetadata {
		for _, m := range MetadataColumns {
			out = append(out, SchemaField{Name: m.Name, Type: m.Types[0], Mode: Nullable})
		}
	}
	return out, ds
}

// generateFields returns the columns of one level of fields. taken holds
// the level's column names already in use, folded, each with the field
// that has it ("" for a column of the service's own): BigQuery tells column
// names apart regardless of case, and so does the subscription when it
// matches fields to columns, so of two fields whose names differ only in
// case the second gets no column.
func generateFields(fields []*TopicField, taken map[string]string) ([]SchemaField, []diag.Diagnostic) {
	var out []SchemaField
	var ds []diag.Diagnostic
	for _, f := range fields {
		if first, ok := taken[foldName(f.Name)]; ok {
			if first == "" {
				continue
			}
			ds = append(ds, diag.Diagnostic{Severity: diag.Warning, Code: "bq-topic-field-case-clash", Path: f.Path, Span: f.Span,
				Message: "the field " + diag.Quote(f.Name) + " is left out of the generated table: BigQuery column names ignore case, so it would share the column of " + diag.Quote(first),
				Hint:    "rename one of the two fields in the topic schema"})
			continue
		}
		if f.Unmappable != "" {
			ds = append(ds, diag.Diagnostic{Severity: diag.Warning, Code: "bq-topic-field-unmappable", Path: f.Path, Span: f.Span,
				Message: "the field " + diag.Quote(f.Name) + " is left out of the generated table: " + f.Unmappable,
				Hint:    "set dropUnknownFields so messages are written without it, or change its type"})
			continue
		}
		// NULLABLE fits required and optional fields alike, and lets the
		// topic schema gain optional fields later without a table change.
		sf := SchemaField{Name: f.Name, Type: f.Allowed[0], Mode: Nullable}
		if f.Repeated {
			sf.Mode = Repeated
		}
		if sf.Type == Record {
			var sub []diag.Diagnostic
			sf.Fields, sub = generateFields(f.Fields, map[string]string{})
			ds = append(ds, sub...)
			if len(sf.Fields) == 0 {
				ds = append(ds, diag.Diagnostic{Severity: diag.Warning, Code: "bq-empty-record", Path: f.Path, Span: f.Span,
					Message: "the field " + diag.Quote(f.Name) + " has no fields a column can hold, so it is left out", Hint: ""})
				continue
			}
		}
		taken[foldName(f.Name)] = f.Name
		out = append(out, sf)
	}
	return out, ds
}
