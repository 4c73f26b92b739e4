//go:build !noudf && !quickjs

package transform

import (
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja/parser"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/message"
)

// deepShapes are ways code makes goja's parser or compiler recurse, each a
// link repeated n times (see depth.go). In js/wasm (scripts/test runs this
// package under Node too) one the depth scan let through at the size that
// overflows would end the test binary.
var deepShapes = []struct {
	name string
	code func(n int) string
}{
	{"parentheses", func(n int) string { return "var x = " + rep("(", n) + "1" + rep(")", n) + ";" }},
	{"arrays", func(n int) string { return "var x = " + rep("[", n) + rep("]", n) + ";" }},
	{"objects", func(n int) string { return "var x = " + rep("{a:", n) + "1" + rep("}", n) + ";" }},
	{"call arguments", func(n int) string { return "var x = " + rep("f(", n) + "1" + rep(")", n) + ";" }},
	{"blocks", func(n int) string { return rep("{", n) + rep("}", n) }},
	{"functions", func(n int) string { return rep("function g(){", n) + rep("}", n) }},
	{"templates", func(n int) string { return "var x = " + rep("`${", n) + "1" + rep("}`", n) + ";" }},
	{"assignments", func(n int) string { return "var a; " + rep("a=", n) + "1;" }},
	{"compound assignments", func(n int) string { return "var a = 0; " + rep("a += ", n) + "1;" }},
	{"multiplying assignments", func(n int) string { return "var a = 1; " + rep("a *= ", n) + "1;" }},
	{"conditionals", func(n int) string { return "var x = " + rep("1?1:", n) + "1;" }},
	{"nested conditionals", func(n int) string { return "var x = " + rep("1?", n) + "1" + rep(":1", n) + ";" }},
	{"arrows", func(n int) string { return "var x = " + rep("x=>", n) + "1;" }},
	{"not", func(n int) string { return "var x = " + rep("!", n) + "1;" }},
	{"minus", func(n int) string { return "var x = " + rep("- ", n) + "1;" }},
	{"typeof", func(n int) string { return "var x = " + rep("typeof ", n) + "1;" }},
	{"void", func(n int) string { return "var x = " + rep("void ", n) + "1;" }},
	{"new", func(n int) string { return "var x = " + rep("new ", n) + "Object;" }},
	{"increments", func(n int) string { return "var a, x = " + rep("++ ", n) + "a;" }},
	{"spreads", func(n int) string { return "var x = [" + rep("...", n) + "[]];" }},
	{"exponents", func(n int) string { return "var x = " + rep("1**", n) + "1;" }},
	{"comparisons", func(n int) string { return "var x = 1" + rep("<1", n) + ";" }},
	{"in", func(n int) string { return "var m = {}, x = 1" + rep(" in m", n) + ";" }},
	{"sums", func(n int) string { return "var m = 'x', x = m" + rep("+m", n) + ";" }},
	{"right sums", func(n int) string { return "var m = 'x', x = " + rep("m+(", n) + "m" + rep(")", n) + ";" }},
	{"logic", func(n int) string { return "var x = 1" + rep("&&1", n) + ";" }},
	{"nullish", func(n int) string { return "var x = null" + rep("??1", n) + ";" }},
	{"members", func(n int) string { return "var m = {}; var x = () => m" + rep(".a", n) + ";" }},
	{"optional members", func(n int) string { return "var m = {}; var x = m" + rep("?.a", n) + ";" }},
	{"indexes", func(n int) string { return "var m = {}; var x = () => m" + rep("[0]", n) + ";" }},
	{"calls", func(n int) string { return "var g = function () { return g }; var x = g" + rep("()", n) + ";" }},
	{"tagged templates", func(n int) string { return "var g = function () { return g }; var x = g" + rep("``", n) + ";" }},
	{"ifs", func(n int) string { return rep("if(0)", n) + ";" }},
	{"else ifs", func(n int) string { return rep("if(0);else ", n) + ";" }},
	{"else ifs with blocks", func(n int) string { return rep("if(0){}else ", n) + "{}" }},
	{"whiles", func(n int) string { return rep("while(0)", n) + ";" }},
	{"fors", func(n int) string { return rep("for(;0;)", n) + ";" }},
	{"dos", func(n int) string { return rep("do ", n) + ";" + rep("while(0)", n) }},
	{"withs", func(n int) string { return "var m = {};" + rep("with(m)", n) + ";" }},
	{"labels", func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString("l" + strconv.Itoa(i) + ":")
		}
		return b.String() + ";"
	}},
	{"groups in a regular expression", func(n int) string { return "var x = /" + rep("(", n) + "a" + rep(")", n) + "/;" }},
	{"classes", func(n int) string { return "var x = " + rep("class extends ", n) + "Object" + rep(" {}", n) + ";" }},
	{"yields", func(n int) string { return "function* g() { " + rep("yield ", n) + "1 }" }},
	{"awaits", func(n int) string { return "async function g() { " + rep("await ", n) + "1 }" }},
	// A line break between links, where a statement cannot end.
	{"assignments on lines", func(n int) string { return "var a;\n" + rep("a =\n", n) + "1;" }},
	{"sums on lines", func(n int) string { return "var a = 'x', x = a\n" + rep("+ a\n", n) + ";" }},
	{"ifs on lines", func(n int) string { return rep("if (0)\n", n) + ";" }},
	{"members on lines", func(n int) string { return "var m = {}; var x = () => m\n" + rep(".a\n", n) + ";" }},
	// goja's parser takes a ";" or "," for the ":" a conditional waits
	// for and goes on one level deeper.
	{"conditionals closed by semicolons", func(n int) string { return "var a, b; " + rep("a?b;", n) + "1" }},
	{"conditionals closed by commas", func(n int) string { return "var a, b, x = " + rep("a?b,", n) + "1" }},
	// Blocks and bodies between the links.
	{"ifs and functions", func(n int) string { return rep("if(0) x = function () {", n) + rep("}", n) }},
	{"conditionals and arrows", func(n int) string { return "var x = " + rep("0 ? () => {} : ", n) + "1;" }},
	{"commas and functions", func(n int) string { return rep("if(0) a, function () {", n) + rep("}", n) }},
}

