package doc

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
)

// jsonParser is a strict RFC 8259 reader written for its messages: every
// syntax error names what was expected, at the byte where it went wrong,
// in words a person fixing a configuration by hand can act on.
type jsonParser struct {
	s        string
	i        int
	maxDepth int
	// maxMembers bounds one object's members (Limits.MaxMembers).
	maxMembers int
	ds         []diag.Diagnostic
	dropped    int // findings past diag.MaxCollected, counted only
}

// errStop unwinds the parser after the first syntax error: past it, the
// structure is a guess, and a cascade of follow-on errors helps nobody.
type errStop struct{}

func parseJSON(text string, maxDepth, maxMembers int) (root *Node, ds []diag.Diagnostic, dropped int) {
	p := &jsonParser{s: text, maxDepth: maxDepth, maxMembers: maxMembers}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(errStop); !ok {
				panic(r)
			}
			root, ds, dropped = nil, p.ds, p.dropped
		}
	}()
	if strings.HasPrefix(text, "\ufeff") {
		p.i = 3
	}
	p.space()
	if p.i == len(p.s) {
		p.fail(p.i, p.i, "empty-input", "the input is empty", "paste a subscription as JSON or YAML")
	}
	root = p.value(0)
	p.space()
	if p.i < len(p.s) {
		p.fail(p.i, p.i+1, "json-syntax", "unexpected "+p.describe(p.i)+" after the end of the JSON value",
			"a file holds one JSON value; remove what follows it")
	}
	return root, p.ds, p.dropped
}

func (p *jsonParser) fail(start, end int, code, msg, hint string) {
	p.ds = append(p.ds, diag.Diagnostic{Severity: diag.Error, Code: code, Message: msg, Hint: hint, Span: diag.SpanOf(start, end)})
	panic(errStop{})
}

func (p *jsonParser) syntax(msg, hint string) {
	end := p.i + 1
	if p.i >= len(p.s) {
		end = p.i
	}
	p.fail(p.i, end, "json-syntax", msg, hint)
}

// describe names the character at i for a message.
func (p *jsonParser) describe(i int) string {
	if i >= len(p.s) {
		return "end of input"
	}
	r, _ := utf8.DecodeRuneInString(p.s[i:])
	switch {
	case r == '\n':
		return "line break"
	case r == utf8.RuneError:
		return "byte 0x" + strconv.FormatUint(uint64(p.s[i]), 16) + " (not UTF-8)"
	case r < 0x20 || r == 0x7f:
		return "control character " + strconv.QuoteRune(r)
	}
	return strconv.QuoteRune(r)
}

func (p *jsonParser) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		case '/':
			if p.i+1 < len(p.s) && (p.s[p.i+1] == '/' || p.s[p.i+1] == '*') {
				p.syntax("JSON has no comments", "remove the comment, or write the configuration in YAML, which has # comments")
			}
			return
		default:
			return
		}
	}
}

func (p *jsonParser) value(depth int) *Node {
	if p.i >= len(p.s) {
		p.syntax("unexpected end of input: a value is missing", "")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		start := p.i
		v := p.str()
		return &Node{Kind: String, Value: v, Span: diag.SpanOf(start, p.i), style: styleJSON}
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == '\'':
		p.syntax("JSON strings take double quotes, not single quotes", `write "..." instead of '...'`)
	}
	for _, lit := range [...]struct {
		word string
		kind Kind
	}{{"true", Bool}, {"false", Bool}, {"null", Null}} {
		if strings.HasPrefix(p.s[p.i:], lit.word) && !isWordByte(p.s, p.i+len(lit.word)) {
			n := &Node{Kind: lit.kind, Span: diag.SpanOf(p.i, p.i+len(lit.word))}
			if lit.kind == Bool {
				n.Value = lit.word
			}
			p.i += len(lit.word)
			return n
		}
	}
	end := p.i
	for isWordByte(p.s, end) {
		end++
	}
	if end > p.i {
		word := p.s[p.i:end]
		hint := "strings need double quotes: " + diag.Quote(word)
		switch strings.ToLower(word) {
		case "true", "false", "null":
			hint = "JSON literals are lowercase: " + strings.ToLower(word)
		case "nan", "infinity":
			hint = "JSON has no " + word + "; use a string or a number"
		}
		p.fail(p.i, end, "json-syntax", "unexpected word "+diag.Quote(word)+" where a value should be", hint)
	}
	p.syntax("unexpected "+p.describe(p.i)+" where a value should be", "")
	return nil
}

