package filter

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
)

// validCases are filters the service accepts, with their tree and
// canonical form. Vector numbers refer to reference/filter.md.
var validCases = []struct {
	name, src, tree, canonical string
}{
	{"has, bare key (vector 1)", `attributes:name`, `(has "name")`, `attributes:name`},
	{"has, quoted key with a dot", `attributes:"iana.org/language_tag"`, `(has "iana.org/language_tag")`, `attributes:"iana.org/language_tag"`},
	{"has, needless quotes are dropped", `attributes:"lang"`, `(has "lang")`, `attributes:lang`},
	{"equality (vector 5)", `attributes.name = "com"`, `(= "name" "com")`, `attributes.name = "com"`},
	{"equality without spaces (vector 25)", `attributes.author="unknown"`, `(= "author" "unknown")`, `attributes.author = "unknown"`},
	{"inequality (vector 9)", `attributes.name != "com"`, `(!= "name" "com")`, `attributes.name != "com"`},
	{"inequality without spaces", `attributes.name!="com"`, `(!= "name" "com")`, `attributes.name != "com"`},
	{"hasPrefix (vector 12)", `hasPrefix(attributes.name, "co")`, `(prefix "name" "co")`, `hasPrefix(attributes.name, "co")`},
	{"hasPrefix with odd spacing", "hasPrefix( attributes.name ,\"co\" )", `(prefix "name" "co")`, `hasPrefix(attributes.name, "co")`},
	{"hasPrefix on a quoted key", `hasPrefix(attributes."a.b", "x")`, `(prefix "a.b" "x")`, `hasPrefix(attributes."a.b", "x")`},
	{"hyphen in a bare key (vector 24)", `attributes.is-even = "false"`, `(= "is-even" "false")`, `attributes.is-even = "false"`},
	{"bare key starting with a digit", `attributes:3d`, `(has "3d")`, `attributes:3d`},
	{"bare key starting with a hyphen", `attributes:-x`, `(has "-x")`, `attributes:-x`},
	{"keys may be operator words", `attributes:AND AND attributes.OR = "NOT"`, `(and (has "AND") (= "OR" "NOT"))`, `attributes:AND AND attributes.OR = "NOT"`},
	{"key named attributes", `attributes.attributes = "x"`, `(= "attributes" "x")`, `attributes.attributes = "x"`},
	{"quoted key with escapes", `attributes."a\"b" = "c"`, `(= "a\"b" "c")`, `attributes."a\"b" = "c"`},
	{"key with unicode escapes (vector 22)", `attributes:"\u307F\u3093\u306A"`, `(has "みんな")`, `attributes:"みんな"`},
	{"key in raw UTF-8", `attributes:"みんな"`, `(has "みんな")`, `attributes:"みんな"`},
	{"value in raw UTF-8", `attributes.lang = "日本語"`, `(= "lang" "日本語")`, `attributes.lang = "日本語"`},
	{"empty value", `attributes.name = ""`, `(= "name" "")`, `attributes.name = ""`},
	{"NOT (vector 4)", `NOT attributes:name`, `(not (has "name"))`, `NOT attributes:name`},
	{"unary minus", `-attributes:lang`, `(not (has "lang"))`, `NOT attributes:lang`},
	{"unary minus and a space", `- attributes:lang`, `(not (has "lang"))`, `NOT attributes:lang`},
	{"NOT hasPrefix (vector 15)", `NOT hasPrefix(attributes.name, "co")`, `(not (prefix "name" "co"))`, `NOT hasPrefix(attributes.name, "co")`},
	{"nested NOT", `NOT NOT attributes:a`, `(not (not (has "a")))`, `NOT NOT attributes:a`},
	{"nested minus", `--attributes:a`, `(not (not (has "a")))`, `NOT NOT attributes:a`},
	{"NOT, minus and NOT", `NOT -NOT (attributes:a)`, `(not (not (not (has "a"))))`, `NOT NOT NOT attributes:a`},
	{"NOT before a group without a space", `NOT(attributes:a OR attributes:b)`, `(not (or (has "a") (has "b")))`, `NOT (attributes:a OR attributes:b)`},
	{"AND chain", `attributes:a AND attributes:b AND attributes:c`, `(and (has "a") (has "b") (has "c"))`, `attributes:a AND attributes:b AND attributes:c`},
	{"OR chain", `attributes:a OR attributes:b OR attributes:c`, `(or (has "a") (has "b") (has "c"))`, `attributes:a OR attributes:b OR attributes:c`},
	{"vector 16", `(NOT attributes:name) OR attributes.name = "co"`, `(or (not (has "name")) (= "name" "co"))`, `NOT attributes:name OR attributes.name = "co"`},
	{"vector 17", `NOT (attributes:name OR attributes.lang = "jp")`, `(not (or (has "name") (= "lang" "jp")))`, `NOT (attributes:name OR attributes.lang = "jp")`},
	{"vector 18", `attributes.name = "com" AND -attributes:"lang"`, `(and (= "name" "com") (not (has "lang")))`, `attributes.name = "com" AND NOT attributes:lang`},
	{"vector 19", `attributes."iana.org/language_tag" = "en"`, `(= "iana.org/language_tag" "en")`, `attributes."iana.org/language_tag" = "en"`},
	{"vector 20", `attributes:"iana.org/language_tag" AND NOT attributes.name = "com"`, `(and (has "iana.org/language_tag") (not (= "name" "com")))`, `attributes:"iana.org/language_tag" AND NOT attributes.name = "com"`},
	{"vector 21", `attributes:"iana.org/language_tag" AND (attributes.name = "net" OR attributes.name = "org")`,
		`(and (has "iana.org/language_tag") (or (= "name" "net") (= "name" "org")))`, `attributes:"iana.org/language_tag" AND (attributes.name = "net" OR attributes.name = "org")`},
	{"vector 23", `NOT attributes:x OR attributes:y`, `(or (not (has "x")) (has "y"))`, `NOT attributes:x OR attributes:y`},
	{"a group of the same operator stays a group", `attributes:a AND (attributes:b AND attributes:c)`, `(and (has "a") (and (has "b") (has "c")))`, `attributes:a AND (attributes:b AND attributes:c)`},
	{"redundant parentheses around a condition", `((attributes:a))`, `(has "a")`, `attributes:a`},
	{"parentheses around the whole filter", `(attributes:a OR attributes:b)`, `(or (has "a") (has "b"))`, `attributes:a OR attributes:b`},
	{"doubled parentheses around a group", `attributes:a AND ((attributes:b OR attributes:c))`, `(and (has "a") (or (has "b") (has "c")))`, `attributes:a AND (attributes:b OR attributes:c)`},
	{"NOT over a group", `NOT (attributes:a AND attributes:b)`, `(not (and (has "a") (has "b")))`, `NOT (attributes:a AND attributes:b)`},
	{"newlines and tabs between tokens", "attributes:a\n\tAND\r\n attributes:b", `(and (has "a") (has "b"))`, `attributes:a AND attributes:b`},
	{"spaces around : and .", `attributes : a AND attributes . b = "c"`, `(and (has "a") (= "b" "c"))`, `attributes:a AND attributes.b = "c"`},
	{"leading and trailing spaces", `  attributes:a  `, `(has "a")`, `attributes:a`},
	{"OR of ANDs in groups", `(attributes:a AND attributes:b) OR (attributes:c AND NOT attributes:d)`,
		`(or (and (has "a") (has "b")) (and (has "c") (not (has "d"))))`, `(attributes:a AND attributes:b) OR (attributes:c AND NOT attributes:d)`},
	{"escaped control characters print as escapes", `attributes.k = "a\tb\x01"`, `(= "k" "a\tb\x01")`, `attributes.k = "a\tb\u0001"`},
}

