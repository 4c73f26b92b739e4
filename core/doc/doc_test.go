package doc_test

import (
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/limits"
)

// at returns the text a span covers.
func at(t *testing.T, text string, s diag.Span) string {
	t.Helper()
	if !s.IsValid() || s.End.Offset() > len(text) || s.End < s.Start {
		t.Fatalf("span %v is not inside a text of %d bytes", s, len(text))
	}
	return text[s.Start.Offset():s.End.Offset()]
}

func parse(t *testing.T, text string, f doc.Format) *doc.Doc {
	t.Helper()
	d, ds := doc.Parse("t", text, f)
	if len(ds) > 0 {
		t.Fatalf("unexpected findings: %+v", ds)
	}
	return d
}

func TestDetect(t *testing.T) {
	cases := []struct {
		name, in string
		want     doc.Format
	}{
		{"object", `{"a": 1}`, doc.JSON},
		{"array after blank lines", "\r\n\n\t [1]", doc.JSON},
		{"object after a byte order mark", "\ufeff{}", doc.JSON},
		{"mapping", "a: 1", doc.YAML},
		{"flow mapping is read as JSON", "{a: 1}", doc.JSON},
		{"comment first", "# c\n{}", doc.YAML},
		{"empty", "", doc.YAML},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := doc.Detect(c.in); got != c.want {
				t.Errorf("Detect = %s, want %s", got, c.want)
			}
		})
	}
}

// TestPositions checks that keys and values of both formats point at what
// was written.
func TestPositions(t *testing.T) {
	cases := []struct {
		name   string
		format doc.Format
		in     string
		// want maps a path of keys and indexes ("a/0/b") to the text of
		// the key (suffix ":key") or of the value.
		want map[string]string
	}{
		{"json", doc.JSON, "{\n  \"name\": \"projects/p\",\n  \"list\": [1, -2.5e3, true, null, {\"k\": \"v\"}],\n  \"é\": {\"ü\": \"\\u00e9\"}\n}",
			map[string]string{"name": `"projects/p"`, "name:key": `"name"`, "list": `[1, -2.5e3, true, null, {"k": "v"}]`,
				"list/1": "-2.5e3", "list/2": "true", "list/3": "null", "list/4/k": `"v"`, "é/ü": `"\u00e9"`, "é:key": `"é"`}},
		{"json crlf", doc.JSON, "{\r\n\t\"a\":\t1\r\n}\r\n", map[string]string{"a": "1", "a:key": `"a"`}},
		{"yaml", doc.YAML, "name: projects/p\nlist:\n  - 1\n  - \"two\"\n  - {k: v}\nquoted: 'it''s'\n",
			map[string]string{"name": "projects/p", "name:key": "name", "list/0": "1", "list/1": `"two"`, "list/2/k": "v",
				"quoted": `'it''s'`}},
		{"yaml plain over lines", doc.YAML, "f: one\n  two\nnext: 1\n", map[string]string{"f": "one\n  two", "next": "1"}},
		{"yaml with comments", doc.YAML, "# head\na: 1 # one\nb: x # two\n", map[string]string{"a": "1", "b": "x", "b:key": "b"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := parse(t, c.in, c.format)
			for path, want := range c.want {
				got := at(t, c.in, spanAt(t, d.Root, path))
				if got != want {
					t.Errorf("%s: got %q, want %q", path, got, want)
				}
			}
		})
	}
}

// spanAt finds a node (or, with a ":key" suffix, a key) by a path of keys
// and indexes.
func spanAt(t *testing.T, n *doc.Node, path string) diag.Span {
	t.Helper()
	path, wantKey := strings.CutSuffix(path, ":key")
	parts := strings.Split(path, "/")
	for i, p := range parts {
		switch n.Kind {
		case doc.Object:
			found := false
			for _, m := range n.Members {
				if m.Key == p {
					if wantKey && i == len(parts)-1 {
						return m.KeySpan
					}
					n, found = m.Value, true
					break
				}
			}
			if !found {
				t.Fatalf("no key %q in %s", p, path)
			}
		case doc.Array:
			idx := 0
			for _, c := range p {
				idx = idx*10 + int(c-'0')
			}
			if idx >= len(n.Items) {
				t.Fatalf("no item %d in %s", idx, path)
			}
			n = n.Items[idx]
		default:
			t.Fatalf("%s: %s has no children", path, n.Kind)
		}
	}
	return n.Span
}