func isWordByte(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	c := s[i]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func (p *jsonParser) enter(depth int) {
	if depth > p.maxDepth {
		p.ds = append(p.ds, tooDeep(p.maxDepth, p.i))
		panic(errStop{})
	}
}

func (p *jsonParser) object(depth int) *Node {
	p.enter(depth)
	n := &Node{Kind: Object}
	start := p.i
	p.i++ // {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		n.Span = diag.SpanOf(start, p.i)
		return n
	}
	seen := make(map[string]struct{}, 8)
	members := 0
	for {
		p.space()
		if p.i >= len(p.s) {
			p.fail(start, start+1, "json-syntax", "this object is never closed", "add the missing '}'")
		}
		if p.s[p.i] == '}' {
			p.syntax("trailing comma before '}'", "JSON allows no comma after the last member")
		}
		if p.s[p.i] != '"' {
			hint := "object keys are strings in double quotes"
			if isWordByte(p.s, p.i) {
				end := p.i
				for isWordByte(p.s, end) {
					end++
				}
				hint = "write the key as " + diag.Quote(p.s[p.i:end])
			}
			p.syntax("expected a key in double quotes, found "+p.describe(p.i), hint)
		}
		ks := p.i
		key := p.str()
		keySpan := diag.SpanOf(ks, p.i)
		if members++; members > p.maxMembers {
			// The one finding that matters: the others would crowd it
			// out of the capped list.
			p.ds, p.dropped = []diag.Diagnostic{tooManyMembers(keySpan, p.maxMembers)}, 0
			panic(errStop{})
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			p.syntax("expected ':' after the key "+diag.Quote(key)+", found "+p.describe(p.i), "")
		}
		p.i++
		p.space()
		v := p.value(depth)
		if _, dup := seen[key]; dup {
			if len(p.ds) < diag.MaxCollected {
				p.ds = append(p.ds, diag.Diagnostic{Severity: diag.Error, Code: "duplicate-key",
					Message: "the key " + diag.Quote(key) + " appears more than once in this object",
					Hint:    "the API rejects duplicate fields; keep one", Span: keySpan})
			} else {
				p.dropped++
			}
		} else {
			seen[key] = struct{}{}
			n.Members = append(n.Members, Member{Key: key, KeySpan: keySpan, Value: v})
		}
		p.space()
		if p.i >= len(p.s) {
			p.fail(start, start+1, "json-syntax", "this object is never closed", "add the missing '}'")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			n.Span = diag.SpanOf(start, p.i)
			return n
		case '"':
			p.syntax("expected ',' between members, found a new key", "add a comma after the previous value")
		default:
			p.syntax("expected ',' or '}' after a member, found "+p.describe(p.i), "")
		}
	}
}

func (p *jsonParser) array(depth int) *Node {
	p.enter(depth)
	n := &Node{Kind: Array}
	start := p.i
	p.i++ // [
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		n.Span = diag.SpanOf(start, p.i)
		return n
	}
	for {
		p.space()
		if p.i >= len(p.s) {
			p.fail(start, start+1, "json-syntax", "this array is never closed", "add the missing ']'")
		}
		if p.s[p.i] == ']' {
			p.syntax("trailing comma before ']'", "JSON allows no comma after the last item")
		}
		n.Items = append(n.Items, p.value(depth))
		p.space()
		if p.i >= len(p.s) {
			p.fail(start, start+1, "json-syntax", "this array is never closed", "add the missing ']'")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			n.Span = diag.SpanOf(start, p.i)
			return n
		default:
			p.syntax("expected ',' or ']' after an item, found "+p.describe(p.i), "")
		}
	}
}

func (p *jsonParser) number() *Node {
	start := p.i
	s := p.s
	i := p.i
	if s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	bad := func(msg, hint string) {
		end := i
		for isWordByte(s, end) || (end < len(s) && (s[end] == '.' || s[end] == '+' || s[end] == '-')) {
			end++
		}
		p.fail(start, max(end, start+1), "json-syntax", msg, hint)
	}
	if i < len(s) && s[i] == '0' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
		bad("JSON numbers cannot have leading zeros", "")
	}
	if digits() == 0 {
		bad("a number needs digits", "")
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			bad("a number needs digits after the decimal point", "")
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			bad("a number needs digits in its exponent", "")
		}
	}
	if isWordByte(s, i) {
		// "600s" written without quotes, or 0x10: say what it probably is.
		hint := "numbers are plain digits; put other text in double quotes"
		end := i
		for isWordByte(s, end) || (end < len(s) && s[end] == '.') {
			end++
		}
		if word := s[start:end]; strings.HasSuffix(word, "s") {
			hint = "a duration is a string: " + diag.Quote(word)
		}
		p.fail(start, end, "json-syntax", "unexpected "+diag.Quote(s[start:end])+" where a value should be", hint)
	}
	p.i = i
	return &Node{Kind: Number, Value: s[start:i], Span: diag.SpanOf(start, i)}
}

