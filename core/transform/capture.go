//go:build !noudf && !quickjs

package transform

import (
	"reflect"
	"strconv"
	"unsafe"

	"github.com/dop251/goja"
)

// A rest in an object pattern ({a, ...r} = o) copies what o holds. Where
// the code names o (a declaration's or an assignment's right side),
// keysName(0) charges it before the copy. Elsewhere (a parameter's
// pattern, a nested one, a catch's, a loop head's) the engine fetches o in
// the middle of the destructuring, and the copy was charged only once
// made: a copy that a getter of o stopped half-way (a key of 8 MB, then a
// getter that throws, in a loop: 1.3-2.1 s natively, 10 s in js/wasm) was
// never charged, nor a generator's parameter's, whose body may never run.
//
// Each such pattern now reads a key of the sandbox's first,
// {[keysName(4)]: flag, ...r}: the engine reads it from o, just fetched,
// and Object.prototype holds it, an accessor whose getter (captured) is
// given o as its this, charges the copy before the engine makes it, and
// gives true, which the flag keeps. An o the key does not reach (an object
// with no Object.prototype among the objects it inherits from) gives
// undefined, and the copy is charged once made, as before (restNames: the
// flag tells the two apart). Each object that comes to inherit from no
// Object.prototype is given the accessor as its own (markOrphans).

// installCapture puts capture's accessor on Object.prototype and hides the
// key from the built-ins that list an object's symbols.
func (g *guards) installCapture() {
	vm := g.vm
	g.captureGet = vm.ToValue(func(fc goja.FunctionCall) goja.Value {
		g.captured(fc.This)
		return vm.ToValue(true)
	})
	if err := objectAt(vm, "Object.prototype").DefineAccessorPropertySymbol(g.capture, g.captureGet, nil, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		panic("transform: sandbox: capture: " + err.Error())
	}
	g.markOrphans()
	// The lists of an object's own keys that hold symbols leave it out.
	for _, m := range []struct{ at, name string }{{"Object", "getOwnPropertySymbols"}, {"Reflect", "ownKeys"}} {
		o := objectAt(vm, m.at)
		orig := original(o, m.name, nil)
		replaceMethodKept(vm, o, m.name, func(fc goja.FunctionCall) goja.Value {
			return g.withoutCapture(invoke(orig, fc.This, fc.Arguments...))
		})
	}
	o := objectAt(vm, "Object")
	describeAll := original(o, "getOwnPropertyDescriptors", nil)
	replaceMethodKept(vm, o, "getOwnPropertyDescriptors", func(fc goja.FunctionCall) goja.Value {
		v := invoke(describeAll, fc.This, fc.Arguments...)
		if d, ok := v.(*goja.Object); ok {
			_ = d.DeleteSymbol(g.capture)
		}
		return v
	})
}

// withoutCapture is the list of keys v (an array a built-in made) without
// capture, v itself when it does not hold it.
func (g *guards) withoutCapture(v goja.Value) goja.Value {
	list, ok := v.(*goja.Object)
	if !ok {
		return v
	}
	n := lengthOf(list)
	for i := 0.0; i < n; i++ {
		if list.Get(strconv.FormatFloat(i, 'f', -1, 64)) != goja.Value(g.capture) {
			continue
		}
		kept := make([]any, 0, int(n)-1)
		for j := 0.0; j < n; j++ {
			if k := list.Get(strconv.FormatFloat(j, 'f', -1, 64)); j != i {
				kept = append(kept, k)
			}
		}
		return g.vm.NewArray(kept...)
	}
	return v
}

// captured charges the copy a rest is about to make of the object its
// pattern destructures: v, as capture's getter is given it (goja's
// stand-in for the object during a destructuring, which gives the
// object's keys without those the pattern took: destructSource). A
// Proxy's keys are charged when the engine lists them (boundProxies).
func (g *guards) captured(v goja.Value) {
	if o, ok := v.(*goja.Object); ok {
		v = destructSource(o)
	}
	if o, ok := v.(*goja.Object); ok && o.ExportType() == proxyType {
		return
	}
	g.copied(v, "a rest")
}

