package doc

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/diag/diagtest"
)

// The fuzz targets live in package doc so they can see how each string was
// written (Node.style): a block scalar's Span is its indicator, so what
// SourceSpan returns for it lies after the span, not inside it.

// jsonSeeds hold every JSON syntax form, valid and not.
var jsonSeeds = []string{
	`{}`, `[]`, `{"a": 1}`, `[1, "two", true, false, null, {"x": [ ]}]`,
	` {"a" : {"b" : {"c" : [ [ ] ] } } } `, "{\r\n\t\"a\": 1\r\n}\r\n",
	`"just a string"`, `-0`, `0`, `12.5e-3`, `1E+2`, `-1.0`, `123456789012345678901234567890`,
	`"\" \\ \/ \b \f \n \r \t"`, `"\u00e9\u4e2d\ud83d\ude00"`, `"é中😀"`, `"\u0000"`,
	`{"k\u0065y": "v\u0061lue", "filter": "attributes.a = \"b\""}`,
	"\ufeff{\"bom\": true}", `{"a": 1, "a": 2}`, `{"a": {"b": 1, "b": 2}}`,
	strings.Repeat("[", 64) + strings.Repeat("]", 64), strings.Repeat("[", 65) + strings.Repeat("]", 65),
	// Errors.
	``, ` `, `{`, `[`, `}`, `{"a"}`, `{"a" 1}`, `{"a": 1,}`, `[1,]`, `{"a": 1 "b": 2}`, `{a: 1}`, `{'a': 1}`,
	`{"a": 1} x`, `// c` + "\n{}", `/* c */ {}`, `01`, `+1`, `.5`, `5.`, `1e`, `0x10`, `NaN`, `-Infinity`, `True`, `nul`,
	`600s`, `{"a": 600s}`, `"abc`, "\"a\nb\"", "\"a\tb\"", `"\x"`, `"\u12"`, `"\u12G4"`, `"\ud800"`, `"\udc00\ud800"`,
	`"\ud83d\u0041"`, "\"\xff\"", "\"\xc3\x28\"", "\xff", "{\"a\": \"\xed\xa0\x80\"}", "{}\x00", "{\u00a0}",
	`[1 2]`, `{"a": [1, 2}`, `{"a": {"b": 1]}`, "\"\u2028\"",
}

// yamlSeeds hold every YAML syntax form the decoder meets.
var yamlSeeds = []string{
	"a: 1\n", "a: 1\nb: two\nc: true\nd: null\ne: ~\nf:\n", "a:\n  b:\n    c: [1, 2]\n",
	"- 1\n- two\n- {x: y}\n", "a: 'single ''quoted'''\nb: \"double \\\"quoted\\\" \\u00e9 \\x41 \\U0001F600\"\n",
	"a: plain\n  multi line\n\n  with a blank\n", "a: |\n  literal\n   block\n\n", "a: |-\n  keep\n  no newline\n",
	"a: |+\n  keep\n\n", "a: |2\n    indented\n", "a: >\n  folded\n  text\n", "a: \"fold\n  ed\\\n  escaped\"\n",
	"a: 'fold\n\n  ed'\n", "anchor: &x {b: 1}\nalias: *x\n", "base: &b\n  x: 1\nmerged:\n  <<: *b\n  y: 2\n",
	"a: 1\n---\nb: 2\n", "---\na: 1\n...\n", "# only a comment\n", "a: 1 # trailing comment\n",
	"a: 0x1F\nb: 0o17\nc: 017\nd: 1_000\ne: .inf\nf: -.Inf\ng: .nan\nh: 1e3\ni: +1.5\n",
	"a: !!str 123\nb: !!int \"7\"\nc: !custom x\nd: 2001-12-14\ne: !!binary aGk=\n",
	"? complex\n: key\n", "[a, b]: c\n", "{a: 1, b: [x, y], c: {d: e}}\n", "a: yes\nb: No\nc: TRUE\n",
	"\ufeffa: bom\n", "a: 1\r\nb: 2\r\n", "a: é中😀\n", "a: 1\na: 2\n", "ܨ:", "- é:\n  中: [😀]\n",
	"a: &a [*a]\n", "a: &a\n  b: *a\n", "x: &x [a, a]\ny: &y [*x, *x]\nz: [*y, *y]\n",
	// Errors.
	"", " \n", "a: b: c\n", "a:\n\t- tab\n", "a: [1, 2\n", "a: {b: 1\n", "a: \"unclosed\n", "a: 'unclosed\n",
	"- a\nb: c\n", "a: *missing\n", "a: @x\n", "a: `x`\n", "\xff: 1\n", "a: \x01\n", "a:\n  - b\n c: d\n",
	strings.Repeat("- ", 70) + "x\n", strings.Repeat("[", 70) + strings.Repeat("]", 70) + "\n",
	// Nesting the scan refuses before the library recurses, and text that
	// only looks nested.
	"a: " + strings.Repeat("{b: ", 300) + "1" + strings.Repeat("}", 300) + "\n", strings.Repeat("[", 3000),
	strings.Repeat(" ", 0) + "a:\n b:\n  c:\n   d: |\n    [[[[\n     {{{{\n", "a: \"[[[[\n  {{{{\"\n", "a: x[[[[ # [[[[\n",
	"- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - x\n", "a: &x !!seq [[[[[[\n",
	"\xff\xfea\x00:\x00", "a\x00: 1\n", strings.Repeat("k", 300) + ": 1\n" + strings.Repeat("k", 300) + ": 2\n",
}