func TestParseValid(t *testing.T) {
	for _, tc := range validCases {
		t.Run(tc.name, func(t *testing.T) {
			f, ds := Parse(tc.src)
			if f == nil {
				t.Fatalf("rejected:\n%s", render(tc.src, ds))
			}
			if diag.HasErrors(ds) {
				t.Errorf("valid filter with errors:\n%s", render(tc.src, ds))
			}
			if got := tree(f.Root); got != tc.tree {
				t.Errorf("tree\n got %s\nwant %s", got, tc.tree)
			}
			if got := f.String(); got != tc.canonical {
				t.Errorf("canonical\n got %s\nwant %s", got, tc.canonical)
			}
			if f.Text != tc.src {
				t.Errorf("Text = %q, want the source", f.Text)
			}
			// The canonical form reads back to the same tree and prints
			// the same again.
			g := mustParse(t, f.String())
			if tree(g.Root) != tc.tree || g.String() != tc.canonical {
				t.Errorf("canonical form %q reparses to %s / %s", f.String(), tree(g.Root), g.String())
			}
		})
	}
}

func TestParseEmpty(t *testing.T) {
	f, ds := Parse("")
	if f == nil || !f.Empty() || f.Root != nil || len(ds) != 0 {
		t.Fatalf("Parse(\"\") = %+v, %v; want the empty filter and no diagnostics", f, ds)
	}
	if f.String() != "" {
		t.Errorf("empty filter prints %q", f.String())
	}
	var none *Filter
	if !none.Empty() || none.String() != "" {
		t.Error("a nil filter should be empty")
	}
}