// destructSource is the object goja's destructuring stand-in o (its
// destructKeyedSource) stands for, o itself when it is not one. The
// stand-in lists the object's keys but hides its own table from heldNames
// (an array's named keys, read only there, would go uncharged). Read
// through reflect and unsafe, never written; a goja whose layout differs
// gives o (TestCaptureSeesTheObject fails first).
func destructSource(o *goja.Object) goja.Value {
	self := reflect.ValueOf(o).Elem().FieldByName("self")
	if self.Kind() != reflect.Interface || self.IsNil() {
		return o
	}
	impl := self.Elem()
	if impl.Kind() != reflect.Pointer || impl.IsNil() || impl.Elem().Type().Name() != "destructKeyedSource" {
		return o
	}
	f := impl.Elem().FieldByName("wrapped")
	if !f.IsValid() || f.Type() != reflect.TypeFor[goja.Value]() {
		return o
	}
	v, _ := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface().(goja.Value)
	if v == nil {
		return o
	}
	return v
}

// markOrphans gives capture's accessor, as an own property, to each object
// that comes to inherit from no Object.prototype: made by Object.create
// (null), an object literal's __proto__, a class that extends null (its
// prototype: the sandbox's static block, instrument), or set by
// Object.setPrototypeOf, Reflect.setPrototypeOf or the __proto__ setter,
// and a match's groups (exec, which the other searches call). An
// object that inherits from one of these reaches it there.
func (g *guards) markOrphans() {
	vm := g.vm
	object, reflect := objectAt(vm, "Object"), objectAt(vm, "Reflect")
	// Each is charged as a wrapped built-in (builtinSteps): with the
	// check of the chain it makes (guards.linked), twenty in a statement
	// ran 150-325 ms natively for their steps, some five times that in
	// js/wasm.
	create := original(object, "create", nil)
	replaceMethod(vm, object, "create", nil, func(fc goja.FunctionCall) goja.Value {
		v := invoke(create, fc.This, fc.Arguments...)
		g.orphan(v)
		g.linked(v)
		return v
	})
	for _, o := range []*goja.Object{object, reflect} {
		set := original(o, "setPrototypeOf", nil)
		replaceMethod(vm, o, "setPrototypeOf", nil, func(fc goja.FunctionCall) goja.Value {
			v := invoke(set, fc.This, fc.Arguments...)
			g.orphan(fc.Argument(0))
			g.spliced(fc.Argument(0))
			return v
		})
	}
	proto := objectAt(vm, "Object.prototype")
	if d, ok := invoke(g.describe, goja.Undefined(), proto, vm.ToValue("__proto__")).(*goja.Object); ok {
		get, _ := d.Get("get").(*goja.Object)
		set, ok := goja.AssertFunction(d.Get("set"))
		if get != nil && ok {
			setter := vm.ToValue(func(fc goja.FunctionCall) goja.Value {
				g.cost(builtinSteps)
				v := invoke(set, fc.This, fc.Arguments...)
				g.orphan(fc.This)
				g.spliced(fc.This)
				return v
			}).(*goja.Object)
			sameNameAndArity(setter, d.Get("set").(*goja.Object))
			if err := proto.DefineAccessorProperty("__proto__", get, setter, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
				panic("transform: sandbox: __proto__: " + err.Error())
			}
		}
	}
}

// orphan gives v capture's accessor as its own property when v (or the
// object a Proxy v stands for, which a Proxy's own [[SetPrototypeOf]]
// reaches) inherits from nothing. It runs no code of the UDF's.
func (g *guards) orphan(v goja.Value) {
	o, ok := v.(*goja.Object)
	for depth := 0; ok && o != nil && depth < 64; depth++ {
		if o.ExportType() != proxyType {
			if o.Prototype() == nil {
				_ = o.DefineAccessorPropertySymbol(g.capture, g.captureGet, nil, goja.FLAG_TRUE, goja.FLAG_FALSE)
			}
			return
		}
		px, isProxy := o.Export().(goja.Proxy)
		if !isProxy {
			return
		}
		o = px.Target()
	}
}