func FuzzJSON(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		d, ds := Parse("f.json", text, JSON)
		checkParsed(t, d, ds)
		checkAgainstEncodingJSON(t, text, d, ds)
	})
}

func FuzzYAML(f *testing.F) {
	for _, s := range yamlSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		d, ds := Parse("f.yaml", text, YAML)
		checkParsed(t, d, ds)
	})
}

// checkParsed asserts what holds for every input in either format.
func checkParsed(t *testing.T, d *Doc, ds []diag.Diagnostic) {
	t.Helper()
	text := d.Source.Text
	if d.Root == nil && !diag.HasErrors(ds) {
		t.Fatalf("no tree and no error")
	}
	for _, dg := range ds {
		checkLocated(t, d.Source, dg)
	}
	// Aliases repeat a node up to maxYAMLNodes times: check each place once.
	checked := map[diag.Span]bool{}
	walk(d.Root, func(n *Node) {
		if checked[n.Span] {
			return
		}
		checked[n.Span] = true
		if n.Span.Start.Offset() < 0 || n.Span.End.Offset() > len(text) || n.Span.End < n.Span.Start {
			t.Fatalf("%s node span %v outside the text (%d bytes)", n.Kind, n.Span, len(text))
		}
		checkCharBoundaries(t, text, n.Kind.String()+" node", n.Span)
		for _, m := range n.Members {
			checkCharBoundaries(t, text, "key", m.KeySpan)
		}
		if n.Kind == String {
			checkSourceSpans(t, d, n)
		}
	})
}

// checkCharBoundaries asserts that a span of valid UTF-8 text neither starts
// nor ends inside a character: the spans of nodes become the spans of
// findings about them (a message with neither data nor attributes).
func checkCharBoundaries(t *testing.T, text, what string, sp diag.Span) {
	t.Helper()
	if !utf8.ValidString(text) {
		return
	}
	for _, o := range []int{sp.Start.Offset(), sp.End.Offset()} {
		if o > 0 && o < len(text) && !utf8.RuneStart(text[o]) {
			t.Fatalf("%s span %v: offset %d is inside a character", what, sp, o)
		}
	}
}

// checkLocated asserts that a diagnostic has a span inside the text and a
// line and column that name a place in it.
func checkLocated(t *testing.T, src *diag.Source, d diag.Diagnostic) {
	t.Helper()
	text := src.Text
	if d.Code == "input-too-large" || d.Code == "too-many-diagnostics" {
		return // about the whole input: no place in it
	}
	if !d.Span.IsValid() {
		t.Fatalf("%s has no span: %+v", d.Code, d)
	}
	if s, e := d.Span.Start.Offset(), d.Span.End.Offset(); s < 0 || e > len(text) || e < s {
		t.Fatalf("%s span [%d, %d) outside the text (%d bytes)", d.Code, s, e, len(text))
	}
	checkLineCol(t, src, d.Code, d.Line, d.Column)
	checkMessage(t, d)
	if d.EndLine != 0 {
		checkLineCol(t, src, d.Code+" end", d.EndLine, d.EndColumn)
		if d.EndLine < d.Line || (d.EndLine == d.Line && d.EndColumn < d.Column) {
			t.Fatalf("%s ends at %d:%d before it starts at %d:%d", d.Code, d.EndLine, d.EndColumn, d.Line, d.Column)
		}
	}
}

func checkLineCol(t *testing.T, src *diag.Source, what string, line, col int) {
	t.Helper()
	if line < 1 || line > src.Lines() {
		t.Fatalf("%s at line %d of %d", what, line, src.Lines())
	}
	// A column may point just past the last character, and a "\r" ending
	// the line counts: a span can end on it.
	raw := strings.SplitN(src.Text, "\n", line+1)[line-1]
	if col < 1 || col > utf8.RuneCountInString(raw)+1 {
		t.Fatalf("%s at %d:%d, but line %d has %d characters", what, line, col, line, utf8.RuneCountInString(raw))
	}
}