func rep(s string, n int) string { return strings.Repeat(s, n) }

// longest is the most links of shape that fit in a UDF's code.
func longest(code func(int) string) int {
	lo, hi := 1, limits.UDFCodeBytes
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; len(code(mid))+64 <= limits.UDFCodeBytes {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

func compileUDF(code string) (*Program, []diag.Diagnostic) {
	p, err := Compile([]UDF{{FunctionName: "f", Code: code}}, Options{})
	if err != nil {
		panic(err)
	}
	return p, p.Diagnostics[0]
}

// Every shape, as long as the code may be and at sizes around the bound:
// run, or refused with a finding, never the end of the instance; as long
// as the code may be, refused for its depth, at a position in the code.
func TestDeepShapes(t *testing.T) {
	for _, sh := range deepShapes {
		t.Run(sh.name, func(t *testing.T) {
			most := longest(sh.code)
			for _, n := range []int{1, 20, 200, 1000, most} {
				if n > most {
					continue
				}
				code := sh.code(n) + "\nfunction f(m) { return m }"
				p, ds := compileUDF(code)
				if p.udfs[0].ok {
					if steps := p.Run(message.Message{Data: []byte("x")}); len(steps) != 1 {
						t.Fatalf("n=%d: %d steps", n, len(steps))
					}
				}
				deep := false
				for _, d := range ds {
					if d.Code == "udf-nesting-too-deep" {
						deep = true
						if o := d.Span.Start.Offset(); !d.Span.IsValid() || o < 0 || o >= len(code) {
							t.Errorf("n=%d: finding at %v, outside the code", n, d.Span)
						}
					}
				}
				if n == most && !deep {
					t.Errorf("n=%d (%d bytes): not refused for its depth: %v", n, len(code), ds)
				}
			}
		})
	}
}

// Code as people write it stays far below the bound.
func TestOrdinaryCodeIsShallow(t *testing.T) {
	lines := func(n int, f func(i int) string) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(f(i) + "\n")
		}
		return b.String()
	}
	cases := map[string]string{
		"statements without semicolons": lines(2000, func(i int) string {
			return fmt.Sprintf("const v%d = m.attributes['k%d'] ? JSON.parse(m.data).a.b[%d] + 1 : -1", i, i, i)
		}),
		"statements on one line": strings.Repeat("a = b.c(d) + e * 2 - (f ? g : h); ", 2000),
		"ifs in a row": lines(500, func(i int) string {
			return fmt.Sprintf("if (m.attributes.k === '%d') { m.attributes.v = '%d' }", i, i)
		}),
		"else-if ladder": "if (a === 0) { x = 0 }" + lines(60, func(i int) string {
			return fmt.Sprintf(" else if (a === %d) { x = %d }", i+1, i)
		}),
		"switch": "switch (a) {\n" + lines(500, func(i int) string {
			return fmt.Sprintf("case %d: x = %d; break", i, i)
		}) + "}",
		"fallthrough cases": "switch (a) {\n" + lines(50, func(i int) string { return fmt.Sprintf("case %d:", i) }) + "x = 1 }",
		"class": "class A {\n" + lines(300, func(i int) string {
			return fmt.Sprintf("m%d(x) { const y = x + %d; return y * 2 }", i, i)
		}) + "}",
		"object literal": "const o = {" + strings.Repeat("a: 1, b: 'x', c: [1, 2], d: {e: f(g)}, ", 1000) + "};",
		"methods in an object": "const o = {\n" + lines(300, func(i int) string {
			return fmt.Sprintf("m%d(x) { a = 1; b = 2; c = 3; return a + b + c },", i)
		}) + "}",
		"long method": "const o = {\n  m(x) {\n" + lines(300, func(i int) string {
			return fmt.Sprintf("    a%d = x.b%d;", i, i)
		}) + "  }\n}",
		"long sum":               "const s = 'a'\n" + strings.Repeat("  + m.data\n", 60) + ";",
		"promise chain":          "p" + strings.Repeat("\n  .then(x => x + 1)\n  .catch(e => { console.log(e) })", 40),
		"nested data":            "const d = " + rep("{a: [", 20) + "1" + rep("]}", 20),
		"functions in functions": rep("function g() { var a = 1;\n", 15) + rep("}\n", 15),
		"regular expressions":    lines(500, func(int) string { return `x = /[(]+'"/.test(s) ? s.replace(/\/\*{/g, '') : s` }),
		"templates":              lines(500, func(i int) string { return fmt.Sprintf("x = `a${b + `c${d}`}e${f(g)}`; y = %d", i) }),
		"comments":               lines(500, func(int) string { return "x = 1 // ((((( ? ? ? \n/* {{{{ [[[ */ y = 2" }),
	}
	for name, code := range cases {
		t.Run(name, func(t *testing.T) {
			if len(code) > limits.UDFCodeBytes {
				code = code[:limits.UDFCodeBytes]
			}
			if o := nesting(code, limits.UDFNesting/4); o >= 0 {
				t.Errorf("passes a quarter of the bound at %d: %q", o, code[max(o-80, 0):o])
			}
		})
	}
}

