//go:build !noudf

package transform

import (
	"math/rand"
	"runtime"
	"testing"
)

// TestConcatSemantics runs random expressions of +, += (on a name, on a
// property after a dot, plain or with a getter and a setter, and on a
// computed property), parentheses, commas and templates over strings, numbers,
// BigInt, a Date and objects whose conversions and getters log their
// calls, once in a plain goja runtime and once as a UDF, whose + and +=
// the instrumentation rewrites (instrument.go): the value, the order of
// the conversions and every side effect must be the same. Ad hoc runs of
// 18,000 expressions with random seeds found no difference.
func TestConcatSemantics(t *testing.T) {
	n := 1000
	if testing.Short() || runtime.GOARCH == "wasm" {
		// A runtime starts several times slower under js/wasm.
		n = 200
	}
	r := rand.New(rand.NewSource(14))
	atoms := []string{"'a'", "1", "s", "n", "o", "d", "null", "true", "(s, 2)", "[1,2]", "1n", "k.p", "k['q']", "g()", "`t${n}`"}
	var gen func(depth int) string
	gen = func(depth int) string {
		if depth > 3 || r.Intn(3) == 0 {
			return atoms[r.Intn(len(atoms))]
		}
		switch r.Intn(9) {
		case 0:
			return "(" + gen(depth+1) + ")"
		case 1:
			return gen(depth+1) + " + " + gen(depth+1)
		case 2:
			return "((" + gen(depth+1) + ") + " + gen(depth+1) + ")"
		case 3:
			return "(s += " + gen(depth+1) + ")"
		case 4:
			return "(k.p += " + gen(depth+1) + ")"
		case 5:
			// A getter and a setter that log, and a right operand that
			// puts another object in k: the value read and the object
			// set must be those of the k before it.
			return "(h.v += " + gen(depth+1) + ")"
		case 6:
			return "(k.p += (k = {p: 'R', q: 'Q'}, " + gen(depth+1) + "))"
		case 7:
			return "(k[g()] += " + gen(depth+1) + ")"
		default:
			return gen(depth+1) + " + (" + gen(depth+1) + " + " + gen(depth+1) + ")"
		}
	}
	prelude := "var log = ''; var s = 'S', n = 2, o = {valueOf: function () { log += 'v'; return 7 }, toString: function () { log += 't'; return 'O' }}, d = new Date(0), k = {p: 'P', q: 'Q'}, g = function () { log += 'g'; return 'G' }, h = {w: 'W', get v() { log += 'r'; return this.w }, set v(x) { log += 'w'; this.w = x }};\n"
	for range n {
		e := gen(0)
		w, got := runBoth(t, prelude+"var r; try { r = String("+e+") } catch (x) { r = 'E:' + x.name }\nreturn r + '|' + log + '|' + s + '|' + k.p + '|' + k.G + '|' + h.w")
		if got != w {
			t.Fatalf("%s\n got %q\nwant %q", e, got, w)
		}
	}
}