func TestValues(t *testing.T) {
	cases := []struct {
		name   string
		format doc.Format
		in     string
		want   map[string]string // key -> kind:value
	}{
		{"json scalars", doc.JSON, `{"s": "x\ty", "n": -1.5e+3, "t": true, "f": false, "z": null, "u": "\ud83d\ude00\u00e9"}`,
			map[string]string{"s": "string:x\ty", "n": "number:-1.5e+3", "t": "boolean:true", "f": "boolean:false", "z": "null:", "u": "string:😀é"}},
		{"yaml numbers in other bases", doc.YAML, "a: 0x1F\nb: 0o17\nc: 017\nd: 1_000\ne: 0b101\nf: -0x10\n",
			map[string]string{"a": "number:31", "b": "number:15", "c": "number:15", "d": "number:1000", "e": "number:5", "f": "number:-16"}},
		{"yaml floats as written", doc.YAML, "a: 1e3\nb: +1.5\nc: .inf\nd: .nan\n",
			map[string]string{"a": "number:1e3", "b": "number:+1.5", "c": "number:.inf", "d": "number:.nan"}},
		{"yaml booleans and nulls", doc.YAML, "a: True\nb: false\nc: ~\nd:\ne: null\nf: yes\n",
			map[string]string{"a": "boolean:true", "b": "boolean:false", "c": "null:", "d": "null:", "e": "null:", "f": "string:yes"}},
		{"yaml tags", doc.YAML, "a: !!str 12\nb: 2001-12-14\nc: !custom x\nd: !!binary aGk=\n",
			map[string]string{"a": "string:12", "b": "string:2001-12-14", "c": "string:x", "d": "string:aGk="}},
		{"yaml block scalars", doc.YAML, "a: |\n  one\n  two\nb: |-\n  kept\nc: >\n  folded\n  text\n",
			map[string]string{"a": "string:one\ntwo\n", "b": "string:kept", "c": "string:folded text\n"}},
		{"yaml quoted", doc.YAML, "a: \"t\\tab \\u00e9\\x41\"\nb: 'it''s'\nc: \"fold\n  ed\"\n",
			map[string]string{"a": "string:t\tab éA", "b": "string:it's", "c": "string:fold ed"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := parse(t, c.in, c.format)
			for key, want := range c.want {
				n := d.Root.Get(key)
				if n == nil {
					t.Fatalf("no key %q", key)
				}
				if got := n.Kind.String() + ":" + n.Value; got != want {
					t.Errorf("%s: got %q, want %q", key, got, want)
				}
			}
		})
	}
}

type finding struct {
	code      string
	line, col int
	msg       string // a part of the message
}

func checkFindings(t *testing.T, name, in string, f doc.Format, want []finding) {
	t.Helper()
	_, ds := doc.Parse(name, in, f)
	if len(ds) != len(want) {
		t.Fatalf("got %d findings, want %d: %+v", len(ds), len(want), ds)
	}
	for i, w := range want {
		d := ds[i]
		if d.Code != w.code || d.Line != w.line || d.Column != w.col || !strings.Contains(d.Message, w.msg) {
			t.Errorf("got %s at %d:%d %q, want %s at %d:%d containing %q", d.Code, d.Line, d.Column, d.Message, w.code, w.line, w.col, w.msg)
		}
		if d.Severity == "" || d.Message == "" || d.Message != strings.TrimSuffix(d.Message, ".") {
			t.Errorf("malformed diagnostic %+v", d)
		}
	}
}

