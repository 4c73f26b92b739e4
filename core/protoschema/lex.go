package protoschema

import (
	"strings"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
)

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tNumber
	tString
	tSymbol
)

type token struct {
	kind  tokKind
	text  string
	start int
	end   int
}

func (t token) span() diag.Span { return diag.SpanOf(t.start, t.end) }

func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "the end of the schema"
	case tString:
		return "a string"
	}
	return diag.Quote(t.text)
}

// lexer splits text into tokens, one at a time as the parser asks, so
// that the tokens of a long text are never all held at once (200,000 "{"
// would otherwise be 200,000 tokens before the parser refused the
// sixty-fifth). It never fails: a character it does not know becomes a
// one-character symbol the parser then refuses, and an unterminated string
// or comment ends the text with an error in ds.
type lexer struct {
	text string
	i    int
	ds   []diag.Diagnostic
}

// lexErrors lexes the whole text and returns its errors (at most one:
// each ends the text), holding no token.
func lexErrors(text string) []diag.Diagnostic {
	l := &lexer{text: text}
	for l.next().kind != tEOF {
	}
	return l.ds
}

// next returns the next token, or tEOF at the end of the text (again and
// again).
func (l *lexer) next() token {
	text, i := l.text, l.i
	defer func() { l.i = i }()
	for i < len(text) {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case strings.HasPrefix(text[i:], "//"):
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case strings.HasPrefix(text[i:], "/*"):
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				l.ds = append(l.ds, diag.Diagnostic{Severity: diag.Error, Code: "proto-syntax", Span: diag.SpanOf(i, i+2),
					Message: "this comment is never closed", Hint: "end it with */"})
				i = len(text)
				continue
			}
			i += end + 4
		case isLetter(c):
			j := i + 1
			for j < len(text) && (isLetter(text[j]) || isDigit(text[j]) || text[j] == '.') {
				j++
			}
			t := token{tIdent, text[i:j], i, j}
			i = j
			return t
		case c == '.' && i+1 < len(text) && isLetter(text[i+1]):
			// A fully qualified type name: .pkg.Type
			j := i + 1
			for j < len(text) && (isLetter(text[j]) || isDigit(text[j]) || text[j] == '.') {
				j++
			}
			t := token{tIdent, text[i:j], i, j}
			i = j
			return t
		case isDigit(c) || (c == '-' || c == '+') && i+1 < len(text) && (isDigit(text[i+1]) || text[i+1] == '.'):
			j := i + 1
			for j < len(text) && (isLetter(text[j]) || isDigit(text[j]) || text[j] == '.' ||
				(text[j] == '-' || text[j] == '+') && (text[j-1] == 'e' || text[j-1] == 'E')) {
				j++
			}
			t := token{tNumber, text[i:j], i, j}
			i = j
			return t
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(text) && text[j] != c && text[j] != '\n' {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(text) || text[j] != c {
				l.ds = append(l.ds, diag.Diagnostic{Severity: diag.Error, Code: "proto-syntax", Span: diag.SpanOf(i, min(j, len(text))),
					Message: "this string is never closed", Hint: "end it with " + string(c) + " on the same line"})
				i = len(text)
				continue
			}
			t := token{tString, text[i+1 : j], i, j + 1}
			i = j + 1
			return t
		default:
			// A character outside ASCII is one symbol, never split into
			// bytes (an invalid byte is one symbol of its own).
			_, n := utf8.DecodeRuneInString(text[i:])
			t := token{tSymbol, text[i : i+n], i, i + n}
			i += n
			return t
		}
	}
	return token{tEOF, "", len(text), len(text)}
}

func isLetter(c byte) bool { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
