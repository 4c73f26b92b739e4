//go:build !noudf && !quickjs

package transform

import (
	"strconv"
	"testing"

	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/message"
)

// TestChainsRefused: every way a UDF can make an object inherit through a
// longer chain (chains.go) is refused once the chain passes the bound,
// before any loop reads through it. Each body would otherwise build a
// chain of 20,000 (the corpus's cases read it until the 10 s net).
func TestChainsRefused(t *testing.T) {
	x := message.Message{Data: []byte("x")}
	grow := func(step string) string {
		return "var o = {}; for (var i = 0; i < 20000; i++) { " + step + " } return {data: 'built'}"
	}
	for _, tc := range []struct{ name, body string }{
		{"Object.create", grow("o = Object.create(o)")},
		{"Object.setPrototypeOf", grow("var p = {}; Object.setPrototypeOf(p, o); o = p")},
		{"Reflect.setPrototypeOf", grow("var p = {}; Reflect.setPrototypeOf(p, o); o = p")},
		{"the __proto__ setter", grow("var p = {}; p.__proto__ = o; o = p")},
		{"Object.assign's set of __proto__", grow("var p = {}; Object.assign(p, {['__proto__']: o}); o = p")},
		{"a literal's __proto__", grow("o = {__proto__: o}")},
		{"new of a function", "function F() {} " + grow("F.prototype = o; o = new F()")},
		{"a function's this leaked by a default that throws", "function F(a = (o = this, 0), b = (function () { throw 1 })()) {} " + grow("F.prototype = o; try { new F() } catch (e) {}")},
		{"a base class's this leaked by a field that throws", "function F() {} class A { x = (o = this, 0); y = (function () { throw 1 })() } " + grow("F.prototype = o; try { Reflect.construct(A, [], F) } catch (e) {}")},
		{"a base class's this leaked by its constructor that throws", "function F() {} class A { constructor() { o = this; throw 1 } } " + grow("F.prototype = o; try { Reflect.construct(A, [], F) } catch (e) {}")},
		{"a derived class's this leaked by a field that throws", "function F() {} class B {} class A extends B { x = (o = this, 0); y = (function () { throw 1 })() } " + grow("F.prototype = o; try { Reflect.construct(A, [], F) } catch (e) {}")},
		{"a derived class's this leaked after super() that throws", "function F() {} class A extends Array { constructor() { super(); o = this; throw 1 } } " + grow("F.prototype = o; try { Reflect.construct(A, [], F) } catch (e) {}")},
		{"a class's extends", "var C = class {}; for (var i = 0; i < 20000; i++) C = class extends C {}; return {data: 'built'}"},
		{"Reflect.construct of a built-in", "function F() {} " + grow("F.prototype = o; o = Reflect.construct(Array, [], F)")},
		{"Proxies of Proxies", grow("o = new Proxy(o, {})")},
		{"a Proxy's prototype as new.target", grow("var P = new Proxy(Array.bind(), {get(t, k) { return k === 'prototype' ? o : t[k] }}); o = new P()")},
		{"a Proxy's inherited prototype as new.target", grow("var b = Array.bind(); Object.setPrototypeOf(b, {prototype: o}); o = new (new Proxy(b, {}))()")},
		{"a species that is a Proxy", grow("var P = new Proxy(Array.bind(), {get(t, k) { return k === 'prototype' ? o : t[k] }}); var a = [1]; a.constructor = {[Symbol.species]: P}; o = a.map(function (v) { return v })")},
		{"Proxy.revocable", grow("o = Proxy.revocable(o, {}).proxy")},
		{"chains spliced onto each other", "var roots = [], leaves = []; for (var c = 0; c < 100; c++) { var r = {}, o = r; for (var i = 0; i < 25; i++) o = Object.create(o); roots.push(r); leaves.push(o) } for (var c = 1; c < 100; c++) Object.setPrototypeOf(roots[c - 1], leaves[c]); return {data: 'built'}"},
		{"an iterators' prototype spliced under a chain", "var p = {}; for (var i = 0; i < 28; i++) p = Object.create(p); Object.setPrototypeOf(Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())), p); return {data: 'built'}"},
		{"Error.prototype spliced under a chain", "var p = {}; for (var i = 0; i < 28; i++) p = Object.create(p); Object.setPrototypeOf(Error.prototype, p); return {data: 'built'}"},
		{"a prototype spliced under one with descendants", "var base = {}, o = base; for (var i = 0; i < 20; i++) o = Object.create(o); var p = {}; for (var i = 0; i < 20; i++) p = Object.create(p); Object.setPrototypeOf(base, p); return {data: 'built'}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			check(t, "function f(m) { "+tc.body+" }", x, want{outcome: Failed, code: "udf-prototype-chain", msg: "more than " + strconv.Itoa(limits.UDFPrototypeDepth) + " objects"})
		})
	}
}

