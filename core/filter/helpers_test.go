package filter

import (
	"strconv"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag"
)

// tree writes the shape of an AST without positions, so two parses can be
// compared and expected trees written by hand.
func tree(e Expr) string {
	switch e := e.(type) {
	case nil:
		return "()"
	case *Has:
		return "(has " + strconv.Quote(e.Key.Name) + ")"
	case *Compare:
		return "(" + e.Op.String() + " " + strconv.Quote(e.Key.Name) + " " + strconv.Quote(e.Value.Value) + ")"
	case *Prefix:
		return "(prefix " + strconv.Quote(e.Key.Name) + " " + strconv.Quote(e.Prefix.Value) + ")"
	case *Not:
		return "(not " + tree(e.X) + ")"
	case *Logic:
		parts := []string{strings.ToLower(e.Op.String())}
		for _, x := range e.X {
			parts = append(parts, tree(x))
		}
		return "(" + strings.Join(parts, " ") + ")"
	}
	return "(?)"
}

// mustParse parses a filter that must be valid.
func mustParse(t *testing.T, src string) *Filter {
	t.Helper()
	f, ds := Parse(src)
	if f == nil {
		t.Fatalf("Parse(%q) failed:\n%s", src, render(src, ds))
	}
	return f
}

// render shows diagnostics the way users see them, for failure messages.
func render(src string, ds []diag.Diagnostic) string {
	s := diag.NewSource("filter", src)
	ds = append([]diag.Diagnostic(nil), ds...)
	s.Locate(ds)
	return diag.Render(s, ds)
}

// located parses src and returns its diagnostics with lines and columns
// in src.
func located(src string) (*Filter, []diag.Diagnostic) {
	f, ds := Parse(src)
	diag.NewSource("filter", src).Locate(ds)
	return f, ds
}

func codes(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, string(d.Severity)+":"+d.Code)
	}
	return out
}

// wellFormedMessage reports whether a message follows the house style: it
// starts lowercase (or with an operator of the language, which is written
// in capitals) and ends without a period.
func wellFormedMessage(m string) bool {
	if m == "" || strings.HasSuffix(m, ".") {
		return false
	}
	first, _, _ := strings.Cut(m, " ")
	switch first {
	case "AND", "OR", "NOT", "IN":
		return true
	}
	return !(m[0] >= 'A' && m[0] <= 'Z')
}