// errorCases are filters the service rejects. column is where the first
// error points (1-based, in characters); message and hint are substrings.
var errorCases = []struct {
	name, src, code string
	column          int
	message, hint   string
}{
	// The invalid forms of reference/filter.md.
	{"value first (vector 27)", `"com" = attributes.name`, "filter-key-first", 1, "must start with the attribute", `attributes.name = "com"`},
	{"attribute on the right (vector 28)", `attributes.name = attributes.website`, "filter-value-not-string", 19, "not another attribute", ""},
	{"escapes outside a literal (vector 29)", `attributes:\u307F\u3093\u306A`, "filter-escape-outside-string", 12, "inside a string literal", `attributes:"\u307F\u3093\u306A"`},
	{"AND and OR mixed (vector 30)", `attributes:"iana.org/language_tag" AND attributes.name = "net" OR attributes.name = "org"`, "filter-mixed-and-or", 64, "cannot be mixed without parentheses",
		`attributes:"iana.org/language_tag" AND (attributes.name = "net" OR attributes.name = "org")`},
	{"strings in a group (vector 31)", `attributes.name = "com" AND ("net" OR "org")`, "filter-lone-string", 30, "alone is not a condition", `attributes.name = "net"`},
	{"lowercase and (vector 33)", `attributes:a and attributes:b`, "filter-case", 14, "operators must be uppercase", ""},

	{"mixed, OR first", `attributes:a OR attributes:b AND attributes:c`, "filter-mixed-and-or", 30, "cannot be mixed", `(attributes:a OR attributes:b) AND attributes:c`},
	{"lowercase or", `attributes:a or attributes:b`, "filter-case", 14, "write OR", ""},
	{"mixed-case Or", `attributes:a Or attributes:b`, "filter-case", 14, "write OR", ""},
	{"lowercase not", `not attributes:a`, "filter-case", 1, "write NOT", ""},
	{"capitalised attributes", `Attributes:a`, "filter-case", 1, "lowercase", ""},
	{"lowercase hasprefix", `hasprefix(attributes.a, "b")`, "filter-case", 1, "write hasPrefix", ""},
	{"dotted key unquoted", `attributes.iana.org/language_tag = "en"`, "filter-key-needs-quotes", 12, "keys with '.' must be quoted", `attributes."iana.org/language_tag"`},
	{"slash in a bare key", `attributes:a/b`, "filter-key-needs-quotes", 12, "'/' must be quoted", `attributes:"a/b"`},
	{"non-ASCII bare key", `attributes:みんな`, "filter-key-needs-quotes", 12, "must be quoted", `attributes:"みんな"`},
	{"== for =", `attributes.name == "com"`, "filter-unsupported-operator", 17, "write =", ""},
	{"<> for !=", `attributes.name <> "com"`, "filter-unsupported-operator", 17, "write !=", ""},
	{"&& for AND", `attributes:a && attributes:b`, "filter-unsupported-operator", 14, "write AND", ""},
	{"|| for OR", `attributes:a || attributes:b`, "filter-unsupported-operator", 14, "write OR", ""},
	{"! for NOT", `!attributes:a`, "filter-unsupported-operator", 1, "write NOT", ""},
	{"less than", `attributes.n < "5"`, "filter-unsupported-operator", 14, "only compared with = and !=", "hasPrefix"},
	{"greater or equal", `attributes.n >= "5"`, "filter-unsupported-operator", 14, "not a filter operator", ""},
	{"regular-expression match", `attributes.n =~ "a.*"`, "filter-unsupported-operator", 14, "not a filter operator", ""},
	{"IN", `attributes.name IN ("a", "b")`, "filter-unsupported-operator", 17, "IN is not", `attributes.name = "a" OR attributes.name = "b"`},
	{"colon after a key", `attributes.name:"com"`, "filter-unsupported-operator", 16, "cannot be followed by ':'", `attributes.name = "value"`},
	{"single-quoted value", `attributes.name = 'com'`, "filter-quote", 19, "double quotes", `"com"`},
	{"backtick key", "attributes:`a.b`", "filter-quote", 12, "not backticks", `"a.b"`},
	{"unquoted value", `attributes.name = com`, "filter-value-not-string", 19, "must be a string literal", `"com"`},
	{"number value", `attributes.n = 5`, "filter-value-not-string", 16, "must be a string literal", `"5"`},
	{"negative number value", `attributes.n = -5`, "filter-value-not-string", 16, "must be a string literal", ""},
	{"missing value", `attributes.name = `, "filter-value-not-string", 17, "is missing", ""},
	{"prefix not a literal", `hasPrefix(attributes.name, attributes.x)`, "filter-value-not-string", 28, "the prefix must be a string literal", ""},
	{"no comparison", `attributes.name`, "filter-missing-comparison", 1, "must be compared", "attributes:name"},
	{"has compared", `attributes:name = "x"`, "filter-missing-comparison", 17, "only tests that the attribute is present", `attributes.name = "..."`},
	{"attributes alone", `attributes`, "filter-missing-key", 1, "followed by :KEY or .KEY", ""},
	{"no key after colon", `attributes:`, "filter-missing-key", 11, `a key must follow "attributes:"`, ""},
	{"no key after dot", `attributes. = "x"`, "filter-missing-key", 11, `a key must follow "attributes."`, ""},
	{"no key before =", `attributes = "x"`, "filter-missing-key", 12, "a key must come between", ""},
	{"unterminated string", `attributes.name = "com`, "filter-unterminated-string", 19, "never closed", ""},
	{"unterminated key", `attributes:"abc`, "filter-unterminated-string", 12, "never closed", ""},
	{"AND at the end", `attributes:a AND`, "filter-missing-condition", 14, "ends after AND", ""},
	{"AND at the start", `AND attributes:a`, "filter-missing-condition", 1, "needs a condition on each side", ""},
	{"AND OR", `attributes:a AND OR attributes:b`, "filter-missing-condition", 18, "must follow AND, not OR", ""},
	{"NOT alone", `NOT`, "filter-missing-condition", 1, "ends after NOT", ""},
	{"NOT before )", `(NOT)`, "filter-missing-condition", 5, "must follow NOT", ""},
	{"unclosed group", `(attributes:a`, "filter-parenthesis", 1, "never closed", ""},
	{"unclosed group after AND", `attributes:a AND (`, "filter-parenthesis", 18, "never closed", ""},
	{"unmatched )", `attributes:a)`, "filter-parenthesis", 13, "no matching (", ""},
	{"empty group", `()`, "filter-parenthesis", 1, "empty parentheses", ""},
	{"group not closed before a condition", `(attributes:a attributes:b)`, "filter-missing-operator", 15, "expected AND or OR", ""},
	{"two conditions", `attributes:a attributes:b`, "filter-missing-operator", 14, "expected AND or OR", ""},
	{"NOT between conditions", `attributes:a NOT attributes:b`, "filter-missing-operator", 14, "NOT cannot join", "AND NOT"},
	{"other function", `hasSuffix(attributes.name, "m")`, "filter-unknown-function", 1, "hasPrefix is the only one", ""},
	{"capitalised function (found by fuzzing)", `A()`, "filter-unknown-function", 1, `unknown function "A"`, ""},
	{"message fields are not filterable", `orderingKey = "x"`, "filter-unknown-name", 1, "only attributes can be filtered", ""},
	{"has()", `has(attributes.name)`, "filter-unknown-function", 1, "has() is not", "attributes:KEY"},
	{"method call", `attributes.name.startsWith("x")`, "filter-unknown-function", 12, "method calls", "hasPrefix"},
	{"hasPrefix arguments swapped", `hasPrefix("co", attributes.name)`, "filter-hasprefix-arguments", 11, "first argument of hasPrefix is the attribute", ""},
	{"hasPrefix with one argument", `hasPrefix(attributes.name)`, "filter-hasprefix-arguments", 26, "two arguments", ""},
	{"hasPrefix with three arguments", `hasPrefix(attributes.name, "a", "b")`, "filter-hasprefix-arguments", 31, "exactly two", ""},
	{"hasPrefix on attributes:KEY", `hasPrefix(attributes:name, "a")`, "filter-hasprefix-arguments", 21, "not attributes:KEY", ""},
	{"hasPrefix without parentheses", `hasPrefix attributes.name`, "filter-hasprefix-arguments", 1, "must be called", ""},
	{"hasPrefix without arguments", `hasPrefix()`, "filter-hasprefix-arguments", 11, "two arguments", ""},
	{"hasPrefix unclosed", `hasPrefix(attributes.name, "a"`, "filter-parenthesis", 1, "never closed", ""},
	{"data is not filterable", `data = "x"`, "filter-unknown-name", 1, "data cannot be filtered", ""},
	{"bare name", `name = "x"`, "filter-unknown-name", 1, `unknown name "name"`, "attributes.name"},
	{"attribute singular", `attribute:name`, "filter-unknown-name", 1, "named attributes", ""},
	{"true", `true`, "filter-unknown-name", 1, "not a condition", "empty filter"},
	{"index syntax", `attributes["name"] = "x"`, "filter-syntax", 11, "cannot be indexed", `attributes."key"`},
	{"stray character", `attributes:a AND #`, "filter-syntax", 18, `unexpected "#"`, ""},
	{"raw control character in a string", "attributes.k = \"a\x01b\"", "filter-control-character", 18, "control character", `\x01`},
	{"raw newline in a string", "attributes.k = \"a\nb\"", "filter-control-character", 18, "control character", `\n`},
	{"invalid UTF-8", "attributes:\"\xff\"", "filter-invalid-utf8", 13, "not valid UTF-8", ""},
	{"only whitespace", "  \t ", "filter-blank", 1, "only whitespace", "remove the filter"},
	{"unknown escape", `attributes.k = "\q"`, "filter-bad-escape", 17, `unknown escape \q in a string`, ""},
	{"unknown escape of a period (fuzz)", `attributes.k = "\."`, "filter-bad-escape", 17, `unknown escape \. in a string`, ""},
	{"short hex escape", `attributes.k = "\x4"`, "filter-bad-escape", 17, "two hex digits", ""},
	{"short unicode escape", `attributes.k = "\u12"`, "filter-bad-escape", 17, "four hex digits", ""},
	{"surrogate escape", `attributes.k = "\uD800"`, "filter-bad-escape", 17, "surrogate", ""},
	{"escape beyond Unicode", `attributes.k = "\U00110000"`, "filter-bad-escape", 17, "beyond the last Unicode code point", ""},
	{"octal escape too large", `attributes.k = "\400"`, "filter-bad-escape", 17, `above \377`, ""},
	{"short octal escape", `attributes.k = "\0"`, "filter-bad-escape", 17, "three octal digits", ""},
	{"JSON's \\/ is not an escape", `attributes.k = "a\/b"`, "filter-bad-escape", 18, "unknown escape", ""},
}

