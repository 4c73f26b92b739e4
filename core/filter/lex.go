package filter

import (
	"strings"
	"unicode/utf8"
)

// tokKind is the kind of a token. The lexer turns every character into some
// token, including ones the language does not have (==, &&, ', [ ...), so
// that the parser can say exactly what is wrong with them.
type tokKind uint8

const (
	tEOF    tokKind = iota
	tWord           // [A-Za-z0-9_]+ outside a key: AND, attributes, hasPrefix, a mistake
	tString         // "..." (decoded into val); also '...' and `...`, which are errors
	tLParen
	tRParen
	tComma
	tDot
	tColon
	tEq    // =
	tNe    // !=
	tMinus // -
	tOther // anything else, one operator or one character: ==, &&, <, !, [, é, \ ...
)

type token struct {
	kind       tokKind
	start, end int
	val        string // decoded value of a string
	quote      byte   // the quote a string was written with
}

// text is the token as written.
func (p *parser) text(t token) string { return p.src[t.start:t.end] }

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// isKeyByte reports whether c may appear in a bare key: letters, digits,
// hyphens and underscores, read as ASCII (the docs say "alphanumeric"; no
// source shows a non-ASCII bare key).
func isKeyByte(c byte) bool { return isWordByte(c) || c == '-' }

// ValidBareKey reports whether key can be written without quotes.
func ValidBareKey(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		if !isKeyByte(key[i]) {
			return false
		}
	}
	return true
}

// twoByteOps are the operators of other languages that people try; the
// lexer keeps each as one token so the message can name it.
var twoByteOps = []string{"!=", "==", "&&", "||", "<=", ">=", "=~", "!~", "=>", "<>"}

func (p *parser) skipSpace() {
	for p.pos < len(p.src) && isSpace(p.src[p.pos]) {
		p.pos++
	}
}

// peek returns the next token without consuming it.
func (p *parser) peek() token {
	if !p.peeked {
		save := p.pos
		p.tok = p.lex()
		p.peekEnd = p.pos
		p.pos = save
		p.peeked = true
	}
	return p.tok
}

// next consumes and returns the next token.
func (p *parser) next() token {
	t := p.peek()
	p.pos = p.peekEnd
	p.peeked = false
	return t
}

func (p *parser) lex() token {
	p.skipSpace()
	start := p.pos
	if start >= len(p.src) {
		return token{kind: tEOF, start: start, end: start}
	}
	c := p.src[start]
	one := func(k tokKind) token {
		p.pos++
		return token{kind: k, start: start, end: p.pos}
	}
	switch c {
	case '(':
		return one(tLParen)
	case ')':
		return one(tRParen)
	case ',':
		return one(tComma)
	case '.':
		return one(tDot)
	case ':':
		return one(tColon)
	case '-':
		return one(tMinus)
	case '"', '\'', '`':
		return p.lexString()
	}
	if isWordByte(c) {
		for p.pos < len(p.src) && isWordByte(p.src[p.pos]) {
			p.pos++
		}
		return token{kind: tWord, start: start, end: p.pos}
	}
	for _, op := range twoByteOps {
		if strings.HasPrefix(p.src[start:], op) {
			p.pos += len(op)
			k := tOther
			if op == "!=" {
				k = tNe
			}
			return token{kind: k, start: start, end: p.pos}
		}
	}
	if c == '=' {
		return one(tEq)
	}
	_, n := utf8.DecodeRuneInString(p.src[start:])
	p.pos += n
	return token{kind: tOther, start: start, end: p.pos}
}

// lexString reads a string literal starting at its quote. Double quotes are
// the only quotes of the language; single quotes and backticks are read the
// same way so the parser can point at the whole literal and suggest double
// quotes. An unterminated literal stops the parse.
func (p *parser) lexString() token {
	start := p.pos
	q := p.src[start]
	i := start + 1
	// Most literals have no escapes; their value is a slice of the source.
	j := i
	for j < len(p.src) && p.src[j] != q && p.src[j] != '\\' && p.src[j] >= 0x20 && p.src[j] != 0x7f {
		j++
	}
	if j < len(p.src) && p.src[j] == q {
		return p.endString(start, j+1, p.src[i:j], q)
	}
	var b strings.Builder
	b.WriteString(p.src[i:j])
	i = j
	for {
		if i >= len(p.src) {
			p.fail(start, len(p.src), codeUnterminated, "this string literal is never closed",
				"end it with "+string(q))
		}
		c := p.src[i]
		switch {
		case c == q:
			return p.endString(start, i+1, b.String(), q)
		case c == '\\':
			n := p.escape(i, &b)
			i += n
			continue
		case c < 0x20 || c == 0x7f:
			p.errorAt(i, i+1, codeControlChar,
				"a control character cannot be written as is inside a string literal",
				escapeHint(c))
		}
		b.WriteByte(c)
		i++
	}
}

