//go:build !noudf && !quickjs

package transform

import (
	"fmt"
	"strconv"
	"unsafe"
	"weak"

	"github.com/dop251/goja"

	"github.com/subplay/subplay/core/limits"
)

// Prototype chains. goja reads every object an object inherits through on
// each property it does not hold (and for in, instanceof, a write that
// looks for a setter), and no step counts those reads: a chain of 20,000
// objects read four times a loop iteration ran until the 10 s net,
// natively and in js/wasm. So no object may inherit through more than
// limits.UDFPrototypeDepth objects, itself included (TestChainsRefused,
// TestChainsAtTheBound).
//
// The bound is kept where links are made, each checked once made (before
// anything of the UDF's runs on the new object, or at the first code of
// the UDF's that can):
//
//   - Object.create, Object.setPrototypeOf, Reflect.setPrototypeOf, the
//     __proto__ setter, a literal's __proto__ and a class's extends (its
//     prototype and itself), as markOrphans already sees them;
//   - an object a constructor of the UDF's makes (this): checked at the
//     start of a function's body, of each default of its parameters and of
//     a class's first field that runs code (a base class's body then needs
//     none), and where super() returns (instrument);
//   - Reflect.construct's result (a built-in given any new.target);
//   - a Proxy (it reads through its target) and the prototype a Proxy of a
//     function gives as a new.target (boundProxies' stand-in);
//   - a generator's objects, which inherit from its prototype property: the
//     sandbox makes that property read-only as each generator function is
//     made (sealed), so what they inherit from is an object checked like
//     any other.
//
// Every other object the engine makes inherits from an object that cannot
// change (a built-in's prototype, a class's), itself within the bound.
//
// Changing the prototype of an object that others already inherit from
// moves them all: so each object that became a prototype through a link
// above keeps the longest way down to what inherits from it (heights), and
// a change must leave room for it. An object no link above reached may
// still be inherited from by objects the engine made (a class's instances):
// it counts one level below it.

// chainHeight is an object's height as heights keeps it, by the object's
// address: held weakly, so that a prototype the UDF lets go of is not kept,
// and checked to be the object asked about (another may come to live at a
// freed one's address). Only objects that became prototypes are held: a
// weak pointer made for each object a constructor makes cost ordinary code
// about half as much again (BenchmarkConstruct).
type chainHeight struct {
	obj weak.Pointer[goja.Object]
	h   int
}

// parent is the object o reads through next: its prototype, or for a
// Proxy its target (a Proxy without a get trap reads there, and one with a
// trap may lose it). It runs no code of the UDF's (a Proxy's
// getPrototypeOf trap is never asked).
func parent(o *goja.Object) *goja.Object {
	if o.ExportType() == proxyType {
		if px, ok := o.Export().(goja.Proxy); ok {
			return px.Target() // nil once revoked
		}
		return nil
	}
	return o.Prototype()
}

// chainDepth is how many objects o reads through, itself included, counted
// up to one past the bound.
func chainDepth(o *goja.Object) int {
	n := 0
	for ; o != nil && n <= limits.UDFPrototypeDepth; o = parent(o) {
		n++
	}
	return n
}

// height is the longest way down from o to an object that inherits from
// it: what links recorded, and at least one (objects the engine made).
func (g *guards) height(o *goja.Object) int {
	if e, ok := g.heights[uintptr(unsafe.Pointer(o))]; ok && e.obj.Value() == o {
		return max(e.h, 1)
	}
	return 1
}

// linked checks v, an object whose prototype has just been set (made with
// it, or changed), and each object it stands for when it is a Proxy (whose
// own change reaches its target): with what inherits from it, it must stay
// within the bound. Then its prototypes learn how far down it reaches.
func (g *guards) linked(v goja.Value) {
	o, ok := v.(*goja.Object)
	g.lastMade = nil
	for n := 0; ok && o != nil && n <= limits.UDFPrototypeDepth; n++ {
		h := g.height(o)
		if chainDepth(o)+h > limits.UDFPrototypeDepth {
			g.tooDeep()
		}
		g.raise(parent(o), h+1)
		if o.ExportType() != proxyType {
			return
		}
		o = parent(o)
	}
}