func TestJSONErrors(t *testing.T) {
	cases := []struct {
		name, in string
		want     finding
	}{
		{"empty", "", finding{"empty-input", 1, 1, "empty"}},
		{"blank", " \n ", finding{"empty-input", 2, 2, "empty"}},
		{"unclosed object", `{"a": 1`, finding{"json-syntax", 1, 1, "object is never closed"}},
		{"unclosed array", `[1`, finding{"json-syntax", 1, 1, "array is never closed"}},
		{"stray close", `}`, finding{"json-syntax", 1, 1, "unexpected '}' where a value should be"}},
		{"missing colon", `{"a"}`, finding{"json-syntax", 1, 5, `expected ':' after the key "a", found '}'`}},
		{"missing colon before value", `{"a" 1}`, finding{"json-syntax", 1, 6, `expected ':' after the key "a"`}},
		{"trailing comma in object", `{"a": 1,}`, finding{"json-syntax", 1, 9, "trailing comma before '}'"}},
		{"trailing comma in array", `[1,]`, finding{"json-syntax", 1, 4, "trailing comma before ']'"}},
		{"missing comma", `{"a": 1 "b": 2}`, finding{"json-syntax", 1, 9, "expected ',' between members"}},
		{"missing comma in array", `[1 2]`, finding{"json-syntax", 1, 4, "expected ',' or ']' after an item, found '2'"}},
		{"wrong close of array", `{"a": [1, 2}`, finding{"json-syntax", 1, 12, "expected ',' or ']'"}},
		{"wrong close of object", `{"a": {"b": 1]}`, finding{"json-syntax", 1, 14, "expected ',' or '}'"}},
		{"unquoted key", `{a: 1}`, finding{"json-syntax", 1, 2, "expected a key in double quotes, found 'a'"}},
		{"single quotes", `{'a': 1}`, finding{"json-syntax", 1, 2, "expected a key in double quotes"}},
		{"single-quoted value", `['a']`, finding{"json-syntax", 1, 2, "double quotes, not single quotes"}},
		{"trailing content", `{"a": 1} x`, finding{"json-syntax", 1, 10, "after the end of the JSON value"}},
		{"trailing nul", "{}\x00", finding{"json-syntax", 1, 3, `control character '\x00'`}},
		{"line comment", "// c\n{}", finding{"json-syntax", 1, 1, "JSON has no comments"}},
		{"block comment after a value", "{\"a\": 1 /* c */}", finding{"json-syntax", 1, 9, "JSON has no comments"}},
		{"leading zero", `[01]`, finding{"json-syntax", 1, 2, "leading zeros"}},
		{"plus sign", `[+1]`, finding{"json-syntax", 1, 2, "unexpected '+'"}},
		{"leading dot", `[.5]`, finding{"json-syntax", 1, 2, "unexpected '.'"}},
		{"trailing dot", `[5.]`, finding{"json-syntax", 1, 2, "digits after the decimal point"}},
		{"empty exponent", `[1e]`, finding{"json-syntax", 1, 2, "digits in its exponent"}},
		{"lone minus", `-`, finding{"json-syntax", 1, 1, "a number needs digits"}},
		{"hex", `[0x10]`, finding{"json-syntax", 1, 2, `unexpected "0x10"`}},
		{"bare duration", `{"a": 600s}`, finding{"json-syntax", 1, 7, `unexpected "600s"`}},
		{"NaN", `[NaN]`, finding{"json-syntax", 1, 2, `unexpected word "NaN"`}},
		{"capital literal", `[True]`, finding{"json-syntax", 1, 2, `unexpected word "True"`}},
		{"unquoted word after multibyte", `{"é": "ü", "x": nope}`, finding{"json-syntax", 1, 17, `unexpected word "nope"`}},
		{"unclosed string", `"abc`, finding{"json-syntax", 1, 1, "string is never closed"}},
		{"line break in string", "[\"a\nb\"]", finding{"json-syntax", 1, 2, "never closed on its line"}},
		{"tab in string", "[\"a\tb\"]", finding{"json-syntax", 1, 4, `control character '\t' inside a string`}},
		{"bad escape", `["\x"]`, finding{"json-syntax", 1, 3, `invalid escape "\\x"`}},
		{"short unicode escape", `["\u12"]`, finding{"json-syntax", 1, 3, `invalid escape "\\u12`}},
		{"escape at the end", `"\`, finding{"json-syntax", 1, 2, "invalid escape"}},
		{"lone high surrogate", `["\ud800"]`, finding{"json-syntax", 1, 3, `\ud800 is half of a UTF-16 surrogate pair`}},
		{"lone low surrogate", `["x\udc00"]`, finding{"json-syntax", 1, 4, `\udc00 is half`}},
		{"surrogates reversed", `["\udc00\ud800"]`, finding{"json-syntax", 1, 3, `\udc00 is half`}},
		{"invalid utf-8", "[\"a\xffb\"]", finding{"invalid-utf8", 1, 4, "not valid UTF-8"}},
		{"error on a later line", "{\n  \"a\": 1,\n  \"b\": tru\n}", finding{"json-syntax", 3, 8, `unexpected word "tru"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkFindings(t, "t.json", c.in, doc.JSON, []finding{c.want})
		})
	}
}