// Random code nested from links that nest (a bracket, an operator, a
// statement), each after something that may end a statement or an operand
// (a ";", a ",", a line break, a block), so that the scan's resets meet every
// kind of link: whatever the scan lets through must not end the instance
// (in js/wasm, where scripts/test runs this package too). The soup tests
// the scan only if some programs get through to the parser and some are
// refused: the test fails when all or none are. SUBPLAY_DEPTH_SOUP=N tries
// N programs instead of 40, SUBPLAY_DEPTH_SEED another seed.
func TestDepthSoup(t *testing.T) {
	runs := 40
	if n, err := strconv.Atoi(os.Getenv("SUBPLAY_DEPTH_SOUP")); err == nil {
		runs = n
	}
	seed := uint64(1)
	if s, err := strconv.ParseUint(os.Getenv("SUBPLAY_DEPTH_SEED"), 10, 64); err == nil {
		seed = s
	}
	links := [][2]string{{"(", ")"}, {"[", "]"}, {"{", "}"}, {"{a:", "}"}, {"f(", ")"}, {"`${", "}`"},
		{"if(a)", ""}, {"if(a);else ", ""}, {"while(a)", ""}, {"l:", ""}, {"do ", " while(a)"},
		{"a=", ""}, {"a+=", ""}, {"!", ""}, {"-", ""}, {"typeof ", ""}, {"new ", ""}, {"a?b:", ""}, {"a?", ":b"},
		{"x=>", ""}, {"1**", ""}, {"1<", ""}, {"1&&", ""}, {"function(){", "}"}, {"()=>{", "}"},
		{"class{m(){", "}}"}, {"a.b(", ")"}, {"a?b;", ""}, {"a?b,", ""}}
	seps := []string{"", "", "", ";", ",", "\n", "a;", "a\n", "{}", "{};", "a,", "b=1\n", "case 1:", "/x/;", "'",
		"return ", "}", ")"}
	rnd := rand.New(rand.NewPCG(seed, 2))
	accepted := 0
	for r := 0; r < runs; r++ {
		// Few kinds of link in one program: a chain of one kind is how
		// depth is made cheaply.
		kinds := make([][2]string, 1+rnd.IntN(3))
		for k := range kinds {
			kinds[k] = links[rnd.IntN(len(links))]
		}
		sep := []string{seps[rnd.IntN(len(seps))], seps[rnd.IntN(len(seps))]}
		var open, close strings.Builder
		// Up to 2^11 links, as many short chains as long ones.
		for n := 1 << rnd.IntN(12); n > 0; n-- {
			l := kinds[rnd.IntN(len(kinds))]
			open.WriteString(sep[rnd.IntN(2)] + l[0])
			close.WriteString(reverse(l[1]))
		}
		code := open.String() + "1" + reverse(close.String())
		if len(code) > limits.UDFCodeBytes-64 {
			code = code[:limits.UDFCodeBytes-64]
		}
		code += "\nfunction f(m) { return m }"
		if nesting(code, limits.UDFNesting) < 0 {
			accepted++ // parsed
		}
		if p, _ := compileUDF(code); p.udfs[0].ok {
			p.Run(message.Message{Data: []byte("x")})
		}
	}
	t.Logf("the scan let %d of %d programs through to the parser", accepted, runs)
	if !(0 < accepted && accepted < runs) {
		t.Errorf("the scan let %d of %d programs through to the parser: the soup tests nothing unless some reach the parser and some are refused", accepted, runs)
	}
}

