//go:build !noudf && !quickjs

package transform

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/subplay/subplay/core/message"
)

// runBoth runs body (statements that end in return) in a plain goja
// runtime and as a UDF, and returns what each gave.
func runBoth(t *testing.T, body string) (plain, udf string) {
	t.Helper()
	vm := goja.New()
	want, err := vm.RunString("(function () {" + body + "})()")
	if err != nil {
		plain = "ERR " + err.Error()
	} else {
		plain = want.String()
	}
	return plain, runUDF(t, "function f(m) { return {data: String((function () {"+body+"})())} }")
}

// sameAsGoja runs each body after prelude with runBoth and reports those
// whose result differs from plain goja's.
func sameAsGoja(t *testing.T, prelude string, bodies []string) {
	t.Helper()
	for _, b := range bodies {
		plain, udf := runBoth(t, prelude+b)
		if plain != udf {
			t.Errorf("%s\n  as a UDF: %q\n plain goja: %q", b, udf, plain)
		}
	}
}

// runUDF runs code, which defines f, on one message "x", and returns the
// data it gives, or its outcome and findings.
func runUDF(t *testing.T, code string) string {
	t.Helper()
	return runUDFOn(t, code, message.Message{Data: []byte("x")})
}

// runUDFOn is runUDF on the message m.
func runUDFOn(t *testing.T, code string, m message.Message) string {
	t.Helper()
	p, _ := Compile([]UDF{{FunctionName: "f", Code: code}}, Options{})
	if len(p.Diagnostics[0]) > 0 {
		t.Fatalf("%s: %v", code, p.Diagnostics[0])
	}
	st := p.Run(m)
	if st[0].Message != nil {
		return string(st[0].Message.Data)
	}
	return fmt.Sprint(st[0].Outcome, st[0].Diagnostics)
}

// TestStringifySemantics: the guarded JSON.stringify (stringify.go) gives
// what goja's own gives, with the same calls of the UDF's replacer,
// getters, toJSON and conversions, in the same order.
func TestStringifySemantics(t *testing.T) {
	prelude := `var log = []; var L = function (s) { log.push(s) };
var g = {get a() { L('ga'); return 1 }, get b() { L('gb'); return {c: 2} }, d: 'x'};
var tj = {toJSON: function (k) { L('tj:' + k); return [k, 1] }};
var numObj = {valueOf: function () { L('nv'); return 3 }};
`
	tests := []string{
		`return JSON.stringify({a: 1, b: [1, 'two', null, true, undefined, function () {}], c: {d: {}}, e: []})`,
		`return JSON.stringify([undefined, function () {}, Symbol('s')]) + JSON.stringify({u: undefined, f: function () {}})`,
		`return JSON.stringify('a"b\\c\n\u0001é😀') + JSON.stringify({'k"\n': 1})`,
		`return JSON.stringify({a: [1, {b: 2}], c: 'x'}, null, 2)`,
		`return JSON.stringify({a: [1, {b: 2}], c: []}, null, '--')`,
		`return JSON.stringify({a: [1]}, null, 20) + JSON.stringify({a: [1]}, null, 'abcdefghijklmno')`,
		`return JSON.stringify({a: [1]}, null, new Number(3)) + JSON.stringify({a: [1]}, null, new String('**'))`,
		`var n = new Number(3); n.valueOf = function () { L('sp'); return 4 }; return JSON.stringify({a: [1]}, null, n) + log`,
		`return JSON.stringify(g) + log`,
		`return JSON.stringify({x: tj, y: [tj]}) + log`,
		`return JSON.stringify({a: 1, b: {a: 2, c: 3}}, function (k, v) { L(k + '@' + (this === undefined ? 'u' : typeof this)); return typeof v === 'number' ? v * 10 : v }) + log`,
		`return JSON.stringify({a: 1, b: [1, 2]}, function (k, v) { return k === 'b' ? 'gone' : v })`,
		`return JSON.stringify({a: 1, b: 2, c: {a: 3, d: 4}}, ['a', 'c'])`,
		`return JSON.stringify({b: 1, 1: 2, a: 3, 0: 4}, ['b', '1', 'a', 0, 'b', new String('0'), new Number(1), true, null, {}])`,
		`return JSON.stringify([{a: 1, z: 2}, {z: 3}], ['z', 'a'])`,
		`return JSON.stringify(g, ['b', 'a', 'c']) + log`,
		`var p = Object.create({inh: 'i'}); p.own = 1; return JSON.stringify(p, ['inh', 'own', 'none'])`,
		`return JSON.stringify({a: 1, b: [1, {a: 2}]}, ['a', 'b'], 2)`,
		`var o = {}; o.self = o; try { return JSON.stringify(o) } catch (e) { return e.name }`,
		`var o = {a: {}}; o.a.up = o; try { return JSON.stringify(o, ['a', 'up']) } catch (e) { return e.name }`,
		`var a = []; a.push({x: a}); try { return JSON.stringify(a, ['x']) } catch (e) { return e.name }`,
		`var s = {a: 1}; return JSON.stringify([s, s, {b: s}], ['a', 'b'])`,
		`return JSON.stringify(new Uint8Array([1, 2, 3])) + JSON.stringify(new Map([[1, 2]])) + JSON.stringify(new Date(0))`,
		`return JSON.stringify([new String('s'), new Number(2), new Boolean(false), Object(Symbol())])`,
		`try { return JSON.stringify({a: 1n}) } catch (e) { return e.name }`,
		`var a = [1, , 3]; a.length = 5; return JSON.stringify(a)`,
		`return JSON.stringify([Array(3000), new Proxy(Array(3), {})], null, 1)`,
		`return JSON.stringify(undefined) + JSON.stringify(function () {}) + JSON.stringify(null) + JSON.stringify(NaN) + JSON.stringify(-0)`,
		`return JSON.stringify(new Proxy({a: 1}, {})) + JSON.stringify(new Proxy([1, 2], {}))`,
		`return JSON.stringify({a: 1}, 'not a replacer', {}) + JSON.stringify({a: 1}, null, true) + JSON.stringify([1], null, NaN) + JSON.stringify([1], null, -Infinity) + JSON.stringify([1], null, 3.7)`,
		`var r = [{a: 1}]; try { return JSON.stringify(r, function (k, v) { throw new Error('in ' + k) }) } catch (e) { return e.message }`,
		`return JSON.stringify({a: {b: {c: 1}}}, function (k, v) { return k === 'b' ? [this.b === v, 1] : v })`,
		`return typeof JSON.stringify + JSON.stringify.length + JSON.stringify.name`,
		`return JSON.stringify(JSON.rawJSON('123'))`,
		`return JSON.stringify({a: numObj, b: [numObj]}) + log`,
		`var s = new String('ab'), n = new Number(2); s.toString = function () { L('st'); return 'x'.repeat(3000) }; n.valueOf = function () { L('nv'); return 7 }; return JSON.stringify([s, {n: n, s: s}]) + log`,
		`var s = new String('ab'); s.toString = function () { L('st'); return {} }; s.valueOf = function () { L('sv'); return 5 }; return JSON.stringify([s]) + log`,
		`var n = new Number(2); n.valueOf = function () { L('nv'); return '12' }; return JSON.stringify({n: n}) + log`,
		"var s = 'a\"b\\\\c\\n\\b\\f\\r\\t\\u0001\\u001f\\u007f /'; return JSON.stringify([s.repeat(300), {k: s.repeat(100) + 'é'}, 'x'.repeat(1024), s.repeat(200)], null, 1)",
	}
	sameAsGoja(t, prelude, tests)
}

