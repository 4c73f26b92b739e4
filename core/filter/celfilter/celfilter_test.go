package celfilter

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/filter"
)

type attrs = map[string]string

func compile(t testing.TB, src string) *Program {
	t.Helper()
	f, ds := filter.Parse(src)
	if f == nil {
		t.Fatalf("Parse(%q): %v", src, ds)
	}
	p, err := Compile(f)
	if err != nil {
		t.Fatalf("Compile(%q): %v", src, err)
	}
	return p
}

// match evaluates both ways (the fast program and the explaining one) and
// fails when they disagree.
func match(t testing.TB, p *Program, a attrs) bool {
	t.Helper()
	got, err := p.Match(a)
	if err != nil {
		t.Fatalf("Match(%v): %v", a, err)
	}
	r, err := p.Explain(a)
	if err != nil {
		t.Fatalf("Explain(%v): %v", a, err)
	}
	if r.Match != got {
		t.Fatalf("%q on %v: Match says %v, Explain says %v", p.Filter().Text, a, got, r.Match)
	}
	return got
}

// TestVectors runs every test vector of reference/filter.md. The invalid
// ones (27-33) must not parse.
func TestVectors(t *testing.T) {
	valid := []struct {
		n      int
		filter string
		attrs  attrs
		want   bool
	}{
		{1, `attributes:name`, attrs{"name": "x"}, true},
		{2, `attributes:x`, attrs{"x": ""}, true},
		{3, `attributes:name`, attrs{}, false},
		{4, `NOT attributes:name`, attrs{"lang": "jp"}, true},
		{5, `attributes.name = "com"`, attrs{"name": "com"}, true},
		{6, `attributes.name = "com"`, attrs{"name": "net"}, false},
		{7, `attributes.name = "com"`, attrs{}, false},
		{8, `attributes.name = "COM"`, attrs{"name": "com"}, false},
		{9, `attributes.name != "com"`, attrs{"name": "net"}, true},
		{10, `attributes.name != "com"`, attrs{"name": "com"}, false},
		{11, `attributes.name != "com"`, attrs{"lang": "jp"}, true}, // D10
		{12, `hasPrefix(attributes.name, "co")`, attrs{"name": "com"}, true},
		{13, `hasPrefix(attributes.name, "co")`, attrs{"name": "net"}, false},
		{14, `hasPrefix(attributes.name, "co")`, attrs{}, false},
		{15, `NOT hasPrefix(attributes.name, "co")`, attrs{}, true},
		{16, `(NOT attributes:name) OR attributes.name = "co"`, attrs{"name": "com"}, false},
		{16, `(NOT attributes:name) OR attributes.name = "co"`, attrs{"name": "co"}, true},
		{17, `NOT (attributes:name OR attributes.lang = "jp")`, attrs{"みんな": "d"}, true},
		{17, `NOT (attributes:name OR attributes.lang = "jp")`, attrs{"lang": "jp"}, false},
		{18, `attributes.name = "com" AND -attributes:"lang"`, attrs{"name": "com", "timezone": "UTC"}, true},
		{18, `attributes.name = "com" AND -attributes:"lang"`, attrs{"lang": "cn", "name": "com"}, false},
		{19, `attributes."iana.org/language_tag" = "en"`, attrs{"iana.org/language_tag": "en"}, true},
		{20, `attributes:"iana.org/language_tag" AND NOT attributes.name = "com"`, attrs{"iana.org/language_tag": "en", "name": "net"}, true},
		{20, `attributes:"iana.org/language_tag" AND NOT attributes.name = "com"`, attrs{"iana.org/language_tag": "en", "name": "com"}, false},
		{21, `attributes:"iana.org/language_tag" AND (attributes.name = "net" OR attributes.name = "org")`, attrs{"iana.org/language_tag": "x", "name": "org"}, true},
		{21, `attributes:"iana.org/language_tag" AND (attributes.name = "net" OR attributes.name = "org")`, attrs{"name": "org"}, false},
		{22, `attributes:"\u307F\u3093\u306A"`, attrs{"みんな": "v"}, true},
		{23, `NOT attributes:x OR attributes:y`, attrs{"x": ""}, false},
		{23, `NOT attributes:x OR attributes:y`, attrs{"z": ""}, true},
		{24, `attributes.is-even = "false"`, attrs{"is-even": "false"}, true},
		{25, `attributes.author="unknown"`, attrs{"author": "unknown"}, true},
		{26, ``, attrs{"any": "thing"}, true},
		{26, ``, attrs{}, true},
	}
	for _, v := range valid {
		t.Run("vector "+strconv.Itoa(v.n), func(t *testing.T) {
			if got := match(t, compile(t, v.filter), v.attrs); got != v.want {
				t.Errorf("%q on %v = %v, want %v", v.filter, v.attrs, got, v.want)
			}
		})
	}
	invalid := []struct {
		n      int
		filter string
	}{
		{27, `"com" = attributes.name`},
		{28, `attributes.name = attributes.website`},
		{29, `attributes:\u307F\u3093\u306A`},
		{30, `attributes:"iana.org/language_tag" AND attributes.name = "net" OR attributes.name = "org"`},
		{31, `attributes.name = "com" AND ("net" OR "org")`},
		{32, `attributes:` + strings.Repeat("k", filter.MaxBytes)},
		{33, `attributes:a and attributes:b`},
	}
	for _, v := range invalid {
		t.Run("vector "+strconv.Itoa(v.n), func(t *testing.T) {
			f, ds := filter.Parse(v.filter)
			if f != nil || !diag.HasErrors(ds) {
				t.Errorf("%q accepted", v.filter)
			}
			if _, err := Compile(f); err == nil {
				t.Error("Compile accepted a filter that did not parse")
			}
		})
	}
}

