//go:build !noudf

package transform

import (
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
)

// Helpers of the findings' text and places (program.go and check.go).

// charSpan is the span of the character of code at byte offset o (of the
// one it falls inside): a span of one byte cut a character outside ASCII
// ("ս is not defined" ended inside the ս, FuzzUDF).
func charSpan(code string, o int) diag.Span {
	o = max(0, min(o, len(code)))
	for o > 0 && o < len(code) && !utf8.RuneStart(code[o]) {
		o--
	}
	if o >= len(code) {
		return diag.SpanOf(o, o)
	}
	_, n := utf8.DecodeRuneInString(code[o:])
	return diag.SpanOf(o, o+n)
}

// exampleName is the function name a hint's example declares: the
// configured one when it is a short identifier, else a placeholder (a
// hint must not repeat a long or odd name unquoted).
func exampleName(name string) string {
	if isIdent(name) && utf8.RuneCountInString(name) <= limits.QuotedInput {
		return name
	}
	return "NAME"
}

// isIdent reports whether s is a plain identifier: generated code may name
// it, and a hint may show it.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		ok := r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9' || r > 127
		if !ok {
			return false
		}
	}
	return true
}
