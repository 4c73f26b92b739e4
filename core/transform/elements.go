//go:build !noudf && !quickjs

package transform

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"sync"

	"github.com/dop251/goja"
	"github.com/dop251/goja/unistring"
)

// What the engine converts to numbers when it writes them: a typed
// array's elements (built from a list, filled, mapped, set, or given one
// by one), a DataView's value, an array's length, and what a sort's
// comparator returns; and the long strings it goes through each time as
// keys or in a sort. Each is one Go call of the engine's, with no step
// between, for any number of items: 300 typed array elements given a
// string of 1.5 million digits took 6-10 s natively in one statement
// when nothing charged them, and new Float64Array(Array(300).fill(s)) as
// long (TestConversionsCharged's typed array cases). Here each is converted before the engine sees it
// (guards.element: a string charged, an object's valueOf run once, where
// and as often as the engine would run it), and the engine is given what
// it converts at no cost: a number.

// elementHelpers are the sandbox's functions that convert as a typed
// array does, around conv (guards.element): compiled once, run in every
// runtime. descriptor is the spec's ToPropertyDescriptor (each field read
// once, in its order, into an object with no prototype); mapper wraps a
// typed array's map or from callback (fn, none for from without one);
// compare wraps a sort's comparator; fromEntries is Object.fromEntries,
// each key given to key (guards.usedKey) before it is defined; listed is the spec's IteratorToList of src
// through its iterator method m, then each item converted, in turn;
// defineAll is Object.defineProperties (every descriptor read before any
// is defined, each fixed by fix); assign is Object.assign, each value set
// by put; like reads the n items of an array-like src, each converted as
// it is read. listed and like give the items as an array-like with no
// prototype, which the engine reads with no code of the UDF's (an array
// would go through Array.prototype's iterator, which the UDF may have
// replaced). Being the sandbox's, their loops take no steps: what they go
// through was charged (Program.charge), and a UDF's iterator or getter
// takes steps of its own.
var elementHelpers = goja.MustCompile("elements", `(function (conv) {
	"use strict";
	var apply = Reflect.apply, create = Object.create, define = Object.defineProperty, iter = Symbol.iterator;
	var describe = Object.getOwnPropertyDescriptor, ownKeys = Reflect.ownKeys, Obj = Object, TE = TypeError;
	var slot = function (o, k, v) { define(o, k, { value: v, writable: true, enumerable: true, configurable: true }); };
	var descriptor = function (a) {
		var d = create(null);
		if ("enumerable" in a) { d.enumerable = !!a.enumerable; }
		if ("configurable" in a) { d.configurable = !!a.configurable; }
		if ("value" in a) { d.value = a.value; }
		if ("writable" in a) { d.writable = !!a.writable; }
		if ("get" in a) {
			d.get = a.get;
			if (d.get !== undefined && typeof d.get !== "function") { throw new TE("a property's getter must be a function"); }
		}
		if ("set" in a) {
			d.set = a.set;
			if (d.set !== undefined && typeof d.set !== "function") { throw new TE("a property's setter must be a function"); }
		}
		if (("get" in d || "set" in d) && ("value" in d || "writable" in d)) {
			throw new TE("a property's descriptor cannot have both a getter or setter and a value or writable");
		}
		return d;
	};
	return {
		descriptor: descriptor,
		mapper: function (fn, self, t) {
			var kind = t === 2 ? "bigint" : "number";
			return function () {
				var r = fn === undefined ? arguments[0] : apply(fn, self, arguments);
				return typeof r === kind ? r : conv(t, r);
			};
		},
		compare: function (fn) {
			return function (a, b) {
				var r = fn(a, b);
				return typeof r === "number" ? r : conv(1, r);
			};
		},
		listed: function (src, m, t) {
			var out = create(null), n = 0, it = {};
			it[iter] = function () { return apply(m, src, []); };
			for (var x of it) {
				slot(out, n, x);
				n++;
			}
			for (var i = 0; i < n; i++) {
				out[i] = conv(t, out[i]);
			}
			slot(out, "length", n);
			return out;
		},
		defineAll: function (o, props, fix) {
			var from = Obj(props), keys = ownKeys(from), list = create(null), n = 0;
			for (var i = 0; i < keys.length; i++) {
				var pd = describe(from, keys[i]);
				if (pd !== undefined && pd.enumerable) {
					var dd = from[keys[i]];
					if (dd === null || typeof dd !== "object" && typeof dd !== "function") {
						throw new TE("a property's descriptor must be an object");
					}
					slot(list, n++, [keys[i], descriptor(dd)]);
				}
			}
			for (var j = 0; j < n; j++) {
				define(o, list[j][0], fix(o, list[j][0], list[j][1]));
			}
			return o;
		},
		assign: function (to, sources, put) {
			for (var i = 0; i < sources.length; i++) {
				if (sources[i] === null || sources[i] === undefined) { continue; }
				var from = Obj(sources[i]), keys = ownKeys(from);
				for (var j = 0; j < keys.length; j++) {
					var pd = describe(from, keys[j]);
					if (pd !== undefined && pd.enumerable) {
						put(to, keys[j], from[keys[j]]);
					}
				}
			}
			return to;
		},
		fromEntries: function (src, key) {
			if (src === undefined || src === null) { throw new TE("Object.fromEntries needs an iterable, not " + src); }
			var o = {};
			for (var e of src) {
				if (Obj(e) !== e) { throw new TE("an entry given to Object.fromEntries must be an object, not " + typeof e); }
				var k = e[0], v = e[1];
				slot(o, key(k), v);
			}
			return o;
		},
		like: function (src, n, t) {
			var out = create(null);
			for (var i = 0; i < n; i++) {
				slot(out, i, conv(t, src[i]));
			}
			slot(out, "length", n);
			return out;
		}
	};
})`, true)

