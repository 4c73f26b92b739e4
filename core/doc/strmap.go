package doc

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/subplay/subplay/core/diag"
)

// style records how a string was written, to map offsets inside it.
type style uint8

const (
	styleNone style = iota // unknown: offsets map to the whole value
	styleJSON
	stylePlain
	styleDouble
	styleSingle
	styleLiteral
)

func yamlStyle(s yaml.Style) style {
	switch {
	case s&yaml.DoubleQuotedStyle != 0:
		return styleDouble
	case s&yaml.SingleQuotedStyle != 0:
		return styleSingle
	case s&yaml.LiteralStyle != 0:
		return styleLiteral
	case s&yaml.FoldedStyle != 0:
		return styleNone
	}
	return stylePlain
}

// SourceSpan carries a span of byte offsets inside the decoded string of n
// (what a nested parser such as the filter parser reports) to the span of
// the document's text where those bytes were written, through escapes,
// quotes and line folding. When the mapping cannot be made exactly, it
// returns the span of the whole value: less precise, never wrong.
func (d *Doc) SourceSpan(n *Node, s diag.Span) diag.Span {
	if n == nil || !s.IsValid() {
		return diag.Span{}
	}
	if n.Kind != String || d == nil || d.Source == nil {
		return n.Span
	}
	offs := mapOffsets(d.Source.Text, n)
	if offs == nil {
		return n.Span
	}
	at := func(p diag.Pos) int {
		i := min(max(p.Offset(), 0), len(offs)-1)
		return offs[i]
	}
	start := at(s.Start)
	end := start
	if s.End > s.Start {
		// The end of the last byte, so a span that ends on an escape
		// covers all of it.
		last := at(s.End - 1)
		end = last + rawLen(d.Source.Text, last, n.style)
	}
	return diag.SpanOf(start, end)
}

// rawLen is the number of source bytes that encode the decoded byte at raw
// offset i: one, or the whole escape sequence.
func rawLen(text string, i int, st style) int {
	if i >= len(text) {
		return 0
	}
	if text[i] == '\\' && (st == styleJSON || st == styleDouble) {
		if st == styleJSON {
			_, n, _ := unescapeJSON(text[i:])
			return n
		}
		_, n, _ := unescapeYAML(text[i:])
		return n
	}
	if text[i] == '\'' && st == styleSingle {
		return 2
	}
	_, n := utf8.DecodeRuneInString(text[i:])
	return n
}

// mapOffsets returns, for each byte of n.Value and one past its end, the
// offset in text where it was written; nil if the decoding does not
// reproduce n.Value exactly.
func mapOffsets(text string, n *Node) []int {
	start := n.Span.Start.Offset()
	if start < 0 || start >= len(text) {
		return nil
	}
	var m mapper
	m.offs = make([]int, 0, len(n.Value)+1)
	var end int
	switch n.style {
	case styleJSON:
		end = m.quoted(text, start+1, '"', unescapeJSON, false)
	case styleDouble:
		end = m.quoted(text, start+1, '"', unescapeYAML, true)
	case styleSingle:
		end = m.quoted(text, start+1, '\'', nil, true)
	case stylePlain:
		end = m.plain(text, start, len(n.Value))
	case styleLiteral:
		end = m.literal(text, start)
	default:
		return nil
	}
	if end < 0 || m.b.String() != n.Value {
		// Block scalars may lose or keep a final line break (chomping);
		// accept a match up to that.
		if n.style == styleLiteral && strings.HasPrefix(m.b.String(), n.Value) && len(m.offs) > len(n.Value) {
			return m.offs[:len(n.Value)+1]
		}
		return nil
	}
	m.offs = append(m.offs, end)
	return m.offs
}

type mapper struct {
	b    strings.Builder
	offs []int
}

func (m *mapper) emit(s string, at int) {
	m.b.WriteString(s)
	for range len(s) {
		m.offs = append(m.offs, at)
	}
}