func TestParseErrors(t *testing.T) {
	for _, tc := range errorCases {
		t.Run(tc.name, func(t *testing.T) {
			f, ds := located(tc.src)
			if f != nil {
				t.Fatalf("accepted, as %q", f.String())
			}
			if !diag.HasErrors(ds) {
				t.Fatalf("rejected without an error: %v", ds)
			}
			d := ds[0]
			if d.Code != tc.code || d.Column != tc.column || d.Line != 1 {
				t.Errorf("first diagnostic %s at %d:%d, want %s at 1:%d\n%s", d.Code, d.Line, d.Column, tc.code, tc.column, render(tc.src, ds))
			}
			if !strings.Contains(d.Message, tc.message) {
				t.Errorf("message %q does not contain %q", d.Message, tc.message)
			}
			if !strings.Contains(d.Hint, tc.hint) {
				t.Errorf("hint %q does not contain %q", d.Hint, tc.hint)
			}
			for _, d := range ds {
				if d.Path != "" || d.Message == "" || d.Code == "" || d.Code == "filter-internal" {
					t.Errorf("malformed diagnostic %+v", d)
				}
				if !wellFormedMessage(d.Message) {
					t.Errorf("message %q should start lowercase and end without a period", d.Message)
				}
			}
		})
	}
}

