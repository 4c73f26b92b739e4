package filter

import (
	"testing"

	"github.com/subplay/subplay/core/diag"
)

// FuzzParse checks that no input panics or trips the internal-error guard,
// that every span lies inside the input, and that every accepted filter
// prints back to a filter that parses to the same tree and prints the same.
func FuzzParse(f *testing.F) {
	for _, tc := range validCases {
		f.Add(tc.src)
	}
	for _, tc := range errorCases {
		f.Add(tc.src)
	}
	for _, s := range []string{
		"", " ", `attributes:"\U0001F600\101\x41\u00e9\a\b\f\n\r\t\v\\\"\'\?"`,
		`hasPrefix(attributes."a b", "\x00")`, "attributes:a AND (attributes:b OR -attributes:c) AND NOT hasPrefix(attributes.d, \"e\")",
		`attributes.a = "b" OR attributes.c != "d"`, "attributes:a\x00", "(((", ")))", `"`, `\`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		fl, ds := Parse(src)
		checkDiagnostics(t, src, ds)
		if (fl != nil) == diag.HasErrors(ds) {
			t.Fatalf("filter %v with diagnostics %v", fl != nil, codes(ds))
		}
		if fl == nil {
			return
		}
		Walk(fl.Root, func(e Expr) bool {
			s := e.Span()
			if s.Start < 0 || s.Start > s.End || s.End > len(src) {
				t.Fatalf("span %v of %T outside the input", s, e)
			}
			return true
		})
		canon := fl.String()
		// The canonical form may be longer than the input (spaces around
		// operators, NOT for -), so it is read without the length limit.
		g, ds2 := parse(canon, 0)
		if g == nil {
			t.Fatalf("canonical form %q of %q does not parse:\n%s", canon, src, render(canon, ds2))
		}
		if tree(g.Root) != tree(fl.Root) {
			t.Fatalf("canonical form %q of %q parses to\n%s\nnot\n%s", canon, src, tree(g.Root), tree(fl.Root))
		}
		if g.String() != canon {
			t.Fatalf("canonical form is not stable: %q then %q", canon, g.String())
		}
	})
}

func checkDiagnostics(t *testing.T, src string, ds []diag.Diagnostic) {
	t.Helper()
	for _, d := range ds {
		if d.Code == "filter-internal" {
			t.Fatalf("internal error on %q: %s", src, d.Message)
		}
		if d.Code == "too-many-diagnostics" {
			continue
		}
		if !d.Span.IsValid() || d.Span.Start > d.Span.End || d.Span.End.Offset() > len(src) {
			t.Fatalf("diagnostic %s has span %v outside the %d-byte input %q", d.Code, d.Span, len(src), src)
		}
		if !wellFormedMessage(d.Message) {
			t.Fatalf("diagnostic %s: message %q", d.Code, d.Message)
		}
	}
}
