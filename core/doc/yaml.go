package doc

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
)

const (
	maxYAMLNodes  = limits.YAMLNodes
	maxAliasNodes = limits.YAMLAliasNodes
)

type yamlWalker struct {
	src      *diag.Source
	maxDepth int
	// maxMembers bounds one mapping's members (Limits.MaxMembers).
	maxMembers int
	nodes      int
	aliased    int  // values visited through aliases
	inAlias    int  // > 0 while expanding an alias
	deep       bool // too-deep was reported: once is enough
	tooMany    bool // a mapping passed limits.ObjectMembers: the tree is dropped
	ds         []diag.Diagnostic
	dropped    int // findings past diag.MaxCollected, counted only
}

func parseYAML(src *diag.Source, maxDepth, maxMembers int) (root *Node, ds []diag.Diagnostic, dropped int) {
	if strings.TrimSpace(strings.TrimPrefix(src.Text, "\ufeff")) == "" {
		return nil, []diag.Diagnostic{{Severity: diag.Error, Code: "empty-input",
			Message: "the input is empty", Hint: "paste a subscription as JSON or YAML", Span: diag.SpanOf(0, 0)}}, 0
	}
	if root, ok := parseYAMLFast(src.Text, maxDepth); ok {
		return root, nil, 0
	}
	return parseYAMLFull(src, maxDepth, maxMembers)
}

// parseYAMLFull reads text with yaml.v3 and walks its nodes into the tree:
// any YAML, with a positioned finding for each problem.
func parseYAMLFull(src *diag.Source, maxDepth, maxMembers int) (root *Node, ds []diag.Diagnostic, dropped int) {
	deep, many, wide := scanYAML(src.Text, maxDepth*limits.YAMLScanDepthFactor, maxYAMLNodes, maxMembers)
	if deep >= 0 {
		return nil, []diag.Diagnostic{tooDeep(maxDepth, deep)}, 0
	}
	if wide >= 0 {
		return nil, []diag.Diagnostic{tooManyMembers(diag.SpanOf(wide, yamlKeyEnd(src.Text, wide)), maxMembers)}, 0
	}
	if many >= 0 {
		return nil, []diag.Diagnostic{{Severity: diag.Error, Code: "too-large",
			Message: "the document holds more than " + strconv.Itoa(maxYAMLNodes) + " values",
			Hint:    "a subscription has a few dozen values and a file of sample messages a few thousand; check that this is the right file",
			Span:    diag.SpanOf(many, many+1)}}, 0
	}
	var first yaml.Node
	dec := yaml.NewDecoder(strings.NewReader(src.Text))
	err := safeDecode(dec, &first)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, []diag.Diagnostic{yamlError(src, err)}, 0
	}
	w := &yamlWalker{src: src, maxDepth: maxDepth, maxMembers: maxMembers}
	if err != nil || len(first.Content) == 0 { // io.EOF: nothing but comments
		return nil, []diag.Diagnostic{{Severity: diag.Error, Code: "empty-input",
			Message: "the input holds no value, only comments or a document marker", Span: diag.SpanOf(0, 0)}}, 0
	}
	root = w.node(first.Content[0], 0)
	if w.tooMany {
		return nil, w.ds, w.dropped
	}
	var next yaml.Node
	if err := safeDecode(dec, &next); err == nil {
		w.ds = append(w.ds, diag.Diagnostic{Severity: diag.Warning, Code: "yaml-multiple-documents",
			Message: "only the first YAML document is checked; the input holds more than one",
			Hint:    "put each subscription in a file of its own", Span: w.span(&next, 3)})
	} else if !errors.Is(err, io.EOF) {
		w.ds = append(w.ds, yamlError(src, err))
	}
	return root, w.ds, w.dropped
}

// safeDecode turns a panic inside the YAML library into an error, so that
// no input, however hostile, can take the process (or the wasm instance)
// down.
func safeDecode(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("yaml: the YAML reader failed on this input")
		}
	}()
	return dec.Decode(n)
}

func (w *yamlWalker) span(n *yaml.Node, fallbackLen int) diag.Span {
	start := w.src.Offset(n.Line, n.Column)
	end := min(start+fallbackLen, len(w.src.Text))
	for end > start && end < len(w.src.Text) && !utf8.RuneStart(w.src.Text[end]) {
		end++ // a one-character marker covers the whole character
	}
	return diag.SpanOf(start, end)
}