// reverse reverses s by bytes (the closers are ASCII).
func reverse(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}

// FuzzDepth: the scan never panics, refuses at an offset inside the code,
// and what it lets through parses (natively, where the stack is large) to
// a tree no deeper than its cheapest link allows: limits.UDFNesting
// levels of member accesses (an eighth each), with room to spare. A
// deeper tree is a way down the scan does not see.
func FuzzDepth(f *testing.F) {
	for _, sh := range deepShapes {
		f.Add(sh.code(3))
	}
	f.Add("if (a) { b = c ? d : e } else if (f) { g(h => h + 1) }\nvar x = `a${b}c` + /re(g)/.source")
	f.Fuzz(func(t *testing.T, code string) {
		if len(code) > limits.UDFCodeBytes {
			return
		}
		o := nesting(code, limits.UDFNesting)
		if o < -1 || o >= len(code) {
			t.Fatalf("refused at %d, outside %d bytes", o, len(code))
		}
		if o >= 0 {
			return
		}
		prog, _ := parser.ParseFile(nil, "x", code, 0)
		if prog == nil {
			return
		}
		bound := 2 * limits.UDFNesting * unitBracket / unitMember
		if d := treeHeight(reflect.ValueOf(prog), map[uintptr]int{}); d > bound {
			t.Fatalf("the scan let through a tree %d nodes deep (bound %d)", d, bound)
		}
	})
}

// treeHeight is how deeply AST nodes nest under v. A node can be reached
// twice (a function's declarations are listed twice): heights are kept by
// address.
func treeHeight(v reflect.Value, memo map[uintptr]int) int {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return 0
		}
		if v.Kind() == reflect.Interface {
			return treeHeight(v.Elem(), memo)
		}
		if h, ok := memo[v.Pointer()]; ok {
			return h
		}
		h := treeHeight(v.Elem(), memo)
		if v.Type().Implements(nodeType) {
			h++
		}
		memo[v.Pointer()] = h
		return h
	case reflect.Struct:
		most := 0
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				most = max(most, treeHeight(v.Field(i), memo))
			}
		}
		return most
	case reflect.Slice:
		most := 0
		for i := 0; i < v.Len(); i++ {
			most = max(most, treeHeight(v.Index(i), memo))
		}
		return most
	}
	return 0
}