// TestStringifyBounded: what stringify would write past the bounds is
// refused before it is written, and what fits is written.
func TestStringifyBounded(t *testing.T) {
	tests := []struct{ name, code, want string }{
		{"repeated long strings", `JSON.stringify(Array(1000).fill('x'.repeat(1e6)))`, "RangeError"},
		{"escapes counted", `JSON.stringify(Array(20).fill('\u0001'.repeat(2e5)))`, "RangeError"},
		{"long keys", `var o = {}; o['k'.repeat(1e6)] = 1; JSON.stringify(Array(20).fill(o))`, "RangeError|udf-budget"},
		{"deep", `var a = []; for (var i = 0; i < 2000; i++) a = [a]; JSON.stringify(a)`, "RangeError"},
		{"deep indent", `var a = []; for (var i = 0; i < 900; i++) a = [a]; JSON.stringify([a, a, a], null, 10)`, "RangeError"},
		{"shared arrays", `var a = Array(1000).fill(0), b = Array(1000).fill(a); JSON.stringify(Array(100).fill(b))`, "RangeError|udf-budget"},
		{"sparse", `JSON.stringify(Array(1e8))`, "RangeError"},
		{"sparse inside", `JSON.stringify({a: [1, Array(3e6)]})`, "RangeError"},
		{"sparse behind a Proxy", `JSON.stringify(new Proxy(Array(1e8), {}))`, "udf-budget"},
		{"property list", `var l = []; l.length = 4e9; JSON.stringify({}, l)`, "udf-budget"},
		{"typed array", `JSON.stringify(new Uint8Array(1e7))`, "udf-budget"},
		{"a String object's own toString", `var s = new String('a'), big = 'x'.repeat(1e6); s.toString = function () { return big }; JSON.stringify(Array(100).fill(s))`, "RangeError"},
		{"fits", `var s = JSON.stringify(Array(40).fill('x'.repeat(1e5))); if (s.length !== 40 * 100002 + 41) throw new Error('length ' + s.length)`, ""},
	}
	// On a message that gets the largest allocation budget: writing
	// escapes costs goja some 7 bytes allocated per byte written, so on a
	// small message the call's budget (32 MiB) and UDFJSONBytes (4 MiB)
	// come close together, and either may stop "escapes counted" first.
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := runUDFOn(t, "function f(m) { try { "+tc.code+" } catch (e) { return {data: 'caught ' + e.name + ': ' + e.message} } return m }", roomy)
			switch {
			case tc.want == "" && got != string(roomy.Data):
				t.Errorf("got %.300s", got)
			case tc.want != "" && !slices.ContainsFunc(strings.Split(tc.want, "|"), func(w string) bool { return strings.Contains(got, w) }):
				t.Errorf("got %.300s, want %s", got, tc.want)
			}
		})
	}
}