// made checks v, an object a constructor of the UDF's has just made (or,
// after super(), been given): as linked, but once per object in a row (a
// derived class's instance is checked at its base's first field, its
// base's body, super()'s return and its own first field).
func (g *guards) made(v goja.Value) {
	if o, ok := v.(*goja.Object); ok && o == g.lastMade {
		return
	}
	g.linked(v)
	if o, ok := v.(*goja.Object); ok {
		g.lastMade = o
	}
}

// adopted checks v, about to be the prototype of an object the engine makes
// (what a Proxy of a constructor gives as its prototype).
func (g *guards) adopted(v goja.Value) {
	o, ok := v.(*goja.Object)
	if !ok {
		return
	}
	if chainDepth(o)+2 > limits.UDFPrototypeDepth {
		g.tooDeep()
	}
	g.raise(o, 2)
}

// raise records that an object h levels below o inherits from it, and so
// one h+1 below its parent, and so on up (stopping where a height as great
// is known, so a prototype many objects are made from costs one look).
func (g *guards) raise(o *goja.Object, h int) {
	if g.heights == nil {
		g.heights = map[uintptr]chainHeight{}
	}
	for n := 0; o != nil && n <= limits.UDFPrototypeDepth; n++ {
		k := uintptr(unsafe.Pointer(o))
		e, ok := g.heights[k]
		if ok && e.obj.Value() == o {
			if e.h >= h {
				return
			}
		} else {
			e = chainHeight{obj: weak.Make(o)}
		}
		e.h = h
		g.heights[k] = e
		o, h = parent(o), h+1
	}
}

// tooDeep refuses the call: an object would inherit through more objects
// than the bound.
func (g *guards) tooDeep() {
	why := fmt.Sprintf("an object would inherit through more than %d objects (a chain of prototypes that long is read link by link on every property it lacks)", limits.UDFPrototypeDepth)
	if cl := g.c.call; cl != nil {
		cl.refuse("udf-prototype-chain", why, "keep chains of prototypes short: a class hierarchy or Object.create a few levels deep")
	}
	g.halt()
}

// engineProtos lists, as the sandbox is made (before any code of the
// UDF's), the iterators' prototypes (an array's, a Map's, a Set's, a
// string's, a match's), which have objects of the engine's below them, and
// last %GeneratorPrototype%, whose generators' prototypes have objects
// below them in turn. Compiled once.
var engineProtos = goja.MustCompile("protos", `(function () {
	"use strict";
	var out = [], get = Object.getPrototypeOf;
	[function () { return [][Symbol.iterator]() }, function () { return new Map().entries() }, function () { return new Set().values() },
		function () { return ""[Symbol.iterator]() }, function () { return /a/g[Symbol.matchAll]("a") }].forEach(function (make) {
		var it;
		try { it = make() } catch (e) {}
		if (it !== null && typeof it === "object") out.push(get(it));
	});
	out.push(get(function* () {}).prototype);
	return out;
})`, true)

// seedHeights records the heights of the engine's own prototypes, whose
// objects no link makes: what inherits from each global constructor's
// prototype (an Error's from TypeError.prototype, from Error.prototype) or
// from an iterator's (from %IteratorPrototype%), and %GeneratorPrototype%'s
// two levels (engineProtos). Without them a splice of Error.prototype or
// %IteratorPrototype% onto a chain at the bound would put their objects a
// level or two past it. Done at the first change of a prototype, the only
// link they matter to (listing the globals' prototypes in JavaScript as
// each sandbox was made cost BenchmarkStart some 20%); a global the UDF
// has deleted or replaced by then is missed (its objects stay within two
// levels past the bound).
func (g *guards) seedHeights() {
	list := g.protos
	if list == nil {
		return
	}
	g.protos = nil
	global := g.vm.GlobalObject()
	for _, k := range global.GetOwnPropertyNames() {
		f, ok := g.dataValue(global, g.vm.ToValue(k)).(*goja.Object)
		if !ok || f.ExportType() == proxyType {
			continue
		}
		if _, callable := goja.AssertFunction(f); !callable {
			continue
		}
		if p, ok := g.dataValue(f, g.vm.ToValue("prototype")).(*goja.Object); ok {
			g.raise(parent(p), 2) // p has objects of the engine's below it
		}
	}
	n := lengthOf(list)
	for i := 0.0; i < n; i++ {
		if o, ok := list.Get(strconv.FormatFloat(i, 'f', -1, 64)).(*goja.Object); ok {
			if i == n-1 {
				g.raise(o, 2) // %GeneratorPrototype%: generators' prototypes, then their objects
			} else {
				g.raise(parent(o), 2)
			}
		}
	}
}