// putHelper makes refName's and putName's functions. putName's is o[k] =
// v as the code would do it (kind 0, sloppy; countStrict, strict), but
// asks goDecide (guards.decide) first for a key that is a string (its
// length and whether an array or a typed array converts at it are Go's to
// read) or an object (its string is made there), a number key given a
// typed array or a Proxy, and null or undefined (for V8's message):
// decide sets what an array or a typed array converts, or gives the key
// converted for the set here (a call to Reflect.set from Go cost more
// than the set in JavaScript). A number key of any other object, the most
// common, asks nothing (measured with a loop of 40,000 o[i] = v).
// Not strict, so that kind 0 is not. refName's makes a reference whose
// value is o[k], read (goGet, guards.getAt) and written (goPut,
// guards.put).
var putHelper = goja.MustCompile("put", `(function (goPut, goDecide, goGet, isView, done) {
	var strictSet = function (o, k, v) { "use strict"; o[k] = v; };
	var ref = function (kind, o, k) {
		return {
			get value() { return goGet(o, k); },
			set value(v) { goPut(kind, o, k, v); }
		};
	};
	return [ref, function (kind, o, k, v) {
		var t = typeof k, slow = o === null || o === undefined;
		if (!slow) {
			if (t === "number") {
				slow = typeof o === "object" && isView(o);
			} else {
				// A string (its length is Go's to read: k.length on a
				// primitive costs more than the call), or an object,
				// whose string is made in goPut.
				slow = t !== "symbol";
			}
		}
		if (slow) {
			k = goDecide(kind, o, k, v);
			if (k === done) {
				return v;
			}
		}
		if (kind) {
			strictSet(o, k, v);
		} else {
			o[k] = v;
		}
		return v;
	}];
})`, false)

// wrapIn replaces o's method name with one that may change the arguments
// (when a call runs) before the method gets them, and whose calls cost
// builtinSteps.
func (g *guards) wrapIn(o *goja.Object, name string, change func(fc *goja.FunctionCall)) {
	g.wrapArgs(o, name, change, g.set)
}

// wrapKept is wrapIn for a method whose calls are to cost what they did
// (replaceMethodKept).
func (g *guards) wrapKept(o *goja.Object, name string, change func(fc *goja.FunctionCall)) {
	g.wrapArgs(o, name, change, func(o *goja.Object, name string, _ *goja.Symbol, f func(goja.FunctionCall) goja.Value) {
		replaceMethodKept(g.vm, o, name, f)
	})
}

// wrapArgs is wrapIn with the replacing done by put.
func (g *guards) wrapArgs(o *goja.Object, name string, change func(fc *goja.FunctionCall), put func(*goja.Object, string, *goja.Symbol, func(goja.FunctionCall) goja.Value)) {
	orig, ok := goja.AssertFunction(o.Get(name))
	if !ok {
		return
	}
	put(o, name, nil, func(fc goja.FunctionCall) goja.Value {
		if g.c.call != nil {
			change(&fc)
		}
		return invoke(orig, fc.This, fc.Arguments...)
	})
}

// boundKeys charges the keys the engine goes through (a hash of all of
// a key for each table of properties it looks in) in one call with no
// step of the UDF's: the key a built-in is given (Reflect.get,
// hasOwnProperty, Symbol.for...), as propertyKeyName does for the code's
// own reads (guards.usedKey), and the keys an object holds when a
// built-in goes through all of them (Object.assign, keys, freeze...:
// guards.chargeKeys). An 8 MB key read 50,000 times from an object with
// more than 8 properties (a smaller table is searched without a hash)
// ran until the 10 s watch when uncharged (TestConversionsCharged's long
// key cases).
func (g *guards) boundKeys() {
	wrapIn := g.wrapKept // each call costs what it did
	for _, b := range []struct {
		path  string
		names []string
		at    int // the key's argument
	}{
		{"Reflect", []string{"get", "set", "has", "deleteProperty", "getOwnPropertyDescriptor", "defineProperty"}, 1},
		{"Object", []string{"hasOwn", "getOwnPropertyDescriptor", "defineProperty"}, 1},
		{"Object.prototype", []string{"hasOwnProperty", "propertyIsEnumerable", "__lookupGetter__", "__lookupSetter__", "__defineGetter__", "__defineSetter__"}, 0},
		{"Symbol", []string{"for"}, 0},
	} {
		o := objectAt(g.vm, b.path)
		for _, name := range b.names {
			wrapIn(o, name, func(fc *goja.FunctionCall) {
				if len(fc.Arguments) > b.at {
					fc.Arguments[b.at] = g.usedKey(fc.Arguments[b.at])
				}
			})
		}
	}
	for _, b := range []struct {
		path  string
		names []string
		at    int // the object's argument
	}{
		{"Object", []string{"keys", "values", "entries", "getOwnPropertyNames", "getOwnPropertyDescriptors", "freeze", "seal", "isFrozen", "isSealed"}, 0},
		{"Object", []string{"defineProperties", "create"}, 1},
		{"Reflect", []string{"ownKeys"}, 0},
	} {
		o := objectAt(g.vm, b.path)
		for _, name := range b.names {
			wrapIn(o, name, func(fc *goja.FunctionCall) { g.chargeKeys(fc.Argument(b.at), false) })
		}
	}
	// Object.fromEntries, each entry's key used as a read's.
	object := objectAt(g.vm, "Object")
	fromEntries := original(object, "fromEntries", nil)
	key := g.vm.ToValue(func(fc goja.FunctionCall) goja.Value { return g.usedKey(fc.Argument(0)) })
	replaceMethodKept(g.vm, object, "fromEntries", func(fc goja.FunctionCall) goja.Value {
		if g.c.call == nil {
			return invoke(fromEntries, fc.This, fc.Arguments...)
		}
		return invoke(g.fromEntries, goja.Undefined(), fc.Argument(0), key)
	})
	wrapIn(object, "assign", func(fc *goja.FunctionCall) {
		for _, v := range fc.Arguments[min(1, len(fc.Arguments)):] {
			g.chargeKeys(v, false)
		}
	})
}

