package filter

import (
	"github.com/subplay/subplay/internal/golden"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenderedGolden keeps every error case as users see it (message,
// caret, hint) in one file, so a change in wording shows up in review.
func TestRenderedGolden(t *testing.T) {
	var b strings.Builder
	for _, tc := range errorCases {
		_, ds := Parse(tc.src)
		b.WriteString("## " + tc.name + "\n")
		b.WriteString(render(tc.src, ds))
		b.WriteString("\n")
	}
	for _, tc := range []struct{ name, src string }{
		{"note on !=", `attributes.name != "com"`},
		{"warning on an empty key", `attributes:"" OR attributes:a`},
	} {
		_, ds := Parse(tc.src)
		b.WriteString("## " + tc.name + "\n" + render(tc.src, ds) + "\n")
	}
	golden.Check(t, filepath.Join("testdata", "errors.golden"), b.String())
}
