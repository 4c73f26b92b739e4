package diagtest

import (
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag"
)

func TestProblem(t *testing.T) {
	const text = "ab\néc\n"
	ok := diag.Diagnostic{Severity: diag.Error, Code: "json-syntax", Message: "JSON ends early", Hint: "Avro's types are listed"}
	with := func(f func(d *diag.Diagnostic)) diag.Diagnostic { d := ok; f(&d); return d }
	cases := []struct {
		name string
		d    diag.Diagnostic
		want string // part of the problem, or "" for none
	}{
		{"well-formed", ok, ""},
		{"positioned", with(func(d *diag.Diagnostic) {
			d.Span, d.Line, d.Column, d.EndLine, d.EndColumn = diag.SpanOf(3, 6), 2, 1, 2, 3
		}), ""},
		{"end of the last line", with(func(d *diag.Diagnostic) { d.Line, d.Column = 3, 1 }), ""},
		{"no code", with(func(d *diag.Diagnostic) { d.Code = "" }), "kebab-case"},
		{"camel code", with(func(d *diag.Diagnostic) { d.Code = "jsonSyntax" }), "kebab-case"},
		{"double hyphen", with(func(d *diag.Diagnostic) { d.Code = "a--b" }), "kebab-case"},
		{"unknown severity", with(func(d *diag.Diagnostic) { d.Severity = "fatal" }), "severity"},
		{"empty message", with(func(d *diag.Diagnostic) { d.Message = "" }), "empty message"},
		{"capital", with(func(d *diag.Diagnostic) { d.Message = "The key" }), "capital"},
		{"capital hint", with(func(d *diag.Diagnostic) { d.Hint = "Remove it" }), "hint starts"},
		{"period", with(func(d *diag.Diagnostic) { d.Message = "the key." }), "period"},
		{"period in the hint", with(func(d *diag.Diagnostic) { d.Hint = "remove it." }), "hint ends"},
		{"huge message", with(func(d *diag.Diagnostic) { d.Message = strings.Repeat("x", MaxText+1) }), "bytes"},
		{"span past the end", with(func(d *diag.Diagnostic) { d.Span = diag.SpanOf(2, 9) }), "outside"},
		{"span ending inside a character", with(func(d *diag.Diagnostic) { d.Span = diag.SpanOf(3, 4) }), "inside the character at byte 3"},
		{"line past the end", with(func(d *diag.Diagnostic) { d.Line, d.Column = 4, 1 }), "line 4"},
		{"column past the line", with(func(d *diag.Diagnostic) { d.Line, d.Column = 2, 4 }), "column 4"},
		{"column zero", with(func(d *diag.Diagnostic) { d.Line = 1 }), "column 0"},
		{"end before start", with(func(d *diag.Diagnostic) { d.Line, d.Column, d.EndLine, d.EndColumn = 2, 2, 1, 1 }), "before its start"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Problem(text, c.d)
			if c.want == "" && got != "" || !strings.Contains(got, c.want) {
				t.Errorf("Problem = %q, want one containing %q", got, c.want)
			}
		})
	}
}

func TestCapitalized(t *testing.T) {
	cases := []struct {
		s    string
		want bool
	}{
		{"The key", true}, {"Remove", true}, {"the key", false}, {"JSON ends", false}, {"AND needs", false},
		{"BigQuery's limit", false}, {"Avro's types", false}, {"Google reserves", false}, {"A", false}, {"", false},
		{"Ab", true}, {"é", false},
	}
	for _, c := range cases {
		if got := Capitalized(c.s); got != c.want {
			t.Errorf("Capitalized(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}