// charEnd is the offset just past the character that starts at i (i itself
// at the end of s): a one-character marker must not split a character.
func charEnd(s string, i int) int {
	if i >= len(s) {
		return i
	}
	_, w := utf8.DecodeRuneInString(s[i:])
	return i + w
}

func (w *yamlWalker) add(n *yaml.Node, code, msg, hint string) {
	w.note(diag.Diagnostic{Severity: diag.Error, Code: code, Message: msg, Hint: hint, Span: w.scalarSpan(n)})
}

// note keeps d, or only counts it past diag.MaxCollected.
func (w *yamlWalker) note(d diag.Diagnostic) {
	if len(w.ds) >= diag.MaxCollected {
		w.dropped++
		return
	}
	w.ds = append(w.ds, d)
}

func (w *yamlWalker) node(n *yaml.Node, depth int) *Node {
	if w.tooMany {
		return &Node{Kind: Null, Span: w.span(n, 0)}
	}
	w.nodes++
	if w.inAlias > 0 {
		w.aliased++
	}
	if w.aliased > maxAliasNodes {
		if w.aliased == maxAliasNodes+1 {
			w.add(n, "too-large", "aliases expand the document to more than "+strconv.Itoa(maxAliasNodes)+" copied values",
				"aliases (*name) that refer to each other multiply the document; write the values out")
		}
		return &Node{Kind: Null, Span: w.span(n, 0)}
	}
	if w.nodes > maxYAMLNodes {
		if w.nodes == maxYAMLNodes+1 {
			w.add(n, "too-large", "the document expands to more than "+strconv.Itoa(maxYAMLNodes)+" values",
				"aliases (*name) that refer to each other multiply the document; write the values out")
		}
		return &Node{Kind: Null, Span: w.span(n, 0)}
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			return &Node{Kind: Null, Span: w.span(n, 0)}
		}
		w.inAlias++
		out := w.node(n.Alias, depth)
		w.inAlias--
		cp := *out
		cp.Span = w.scalarSpan(n)
		cp.style = styleNone // offsets inside point at the anchor, not here
		return &cp
	case yaml.MappingNode, yaml.SequenceNode:
		if depth+1 > w.maxDepth {
			if w.deep {
				return &Node{Kind: Null, Span: w.span(n, 1)}
			}
			w.deep = true
			d := tooDeep(w.maxDepth, 0)
			d.Span = w.scalarSpan(n)
			w.ds = append(w.ds, d)
			return &Node{Kind: Null, Span: w.span(n, 1)}
		}
	}
	switch n.Kind {
	case yaml.MappingNode:
		if len(n.Content)/2 > w.maxMembers {
			w.tooMany = true
			w.ds, w.dropped = []diag.Diagnostic{tooManyMembers(w.scalarSpan(n.Content[2*w.maxMembers]), w.maxMembers)}, 0
			return &Node{Kind: Null, Span: w.span(n, 1)}
		}
		out := &Node{Kind: Object, Span: w.span(n, 1)}
		seen := make(map[string]struct{}, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode {
				w.add(k, "yaml-key", "a mapping key must be a plain string", "write the key as text followed by ':'")
				continue
			}
			if k.ShortTag() == "!!merge" {
				w.add(k, "yaml-merge", "YAML merge keys (<<) are not supported", "write the merged fields out in this mapping")
				continue
			}
			ks := w.scalarSpan(k)
			if _, dup := seen[k.Value]; dup {
				w.note(diag.Diagnostic{Severity: diag.Error, Code: "duplicate-key",
					Message: "the key " + diag.Quote(k.Value) + " appears more than once in this mapping",
					Hint:    "the API rejects duplicate fields; keep one", Span: ks})
				continue
			}
			seen[k.Value] = struct{}{}
			out.Members = append(out.Members, Member{Key: k.Value, KeySpan: ks, Value: w.node(v, depth+1)})
		}
		return out
	case yaml.SequenceNode:
		out := &Node{Kind: Array, Span: w.span(n, 1), Items: make([]*Node, 0, len(n.Content))}
		for _, c := range n.Content {
			out.Items = append(out.Items, w.node(c, depth+1))
		}
		return out
	case yaml.ScalarNode:
		return w.scalar(n)
	}
	return &Node{Kind: Null, Span: w.span(n, 0)}
}