// boundComparisons charges the long strings built-ins compare with no step
// of the UDF's: an array's indexOf, lastIndexOf and includes given a
// string of more than convertFree characters compare it with each item
// (a string of the same length goes through all of it), charged as every
// item were one, a step per compareChars characters of it each; Object.is
// of two strings of one length, as ===; replace and replaceAll given a
// string to find search all of this for it, a step per 1,024 characters
// as indexOf (uncharged, [s].indexOf(t) of 8 MB texts in a loop ran 3-4 s
// natively, Object.is until the watch at 10 s, replaceAll 6.9 s;
// TestConversionsCharged's long string cases).
func (g *guards) boundComparisons() {
	stop := func(ok bool) {
		if !ok {
			g.halt()
		}
	}
	arrays := objectAt(g.vm, "Array.prototype")
	for _, name := range []string{"indexOf", "lastIndexOf", "includes"} {
		g.wrapKept(arrays, name, func(fc *goja.FunctionCall) {
			s, ok := fc.Argument(0).(goja.String)
			o, isObj := fc.This.(*goja.Object)
			if !ok || !isObj || s.Length() <= convertFree {
				return
			}
			chunks := float64((s.Length() + compareChars - 1) / compareChars)
			stop(g.p.charge(g.c, g.steadyLength(o, name), 1/chunks, fmt.Sprintf("%s of a string of %d characters", name, s.Length())))
		})
	}
	replaceMethodKept(g.vm, objectAt(g.vm, "Object"), "is", func(fc goja.FunctionCall) goja.Value {
		a, aok := fc.Argument(0).(goja.String)
		b, bok := fc.Argument(1).(goja.String)
		if cl := g.c.call; cl != nil && aok && bok && a.Length() == b.Length() {
			g.p.chargeText(cl, g, a.Length(), compareChars)
		}
		return g.vm.ToValue(fc.Argument(0).SameAs(fc.Argument(1)))
	})
	// A regular expression's source is escaped anew at each read (and by
	// its toString, a template, String(r)), about 10 ns a character
	// natively: one of 60,000 characters read in a loop ran until the
	// watch at 10 s. Charged once made, a step per 32 characters of one
	// longer than convertFree; a short one costs nothing, as before (a
	// loop of exec paid a step more an iteration when every read was
	// charged: TestExecCostsItsResult).
	rp := objectAt(g.vm, "RegExp.prototype")
	if d, ok := invoke(g.describe, goja.Undefined(), rp, g.vm.ToValue("source")).(*goja.Object); ok {
		if get, ok := d.Get("get").(*goja.Object); ok {
			orig, _ := goja.AssertFunction(get)
			fn := g.vm.ToValue(func(fc goja.FunctionCall) goja.Value {
				v := invoke(orig, fc.This)
				if s, ok := v.(goja.String); ok && s.Length() > convertFree {
					g.p.charge(g.c, float64(s.Length()), 32, "a regular expression's source")
				}
				return v
			}).(*goja.Object)
			sameNameAndArity(fn, get)
			_ = rp.DefineAccessorProperty("source", fn, goja.Undefined(), goja.FLAG_TRUE, goja.FLAG_FALSE)
		}
	}
	strs := objectAt(g.vm, "String.prototype")
	for _, name := range []string{"replace", "replaceAll"} {
		g.wrapKept(strs, name, func(fc *goja.FunctionCall) {
			if isObject(fc.Argument(0)) {
				return // a regular expression's search is charged as it goes
			}
			if t, ok := fc.This.(goja.String); ok {
				stop(g.p.charge(g.c, float64(t.Length()), compareChars, name))
			}
		})
	}
}

// boundBigText charges a BigInt's toString and toLocaleString for the
// text they write (chargeBigText). String and Symbol given one are left:
// behind a proxy (putBehind), a loop of 40,000 String(i) took 2.5 times
// as long and allocated 6.5 times as much (30 MB, near a call's budget).
func (g *guards) boundBigText() {
	proto := objectAt(g.vm, "BigInt.prototype")
	for _, name := range []string{"toString", "toLocaleString"} {
		g.wrapKept(proto, name, func(fc *goja.FunctionCall) {
			if o, ok := fc.This.(*goja.Object); ok && o.ClassName() == "BigInt" {
				if b, ok := o.Export().(*big.Int); ok {
					g.chargeBits(b.BitLen())
				}
				return
			}
			g.chargeBigText(fc.This)
		})
	}
}

// chargeKeys charges the long keys object v holds (and, with chain, the
// objects it inherits from: a for-in's) as chargeKey does, once for each
// time the engine is about to go through them all. The keys are read
// from the engine's own table (heldNames): an array's, a typed array's,
// arguments' and a String object's named keys too, without a text made
// for each index. A Proxy's are left: boundProxies charges them when the
// engine lists them (a trap is the UDF's code, which would run once more
// here).
func (g *guards) chargeKeys(v goja.Value, chain bool) {
	cl := g.c.call
	o, ok := v.(*goja.Object)
	charge := func(n int) {
		if n > convertFree {
			g.p.chargeText(cl, g, n, keyChars)
		}
	}
	for depth := 0; ok && o != nil && cl != nil && depth < 1000; depth++ {
		if o.ExportType() == proxyType {
			return
		}
		if !heldNames(o, charge) {
			if c := o.ClassName(); c != "Array" && c != "Arguments" && c != "String" && !isTypedArray(o) {
				for _, k := range o.GetOwnPropertyNames() {
					charge(len(k))
				}
			}
		}
		if !chain {
			return
		}
		o = o.Prototype()
	}
}