// str reads a string literal at p.i (which holds '"') and returns it decoded.
func (p *jsonParser) str() string {
	start := p.i
	p.i++
	s := p.s
	// Fast path: no escapes, plain ASCII or valid UTF-8.
	j := p.i
	for j < len(s) && s[j] != '"' && s[j] != '\\' && s[j] >= 0x20 && s[j] < 0x80 {
		j++
	}
	if j < len(s) && s[j] == '"' {
		p.i = j + 1
		return s[start+1 : j]
	}
	var b strings.Builder
	b.WriteString(s[start+1 : j])
	p.i = j
	for {
		if p.i >= len(s) {
			p.fail(start, start+1, "json-syntax", "this string is never closed", `add the closing '"'`)
		}
		c := s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String()
		case c == '\n':
			p.fail(start, start+1, "json-syntax", "this string is never closed on its line",
				`add the closing '"'; a line break inside a string is written \n`)
		case c < 0x20:
			p.syntax("control character "+strconv.QuoteRune(rune(c))+" inside a string", `escape it, e.g. \t for a tab`)
		case c == '\\':
			r, n, ok := unescapeJSON(s[p.i:])
			if !ok && utf16.IsSurrogate(r) {
				p.fail(p.i, p.i+n, "json-syntax", "the escape "+s[p.i:p.i+n]+" is half of a UTF-16 surrogate pair",
					`a character beyond U+FFFF takes two escapes, such as \ud83d\ude00, or can be written as itself`)
			}
			if !ok {
				end := p.i + n
				p.fail(p.i, min(max(end, p.i+2), len(s)), "json-syntax", "invalid escape "+strconv.Quote(s[p.i:min(end, len(s))])+" in a string",
					`JSON escapes are \" \\ \/ \b \f \n \r \t and \uXXXX`)
			}
			b.WriteRune(r)
			p.i += n
		case c < 0x80:
			b.WriteByte(c)
			p.i++
		default:
			r, n := utf8.DecodeRuneInString(s[p.i:])
			if r == utf8.RuneError && n == 1 {
				p.fail(p.i, p.i+1, "invalid-utf8", "the text is not valid UTF-8 here", "save the file as UTF-8")
			}
			b.WriteString(s[p.i : p.i+n])
			p.i += n
		}
	}
}

// unescapeJSON decodes the escape at the start of s, returning the rune, the
// bytes consumed, and whether it was valid. A surrogate pair counts as one
// escape. A lone surrogate is invalid (returned as r, for the message):
// encoding/json would turn it into U+FFFD, but the proto JSON mapping the
// API uses rejects it, and a changed character is worse than an error.
func unescapeJSON(s string) (rune, int, bool) {
	if len(s) < 2 {
		return 0, len(s), false
	}
	switch s[1] {
	case '"':
		return '"', 2, true
	case '\\':
		return '\\', 2, true
	case '/':
		return '/', 2, true
	case 'b':
		return '\b', 2, true
	case 'f':
		return '\f', 2, true
	case 'n':
		return '\n', 2, true
	case 'r':
		return '\r', 2, true
	case 't':
		return '\t', 2, true
	case 'u':
		r, ok := hex4(s[2:])
		if !ok {
			return 0, min(len(s), 6), false
		}
		if utf16.IsSurrogate(r) {
			if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
				if r2, ok := hex4(s[8:]); ok {
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						return dec, 12, true
					}
				}
			}
			return r, 6, false
		}
		return r, 6, true
	}
	_, n := utf8.DecodeRuneInString(s[1:])
	return 0, 1 + n, false
}

func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(s[:4], 16, 32)
	if err != nil {
		return 0, false
	}
	return rune(v), true
}

func itoa(n int) string { return strconv.Itoa(n) }

func quote(s string) string { return diag.Quote(s) }