func (p *parser) endString(start, end int, val string, q byte) token {
	p.pos = end
	return token{kind: tString, start: start, end: end, val: val, quote: q}
}

func escapeHint(c byte) string {
	switch c {
	case '\n':
		return `write it as \n`
	case '\t':
		return `write it as \t`
	case '\r':
		return `write it as \r`
	}
	return `write it as an escape, e.g. \x` + hexByte(c)
}

const hexDigits = "0123456789abcdef"

func hexByte(c byte) string { return string([]byte{hexDigits[c>>4], hexDigits[c&15]}) }

// escape decodes the escape sequence at src[i] (a backslash) into b and
// returns its length in bytes. \x, \u, \U and octal escapes name Unicode
// code points, as in CEL: "\xe9" is "é", never a lone byte, because
// attribute keys and values are UTF-8 text.
func (p *parser) escape(i int, b *strings.Builder) int {
	src := p.src
	if i+1 >= len(src) {
		return 1 // the unterminated-string check reports it
	}
	c := src[i+1]
	if r, ok := simpleEscapes[c]; ok {
		b.WriteByte(r)
		return 2
	}
	digits, base := 0, 16
	switch c {
	case 'x', 'X':
		digits = 2
	case 'u':
		digits = 4
	case 'U':
		digits = 8
	case '0', '1', '2', '3', '4', '5', '6', '7':
		digits, base = 3, 8
	}
	if digits == 0 {
		_, n := utf8.DecodeRuneInString(src[i+1:])
		p.errorAt(i, i+1+n, codeBadEscape, "unknown escape "+src[i:i+1+n]+" in a string",
			`the escapes are \\ \" \' \n \t \r \a \b \f \v \?, \xHH, \uHHHH, \UHHHHHHHH and octal \ooo`)
		b.WriteString(src[i+1 : i+1+n])
		return 1 + n
	}
	from := i + 2
	if base == 8 {
		from = i + 1
	}
	var v rune
	j := from
	for ; j < len(src) && j < from+digits; j++ {
		d := digitVal(src[j])
		if d >= base {
			break
		}
		v = v*rune(base) + rune(d)
	}
	seq := src[i:j]
	switch {
	case j < from+digits:
		what := map[int]string{2: "two hex digits", 4: "four hex digits", 8: "eight hex digits", 3: "three octal digits"}[digits]
		p.errorAt(i, j, codeBadEscape, "the escape "+seq+" needs "+what, escapeExample(c))
		return j - i
	case base == 8 && v > 0377:
		p.errorAt(i, j, codeBadEscape, "the octal escape "+seq+" is above \\377", "use \\u for larger code points")
		return j - i
	case v >= 0xD800 && v <= 0xDFFF:
		p.errorAt(i, j, codeBadEscape, "the escape "+seq+" is a UTF-16 surrogate, not a character",
			`write the character itself or its code point, e.g. \U0001F600`)
		return j - i
	case v > utf8.MaxRune:
		p.errorAt(i, j, codeBadEscape, "the escape "+seq+" is beyond the last Unicode code point", "")
		return j - i
	}
	b.WriteRune(v)
	return j - i
}

var simpleEscapes = map[byte]byte{'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v',
	'\\': '\\', '"': '"', '\'': '\'', '`': '`', '?': '?'}

func escapeExample(c byte) string {
	switch c {
	case 'x', 'X':
		return `e.g. \x41 for "A"`
	case 'u':
		return `e.g. \u00e9 for "é"`
	case 'U':
		return `e.g. \U0001F600`
	}
	return `e.g. \101 for "A"`
}

func digitVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return 99
}