// heldNames calls f with the length (in UTF-16 units, as a string's
// length) of each string key o keeps in the engine's own table, and says
// whether it could. goja keeps an object's string keys, but for an
// array's, a typed array's and a String object's indices, in the
// propNames of the baseObject each embeds, which no API gives without a
// text made for every index as well (Object.keys of an array of a million
// items makes a million; a built-in's own keys, short, may not be there
// until used). It is read through reflect, never written. A goja whose
// layout differs gives false, and chargeKeys lists the keys through the
// API instead, leaving array-likes' (TestHeldNames fails first).
func heldNames(o *goja.Object, f func(n int)) bool {
	self := reflect.ValueOf(o).Elem().FieldByName("self")
	if self.Kind() != reflect.Interface || self.IsNil() {
		return false
	}
	impl := self.Elem()
	if impl.Kind() != reflect.Pointer || impl.IsNil() || impl.Elem().Kind() != reflect.Struct {
		return false
	}
	at, _ := namesAt.Load(impl.Type())
	path, ok := at.([]int)
	if !ok {
		fd, found := impl.Elem().Type().FieldByName("propNames")
		if !found || fd.Type.Kind() != reflect.Slice || fd.Type.Elem().Kind() != reflect.String {
			fd.Index = nil
		}
		path = fd.Index
		namesAt.Store(impl.Type(), path)
	}
	if path == nil {
		return false
	}
	names := impl.Elem().FieldByIndex(path)
	for i := range names.Len() {
		// A text that is not all ASCII is kept as UTF-16 after a mark.
		if u := unistring.String(names.Index(i).String()).AsUtf16(); u != nil {
			f(len(u) - 1)
		} else {
			f(names.Index(i).Len())
		}
	}
	return true
}

// namesAt keeps, for each type of goja's objects heldNames has seen, the
// path to its propNames field (nil: none).
var namesAt sync.Map

