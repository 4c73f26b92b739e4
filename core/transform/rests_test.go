//go:build !noudf && !quickjs

package transform

import (
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/subplay/subplay/core/message"
)

// TestCaptureSeesTheObject: capture's getter is given goja's stand-in for
// the object a pattern destructures; destructSource reaches the object
// itself (an array's named keys are read from its own table only). A
// goja whose layout differs fails here first.
func TestCaptureSeesTheObject(t *testing.T) {
	vm := goja.New()
	key := goja.NewSymbol("k")
	var seen []goja.Value
	get := vm.ToValue(func(fc goja.FunctionCall) goja.Value {
		if o, ok := fc.This.(*goja.Object); ok {
			seen = append(seen, destructSource(o))
		} else {
			seen = append(seen, fc.This)
		}
		return vm.ToValue(true)
	})
	if err := objectAt(vm, "Object.prototype").DefineAccessorPropertySymbol(key, get, nil, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		t.Fatal(err)
	}
	_ = vm.Set("K", key)
	if _, err := vm.RunString("var o = {a: 1}, a = [1, 2], s = 'xy'; var [{[K]: c1, ...r1}, {[K]: c2, ...r2}, {[K]: c3, ...r3}] = [o, a, s]"); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 3 || seen[0] != vm.Get("o") || seen[1] != vm.Get("a") || !seen[2].StrictEquals(vm.Get("s")) {
		t.Fatalf("the getter saw %v, want the object, the array and the string", seen)
	}
	if o := vm.NewObject(); destructSource(o) != goja.Value(o) {
		t.Error("an object that stands for none is itself")
	}
}

// TestCaptureChargesNamedKeysOfArrays: a rest copying an array charges the
// long key the array holds besides its items, read from its own table.
func TestCaptureChargesNamedKeysOfArrays(t *testing.T) {
	code := "var t = 'x'.repeat(8e6), a = [1]; a[t] = 1; var w = [a]; for (;;) { var [{...r}] = w }"
	p, err := Compile([]UDF{{FunctionName: "f", Code: "function f(m) { " + code + " }"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	st := p.Run(message.Message{Data: []byte("x")})[0]
	if st.Outcome != Failed || len(st.Diagnostics) == 0 || !strings.Contains(st.Diagnostics[len(st.Diagnostics)-1].Message, "as a property's or a collection's key") {
		t.Errorf("got %v %v, want failed: the long key charged", st.Outcome, st.Diagnostics)
	}
}

// TestFlagsNotListed: the name a top-level var's pattern's first key binds
// (flagPatterns) is a global, as the var's own names are, but one that no
// list of the global object's keys shows.
func TestFlagsNotListed(t *testing.T) {
	code := "var {a: {...r}} = {a: {b: 1}}; let {c: {...q}} = {c: {d: 2}}; var s = []; for (var k in globalThis) s.push(k);\nfunction f(m) { return {data: JSON.stringify([Object.keys(globalThis).concat(s).filter(function (k) { return k.indexOf('__') == 0 }), r, q])} }"
	if got, want := runUDF(t, code), `[[],{"b":1},{"d":2}]`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
