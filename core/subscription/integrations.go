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
// through the string's escapes. The length limit is the rule table's: the
// parser's own length finding would say it twice.
func (v *validator) filterGrammar(text string) {
	_, ds := filter.Parse(text)
	n := v.c.nodes["/filter"]
	for _, d := range ds {
		if d.Code == "filter-too-long" {
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

// storageNames applies the Cloud Storage naming rules of core/storage (bucket,
// prefix, suffix, datetime format), carrying their spans, which are in bytes
// of each field's value, into the document.
func (v *validator) storageNames() {
	cs := v.s.CloudStorageConfig
	for _, d := range storage.Check(storage.Settings{Bucket: cs.Bucket, FilenamePrefix: cs.FilenamePrefix,
		FilenameSuffix: cs.FilenameSuffix, FilenameDatetimeFormat: cs.FilenameDatetimeFormat}) {
		if n := v.c.nodes[d.Path]; n != nil && d.Span.IsValid() {
			d.Span = v.c.Doc.SourceSpan(n, d.Span)
		} else {
			d.Span = diag.Span{} // located from its path
		}
		v.ds = append(v.ds, d)
	}
}
