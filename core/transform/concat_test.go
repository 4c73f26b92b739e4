//go:build !noudf && !quickjs

package transform

import (
	"math/rand"
	"runtime"
	"testing"
)

// TestConcatSemantics runs random expressions of +, *, **, << and their
// compound assignments (on a name, on a property after a dot, plain or
// with a getter and a setter, and on a computed property, whose key's
// conversion logs), parentheses, commas and templates over strings,
// numbers, BigInt, a Date and objects whose conversions and getters log
// their calls (one with Symbol.toPrimitive, one that throws), once in a
// plain goja runtime and once as a UDF, whose operators the
// instrumentation rewrites (instrument.go): the value, the order of the
// conversions and every side effect must be the same. Ad hoc runs of
// 18,000 expressions with random seeds found no difference.
func TestConcatSemantics(t *testing.T) {
	n := 1000
	if testing.Short() || runtime.GOARCH == "wasm" {
		// A runtime starts several times slower under js/wasm.
		n = 200
	}
	r := rand.New(rand.NewSource(14))
	atoms := []string{"'a'", "1", "s", "n", "o", "d", "null", "true", "(s, 2)", "[1,2]", "1n", "k.p", "k['q']", "g()", "`t${n}`", "tp", "bad", "2n", "bn"}
	var gen func(depth int) string
	gen = func(depth int) string {
		if depth > 3 || r.Intn(3) == 0 {
			return atoms[r.Intn(len(atoms))]
		}
		switch r.Intn(16) {
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
		case 8:
			// A key whose conversion logs, and one that puts another
			// object in k.
			return "(k[ko] += " + gen(depth+1) + ")"
		case 9:
			// A key that assigns to the base's name (left to
			// rightName).
			return "(k[(k = {p: 'R', q: 'Q'}, 'q')] += " + gen(depth+1) + ")"
		case 10:
			return "(k['q'] += " + gen(depth+1) + ")"
		case 11:
			// *, ** and <<, which have the same conversions (with the
			// hint "number") and checks of their own.
			return "(" + gen(depth+1) + " * " + gen(depth+1) + ")"
		case 12:
			return "((" + gen(depth+1) + ") ** " + gen(depth+1) + " << " + gen(depth+1) + ")"
		case 13:
			return "(s *= " + gen(depth+1) + ")"
		case 14:
			return "(h.v <<= " + gen(depth+1) + ")"
		default:
			return gen(depth+1) + " + (" + gen(depth+1) + " + " + gen(depth+1) + ")"
		}
	}
	prelude := "var log = ''; var s = 'S', n = 2, o = {valueOf: function () { log += 'v'; return 7 }, toString: function () { log += 't'; return 'O' }}, d = new Date(0), k = {p: 'P', q: 'Q'}, g = function () { log += 'g'; return 'G' }, h = {w: 'W', get v() { log += 'r'; return this.w }, set v(x) { log += 'w'; this.w = x }}, ko = {toString: function () { log += 'K'; return 'p' }}, tp = {[Symbol.toPrimitive]: function (h) { log += h[0]; return h === 'number' ? 3 : 'T' }}, bn = {valueOf: function () { log += 'n'; return 5n }}, bad = {valueOf: function () { log += 'b'; return {} }, toString: function () { log += 'B'; throw new RangeError('no') }};\n"
	for range n {
		e := gen(0)
		w, got := runBoth(t, prelude+"var r; try { r = String("+e+") } catch (x) { r = 'E:' + x.name }\nreturn r + '|' + log + '|' + s + '|' + k.p + '|' + k.G + '|' + h.w")
		if got != w {
			t.Fatalf("%s\n got %q\nwant %q", e, got, w)
		}
	}
}

// TestPlusAssignTargets: a += on a property of a name or this, which the
// instrumentation rewrites to read it once and set it (instrument.go,
// readTwice), runs its getters, setters and key conversions in goja's
// order, and fails as goja's does.
func TestPlusAssignTargets(t *testing.T) {
	prelude := `var L = []; var k = {toString: function () { L.push('K'); return 'p' }};
var o = {get p() { L.push('get'); return 'a' }, set p(v) { L.push('set:' + v) }};
function R(v) { L.push('R'); return v }
`
	tests := []string{
		`o[k] += R(1); return L.join()`,
		`o.p += R(1); return L.join()`,
		`var n = null; try { n[k] += R(1) } catch (e) { L.push(e.name) } return L.join()`,
		`var n; try { n.p += R(1) } catch (e) { L.push(e.name) } return L.join()`,
		`var s = {[Symbol.toPrimitive]: function (h) { L.push(h); return 'q' }}, x = {q: 'Q'}; x[s] += R('!'); return L.join() + x.q`,
		`var a = [1, 2]; a[0] += 5; a[3] += 'x'; return JSON.stringify(a)`,
		`var str = 'abc'; str[0] += 'x'; return str + L.join()`,
		`'use strict'; var str = 'abc'; try { str[0] += 'x' } catch (e) { return e.name }`,
		`'use strict'; var f = Object.freeze({p: 'a'}); try { f.p += 'b' } catch (e) { return e.name + f.p }`,
		`var f = Object.freeze({p: 'a'}); f.p += 'b'; return f.p`,
		`var obj = {p: 'a', m: function () { this.p += R('b'); this[k] += 'c'; return this.p }}; return obj.m() + L.join()`,
		`var x = {p: 'a'}, y = x; x[(x = {p: 'z'}, 'p')] += R('b'); return y.p + x.p + L.join()`,
		`var x = {p: 'a'}, y = x; x.p += (x = {p: 'z'}, 'b'); return y.p + x.p`,
		`var sym = Symbol('s'), x = {}; x[sym] += 'v'; return x[sym]`,
		`var x = {p: 1n}; x['p'] += 2n; return String(x.p)`,
	}
	sameAsGoja(t, prelude, tests)
}