// listProtos keeps engineProtos' list for seedHeights.
func (g *guards) listProtos() {
	v, err := programFunc(g.vm, engineProtos)(goja.Undefined())
	if err != nil {
		panic("transform: sandbox: prototypes: " + err.Error())
	}
	g.protos, _ = v.(*goja.Object)
}

// spliced checks v, whose prototype has just been changed (linked), once
// the engine's prototypes have their heights.
func (g *guards) spliced(v goja.Value) {
	g.seedHeights()
	g.linked(v)
}

// boundConstruct checks what Reflect.construct makes: a built-in given a
// new.target of the UDF's makes an object inheriting from its prototype
// property, whatever that holds.
func (g *guards) boundConstruct() {
	vm := g.vm
	r := objectAt(vm, "Reflect")
	construct := original(r, "construct", nil)
	replaceMethodKept(vm, r, "construct", func(fc goja.FunctionCall) goja.Value {
		v := invoke(construct, fc.This, fc.Arguments...)
		g.linked(v)
		return v
	})
}

// sealed makes the prototype property of f, a generator function (a
// function that has one but is no constructor), read-only: the objects its
// calls make inherit from that property as it is at the call, and no step
// of the UDF's sees them made. An object or class holding generator
// methods is given as well: each of its own such methods is sealed.
func (g *guards) sealed(v goja.Value) {
	o, ok := v.(*goja.Object)
	if !ok {
		return
	}
	if g.sealGenerator(o) {
		return
	}
	for _, k := range o.GetOwnPropertyNames() {
		if f, ok := g.dataValue(o, g.vm.ToValue(k)).(*goja.Object); ok {
			g.sealGenerator(f)
		}
	}
	for _, s := range o.Symbols() {
		if f, ok := g.dataValue(o, s).(*goja.Object); ok {
			g.sealGenerator(f)
		}
	}
}

// dataValue is o's own data property key's value, nil for an accessor or
// none (no getter is run).
func (g *guards) dataValue(o *goja.Object, key goja.Value) goja.Value {
	d, ok := invoke(g.describe, goja.Undefined(), o, key).(*goja.Object)
	if !ok || d.Get("get") != nil && !goja.IsUndefined(d.Get("get")) || d.Get("set") != nil && !goja.IsUndefined(d.Get("set")) {
		return nil
	}
	return d.Get("value")
}

// sealGenerator makes f's prototype property read-only when f is a
// generator function, and reports whether it is one.
func (g *guards) sealGenerator(f *goja.Object) bool {
	if _, callable := goja.AssertFunction(f); !callable {
		return false
	}
	if _, ctor := goja.AssertConstructor(f); ctor {
		return false
	}
	p := g.dataValue(f, g.vm.ToValue("prototype"))
	if p == nil {
		return false
	}
	if err := f.DefineDataProperty("prototype", p, goja.FLAG_FALSE, goja.FLAG_NOT_SET, goja.FLAG_NOT_SET); err != nil {
		panic("transform: sandbox: a generator's prototype: " + err.Error())
	}
	return true
}

// named gives f, an anonymous generator or class the sandbox put in a call
// of its own, the name its place would have given it (var g = function* ()
// {} names it "g"; the call is no such place), unless it has one (a class's
// static name).
func (g *guards) named(v goja.Value, name goja.String) {
	f, ok := v.(*goja.Object)
	if !ok {
		return
	}
	cur := g.dataValue(f, g.vm.ToValue("name"))
	if s, ok := cur.(goja.String); cur == nil && !g.hasOwn(f, "name") || ok && s.Length() == 0 {
		_ = f.DefineDataProperty("name", name, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
}

// hasOwn says whether o has an own property name (no getter run).
func (g *guards) hasOwn(o *goja.Object, name string) bool {
	_, ok := invoke(g.describe, goja.Undefined(), o, g.vm.ToValue(name)).(*goja.Object)
	return ok
}
