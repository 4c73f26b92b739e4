package filter

import (
	"strings"
	"unicode/utf8"
)

// Format prints e in canonical form: one space around operators, NOT for
// both NOT and -, keys bare when they can be, string literals with the
// fewest escapes, and parentheses exactly where the tree has a group inside
// a group or under NOT. A group the user wrote around a chain of the same
// operator, as in a AND (b AND c), is a node of its own and keeps its
// parentheses; parentheses around a single condition do not.
func Format(e Expr) string {
	var b strings.Builder
	format(&b, e)
	return b.String()
}

func format(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case *Has:
		b.WriteString("attributes:")
		b.WriteString(FormatKey(e.Key.Name))
	case *Compare:
		b.WriteString("attributes.")
		b.WriteString(FormatKey(e.Key.Name))
		b.WriteString(" " + e.Op.String() + " ")
		b.WriteString(Quote(e.Value.Value))
	case *Prefix:
		b.WriteString("hasPrefix(attributes.")
		b.WriteString(FormatKey(e.Key.Name))
		b.WriteString(", ")
		b.WriteString(Quote(e.Prefix.Value))
		b.WriteString(")")
	case *Not:
		b.WriteString("NOT ")
		group(b, e.X)
	case *Logic:
		for i, x := range e.X {
			if i > 0 {
				b.WriteString(" " + e.Op.String() + " ")
			}
			group(b, x)
		}
	}
}

// group prints an operand, in parentheses when it is a chain.
func group(b *strings.Builder, e Expr) {
	if _, ok := e.(*Logic); ok {
		b.WriteByte('(')
		format(b, e)
		b.WriteByte(')')
		return
	}
	format(b, e)
}

// FormatKey writes a key as the filter language needs it: bare when it is
// made of ASCII letters, digits, '-' and '_', else as a string literal.
func FormatKey(k string) string {
	if ValidBareKey(k) {
		return k
	}
	return Quote(k)
}

// Quote writes s as a filter string literal: double quotes, backslash and
// double quote escaped, control characters (which the language requires to
// be escaped) as \n, \t, \r or \u escapes, everything else as is.
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == utf8.RuneError && n == 1:
			// Not reachable from Parse, which rejects invalid UTF-8; an
			// escape is the only spelling that stays valid text.
			b.WriteString(`\uFFFD`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			b.WriteString(`\u00`)
			b.WriteString(hexByte(byte(r)))
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	b.WriteByte('"')
	return b.String()
}