func (w *yamlWalker) scalar(n *yaml.Node) *Node {
	out := &Node{Span: w.scalarSpan(n), Value: n.Value, style: yamlStyle(n.Style)}
	switch n.ShortTag() {
	case "!!null":
		out.Kind, out.Value = Null, ""
	case "!!bool":
		out.Kind = Bool
		if v, err := strconv.ParseBool(strings.ToLower(n.Value)); err == nil {
			out.Value = strconv.FormatBool(v)
		}
	case "!!int":
		out.Kind = Number
		// YAML writes 0x1F, 0o17 and 1_000; the rest of subplay reads JSON
		// numbers, so hand it the decimal form.
		if v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
			out.Value = strconv.FormatInt(v, 10)
		} else if strings.HasPrefix(n.Value, "0o") {
			if v, err := strconv.ParseInt(n.Value[2:], 8, 64); err == nil {
				out.Value = strconv.FormatInt(v, 10)
			}
		}
	case "!!float":
		out.Kind = Number
	default: // !!str, !!timestamp, !!binary and custom tags read as text
		out.Kind = String
	}
	return out
}

// scalarSpan finds where a scalar ends, which the YAML library does not say.
func (w *yamlWalker) scalarSpan(n *yaml.Node) diag.Span {
	start := w.src.Offset(n.Line, n.Column)
	text := w.src.Text
	end := start
	switch {
	case n.Kind == yaml.AliasNode:
		end = start + 1
		for end < len(text) && !isYAMLSpace(text[end]) && !strings.ContainsRune(",]}", rune(text[end])) {
			end++
		}
	case n.Kind != yaml.ScalarNode:
		end = start + 1
	case n.Style&yaml.DoubleQuotedStyle != 0:
		end = start + 1
		for end < len(text) && text[end] != '"' {
			if text[end] == '\\' {
				end++
			}
			end++
		}
		end = min(end+1, len(text))
	case n.Style&yaml.SingleQuotedStyle != 0:
		end = start + 1
		for end < len(text) {
			if text[end] == '\'' {
				if end+1 < len(text) && text[end+1] == '\'' {
					end += 2
					continue
				}
				break
			}
			end++
		}
		end = min(end+1, len(text))
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		end = start + 1
	default:
		if strings.HasPrefix(text[start:], n.Value) {
			end = start + len(n.Value)
		} else if e, ok := plainEnd(text, start, n.Value); ok {
			end = e // folded over several lines
		} else {
			for end < len(text) && text[end] != '\n' && !(text[end] == '#' && end > start && isYAMLSpace(text[end-1])) {
				end++
			}
			end = start + len(strings.TrimRight(text[start:end], " \t\r"))
		}
	}
	// The library counts a lone "\r" as a line break and diag.Source does
	// not, so a position can land past the end: keep spans in the text.
	return diag.SpanOf(start, min(max(end, start), len(text)))
}

// plainEnd finds where a plain scalar folded over several lines ends, by
// folding the text as SourceSpan does.
func plainEnd(text string, start int, value string) (int, bool) {
	var m mapper
	end := m.plain(text, start, len(value))
	return end, m.b.String() == value
}

func isYAMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// yamlLine splits the library's "yaml: line N: message" into N and the
// message (what `^yaml: line (\d+): (.*)$` matches, written out so that
// the module links no regexp: wasm/browser/patch/yaml_floats.go.txt says
// what that saves). ok is false for any other text, and for a message of
// more than one line.
func yamlLine(text string) (line int, msg string, ok bool) {
	rest, ok := strings.CutPrefix(text, "yaml: line ")
	if !ok {
		return 0, "", false
	}
	n := 0
	for n < len(rest) && '0' <= rest[n] && rest[n] <= '9' {
		n++
	}
	msg, ok = strings.CutPrefix(rest[n:], ": ")
	if n == 0 || !ok || strings.Contains(msg, "\n") {
		return 0, "", false
	}
	line, _ = strconv.Atoi(rest[:n])
	return line, msg, true
}