// Errors the parser can step over are all reported in one run.
func TestParseCollectsErrors(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"two lowercase operators and a mix", `attributes:a and attributes:b or attributes:c`,
			[]string{"error:filter-case", "error:filter-case", "error:filter-mixed-and-or"}},
		{"mixing is reported once per chain", `attributes:a AND attributes:b OR attributes:c AND attributes:d OR attributes:e`,
			[]string{"error:filter-mixed-and-or"}},
		{"each group is its own chain", `(attributes:a AND attributes:b OR attributes:c) AND (attributes:d OR attributes:e AND attributes:f)`,
			[]string{"error:filter-mixed-and-or", "error:filter-mixed-and-or"}},
		{"bad escapes and an unquoted key", `attributes.a.b = "\q\x"`,
			[]string{"error:filter-key-needs-quotes", "error:filter-bad-escape", "error:filter-bad-escape"}},
		{"== and single quotes", `attributes.a == 'b'`, []string{"error:filter-unsupported-operator", "error:filter-quote"}},
		{"too long and a syntax error", strings.Repeat(" ", 300) + `attributes:a AND`,
			[]string{"error:filter-too-long", "error:filter-missing-condition"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, ds := Parse(tc.src)
			if f != nil {
				t.Fatal("accepted")
			}
			if got := codes(ds); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v\n%s", got, tc.want, render(tc.src, ds))
			}
		})
	}
}