func TestYAMLErrors(t *testing.T) {
	cases := []struct {
		name, in string
		want     []finding
	}{
		{"empty", "", []finding{{"empty-input", 1, 1, "empty"}}},
		{"only a comment", "# nothing here\n", []finding{{"empty-input", 1, 1, "only comments"}}},
		{"value with a colon", "a: b: c\n", []finding{{"yaml-syntax", 1, 1, "starts a mapping"}}},
		{"tab indentation", "a:\n\t- tab\n", []finding{{"yaml-syntax", 2, 1, "cannot start a YAML value"}}},
		{"unclosed flow sequence", "a: [1, 2\n", []finding{{"yaml-syntax", 1, 1, "flow sequence"}}},
		{"unclosed flow mapping", "a: {b: 1\n", []finding{{"yaml-syntax", 1, 1, "flow mapping"}}},
		{"unclosed quote", "a: 1\nb: \"open\n\n", []finding{{"yaml-syntax", 2, 1, "ends inside a value"}}},
		{"misaligned key", "a:\n  - b\n c: d\n", []finding{{"yaml-syntax", 2, 3, "does not line up"}}},
		{"undefined alias", "a: *missing\n", []finding{{"yaml-syntax", 1, 1, `this alias refers to "missing", an anchor`}}},
		// FuzzParse (core/message): the name is bounded, not the whole input.
		{"undefined alias with a long name", "*" + strings.Repeat("P", 2000), []finding{{"yaml-syntax", 1, 1,
			`this alias refers to "` + strings.Repeat("P", limits.QuotedInput) + `"…, an anchor`}}},
		{"at sign", "a: @x\n", []finding{{"yaml-syntax", 1, 1, "cannot start a YAML value"}}},
		{"invalid utf-8", "a: 1\n\xff: 1\n", []finding{{"yaml-syntax", 2, 1, "not valid UTF-8"}}},
		{"control character", "a: \x01\n", []finding{{"yaml-syntax", 1, 1, "control character"}}},
		{"duplicate key", "a: 1\nb: 2\na: 3\n", []finding{{"duplicate-key", 3, 1, `the key "a" appears more than once`}}},
		{"merge key", "base: &b\n  x: 1\nm:\n  <<: *b\n  y: 2\n", []finding{{"yaml-merge", 4, 3, "merge keys"}}},
		{"sequence as key", "[a, b]: c\n", []finding{{"yaml-key", 1, 1, "plain string"}}},
		{"two documents", "a: 1\n---\nb: 2\n", []finding{{"yaml-multiple-documents", 2, 1, "more than one"}}},
		{"bad second document", "a: 1\n---\nb: [\n", []finding{{"yaml-syntax", 3, 1, "a value is missing"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkFindings(t, "t.yaml", c.in, doc.YAML, c.want)
		})
	}
}

func TestJSONDuplicateKeys(t *testing.T) {
	in := "{\n  \"a\": 1,\n  \"b\": {\"c\": 1, \"c\": 2},\n  \"a\": 3\n}"
	d, ds := doc.Parse("t.json", in, doc.JSON)
	checkFindings(t, "t.json", in, doc.JSON, []finding{
		{"duplicate-key", 3, 17, `the key "c"`},
		{"duplicate-key", 4, 3, `the key "a"`},
	})
	if !diag.HasErrors(ds) || d.Root == nil {
		t.Fatal("a duplicate key is an error, but the tree is kept")
	}
	// The first value wins, and each key is kept once.
	if got := d.Root.Get("a").Value; got != "1" || len(d.Root.Members) != 2 {
		t.Errorf("a = %s with %d members, want the first value and 2 members", got, len(d.Root.Members))
	}
}

func TestLimits(t *testing.T) {
	nest := func(open, close string, n int) string { return strings.Repeat(open, n) + strings.Repeat(close, n) }
	cases := []struct {
		name   string
		format doc.Format
		in     string
		limits doc.Limits
		want   string // the code of the one finding, or "" for none
	}{
		{"json at the depth limit", doc.JSON, nest("[", "]", 64), doc.DefaultLimits, ""},
		{"json past the depth limit", doc.JSON, nest("[", "]", 65), doc.DefaultLimits, "too-deep"},
		{"json objects at a small limit", doc.JSON, `{"a":{"b":{}}}`, doc.Limits{MaxBytes: 100, MaxDepth: 3}, ""},
		{"json objects past a small limit", doc.JSON, `{"a":{"b":{"c":{}}}}`, doc.Limits{MaxBytes: 100, MaxDepth: 3}, "too-deep"},
		{"json objects and arrays at a small limit", doc.JSON, `{"a":[{}]}`, doc.Limits{MaxBytes: 100, MaxDepth: 3}, ""},
		{"yaml at the depth limit", doc.YAML, nest("[", "]", 64), doc.DefaultLimits, ""},
		{"yaml past the depth limit", doc.YAML, nest("[", "]", 65), doc.DefaultLimits, "too-deep"},
		{"yaml block sequences past a small limit", doc.YAML, "- - - - x\n", doc.Limits{MaxBytes: 100, MaxDepth: 3}, "too-deep"},
		{"size at the limit", doc.JSON, `"` + strings.Repeat("a", 8) + `"`, doc.Limits{MaxBytes: 10, MaxDepth: 3}, ""},
		{"size past the limit", doc.JSON, `"` + strings.Repeat("a", 9) + `"`, doc.Limits{MaxBytes: 10, MaxDepth: 3}, "input-too-large"},
		{"yaml size past the limit", doc.YAML, "a: " + strings.Repeat("a", 8), doc.Limits{MaxBytes: 10, MaxDepth: 3}, "input-too-large"},
		{"unknown format", doc.Format("toml"), "a = 1", doc.DefaultLimits, "unknown-format"},
		{"utf-16 little-endian with a mark", "", "\xff\xfet\x00o\x00p\x00", doc.DefaultLimits, "utf16"},
		{"utf-16 big-endian with a mark", "", "\xfe\xff\x00{\x00}", doc.DefaultLimits, "utf16"},
		{"utf-16 without a mark", "", "{\x00}\x00", doc.DefaultLimits, "utf16"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, ds := doc.ParseLimits("t", c.in, c.format, c.limits)
			var got []string
			for _, d := range ds {
				got = append(got, d.Code)
			}
			if c.want == "" && len(got) > 0 || c.want != "" && (len(got) != 1 || got[0] != c.want) {
				t.Errorf("findings %v, want [%s]", got, c.want)
			}
		})
	}
	t.Run("default size limit", func(t *testing.T) {
		_, ds := doc.Parse("t", `"`+strings.Repeat("a", 1<<20)+`"`, doc.JSON)
		if len(ds) != 1 || ds[0].Code != "input-too-large" || !strings.Contains(ds[0].Message, "1 MiB") {
			t.Errorf("findings %+v", ds)
		}
	})
}