// boundElements puts the conversions of elementHelpers and element in the
// typed arrays' from, of, map, with and set, DataView's setters, and the
// sorts of arrays and typed arrays given a comparator. A typed array's
// constructor converts through elements (called by the sandbox's
// lockdown), and its fill through boundPositions (the value comes before
// the positions there).
func (g *guards) boundElements() {
	vm := g.vm
	f := programFunc(vm, elementHelpers)
	conv := vm.ToValue(func(fc goja.FunctionCall) goja.Value {
		return g.element(int(fc.Argument(0).ToInteger()), fc.Argument(1))
	})
	h := invoke(f, goja.Undefined(), conv).(*goja.Object)
	g.mapper = original(h, "mapper", nil)
	g.compare = original(h, "compare", nil)
	g.listed = original(h, "listed", nil)
	g.like = original(h, "like", nil)
	g.fromEntries = original(h, "fromEntries", nil)
	g.kinds = map[*goja.Object]int{}
	for _, n := range typedArrays {
		g.kinds[objectAt(vm, n+".prototype")] = namedKind(n)
	}

	wrapIn := g.wrapIn
	// takeOver replaces o's method name with one that does the work itself
	// when do gives a value, else calls the method.
	takeOver := func(o *goja.Object, name string, do func(fc goja.FunctionCall) goja.Value) {
		orig, ok := goja.AssertFunction(o.Get(name))
		if !ok {
			return
		}
		g.set(o, name, nil, func(fc goja.FunctionCall) goja.Value {
			if g.c.call != nil {
				if r := do(fc); r != nil {
					return r
				}
			}
			return invoke(orig, fc.This, fc.Arguments...)
		})
	}
	ta, proto := objectAt(vm, "%TypedArray%"), objectAt(vm, "%TypedArray%.prototype")
	// putName, for o[k] = v (see putHelper).
	f = programFunc(vm, putHelper)
	goPut := vm.ToValue(func(fc goja.FunctionCall) goja.Value {
		kind, v := fc.Argument(0).ToInteger(), fc.Argument(3)
		if kind&restCopy != 0 {
			g.copied(v, "a rest") // the copy a pattern's rest made, set here
			kind &^= restCopy
		}
		return g.put(kind, fc.Argument(1), fc.Argument(2), v)
	})
	goGet := vm.ToValue(func(fc goja.FunctionCall) goja.Value { return g.getAt(fc.Argument(0), fc.Argument(1)) })
	// isView says whether o is a typed array or a Proxy (which may pass a
	// write to one): a number key's write to it is goPut's.
	isView := vm.ToValue(func(fc goja.FunctionCall) goja.Value {
		o, ok := fc.Argument(0).(*goja.Object)
		return vm.ToValue(ok && (o.ExportType() == proxyType || isTypedArray(o)))
	})
	// goDecide is guards.decide, done what it gives when it set the value.
	done := vm.NewObject()
	goDecide := vm.ToValue(func(fc goja.FunctionCall) goja.Value {
		if k := g.decide(fc.Argument(0).ToInteger(), fc.Argument(1), fc.Argument(2), fc.Argument(3)); k != nil {
			return k
		}
		return done
	})
	made := invoke(f, goja.Undefined(), goPut, goDecide, goGet, isView, done).(*goja.Object)
	engineName(vm, refName, made.Get("0"))
	engineName(vm, putName, made.Get("1"))
	// from(src, fn, self): each item (fn's result, when there is fn) is
	// converted as the array made converts it, after fn runs.
	wrapIn(ta, "from", func(fc *goja.FunctionCall) {
		fn := fc.Argument(1)
		if _, callable := goja.AssertFunction(fn); !callable && !goja.IsUndefined(fn) {
			return // from throws first
		}
		if t, _ := g.kindOf(fc.This); t != 0 {
			fc.Arguments = []goja.Value{fc.Argument(0), invoke(g.mapper, goja.Undefined(), fn, fc.Argument(2), vm.ToValue(t))}
		}
	})
	// of(...items): converted in turn after the array is made, which for
	// a typed array's own constructor runs nothing of the UDF's; a
	// subclass's constructor runs before, so there the strings are only
	// charged.
	wrapIn(ta, "of", func(fc *goja.FunctionCall) {
		t, direct := g.kindOf(fc.This)
		for i, a := range fc.Arguments {
			switch {
			case t == 0:
				return
			case direct:
				fc.Arguments[i] = g.element(t, a)
			default:
				g.chargeNumber(a)
			}
		}
	})
	// map(fn, self): what fn gives is converted as this converts it (the
	// array made is this's kind but for a species of another kind).
	wrapIn(proto, "map", func(fc *goja.FunctionCall) {
		fn := fc.Argument(0)
		if _, callable := goja.AssertFunction(fn); !callable {
			return
		}
		if t := typedElement(asObject(fc.This)); t != 0 {
			fc.Arguments = []goja.Value{invoke(g.mapper, goja.Undefined(), fn, fc.Argument(1), vm.ToValue(t))}
		}
	})
	// with(index, value): the index first (boundPositions), then value.
	wrapIn(proto, "with", func(fc *goja.FunctionCall) {
		if t := typedElement(asObject(fc.This)); t != 0 && len(fc.Arguments) > 1 {
			fc.Arguments[1] = g.element(t, fc.Arguments[1])
		}
	})
	// set(source, offset): the offset first (boundPositions), then, for a
	// source that is not a typed array, its length, checked against this's
	// (a RangeError before any item is read), then each item, converted as
	// it is read.
	wrapIn(proto, "set", func(fc *goja.FunctionCall) {
		this := asObject(fc.This)
		t := typedElement(this)
		src, ok := fc.Argument(0).(*goja.Object)
		if t == 0 || !ok || isTypedArray(src) {
			return
		}
		at := 0.0
		if len(fc.Arguments) > 1 {
			if at = fc.Arguments[1].ToFloat(); math.IsNaN(at) {
				at = 0
			}
			at = math.Trunc(at)
		}
		if at < 0 {
			return // set throws first
		}
		l := g.toPrimitive(src.Get("length"), "number")
		g.chargeNumber(l)
		n := toLength(l.ToFloat())
		if at+n > lengthOf(this) {
			g.throwRange("offset is out of bounds")
		}
		fc.Arguments = []goja.Value{invoke(g.like, goja.Undefined(), src, vm.ToValue(n), vm.ToValue(t)), vm.ToValue(at)}
	})
	// A DataView's setters: the position first (boundPositions), then the
	// value, when the position is one (a RangeError comes before).
	dv := objectAt(vm, "DataView.prototype")
	for _, name := range []string{"setInt8", "setUint8", "setInt16", "setUint16", "setInt32", "setUint32", "setFloat32", "setFloat64", "setBigInt64", "setBigUint64"} {
		t := namedKind(name)
		wrapIn(dv, name, func(fc *goja.FunctionCall) {
			if len(fc.Arguments) < 2 || !g.isView(fc.This) {
				return
			}
			if at := fc.Arguments[0].ToFloat(); at < 0 || at > 1<<53-1 {
				return
			}
			fc.Arguments[1] = g.element(t, fc.Arguments[1])
		})
	}
	// Reflect.set, Object.defineProperty and the like, Object.assign: an
	// array's length and a typed array's elements, converted here (the
	// key converted once, here, and given to the method as it is).
	refl, object := objectAt(vm, "Reflect"), objectAt(vm, "Object")
	set := original(refl, "set", nil)
	takeOver(refl, "set", func(fc goja.FunctionCall) goja.Value {
		target := fc.Argument(0)
		o := g.converting(target)
		if o == nil || len(fc.Arguments) > 3 && fc.Arguments[3] != target {
			return nil // a receiver other than the target: an ordinary set
		}
		k := g.key(fc.Argument(1))
		v, ok := g.written(o, k, fc.Argument(2))
		if !ok {
			return vm.ToValue(false)
		}
		return invoke(set, goja.Undefined(), target, k, v)
	})
	descriptor := original(h, "descriptor", nil)
	for _, o := range []*goja.Object{object, refl} {
		wrapIn(o, "defineProperty", func(fc *goja.FunctionCall) {
			o := g.converting(fc.Argument(0))
			a, ok := fc.Argument(2).(*goja.Object)
			if o == nil || !ok {
				return // the method throws, or defines as it would
			}
			k := g.key(fc.Argument(1))
			d := invoke(descriptor, goja.Undefined(), a).(*goja.Object)
			fc.Arguments = []goja.Value{fc.Arguments[0], k, g.defined(o, k, d)}
		})
	}
	defineAll, assign := original(h, "defineAll", nil), original(h, "assign", nil)
	fix := vm.ToValue(func(fc goja.FunctionCall) goja.Value {
		return g.defined(g.converting(fc.Argument(0)), fc.Argument(1), fc.Argument(2).(*goja.Object))
	})
	takeOver(object, "defineProperties", func(fc goja.FunctionCall) goja.Value {
		o := g.converting(fc.Argument(0))
		if props := fc.Argument(1); o == nil || goja.IsUndefined(props) || goja.IsNull(props) {
			return nil
		}
		return invoke(defineAll, goja.Undefined(), fc.Arguments[0], fc.Arguments[1], fix)
	})
	put := vm.ToValue(func(fc goja.FunctionCall) goja.Value {
		return g.put(countStrict, fc.Argument(0), fc.Argument(1), fc.Argument(2))
	})
	takeOver(object, "assign", func(fc goja.FunctionCall) goja.Value {
		if g.converting(fc.Argument(0)) == nil || len(fc.Arguments) < 2 {
			return nil
		}
		return invoke(assign, goja.Undefined(), fc.Arguments[0], vm.NewArray(toAny(fc.Arguments[1:])...), put)
	})
	// A Map's and a Set's keys: a long string costs its length at each
	// lookup (chargeKey). Not a step besides: the constructors call add
	// and set for each item once they are not the engine's own, and their
	// items are charged already.
	for _, m := range []struct {
		path  string
		names []string
	}{{"Map.prototype", []string{"get", "set", "has", "delete"}}, {"Set.prototype", []string{"add", "has", "delete"}}} {
		o := objectAt(vm, m.path)
		for _, name := range m.names {
			orig, ok := goja.AssertFunction(o.Get(name))
			if !ok {
				continue
			}
			replaceMethodUncharged(vm, o, name, nil, func(fc goja.FunctionCall) goja.Value {
				if len(fc.Arguments) > 0 {
					g.chargeKey(fc.Arguments[0])
				}
				return invoke(orig, fc.This, fc.Arguments...)
			})
		}
	}
	// A sort's comparator's result, converted to a number.
	for _, o := range []*goja.Object{objectAt(vm, "Array.prototype"), proto} {
		for _, name := range []string{"sort", "toSorted"} {
			wrapIn(o, name, func(fc *goja.FunctionCall) {
				if fn := fc.Argument(0); goja.IsUndefined(fn) {
					return
				} else if _, callable := goja.AssertFunction(fn); callable {
					fc.Arguments[0] = invoke(g.compare, goja.Undefined(), fn)
				}
			})
		}
	}
	// An array's sort with no comparator compares the items' strings, in
	// one Go call each (a sort of 3,000 strings of 8 million characters
	// took 3-5 s natively): sortItems charges their long strings first.
	arrays := objectAt(vm, "Array.prototype")
	for _, name := range []string{"sort", "toSorted"} {
		orig, ok := goja.AssertFunction(arrays.Get(name))
		if !ok {
			continue
		}
		copy := name == "toSorted"
		engine := original(arrays, "sort", nil)
		g.set(arrays, name, nil, func(fc goja.FunctionCall) goja.Value {
			if g.c.call == nil || !goja.IsUndefined(fc.Argument(0)) || fc.This == nil || goja.IsUndefined(fc.This) || goja.IsNull(fc.This) {
				return invoke(orig, fc.This, fc.Arguments...)
			}
			return g.sortItems(fc.This.ToObject(vm), engine, copy)
		})
	}
}

