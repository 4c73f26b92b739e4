// Package diagtest holds the checks that tests and fuzz targets apply to
// every diagnostic a producer returns, so that the rules of core/diag are
// written once: a stable kebab-case code, a known severity, a message and
// hint in lower case without a trailing period and of bounded size, and a
// span (on character boundaries) and line/column inside the text the
// finding is about.
package diagtest

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
)

// MaxText bounds a message or a hint in bytes. User input is quoted with
// diag.Quote (at most limits.QuotedInput code points), so a message holds
// a few short quotes and our own words whatever the input's size.
const MaxText = 2000

// Problem returns what is wrong with d as a finding about text, or "" if
// nothing is. text is the input the finding's span and line/column point
// into; a finding about the input as a whole (no span, no line) passes.
func Problem(text string, d diag.Diagnostic) string {
	if p := WordsProblem(d); p != "" {
		return p
	}
	if d.Span.IsValid() {
		if s, e := d.Span.Start.Offset(), d.Span.End.Offset(); e < s || e > len(text) {
			return fmt.Sprintf("span [%d, %d) outside the %d-byte text", s, e, len(text))
		}
		// diag.Source widens spans to whole characters when it locates
		// them; a span left inside one was never located, or undone.
		for _, off := range []int{d.Span.Start.Offset(), d.Span.End.Offset()} {
			if p, _, inside := diag.RuneAround(text, off); inside {
				return fmt.Sprintf("span end %d inside the character at byte %d", off, p)
			}
		}
	}
	if d.Line != 0 || d.Column != 0 {
		if p := lineColProblem(text, d.Line, d.Column); p != "" {
			return p
		}
	}
	if d.EndLine != 0 || d.EndColumn != 0 {
		if p := lineColProblem(text, d.EndLine, d.EndColumn); p != "" {
			return "end " + p
		}
		if d.EndLine < d.Line || d.EndLine == d.Line && d.EndColumn < d.Column {
			return fmt.Sprintf("ends at %d:%d, before its start %d:%d", d.EndLine, d.EndColumn, d.Line, d.Column)
		}
	}
	return ""
}

// WordsProblem checks what does not depend on the text: the code, the
// severity, the message and the hint.
func WordsProblem(d diag.Diagnostic) string {
	if !KebabCase(d.Code) {
		return fmt.Sprintf("code %q is not kebab-case", d.Code)
	}
	switch d.Severity {
	case diag.Error, diag.Warning, diag.Info:
	default:
		return fmt.Sprintf("severity %q", d.Severity)
	}
	if d.Message == "" {
		return "empty message"
	}
	for _, w := range []struct{ what, s string }{{"message", d.Message}, {"hint", d.Hint}} {
		switch {
		case len(w.s) > MaxText:
			return fmt.Sprintf("a %s of %d bytes", w.what, len(w.s))
		case Capitalized(w.s):
			return fmt.Sprintf("%s starts with a capital: %.80q", w.what, w.s)
		case strings.HasSuffix(w.s, "."):
			return fmt.Sprintf("%s ends with a period: %.80q", w.what, w.s[max(0, len(w.s)-80):])
		}
	}
	return ""
}

// lineColProblem checks a 1-based line and column (in code points, as
// diag.Source counts them) against text.
func lineColProblem(text string, line, col int) string {
	lines := strings.Count(text, "\n") + 1
	if line < 1 || line > lines {
		return fmt.Sprintf("line %d of a %d-line text", line, lines)
	}
	start := 0
	for range line - 1 {
		start += strings.IndexByte(text[start:], '\n') + 1
	}
	end := strings.IndexByte(text[start:], '\n')
	if end < 0 {
		end = len(text) - start
	}
	if n := utf8.RuneCountInString(text[start : start+end]); col < 1 || col > n+1 {
		return fmt.Sprintf("column %d of line %d, which has %d code points", col, line, n)
	}
	return ""
}

// KebabCase reports whether code is lower-case words joined by single
// hyphens, the form of every stable code.
func KebabCase(code string) bool {
	if code == "" || code[0] == '-' || code[len(code)-1] == '-' || strings.Contains(code, "--") {
		return false
	}
	for _, c := range code {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Capitalized reports whether s starts with a capitalized word: "The" is;
// an acronym or keyword ("JSON", "AND"), a name with an inner capital
// ("BigQuery") and the proper nouns below ("Avro's") are not. Messages and
// hints start in lower case.
func Capitalized(s string) bool {
	word, _, _ := strings.Cut(s, " ")
	word = strings.TrimSuffix(word, "'s")
	if len(word) < 2 || word[0] < 'A' || word[0] > 'Z' || properNouns[word] {
		return false
	}
	for _, c := range word[1:] {
		if c >= 'A' && c <= 'Z' {
			return false
		}
	}
	return word[1] >= 'a' && word[1] <= 'z'
}

// properNouns keep their capital at the start of a sentence.
var properNouns = map[string]bool{"Avro": true, "Google": true, "Terraform": true, "Cloud": true, "Go": true}

// Check fails t at the first diagnostic of ds that breaks a rule, naming
// it and the rule.
func Check(t testing.TB, text string, ds []diag.Diagnostic) {
	t.Helper()
	for _, d := range ds {
		if p := Problem(text, d); p != "" {
			t.Fatalf("diagnostic %s (%s, %s): %s\nmessage %.300q", d.Code, d.Path, d.Input, p, d.Message)
		}
	}
}