// yamlProblems puts the YAML library's messages in our words, with a hint
// at the usual cause. Unknown messages pass through.
var yamlProblems = []struct{ match, msg, hint string }{
	{"mapping values are not allowed", "a ':' here starts a mapping where a value was expected",
		"a value that contains ': ' needs quotes, or the indentation is off"},
	{"did not find expected key", "this line does not line up with the mapping it belongs to",
		"check the indentation: keys of one mapping start in the same column"},
	{"could not find expected ':'", "expected ':' after a key", "write each field as 'key: value'"},
	{"found character that cannot start any token", "this character cannot start a YAML value",
		"YAML is indented with spaces, never tabs; values starting with @ or ` need quotes"},
	{"found unexpected end of stream", "the input ends inside a value", "close the quote or bracket that is still open"},
	{"did not find expected node content", "a value is missing here", ""},
	{"did not find expected ',' or ']'", "expected ',' or ']' in this flow sequence", ""},
	{"did not find expected ',' or '}'", "expected ',' or '}' in this flow mapping", ""},
	{"block sequence entries are not allowed", "a '- ' list item is not allowed here", "check the indentation of the list"},
	{"control characters are not allowed", "the input contains a control character", "remove it, or escape it inside a double-quoted string"},
	{"invalid leading UTF-8 octet", "the text is not valid UTF-8", "save the file as UTF-8"},
	{"invalid trailing UTF-8 octet", "the text is not valid UTF-8", "save the file as UTF-8"},
	{"found a tab character", "a tab is used for indentation", "YAML is indented with spaces, never tabs"},
	{"exceeded max depth", "the input nests too deep", "configurations, schemas and sample messages nest a few levels at most; check that this is the right file"},
}

// boundLibraryMessage bounds a message of the YAML library's own that
// passes through: each piece of input it quotes ('name') is quoted again
// with diag.Quote, which keeps at most limits.QuotedInput characters, so a
// long name does not make a long message.
func boundLibraryMessage(msg string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(msg, '\'')
		if i < 0 {
			break
		}
		j := strings.IndexByte(msg[i+1:], '\'')
		if j < 0 {
			break
		}
		b.WriteString(msg[:i])
		b.WriteString(diag.Quote(msg[i+1 : i+1+j]))
		msg = msg[i+1+j+1:]
	}
	b.WriteString(msg)
	return b.String()
}

func yamlError(src *diag.Source, err error) diag.Diagnostic {
	text := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		text = te.Errors[0]
	}
	line := 0
	msg := strings.TrimPrefix(text, "yaml: ")
	if l, m, ok := yamlLine(text); ok {
		line, msg = l, m
	}
	hint := ""
	if name, ok := strings.CutPrefix(msg, "unknown anchor '"); ok {
		// The library names the anchor: so do we, bounded.
		name, _, _ = strings.Cut(name, "'")
		msg, hint = "this alias refers to "+diag.Quote(name)+", an anchor that is not defined before it", "define &name before using *name"
	} else {
		known := false
		for _, p := range yamlProblems {
			if strings.Contains(msg, p.match) {
				msg, hint, known = p.msg, p.hint, true
				break
			}
		}
		if !known {
			msg = boundLibraryMessage(msg)
		}
	}
	d := diag.Diagnostic{Severity: diag.Error, Code: "yaml-syntax", Message: msg, Hint: hint}
	if line == 0 && strings.Contains(text, "UTF-8") {
		if i := firstInvalidUTF8(src.Text); i >= 0 {
			d.Span = diag.SpanOf(i, i+1)
			return d
		}
	}
	if line == 0 {
		// The library names no line for errors at the end of the input.
		line = src.Lines()
	}
	line = min(max(line, 1), src.Lines())
	if strings.TrimSpace(src.LineText(line)) == "" {
		// Reported past the end (an unclosed quote, say): the last line
		// with text is where the user should look.
		for line > 1 && strings.TrimSpace(src.LineText(line)) == "" {
			line--
		}
	}
	lt := src.LineText(line)
	col := len([]rune(lt)) - len([]rune(strings.TrimLeft(lt, " "))) + 1
	start := src.Offset(line, col)
	d.Span = diag.SpanOf(start, src.Offset(line, len([]rune(lt))+1))
	return d
}

func firstInvalidUTF8(s string) int {
	for i, r := range s {
		if r == '\uFFFD' && !strings.HasPrefix(s[i:], "\uFFFD") {
			return i
		}
	}
	return -1
}