func TestEscapes(t *testing.T) {
	cases := []struct {
		name, lit, want string
	}{
		{"backslash", `\\`, `\`},
		{"double quote", `\"`, `"`},
		{"single quote", `\'`, `'`},
		{"backtick", "\\`", "`"},
		{"question mark", `\?`, `?`},
		{"C escapes", `\a\b\f\n\r\t\v`, "\a\b\f\n\r\t\v"},
		{"hex", `\x41`, "A"},
		{"hex, capital X", `\X41`, "A"},
		{"hex names a code point, not a byte", `\xe9`, "é"},
		{"unicode", `\u00e9`, "é"},
		{"unicode, doc example", `\u307F\u3093\u306A`, "みんな"},
		{"long unicode", `\U0001F600`, "😀"},
		{"octal", `\101`, "A"},
		{"octal above 127", `\351`, "é"},
		{"octal zero", `\000`, "\x00"},
		{"escape between text", `a\tb`, "a\tb"},
		{"raw UTF-8 stays", `ö\nö`, "ö\nö"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, src := range []string{`attributes.k = "` + tc.lit + `"`, `attributes."` + tc.lit + `" = "v"`} {
				f := mustParse(t, src)
				c := f.Root.(*Compare)
				got := c.Value.Value
				if strings.HasPrefix(src, `attributes."`) {
					got = c.Key.Name
				}
				if got != tc.want {
					t.Errorf("%s decodes to %q, want %q", src, got, tc.want)
				}
			}
		})
	}
}

