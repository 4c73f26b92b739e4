package subscription

import (
	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/storage"
)

// Rules owned by other packages (the filter grammar, Cloud Storage naming)
// are wired in here as those packages land.

func (v *validator) filterGrammar(string) {}

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