// getAt is base[key] for refName's getter: the key converted here (and
// charged as a read's: o[k] ??= v read a long k uncharged), the property
// read through Reflect.get as the sandbox found it, with base as
// the receiver.
func (g *guards) getAt(base, key goja.Value) goja.Value {
	vm := g.vm
	if base == nil || goja.IsUndefined(base) || goja.IsNull(base) {
		panic(vm.NewTypeError("Cannot read properties of %s%s", base, reading(key)))
	}
	k := g.key(key)
	g.chargeKey(k)
	v := invoke(g.reflectGet, goja.Undefined(), base.ToObject(vm), k, base)
	if v == nil {
		return goja.Undefined() // goja's Reflect.get gives nil for a property a primitive's object lacks
	}
	return v
}

// sortItems is a sort with no comparator of o (an array, an array-like or
// a Proxy): its length read once (ToLength, a string charged), its items
// read as the spec's SortIndexedProperties reads them (a hole left out for
// sort, read as undefined for toSorted; a getter runs once; a Proxy's has
// trap asked before its get), their long strings charged (chargeSort), a
// new array of them sorted by the engine's sort, then written back in
// order and the holes deleted at the end (sort), or given (toSorted).
// goja's Get, Set and Delete are the spec's here, and fail as its do.
func (g *guards) sortItems(o *goja.Object, engine goja.Callable, copy bool) goja.Value {
	vm := g.vm
	l := o.Get("length")
	if l == nil {
		l = goja.Undefined()
	}
	l = g.toPrimitive(l, "number")
	g.chargeNumber(l)
	n := int(toLength(l.ToFloat()))
	proxy := o.ExportType() == proxyType
	items := make([]any, 0, min(n, 1<<16))
	var total, most float64
	bits := 0 // of the BigInts, each written as text at each comparison
	for k := 0; k < n; k++ {
		key := strconv.Itoa(k)
		if proxy && !copy && !invoke(g.reflectHas, goja.Undefined(), o, vm.ToValue(key)).ToBoolean() {
			continue
		}
		v := o.Get(key)
		if v == nil {
			if !copy {
				continue
			}
			v = goja.Undefined()
		}
		if s, ok := v.(goja.String); ok && s.Length() > convertFree {
			total += float64(s.Length())
			most = max(most, float64(s.Length()))
		}
		if b := bitsOf(v); b > 64 {
			bits += b
		}
		items = append(items, v)
	}
	if total > most {
		g.chargeSort(total-most, float64(len(items)))
	}
	if bits > 0 {
		g.chargeBits(bits * int(math.Ceil(math.Log2(max(float64(len(items)), 2)))))
	}
	arr := vm.NewArray(items...)
	invoke(engine, arr)
	if copy {
		return arr
	}
	for j := range items {
		if err := o.Set(strconv.Itoa(j), arr.Get(strconv.Itoa(j))); err != nil {
			panic(err)
		}
	}
	for j := len(items); j < n; j++ {
		if err := o.Delete(strconv.Itoa(j)); err != nil {
			panic(err)
		}
	}
	return o
}

// chargeSort charges a sort of n items whose long strings but the longest
// have total characters: each may be compared with another as long about
// log2(n) times, through all of it when they share it.
func (g *guards) chargeSort(total, n float64) {
	cl := g.c.call
	if cl == nil || cl.stopped != "" {
		return
	}
	k := math.Ceil(total * math.Ceil(math.Log2(max(n, 2))) / compareChars)
	if k <= g.p.stepsLeft(g.c) {
		cl.steps += int(k)
		return
	}
	cl.refuse("udf-budget", fmt.Sprintf("sorting %s items whose long strings hold %s characters (but the longest) would take %s (each compared about log2(%s) times, a step per %d characters)",
		countText(n), countText(total), g.p.whose(cl), countText(n), compareChars),
		"a sort compares long strings through all they share: sort shorter keys (a prefix, or an index), or fewer items")
	g.halt()
}

// superValue is superName: v, to be set at a super property with key k
// (a literal's value) and this as the receiver, converted as put would
// convert it for this, which the set reaches at last (a setter on the
// prototypes between aside). An array's length that cannot be written
// gets v as it is.
func (g *guards) superValue(this, k, v goja.Value) goja.Value {
	o := g.converting(this)
	if o == nil {
		return v
	}
	set, _ := g.written(o, g.key(k), v)
	return set
}

// converting is the array or typed array whose writes convert what they
// are given when written through v: v itself, or the target of a Proxy
// with no set, getOwnPropertyDescriptor or defineProperty trap (which
// passes a write to its target's definition, converting there with no
// code of the UDF's; a trap is the UDF's code, whose own writes are
// checked), else nil.
func (g *guards) converting(v goja.Value) *goja.Object {
	o, ok := v.(*goja.Object)
	for depth := 0; ok && o.ExportType() == proxyType; depth++ {
		px, isProxy := o.Export().(goja.Proxy)
		if !isProxy || depth == 64 {
			return nil
		}
		h := px.Handler()
		if h == nil || !g.lacks(h, "set") || !g.lacks(h, "getOwnPropertyDescriptor") || !g.lacks(h, "defineProperty") {
			return nil
		}
		o = px.Target()
	}
	if !ok || o == nil || o.ClassName() != "Array" && !isTypedArray(o) {
		return nil
	}
	return o
}