// TestChainsAtTheBound: an object may inherit through up to
// UDFPrototypeDepth objects, counting one more below it (what the engine
// may make from it): Object.prototype, {} and 29 links more are allowed,
// 30 are not; a splice that keeps within the bound passes.
func TestChainsAtTheBound(t *testing.T) {
	x := message.Message{Data: []byte("x")}
	links := func(n int) string {
		return "var o = {}; for (var i = 0; i < " + strconv.Itoa(n) + "; i++) o = Object.create(o); "
	}
	check(t, "function f(m) { "+links(limits.UDFPrototypeDepth-3)+"return {data: String(o.missing)} }", x, want{outcome: Changed, data: "undefined"})
	check(t, "function f(m) { "+links(limits.UDFPrototypeDepth-2)+"return {data: 'built'} }", x, want{outcome: Failed, code: "udf-prototype-chain"})
	// Ten objects under a root, the root put under a chain of eleven: the
	// first of them reads through 23 objects.
	check(t, "function f(m) { var r = {}, o = r; for (var i = 0; i < 10; i++) o = Object.create(o); var p = {}; for (var i = 0; i < 10; i++) p = Object.create(p); Object.setPrototypeOf(r, p); var n = 0; for (var q = o; q; q = Object.getPrototypeOf(q)) n++; return {data: String(n)} }",
		x, want{outcome: Changed, data: "23"})
}

// TestGeneratorsSealed: a generator function's prototype property is
// read-only in the sandbox (chains.go: its objects inherit from it), for
// every way of making one; what it holds can still change.
func TestGeneratorsSealed(t *testing.T) {
	x := message.Message{Data: []byte("x")}
	for _, tc := range []struct{ name, make, ref string }{
		{"a declaration", "function* g() { yield 1 }", "g"},
		{"a declaration in a block", "{ function* g() { yield 1 } var h = g }", "h"},
		{"a declaration in a switch", "switch (1) { case 1: var h = g; break; case 2: function* g() { yield 1 } }", "h"},
		{"an expression", "var g = function* () { yield 1 }", "g"},
		{"an object's method", "var o = {*g() { yield 1 }}", "o.g"},
		{"a class's method", "class C { *g() { yield 1 } }", "C.prototype.g"},
		{"a class's static method", "class C { static *g() { yield 1 } }", "C.g"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := tc.make + "; var p = " + tc.ref + ".prototype; p.k = 'kept'; " + tc.ref + ".prototype = {}; var e = ''; try { (function () { 'use strict'; " + tc.ref + ".prototype = {} })() } catch (err) { e = err.name } var it = " + tc.ref + "(); return {data: [" + tc.ref + ".prototype === p, it.k, it.next().value, e].join()}"
			check(t, "function f(m) { "+body+" }", x, want{outcome: Changed, data: "true,kept,1,TypeError"})
		})
	}
	// A class's private generator method, sealed by a private field of the
	// sandbox's: the class body is strict.
	check(t, "function f(m) { class C { *#g() { yield 1 } t() { try { this.#g.prototype = {}; return 'set' } catch (e) { return e.name + ',' + this.#g().next().value } } } return {data: new C().t()} }",
		x, want{outcome: Changed, data: "TypeError,1"})
}
