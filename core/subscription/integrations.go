package subscription

import (
	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/filter"
	"github.com/subplay/subplay/core/storage"
)

// Rules owned by other packages: the filter grammar (core/filter) and the
// Cloud Storage naming rules (core/storage), so that validate and the
// filter and names previews apply the same rules.

// filterGrammar parses the filter with core/filter and carries its
// findings, whose spans are in bytes of the filter, into the document
// through the string's escapes. The rule table's length bound reports an
// over-long filter (tableRules ran first): the parser's own length finding
// would say it twice, and the table's finding takes the filter package's
// code, so that `subplay filter` and `subplay validate` report it alike.
func (v *validator) filterGrammar(text string) {
	for i := range v.ds {
		if v.ds[i].Path == "/filter" && v.ds[i].Code == "too-long" {
			v.ds[i].Code = filterTooLong
		}
	}
	_, ds := filter.Parse(text)
	n := v.c.nodes["/filter"]
	for _, d := range ds {
		if d.Code == filterTooLong {
			continue
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
	layout, ds := storage.Compile(storage.Settings{Bucket: cs.Bucket, FilenamePrefix: cs.FilenamePrefix,
		FilenameSuffix: cs.FilenameSuffix, FilenameDatetimeFormat: cs.FilenameDatetimeFormat})
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