// written is what o (converting's) is to be set at key k (a property key)
// in place of v: v converted as o's element or length, when it is that;
// false for an array's length that cannot be written (the set fails,
// converting nothing, as in V8; goja's would convert v first). Through a
// Proxy as directly: V8 converts a typed array's element given another
// receiver at any index (the spec now sets nothing out of range).
func (g *guards) written(o *goja.Object, k, v goja.Value) (goja.Value, bool) {
	s, ok := k.(goja.String)
	if !ok {
		return v, true
	}
	if t := typedElement(o); t != 0 {
		if canonicalNumeric(s) {
			return g.element(t, v), true
		}
		return v, true
	}
	if s.String() == "length" {
		return g.arrayLength(o, v, false)
	}
	return v, true
}

// defined is descriptor d (elementHelpers', with no prototype), to define
// at key k of o (converting's), with its value converted as o converts it:
// an array's length always (ArraySetLength), a typed array's element when
// the spec's [[DefineOwnProperty]] would set it (an index in range, a
// data descriptor with no attribute false).
func (g *guards) defined(o *goja.Object, k goja.Value, d *goja.Object) *goja.Object {
	s, ok := k.(goja.String)
	v := d.Get("value")
	if !ok || v == nil {
		return d
	}
	if t := typedElement(o); t != 0 {
		if !canonicalNumeric(s) || d.Get("get") != nil || d.Get("set") != nil {
			return d
		}
		for _, a := range []string{"configurable", "enumerable", "writable"} {
			if f := d.Get(a); f != nil && !f.ToBoolean() {
				return d
			}
		}
		if !validIndex(o, s) {
			return d
		}
		_ = d.Set("value", g.element(t, v))
		return d
	}
	if s.String() == "length" {
		n, _ := g.arrayLength(o, v, true)
		_ = d.Set("value", n)
	}
	return d
}

// validIndex is the spec's IsValidIntegerIndex of typed array o at
// canonical numeric key s: a whole number, not -0, within its length.
func validIndex(o *goja.Object, s goja.String) bool {
	i := s.ToNumber().ToFloat()
	return i == math.Trunc(i) && !(i == 0 && math.Signbit(i)) && i >= 0 && i < lengthOf(o)
}

// toAny is vs as a list of any (vm.NewArray's argument).
func toAny(vs []goja.Value) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

// elements is what a typed array's constructor (kind t) is given to copy
// in place of src, an object that is neither a typed array nor a buffer:
// src's items converted here (elementHelpers' listed, through src's
// iterator when it has one, else like, as many as its length says), or
// nil to leave src as it is (its iterator method is not callable: the
// constructor throws).
func (g *guards) elements(src *goja.Object, t int) goja.Value {
	vm := g.vm
	m := src.GetSymbol(goja.SymIterator)
	if m == nil || goja.IsUndefined(m) || goja.IsNull(m) {
		l := g.toPrimitive(src.Get("length"), "number")
		g.chargeNumber(l)
		return invoke(g.like, goja.Undefined(), src, vm.ToValue(toLength(l.ToFloat())), vm.ToValue(t))
	}
	if _, ok := goja.AssertFunction(m); !ok {
		return nil
	}
	return invoke(g.listed, goja.Undefined(), src, m, vm.ToValue(t))
}

// kindOf is what the typed arrays a constructor c makes hold (0: not a
// typed array's constructor, as far as can be told without running the
// UDF's code), and whether c is a typed array's own (not a subclass):
// found by its prototype, and that prototype's parents.
func (g *guards) kindOf(c goja.Value) (int, bool) {
	o, ok := c.(*goja.Object)
	if !ok || o.ExportType() == proxyType || !g.steady(o, "prototype") {
		return 0, false
	}
	p, _ := o.Get("prototype").(*goja.Object)
	for depth := 0; p != nil && depth < 64; depth++ {
		if t := g.kinds[p]; t != 0 {
			return t, depth == 0
		}
		if p.ExportType() == proxyType {
			return 0, false
		}
		p = p.Prototype()
	}
	return 0, false
}

// asObject is v as an object, or nil.
func asObject(v goja.Value) *goja.Object {
	o, _ := v.(*goja.Object)
	return o
}

// toLength is the spec's ToLength of a number.
func toLength(n float64) float64 {
	if math.IsNaN(n) || n <= 0 {
		return 0
	}
	return math.Min(math.Floor(n), 1<<53-1)
}

// isPrototypeKey says whether a Proxy's get trap is given the key
// "prototype".
func isPrototypeKey(k goja.Value) bool {
	s, ok := k.(goja.String)
	return ok && s.String() == "prototype"
}

