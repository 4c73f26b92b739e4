//go:build !nohcl

package terraform

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"golang.org/x/text/unicode/norm"
)

// FuzzQuote: every string the writer quotes (or writes as a heredoc)
// reads back through HCL as the same string (invalid UTF-8 as U+FFFD).
func FuzzQuote(f *testing.F) {
	for _, s := range awkward {
		f.Add(s)
	}
	f.Add("$$$${{%%%{\\\"\n\r\t\x00\x7f\xff")
	f.Fuzz(func(t *testing.T, s string) {
		var wb strings.Builder
		for _, r := range s {
			wb.WriteRune(r) // each invalid byte is one U+FFFD, as the writer makes it
		}
		want := norm.NFC.String(wb.String()) // HCL normalizes string literals
		check := func(what, text string) {
			src := "x = " + text + "\n"
			file, diags := hclsyntax.ParseConfig([]byte(src), "q.tf", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatalf("%s of %q does not parse: %s\n%s", what, s, diags.Error(), src)
			}
			v, diags := file.Body.(*hclsyntax.Body).Attributes["x"].Expr.Value(nil)
			if diags.HasErrors() {
				t.Fatalf("%s of %q does not evaluate: %s\n%s", what, s, diags.Error(), src)
			}
			if got := v.AsString(); got != want && !(what == "heredoc" && !utf8.ValidString(s)) {
				t.Fatalf("%s of %q reads back as %q\n%s", what, s, got, src)
			}
		}
		check("quote", quote(s))
		if h, ok := heredoc(s); ok {
			check("heredoc", h)
		}
	})
}