func TestQuote(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain", `"plain"`},
		{`a"b\c`, `"a\"b\\c"`},
		{"a\nb\tc\rd", `"a\nb\tc\rd"`},
		{"\x00\x1f\x7f\u0085", `"\u0000\u001f\u007f\u0085"`},
		{"みんな 😀", `"みんな 😀"`},
		{"", `""`},
	}
	for _, tc := range cases {
		if got := Quote(tc.in); got != tc.want {
			t.Errorf("Quote(%q) = %s, want %s", tc.in, got, tc.want)
		}
		// What Quote writes reads back as the same string.
		f := mustParse(t, "attributes.k = "+Quote(tc.in))
		if v := f.Root.(*Compare).Value.Value; v != tc.in {
			t.Errorf("Quote(%q) reads back as %q", tc.in, v)
		}
	}
}

func TestByteLimit(t *testing.T) {
	has := func(keyLen int) string { return "attributes:" + strings.Repeat("k", keyLen) } // 11 + keyLen bytes
	// 16 bytes before the value and 1 after it.
	value := func(v string) string { return `attributes.k = "` + v + `"` }
	cases := []struct {
		name, src string
		valid     bool
	}{
		{"256 ASCII bytes", has(245), true},
		{"257 ASCII bytes", has(246), false},
		{"256 bytes of which 79 three-byte characters", value(strings.Repeat("み", 79) + "ab"), true},
		{"257 bytes but only 98 characters", value(strings.Repeat("み", 80)), false},
		{"four-byte characters across the limit", value(strings.Repeat("😀", 60)), false},
		{"256 bytes with escapes that decode shorter", value(strings.Repeat(`\u307F`, 39) + "x"), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if n := len(tc.src); tc.valid != (n <= MaxBytes) {
				t.Fatalf("bad case: %d bytes", n)
			}
			f, ds := located(tc.src)
			if tc.valid {
				if f == nil {
					t.Fatalf("rejected:\n%s", render(tc.src, ds))
				}
				return
			}
			if f != nil || len(ds) != 1 || ds[0].Code != "filter-too-long" {
				t.Fatalf("want one filter-too-long error, got %v", codes(ds))
			}
			d := ds[0]
			// The caret sits on the character holding byte 257.
			cut := MaxBytes
			for !utf8.RuneStart(tc.src[cut]) {
				cut--
			}
			if want := utf8.RuneCountInString(tc.src[:cut]) + 1; d.Column != want {
				t.Errorf("column %d, want %d", d.Column, want)
			}
			if d.Span.End.Offset() != len(tc.src) {
				t.Errorf("span ends at %d, want the end of the filter", d.Span.End.Offset())
			}
			if !strings.Contains(d.Message, "257") && !strings.Contains(d.Message, "bytes") {
				t.Errorf("message %q should give the size in bytes", d.Message)
			}
			multiByte := utf8.RuneCountInString(tc.src) != len(tc.src)
			if strings.Contains(d.Hint, "characters") != multiByte {
				t.Errorf("hint %q should explain bytes versus characters exactly when the filter has non-ASCII characters", d.Hint)
			}
		})
	}
}

