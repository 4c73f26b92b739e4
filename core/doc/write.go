package doc

import (
	"strings"
	"unicode/utf8"
)

// JSON returns n as compact JSON: what a payload written as a JSON value
// in a sample message, or a record field, becomes on the wire.
func (n *Node) JSON() string {
	var b strings.Builder
	n.WriteJSON(&b)
	return b.String()
}

// WriteJSON writes n as compact JSON to b. Numbers keep the text they were
// written with; object members keep their order.
func (n *Node) WriteJSON(b *strings.Builder) {
	switch n.Kind {
	case Null:
		b.WriteString("null")
	case Bool, Number:
		b.WriteString(n.Value)
	case String:
		QuoteJSON(b, n.Value)
	case Array:
		b.WriteByte('[')
		for i, it := range n.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			it.WriteJSON(b)
		}
		b.WriteByte(']')
	case Object:
		b.WriteByte('{')
		for i, m := range n.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			QuoteJSON(b, m.Key)
			b.WriteByte(':')
			m.Value.WriteJSON(b)
		}
		b.WriteByte('}')
	}
}

// QuoteJSON writes s as a JSON string. Unlike strconv.Quote, which writes
// Go escapes such as \x7f that JSON does not have, it escapes only what
// JSON requires, so other characters stay as they are; invalid UTF-8
// becomes U+FFFD, as encoding/json does.
func QuoteJSON(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\r':
				b.WriteString(`\r`)
			case c < 0x20:
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&15])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}