// fold handles a YAML line break inside a flow scalar at text[i] (a space,
// tab or newline): trailing blanks, the break and the next line's
// indentation become one space, or n line breaks for n empty lines. It
// returns the index after the fold and whether there was one.
func (m *mapper) fold(text string, i int) (int, bool) {
	j := i
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	if j >= len(text) || (text[j] != '\n' && text[j] != '\r') {
		return i, false
	}
	breaks := 0
	for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r') {
		// A "\r" alone is a line break too (YAML reads old Mac endings).
		if text[j] == '\n' || (text[j] == '\r' && (j+1 == len(text) || text[j+1] != '\n')) {
			breaks++
		}
		j++
	}
	if breaks == 1 {
		m.emit(" ", i)
	} else {
		m.emit(strings.Repeat("\n", breaks-1), i)
	}
	return j, true
}

type unescaper func(string) (rune, int, bool)

// quoted decodes a quoted string starting after its opening quote and
// returns the offset of the closing quote, or -1.
func (m *mapper) quoted(text string, i int, q byte, unesc unescaper, folds bool) int {
	for i < len(text) {
		c := text[i]
		switch {
		case c == q && q == '\'' && i+1 < len(text) && text[i+1] == '\'':
			m.emit("'", i)
			i += 2
		case c == q:
			return i
		case c == '\\' && unesc != nil:
			if folds && i+1 < len(text) && text[i+1] == '\n' {
				// An escaped line break joins the lines with nothing.
				j := i + 2
				for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
					j++
				}
				i = j
				continue
			}
			r, n, ok := unesc(text[i:])
			if !ok {
				return -1
			}
			m.emit(string(r), i)
			i += n
		case folds && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			if j, ok := m.fold(text, i); ok {
				i = j
				continue
			}
			m.emit(text[i:i+1], i)
			i++
		default:
			m.emit(text[i:i+1], i)
			i++
		}
	}
	return -1
}

func (m *mapper) plain(text string, i, want int) int {
	for i < len(text) && m.b.Len() < want {
		c := text[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			if j, ok := m.fold(text, i); ok {
				i = j
				continue
			}
		}
		m.emit(text[i:i+1], i)
		i++
	}
	return i
}

// literal decodes a '|' block scalar whose indicator is at text[i].
func (m *mapper) literal(text string, i int) int {
	nl := strings.IndexByte(text[i:], '\n')
	if nl < 0 {
		return -1
	}
	header := text[i : i+nl]
	i += nl + 1
	indent := -1
	for _, c := range header {
		if c >= '1' && c <= '9' {
			indent = -2 - int(c-'0') // relative: resolved against the parent below
		}
	}
	if indent < -1 {
		return -1 // explicit indentation indicators are rare; fall back
	}
	for i < len(text) {
		lineEnd := strings.IndexByte(text[i:], '\n')
		if lineEnd < 0 {
			lineEnd = len(text) - i
		}
		line := text[i : i+lineEnd]
		lead := len(line) - len(strings.TrimLeft(line, " "))
		if strings.TrimSpace(line) == "" {
			m.emit("\n", i+min(lead, lineEnd))
			i += lineEnd + 1
			continue
		}
		if indent < 0 {
			indent = lead
		}
		if lead < indent {
			break
		}
		for k := indent; k < len(line); k++ {
			m.emit(line[k:k+1], i+k)
		}
		m.emit("\n", i+lineEnd)
		i += lineEnd + 1
	}
	return min(i, len(text))
}

var yamlSimpleEscapes = map[byte]rune{'0': 0, 'a': '\a', 'b': '\b', 't': '\t', '\t': '\t', 'n': '\n', 'v': '\v', 'f': '\f',
	'r': '\r', 'e': 0x1b, ' ': ' ', '"': '"', '/': '/', '\\': '\\', 'N': 0x85, '_': 0xa0, 'L': 0x2028, 'P': 0x2029}

// unescapeYAML decodes a YAML double-quoted escape at the start of s.
func unescapeYAML(s string) (rune, int, bool) {
	if len(s) < 2 {
		return 0, len(s), false
	}
	if r, ok := yamlSimpleEscapes[s[1]]; ok {
		return r, 2, true
	}
	width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[1]]
	if width == 0 || len(s) < 2+width {
		return 0, 2, false
	}
	v, err := strconv.ParseUint(s[2:2+width], 16, 32)
	if err != nil {
		return 0, 2 + width, false
	}
	return rune(v), 2 + width, true
}