func TestSpans(t *testing.T) {
	src := `NOT (attributes:a OR attributes.b = "x") AND hasPrefix(attributes."c d", "p") AND -attributes.e != "\u00e9"`
	f := mustParse(t, src)
	var got []string
	Walk(f.Root, func(e Expr) bool {
		s := e.Span()
		got = append(got, src[s.Start:s.End])
		if k, ok := KeyOf(e); ok {
			got = append(got, "key "+src[k.Loc.Start:k.Loc.End])
		}
		switch e := e.(type) {
		case *Compare:
			got = append(got, "value "+src[e.Value.Loc.Start:e.Value.Loc.End])
		case *Prefix:
			got = append(got, "prefix "+src[e.Prefix.Loc.Start:e.Prefix.Loc.End])
		}
		return true
	})
	want := []string{
		src,
		`NOT (attributes:a OR attributes.b = "x")`,
		`(attributes:a OR attributes.b = "x")`,
		`attributes:a`, `key a`,
		`attributes.b = "x"`, `key b`, `value "x"`,
		`hasPrefix(attributes."c d", "p")`, `key "c d"`, `prefix "p"`,
		`-attributes.e != "\u00e9"`,
		`attributes.e != "\u00e9"`, `key e`, `value "\u00e9"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("spans\n got %q\nwant %q", got, want)
	}
}

func TestWalkStops(t *testing.T) {
	f := mustParse(t, `attributes:a AND NOT attributes:b AND attributes:c`)
	n := 0
	Walk(f.Root, func(e Expr) bool {
		n++
		_, isNot := e.(*Not)
		return !isNot
	})
	if n != 3 { // the chain, attributes:a, NOT
		t.Errorf("visited %d nodes, want 3", n)
	}
}

func TestNotes(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"!= on its own", `attributes.name != "com"`, []string{"info:filter-not-equal-absent"}},
		{"!= guarded by presence", `attributes:name AND attributes.name != "com"`, nil},
		{"!= guarded by hasPrefix", `hasPrefix(attributes.name, "c") AND attributes.name != "com"`, nil},
		{"!= guarded by another key does not count", `attributes:lang AND attributes.name != "com"`, []string{"info:filter-not-equal-absent"}},
		{"!= in an OR is not guarded", `attributes:name OR attributes.name != "com"`, []string{"info:filter-not-equal-absent"}},
		{"!= under NOT", `NOT attributes.name != "com"`, nil},
		{"empty key", `attributes:""`, []string{"warning:filter-empty-key"}},
		{"empty key compared", `attributes."" = "x"`, []string{"warning:filter-empty-key"}},
		{"empty prefix", `hasPrefix(attributes.a, "")`, []string{"info:filter-empty-prefix"}},
		{"nothing to say", `attributes.a = "b"`, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, ds := Parse(tc.src)
			if f == nil {
				t.Fatalf("rejected:\n%s", render(tc.src, ds))
			}
			if got := codes(ds); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestDeepNesting(t *testing.T) {
	// Within 256 bytes nesting is bounded by the length; past it the parser
	// must still not recurse without limit.
	for _, src := range []string{
		strings.Repeat("(", 10000) + "attributes:a" + strings.Repeat(")", 10000),
		strings.Repeat("-", 100000) + "attributes:a",
		strings.Repeat("NOT ", 10000) + "attributes:a",
	} {
		f, ds := Parse(src)
		if f != nil || !slices.Contains(codes(ds), "error:filter-too-long") || !slices.Contains(codes(ds), "error:filter-too-deep") {
			t.Errorf("%.20q...: got %v", src, codes(ds))
		}
	}
	// The deepest filter that fits is fine.
	src := strings.Repeat("-", MaxBytes-len("attributes:a")) + "attributes:a"
	f := mustParse(t, src)
	depth := 0
	for e := f.Root; ; depth++ {
		n, ok := e.(*Not)
		if !ok {
			break
		}
		e = n.X
	}
	if depth != MaxBytes-len("attributes:a") {
		t.Errorf("depth %d", depth)
	}
}

func TestValidBareKey(t *testing.T) {
	for k, want := range map[string]bool{"a": true, "is-even": true, "A_1": true, "-": true, "": false, "a.b": false, "ö": false, "a b": false} {
		if got := ValidBareKey(k); got != want {
			t.Errorf("ValidBareKey(%q) = %v", k, got)
		}
	}
}
