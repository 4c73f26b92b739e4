package subscription

import (
	"slices"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/filter"
	"github.com/subplay/subplay/core/storage"
)

// Rules owned by other packages: the filter grammar (core/filter) and the
// Cloud Storage naming rules (core/storage), so that validate and the
// filter and names previews apply the same rules.

// filterGrammar parses the filter with core/filter and carries its
// findings, whose spans are in bytes of the filter, into the document
// through the string's escapes. The filter package owns the finding about
// an over-long filter, so that `subplay filter` and `subplay validate`
// report it with one code: the rule table's generic length finding on
// /filter, reported earlier by tableRules, gives way to it. The bound is the
// rule table's (which reads filter.MaxBytes), so a changed table reaches it.
func (v *validator) filterGrammar(text string) {
	max := 0
	if f := v.c.table().At("/filter"); f != nil && f.maxI != nil {
		max = int(*f.maxI)
	}
	_, ds := filter.ParseMax(text, max)
	n := v.c.nodes["/filter"]
	for _, d := range ds {
		if d.Code == filterTooLong {
			v.ds = slices.DeleteFunc(v.ds, func(d diag.Diagnostic) bool { return d.Path == "/filter" && d.Code == "too-long" })
		}
		d.Path = "/filter"
		if n != nil && d.Span.IsValid() {
			d.Span = v.c.Doc.SourceSpan(n, d.Span)
		} else {
			d.Span = diag.Span{}
		}
		v.ds = append(v.ds, d)
	}
}

// filterTooLong is core/filter's code for a filter over its length limit.
const filterTooLong = "filter-too-long"

// storageNames applies the Cloud Storage naming rules of core/storage (bucket,
// prefix, suffix, datetime format), carrying their spans, which are in bytes
// of each field's value, into the document. The layout it compiles is kept
// for StorageLayout, so the names preview does not compile it again.
func (v *validator) storageNames() {
	cs := v.s.CloudStorageConfig
	format := cs.FilenameDatetimeFormat
	if format == nil { // the names follow the rule table's default, as the effective settings do
		def := v.t.defaultString("/cloudStorageConfig/filenameDatetimeFormat")
		format = &def
	}
	layout, ds := storage.Compile(storage.Settings{Bucket: cs.Bucket, FilenamePrefix: cs.FilenamePrefix,
		FilenameSuffix: cs.FilenameSuffix, FilenameDatetimeFormat: format})
	v.c.layout = layout
	for _, d := range ds {
		if n := v.c.nodes[d.Path]; n != nil && d.Span.IsValid() {
			d.Span = v.c.Doc.SourceSpan(n, d.Span)
		} else {
			d.Span = diag.Span{} // located from its path
		}
		v.ds = append(v.ds, d)
	}
}