// boundProxies charges the keys the engine goes through when it lists a
// Proxy's own keys ([[OwnPropertyKeys]]: Object.keys, assign, a spread, a
// rest, a for-in...), which chargeKeys leaves: each Proxy the UDF makes
// (new Proxy, Proxy.revocable) is given, in place of its handler h, a
// stand-in (a Proxy of the engine's own, with a get trap in Go) that
// gives every trap h gives, called with this h, but ownKeys: with none,
// the target's long keys are charged as chargeKeys charges an object's;
// with one, a function that calls it (this h) and hands the engine a
// copy of what it returns, read as the spec's CreateListFromArrayLike reads it (its
// length, then each item until one is not a key, which the engine then
// refuses; a key repeated is refused once all are read, as in V8), the
// long keys charged (uncharged, a trap returning a key of 8 MB,
// Object.assign'd from in a loop, ran 1.3 s natively, a spread 1.9 s;
// TestConversionsCharged's Proxy cases).
// The UDF never sees the stand-in.
func (g *guards) boundProxies() {
	vm := g.vm
	orig, ok := vm.GlobalObject().Get("Proxy").(*goja.Object)
	if !ok {
		return
	}
	build, ok := goja.AssertConstructor(orig)
	if !ok {
		return
	}
	// stand gives the handler for a Proxy of target t and handler h.
	stand := func(args []goja.Value) []goja.Value {
		if len(args) < 2 {
			return args
		}
		t, tok := args[0].(*goja.Object)
		h, hok := args[1].(*goja.Object)
		if !tok || !hok {
			return args // the engine refuses them
		}
		if h.ExportType() != proxyType {
			// An object's Export would read all it holds (its getters too).
		} else if px, isProxy := h.Export().(goja.Proxy); isProxy && px.Handler() == nil {
			return args // revoked: the engine's own Proxy of one would refuse it
		}
		// The stand-in's target holds nothing the engine could check a
		// trap against (a frozen h made a changed ownKeys a TypeError, and
		// h a Proxy had its getOwnPropertyDescriptor trap run at each
		// check), but h, for standsIn.
		mirror := vm.NewObject()
		_ = mirror.SetPrototype(nil)
		_ = mirror.Set(standInKey, h)
		type kept struct {
			fn   *goja.Object
			call goja.Value
		}
		calls := map[string]kept{}
		// A Proxy of a function may be a new.target: what it gives as its
		// prototype is what the object made inherits from (chains.go).
		_, function := goja.AssertFunction(t)
		var plainGet goja.Value
		meta := vm.NewProxy(mirror, &goja.ProxyTrapConfig{
			Get: func(_ *goja.Object, name string, _ goja.Value) goja.Value {
				trap := h.Get(name)
				none := trap == nil || goja.IsUndefined(trap) || goja.IsNull(trap)
				if name == "ownKeys" && none {
					g.chargeKeys(t, false)
					return trap
				}
				if name == "get" && none && function {
					if plainGet == nil {
						// The engine's own read, Reflect.get(t, k, receiver).
						plainGet = vm.ToValue(func(fc goja.FunctionCall) goja.Value {
							v := invoke(g.reflectGet, goja.Undefined(), fc.Arguments...)
							if isPrototypeKey(fc.Argument(1)) {
								g.adopted(v)
							}
							return v
						})
					}
					return plainGet
				}
				fn, isObject := trap.(*goja.Object)
				f, callable := goja.AssertFunction(trap)
				if !isObject || !callable {
					return trap // none, or one the engine refuses
				}
				if k, ok := calls[name]; ok && k.fn == fn {
					return k.call
				}
				// Each trap is called with this h, as the engine would.
				call := vm.ToValue(func(fc goja.FunctionCall) goja.Value { return invoke(f, h, fc.Arguments...) })
				switch name {
				case "ownKeys":
					call = vm.ToValue(func(fc goja.FunctionCall) goja.Value { return g.listedKeys(invoke(f, h, fc.Arguments...)) })
				case "get":
					// The key an object pattern with a rest reads first
					// (capture) is the sandbox's: the UDF's trap never sees
					// it. The object the pattern destructures inherits from
					// this Proxy (or is one).
					call = vm.ToValue(func(fc goja.FunctionCall) goja.Value {
						if s, ok := fc.Argument(1).(*goja.Symbol); ok && s == g.capture {
							g.captured(fc.Argument(2))
							return vm.ToValue(true)
						}
						v := invoke(f, h, fc.Arguments...)
						if function && isPrototypeKey(fc.Argument(1)) {
							g.adopted(v)
						}
						return v
					})
				}
				calls[name] = kept{fn, call}
				return call
			},
		})
		return []goja.Value{t, vm.ToValue(meta)}
	}
	proxy := vm.NewProxy(orig, &goja.ProxyTrapConfig{
		Construct: func(_ *goja.Object, args []goja.Value, newTarget *goja.Object) *goja.Object {
			if newTarget == nil {
				newTarget = orig
			}
			o, err := build(newTarget, stand(args)...)
			if err != nil {
				panic(err)
			}
			g.linked(o) // it reads through its target
			return o
		},
	})
	revocable := original(orig, "revocable", nil)
	replaceMethodKept(vm, orig, "revocable", func(fc goja.FunctionCall) goja.Value {
		v := invoke(revocable, fc.This, stand(fc.Arguments)...)
		if o, ok := v.(*goja.Object); ok {
			g.linked(o.Get("proxy"))
		}
		return v
	})
	_ = vm.GlobalObject().DefineDataProperty("Proxy", vm.ToValue(proxy), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// standsIn is the handler h a stand-in of boundProxies' stands in for,
// else h: the traps the UDF gave are h's.
func standsIn(h *goja.Object) *goja.Object {
	if h.ExportType() != proxyType {
		return h // an object's Export would read all it holds
	}
	if px, ok := h.Export().(goja.Proxy); ok {
		if nh := px.Handler(); nh != nil && nh.ExportType() == trapConfigType {
			if in, ok := px.Target().Get(standInKey).(*goja.Object); ok {
				return in
			}
		}
	}
	return h
}

// standInKey is the property of a stand-in's target that holds the
// handler it stands in for (the UDF never sees that object).
const standInKey = tickName + "_H"

// trapConfigType is what goja gives as the handler of a Proxy whose traps
// are Go's (boundProxies' stand-ins): the UDF cannot make one.
var trapConfigType = reflect.TypeOf((*goja.ProxyTrapConfig)(nil))

// listedKeys is boundProxies' copy of what an ownKeys trap returned (see
// there), its long keys charged before the engine goes through them.
func (g *guards) listedKeys(v goja.Value) goja.Value {
	o, ok := v.(*goja.Object)
	if !ok {
		return v // the engine refuses it
	}
	n := 0.0
	if l := o.Get("length"); l != nil {
		n = toLength(l.ToFloat())
	}
	var items []any
	for i := 0.0; i < n; i++ {
		k := o.Get(strconv.FormatFloat(i, 'f', -1, 64))
		if k == nil {
			k = goja.Undefined()
		}
		items = append(items, k)
		if _, sym := k.(*goja.Symbol); !sym {
			s, key := k.(goja.String)
			if !key {
				break // not a key: the engine refuses it
			}
			g.chargeKey(s)
		}
	}
	return g.vm.NewArray(items...)
}