func walk(n *Node, f func(*Node)) {
	if n == nil {
		return
	}
	f(n)
	for _, it := range n.Items {
		walk(it, f)
	}
	for _, m := range n.Members {
		walk(m.Value, f)
	}
}

// checkSourceSpans maps sub-spans of a string's value back to the text:
// the result must stay inside the node (after it, for a block scalar,
// whose span is its indicator) and never run backwards.
func checkSourceSpans(t *testing.T, d *Doc, n *Node) {
	t.Helper()
	l := len(n.Value)
	lo, hi := n.Span.Start, n.Span.End
	if n.style == styleLiteral {
		hi = diag.At(len(d.Source.Text))
	}
	for _, sp := range [][2]int{{0, l}, {0, 0}, {l, l}, {0, l / 2}, {l / 2, l}, {l / 3, 2 * l / 3}, {l - 1, l}} {
		if sp[0] < 0 {
			continue
		}
		got := d.SourceSpan(n, diag.SpanOf(sp[0], sp[1]))
		if got.Start < lo || got.End > hi || got.End < got.Start {
			t.Fatalf("SourceSpan of [%d, %d) in %q (span %v) is %v", sp[0], sp[1], n.Value, n.Span, got)
		}
	}
	// A JSON string maps exactly: its whole value is what lies between
	// the quotes.
	if n.style == styleJSON && l > 0 {
		got := d.SourceSpan(n, diag.SpanOf(0, l))
		if want := (diag.Span{Start: n.Span.Start + 1, End: n.Span.End - 1}); got != want {
			t.Fatalf("SourceSpan of all of %q is %v, want %v", n.Value, got, want)
		}
	}
}

// checkAgainstEncodingJSON holds our JSON reader to encoding/json: the same
// verdict, except where we are stricter on purpose, and the same values.
func checkAgainstEncodingJSON(t *testing.T, text string, d *Doc, ds []diag.Diagnostic) {
	t.Helper()
	if len(text) > DefaultLimits.MaxBytes {
		return
	}
	// We skip one byte order mark; encoding/json does not.
	std := []byte(strings.TrimPrefix(text, "\ufeff"))
	stdOK := json.Valid(std)
	ours := d.Root != nil && !diag.HasErrors(ds)
	switch {
	case ours && !stdOK:
		t.Fatalf("we accept what encoding/json rejects")
	case !ours && stdOK:
		for _, dg := range ds {
			if dg.Severity == diag.Error && !stricterOnPurpose(dg) {
				t.Fatalf("encoding/json accepts, we reject: %s: %s", dg.Code, dg.Message)
			}
		}
	case ours:
		dec := json.NewDecoder(bytes.NewReader(std))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if got := plain(d.Root); !reflect.DeepEqual(got, want) {
			t.Fatalf("values differ\nours:          %#v\nencoding/json: %#v", got, want)
		}
	}
}

// stricterOnPurpose lists where we reject what encoding/json takes:
// duplicate keys (the API rejects them; encoding/json keeps the last),
// nesting past our depth limit (encoding/json allows 10000 levels),
// invalid UTF-8 and lone surrogate escapes in strings (encoding/json
// silently turns both into U+FFFD; the API rejects them).
func stricterOnPurpose(d diag.Diagnostic) bool {
	switch d.Code {
	case "duplicate-key", "too-deep", "invalid-utf8":
		return true
	case "json-syntax":
		return strings.Contains(d.Message, "surrogate")
	}
	return false
}

// plain turns a tree into what encoding/json decodes with UseNumber.
func plain(n *Node) any {
	switch n.Kind {
	case Bool:
		return n.Value == "true"
	case Number:
		return json.Number(n.Value)
	case String:
		return n.Value
	case Array:
		out := make([]any, len(n.Items))
		for i, it := range n.Items {
			out[i] = plain(it)
		}
		return out
	case Object:
		out := make(map[string]any, len(n.Members))
		for _, m := range n.Members {
			out[m.Key] = plain(m.Value)
		}
		return out
	}
	return nil
}

// checkMessage asserts the house style of a message and that it stays
// short whatever the input: it quotes input through diag.Quote.
func checkMessage(t *testing.T, d diag.Diagnostic) {
	t.Helper()
	m := d.Message
	if m == "" || strings.HasSuffix(m, ".") || m[0] >= 'A' && m[0] <= 'Z' && !strings.HasPrefix(m, "JSON") && !strings.HasPrefix(m, "YAML") {
		t.Fatalf("%s: message %q", d.Code, m)
	}
	if len(m)+len(d.Hint) > 1000 {
		t.Fatalf("%s: message and hint are %d bytes", d.Code, len(m)+len(d.Hint))
	}
	if p := diagtest.WordsProblem(d); p != "" {
		t.Fatalf("%s: %s", d.Code, p)
	}
}