// pstestMessages is the fixture of pstest's filtering test (google-cloud-go
// pubsub/pstest/filtering_test.go), numbered from 1 as there.
var pstestMessages = []attrs{
	1:  {"lang": "en", "name": "com", "timezone": "UTC"},
	2:  {"lang": "en", "name": "net", "timezone": "UTC"},
	3:  {"lang": "en", "name": "org", "timezone": "UTC"},
	4:  {"lang": "cn", "name": "com", "timezone": "UTC"},
	5:  {"lang": "cn", "name": "net", "timezone": "UTC"},
	6:  {"lang": "cn", "name": "org", "timezone": "UTC"},
	7:  {"lang": "jp", "name": "co", "timezone": "UTC"},
	8:  {"lang": "jp", "timezone": "UTC"},
	9:  {"name": "com", "timezone": "UTC"},
	10: {"lang": "jp", "みんな": "dummy1"},
	11: {"みんな": "dummy2"},
	12: {"name": "com", "みんな": "dummy3"},
}

func TestPstestFixture(t *testing.T) {
	cases := []struct {
		filter string
		want   []int
	}{
		{`attributes.name = "com"`, []int{1, 4, 9, 12}},
		{`attributes.name != "com"`, []int{2, 3, 5, 6, 7, 8, 10, 11}}, // D10: absent counts as different
		{`hasPrefix(attributes.name, "co")`, []int{1, 4, 7, 9, 12}},
		{`attributes:name`, []int{1, 2, 3, 4, 5, 6, 7, 9, 12}},
		{`NOT attributes:name`, []int{8, 10, 11}},
		{`(NOT attributes:name) OR attributes.name = "co"`, []int{7, 8, 10, 11}},
		{`NOT (attributes:name OR attributes.lang = "jp")`, []int{11}},
		{`attributes.name = "com" AND -attributes:"lang"`, []int{9, 12}},
		{`attributes:"みんな"`, []int{10, 11, 12}},
	}
	for _, tc := range cases {
		t.Run(tc.filter, func(t *testing.T) {
			p := compile(t, tc.filter)
			var got []int
			for i := 1; i < len(pstestMessages); i++ {
				if match(t, p, pstestMessages[i]) {
					got = append(got, i)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("delivers %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCEL(t *testing.T) {
	cases := []struct{ filter, cel string }{
		{``, `true`},
		{`attributes:name`, `has(attributes.name)`},
		{`attributes.name = "com"`, `has(attributes.name) && attributes.name == "com"`},
		{`attributes.name != "com"`, `!has(attributes.name) || attributes.name != "com"`},
		{`hasPrefix(attributes.name, "co")`, `has(attributes.name) && attributes.name.startsWith("co")`},
		{`attributes."iana.org/language_tag" = "en"`, "has(attributes.`iana.org/language_tag`) && attributes.`iana.org/language_tag` == \"en\""},
		{`attributes.is-even = "false"`, "has(attributes.`is-even`) && attributes.`is-even` == \"false\""},
		// Keys CEL cannot write as a field are tested with in and indexed.
		{`attributes:"みんな"`, `"みんな" in attributes`},
		{`attributes."a\"b" = "c"`, `"a\"b" in attributes && attributes["a\"b"] == "c"`},
		{`attributes.null != "x"`, `!("null" in attributes) || attributes["null"] != "x"`},
		{`hasPrefix(attributes.in, "x")`, `"in" in attributes && attributes["in"].startsWith("x")`},
		{`attributes:""`, `"" in attributes`},
		{`NOT (attributes:a OR attributes:b)`, `!(has(attributes.a) || has(attributes.b))`},
		{`-attributes:a AND attributes:b`, `!has(attributes.a) && has(attributes.b)`},
		{`attributes:a OR (attributes:b AND attributes:c)`, `has(attributes.a) || has(attributes.b) && has(attributes.c)`},
		{`(attributes:a OR attributes:b) AND attributes:c`, `(has(attributes.a) || has(attributes.b)) && has(attributes.c)`},
		{`attributes.k = "say \"hi\"\n"`, `has(attributes.k) && attributes.k == "say \"hi\"\n"`},
	}
	for _, tc := range cases {
		t.Run(tc.filter, func(t *testing.T) {
			got, err := compile(t, tc.filter).CEL()
			if err != nil || got != tc.cel {
				t.Errorf("CEL() = %q, %v\n want %q", got, err, tc.cel)
			}
		})
	}
}

func TestCELIsOneLine(t *testing.T) {
	src := `attributes.abcdefghij = "0123456789" AND attributes.bcdefghijk = "0123456789" AND attributes.cdefghijkl = "0123456789" AND attributes.defghijklm = "0123456789"`
	got, err := compile(t, src).CEL()
	if err != nil || strings.Contains(got, "\n") {
		t.Errorf("CEL() = %q, %v; want one line", got, err)
	}
}

func TestExplain(t *testing.T) {
	const fixture = `attributes.name = "com" AND -attributes:"lang"`
	cases := []struct {
		name, filter string
		attrs        attrs
		match        bool
		deciding     []string // canonical form = value
		reason       string
	}{
		{"single condition holds", `attributes.name = "com"`, attrs{"name": "com"}, true,
			[]string{`attributes.name = "com" = true`}, `attributes.name = "com" is true ("name" is "com")`},
		{"single condition fails on an absent key", `attributes.name = "com"`, attrs{}, false,
			[]string{`attributes.name = "com" = false`}, `attributes.name = "com" is false (no "name" attribute)`},
		{"!= on an absent key", `attributes.name != "com"`, attrs{"lang": "jp"}, true,
			[]string{`attributes.name != "com" = true`}, `attributes.name != "com" is true (no "name" attribute)`},
		{"AND fails on its first false operand", fixture, attrs{"lang": "cn", "name": "com"}, false,
			[]string{`NOT attributes:lang = false`}, `NOT attributes:lang is false ("lang" is "cn")`},
		{"AND stops at the first false operand", fixture, attrs{"lang": "cn"}, false,
			[]string{`attributes.name = "com" = false`}, `attributes.name = "com" is false (no "name" attribute)`},
		{"AND holds on every operand", fixture, attrs{"name": "com"}, true,
			[]string{`attributes.name = "com" = true`, `NOT attributes:lang = true`},
			`attributes.name = "com" is true ("name" is "com"); NOT attributes:lang is true (no "lang" attribute)`},
		{"OR holds on its first true operand", `attributes:a OR attributes:b OR attributes:c`, attrs{"b": "1", "c": "2"}, true,
			[]string{`attributes:b = true`}, `attributes:b is true ("b" is "1")`},
		{"OR fails on every operand", `attributes:a OR hasPrefix(attributes.b, "x")`, attrs{"b": "yes"}, false,
			[]string{`attributes:a = false`, `hasPrefix(attributes.b, "x") = false`},
			`attributes:a is false (no "a" attribute); hasPrefix(attributes.b, "x") is false ("b" is "yes")`},
		{"NOT over a group explains inside it", `NOT (attributes:name OR attributes.lang = "jp")`, attrs{"lang": "jp"}, false,
			[]string{`attributes.lang = "jp" = true`}, `attributes.lang = "jp" is true ("lang" is "jp")`},
		{"nested NOT keeps every NOT", `NOT NOT attributes:a`, attrs{}, false,
			[]string{`NOT NOT attributes:a = false`}, `NOT NOT attributes:a is false (no "a" attribute)`},
		{"nested groups", `attributes:a AND (attributes:b OR (attributes:c AND attributes:d))`, attrs{"a": "", "c": "", "d": ""}, true,
			[]string{`attributes:a = true`, `attributes:c = true`, `attributes:d = true`},
			`attributes:a is true ("a" is ""); attributes:c is true ("c" is ""); attributes:d is true ("d" is "")`},
		{"long values are cut", `attributes:v`, attrs{"v": strings.Repeat("x", 100)}, true,
			[]string{`attributes:v = true`}, `attributes:v is true ("v" is "` + strings.Repeat("x", 40) + `"…)`},
		{"reasons are capped", `attributes:a AND attributes:b AND attributes:c AND attributes:d AND attributes:e AND attributes:f`,
			attrs{"a": "", "b": "", "c": "", "d": "", "e": "", "f": ""}, true, nil, `attributes:d is true ("d" is ""); and 2 more`},
		{"empty filter", ``, attrs{}, true, []string{}, `there is no filter: every message is delivered`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := compile(t, tc.filter)
			r, err := p.Explain(tc.attrs)
			if err != nil {
				t.Fatal(err)
			}
			if r.Match != tc.match {
				t.Errorf("match %v, want %v", r.Match, tc.match)
			}
			got := []string{}
			for _, d := range r.Deciding {
				if d.Text != filter.Format(d.Expr) {
					t.Errorf("decision text %q is not the canonical form of its node", d.Text)
				}
				got = append(got, d.Text+" = "+strconv.FormatBool(d.Value))
			}
			if tc.deciding != nil && !slices.Equal(got, tc.deciding) {
				t.Errorf("deciding %q, want %q", got, tc.deciding)
			}
			if !strings.HasSuffix(r.Reason, tc.reason) {
				t.Errorf("reason\n got %s\nwant %s", r.Reason, tc.reason)
			}
			// The deciding nodes are the filter's own, so their spans
			// point into its text.
			for _, d := range r.Deciding {
				s := d.Expr.Span()
				if s.Start < 0 || s.End > len(tc.filter) || s.Start >= s.End {
					t.Errorf("deciding span %v outside %q", s, tc.filter)
				}
			}
		})
	}
}

func TestCompileNil(t *testing.T) {
	if _, err := Compile(nil); err == nil {
		t.Error("Compile(nil) should fail")
	}
}

func TestMatchNilAttributes(t *testing.T) {
	p := compile(t, `NOT attributes:a AND attributes.b != "c"`)
	if !match(t, p, nil) {
		t.Error("a message without attributes should match")
	}
}

func TestConcurrentUse(t *testing.T) {
	p := compile(t, `attributes.name = "com" OR hasPrefix(attributes.lang, "e")`)
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func() {
			ok := true
			for i := 1; i < len(pstestMessages); i++ {
				r, err := p.Explain(pstestMessages[i])
				m, err2 := p.Match(pstestMessages[i])
				ok = ok && err == nil && err2 == nil && r.Match == m
			}
			done <- ok
		}()
	}
	for g := 0; g < 4; g++ {
		if !<-done {
			t.Error("concurrent evaluation disagreed or failed")
		}
	}
}

// The deepest filter within 256 bytes still compiles and evaluates.
func TestDeepestFilter(t *testing.T) {
	n := filter.MaxBytes - len("attributes:a")
	p := compile(t, strings.Repeat("-", n)+"attributes:a")
	want := n%2 == 1 // an odd number of NOTs turns "has a" around
	if got := match(t, p, attrs{"a": ""}); got != !want {
		t.Errorf("got %v with %d NOTs", got, n)
	}
	if _, err := p.CEL(); err != nil {
		t.Error(err)
	}
}