func TestYAMLAliases(t *testing.T) {
	t.Run("alias is expanded and points at itself", func(t *testing.T) {
		in := "a: &x {b: [1, 2]}\nc: *x\n"
		d := parse(t, in, doc.YAML)
		c := d.Root.Get("c")
		if c.Kind != doc.Object || len(c.Get("b").Items) != 2 {
			t.Fatalf("c is not the anchored mapping: %+v", c)
		}
		if got := at(t, in, c.Span); got != "*x" {
			t.Errorf("c points at %q, want the alias", got)
		}
	})
	t.Run("aliases that multiply are capped", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("a0: &a0 [x, x]\n")
		for i := 1; i < 20; i++ {
			b.WriteString("a" + itoa(i) + ": &a" + itoa(i) + " [*a" + itoa(i-1) + ", *a" + itoa(i-1) + "]\n")
		}
		_, ds := doc.Parse("t", b.String(), doc.YAML)
		if len(ds) != 1 || ds[0].Code != "too-large" {
			t.Errorf("findings %+v, want one too-large", ds)
		}
	})
	t.Run("an alias inside its own anchor is reported once", func(t *testing.T) {
		_, ds := doc.Parse("t", "0: &x [0,00,  *x,*x,000]", doc.YAML)
		deep := 0
		for _, d := range ds {
			if d.Code == "too-deep" {
				deep++
			}
		}
		if deep != 1 {
			t.Errorf("%d too-deep findings, want 1: %+v", deep, ds)
		}
	})
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// TestSourceSpan maps bytes of decoded strings back through escapes,
// quotes and line folding.
func TestSourceSpan(t *testing.T) {
	const js = `{"f": "a\"b\u00e9c\ud83d\ude00d"}`
	cases := []struct {
		name   string
		format doc.Format
		in     string
		from   int // byte offsets in the decoded value
		to     int
		want   string // the source text the span covers
	}{
		{"json plain byte", doc.JSON, js, 0, 1, "a"},
		{"json escaped quote", doc.JSON, js, 1, 2, `\"`},
		{"json unicode escape", doc.JSON, js, 3, 5, `\u00e9`},
		{"json surrogate pair", doc.JSON, js, 6, 10, `\ud83d\ude00`},
		{"json part of a surrogate pair", doc.JSON, js, 7, 8, `\ud83d\ude00`},
		{"json after escapes", doc.JSON, js, 10, 11, "d"},
		{"json whole value", doc.JSON, js, 0, 11, `a\"b\u00e9c\ud83d\ude00d`},
		{"json empty span", doc.JSON, js, 2, 2, ""},
		{"yaml double-quoted escape", doc.YAML, "f: \"a\\tb\\x41c\"\n", 1, 2, `\t`},
		{"yaml double-quoted hex escape", doc.YAML, "f: \"a\\tb\\x41c\"\n", 3, 4, `\x41`},
		{"yaml double-quoted folded", doc.YAML, "f: \"fold\n  ed\"\n", 5, 7, "ed"},
		{"yaml single-quoted doubled quote", doc.YAML, "f: 'it''s'\n", 2, 4, "''s"},
		{"yaml plain on the next line", doc.YAML, "f: one\n  two\n\n  three\n", 4, 7, "two"},
		{"yaml plain after a blank line", doc.YAML, "f: one\n  two\n\n  three\n", 8, 13, "three"},
		{"yaml literal block", doc.YAML, "f: |\n  line one\n  line two\n", 9, 13, "line"},
		{"yaml folded block maps to its indicator", doc.YAML, "f: >\n  folded\n  text\n", 1, 2, ">"},
		{"yaml alias maps to the alias", doc.YAML, "a: &x hello\nf: *x\n", 1, 2, "*x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := parse(t, c.in, c.format)
			n := d.Root.Get("f")
			got := at(t, c.in, d.SourceSpan(n, diag.SpanOf(c.from, c.to)))
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
	t.Run("not a string", func(t *testing.T) {
		d := parse(t, `{"f": [1]}`, doc.JSON)
		n := d.Root.Get("f")
		if got := d.SourceSpan(n, diag.SpanOf(0, 1)); got != n.Span {
			t.Errorf("got %v, want the node's span %v", got, n.Span)
		}
	})
	t.Run("no span", func(t *testing.T) {
		d := parse(t, `{"f": "x"}`, doc.JSON)
		if got := d.SourceSpan(d.Root.Get("f"), diag.Span{}); got.IsValid() {
			t.Errorf("got %v, want no span", got)
		}
	})
}

// TestFuzzFindings holds every input a fuzz target failed on.
func TestFuzzFindings(t *testing.T) {
	cases := []struct {
		name   string
		format doc.Format
		in     string
	}{
		// An escape cut off by the end of the text gave a span past it.
		{"json escape at the very end", doc.JSON, "\"\\"},
		// A lone "\r" in a plain scalar made the folding code repeat a
		// string a negative number of times.
		{"yaml plain scalar over a lone carriage return", doc.YAML, "00\r000000"},
		// YAML counts a lone "\r" as a line break; diag.Source does not,
		// so a block scalar's span landed past the end.
		{"yaml block scalar after a lone carriage return", doc.YAML, "\r|"},
		// An alias inside its own anchor nests forever: 14,000 identical
		// too-deep findings before the fix.
		{"yaml alias inside its anchor", doc.YAML, "0: &x [0,00,  *x,*x,000]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, ds := doc.Parse("t", c.in, c.format)
			if len(ds) > 2 {
				t.Errorf("%d findings: %+v", len(ds), ds)
			}
			for _, dg := range ds {
				at(t, c.in, dg.Span)
			}
			var walk func(n *doc.Node)
			walk = func(n *doc.Node) {
				if n == nil {
					return
				}
				at(t, c.in, n.Span)
				if n.Kind == doc.String {
					at(t, c.in, d.SourceSpan(n, diag.SpanOf(0, len(n.Value))))
				}
				for _, it := range n.Items {
					walk(it)
				}
				for _, m := range n.Members {
					walk(m.Value)
				}
			}
			walk(d.Root)
		})
	}
}

// TestLongInputQuotedShort checks that messages quoting a key or a word of
// the input stay short however long the input is.
func TestLongInputQuotedShort(t *testing.T) {
	long := strings.Repeat("k", 900_000)
	cases := []struct {
		name, in string
		format   doc.Format
	}{
		{"json duplicate key", `{"` + long + `":1,"` + long + `":2}`, doc.JSON},
		{"json key without colon", `{"` + long + `" 1}`, doc.JSON},
		{"json bare word", `{"a":` + long + `}`, doc.JSON},
		{"json bare key", `{` + long + `:1}`, doc.JSON},
		{"json number with a suffix", `{"a":1` + long + `s}`, doc.JSON},
		{"yaml duplicate key", long + ": 1\n" + long + ": 2\n", doc.YAML},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, ds := doc.Parse("t", c.in, c.format)
			if len(ds) == 0 {
				t.Fatal("no finding")
			}
			for _, d := range ds {
				if len(d.Message)+len(d.Hint) > 400 {
					t.Errorf("%s: message and hint are %d bytes", d.Code, len(d.Message)+len(d.Hint))
				}
			}
		})
	}
}
