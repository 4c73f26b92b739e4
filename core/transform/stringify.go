//go:build !noudf && !quickjs

package transform

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/dop251/goja"

	"github.com/subplay/subplay/core/limits"
)

// boundStringify makes JSON.stringify pay for what it writes. goja's
// stringify is one Go loop over the value with no step of the UDF's, and
// its output can be far larger than anything the UDF built: a 1 MB string
// in an array of 1,000 (one fill) wrote 1 GB, an array of 100 arrays of
// 1,000 arrays of 1,000 numbers (three fills) walked 100 million values,
// Array(1e8) wrote "null" 100 million times, and 20,000 nested arrays
// with an indent wrote 16 GB (measured natively, 10 to 66 s each).
//
// The guard passes goja a replacer function of its own, which goja calls
// for every value it writes. It charges a step per 8 values, reckons the
// bytes each adds (its key, separator and indent, and a string's escapes),
// throws a RangeError past limits.UDFJSONBytes or limits.UDFJSONNesting
// levels, and stops the call past the call's steps or allocation budget.
// A replacer function of the UDF's runs inside it, first, as goja would
// have called it. A replacer array (a property list) cannot be passed
// along with a function, so it is applied by the guard: each object is
// copied into a fresh one with the listed keys in the listed order, read
// once each, as goja reads them (behind a Proxy that keeps the list's
// order, since an object keeps keys like "1" first). Of the effects of the
// UDF's getters, only their order relative to the values below them can
// differ from goja's own stringify: a copy reads all of an object's
// listed keys before writing the first.
func (g *guards) boundStringify() {
	j := g.object("JSON")
	stringify := original(j, "stringify", nil)
	isArray := original(g.object("Array"), "isArray", nil)
	rawJSON := original(j, "rawJSON", nil)
	g.set(j, "stringify", nil, func(fc goja.FunctionCall) goja.Value {
		if g.c.call == nil {
			return invoke(stringify, fc.This, fc.Arguments...)
		}
		if g.stopped() {
			return goja.Undefined()
		}
		g.cost(jsonCallSteps)
		w := &jsonWalk{g: g, isArray: isArray, rawJSON: rawJSON, seen: map[*goja.Object]walked{}}
		if o, ok := fc.Argument(1).(*goja.Object); ok {
			if f, ok := goja.AssertFunction(o); ok {
				w.user = f
			} else if invoke(isArray, goja.Undefined(), o).ToBoolean() {
				if !w.readList(o) {
					return goja.Undefined()
				}
			}
		}
		space := w.space(fc.Argument(2))
		replacer := g.vm.ToValue(w.replace)
		// Its levels count against limits.UDFJSONNesting with those
		// already held (a stringify in a toJSON of a join's item...).
		w.base = g.nest
		defer func() { g.nest = w.base }()
		return w.run(stringify, fc.Argument(0), replacer, space)
	})
}

// jsonWalk is one JSON.stringify call's reckoning.
type jsonWalk struct {
	g       *guards
	isArray goja.Callable // Array.isArray as it was before the UDF ran
	rawJSON goja.Callable // JSON.rawJSON likewise
	user    goja.Callable // the UDF's replacer function, if any
	// list is the property list of a replacer array (nil without one), and
	// ordered whether its order is one a plain object keeps.
	list    []string
	ordered bool
	gap     int     // the indent's length per level
	base    int     // the guards' nest when the call began
	out     float64 // bytes written so far, reckoned
	values  int     // values written so far
	// seen holds each object the walk handed goja: its depth, the object
	// it came from (a property list's copy's original), and its holder,
	// to find its depth and, for copies, a cycle.
	seen map[*goja.Object]walked
}

type walked struct {
	depth  int
	array  bool // goja writes it as an array, with no keys
	from   *goja.Object
	holder *goja.Object
}

// stringifyStopped unwinds goja's stringify when the walk stopped the call:
// the stop then takes effect at the UDF's next step, where its finding is
// placed.
type stringifyStopped struct{}

func (w *jsonWalk) run(stringify goja.Callable, v, replacer, space goja.Value) (out goja.Value) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stringifyStopped); !ok {
				panic(r)
			}
			out = goja.Undefined()
		}
	}()
	return invoke(stringify, goja.Undefined(), v, replacer, space)
}

// readList reads a replacer array as goja does: its items that are
// strings or numbers (or String or Number objects), as strings, each once.
// It charges the array's length first: goja allocates a slot per item
// before it looks at them. It reports whether the call may go on.
func (w *jsonWalk) readList(o *goja.Object) bool {
	n := lengthOf(o)
	if !w.g.p.charge(w.g.c, n, 1, "JSON.stringify's property list") {
		return false
	}
	seen := map[string]bool{}
	w.list = []string{}
	for i := 0; i < int(n); i++ {
		v := o.Get(strconv.Itoa(i))
		switch v := v.(type) {
		case goja.String:
		case *goja.Object:
			if c := v.ClassName(); c != "String" && c != "Number" {
				continue
			}
		default:
			if _, ok := v.Export().(int64); !ok {
				if _, ok := v.Export().(float64); !ok {
					continue
				}
			}
		}
		k := v.String()
		if !seen[k] {
			seen[k] = true
			w.list = append(w.list, k)
		}
	}
	w.ordered = plainOrder(w.list)
	return true
}

// plainOrder reports whether a plain object given keys in this order
// surely keeps it: one puts keys like "1" first. A list with a key that
// starts like a number gets the Proxy.
func plainOrder(keys []string) bool {
	for _, k := range keys {
		if k != "" && (k[0] >= '0' && k[0] <= '9' || k[0] == '-') {
			return false
		}
	}
	return true
}

// space converts the indent argument once, as goja would (a Number or a
// String object by its valueOf or toString), and returns the primitive to
// pass on, noting the indent's length.
func (w *jsonWalk) space(v goja.Value) goja.Value {
	if o, ok := v.(*goja.Object); ok {
		switch o.ClassName() {
		case "Number":
			v = o.ToNumber()
		case "String":
			v = o.ToString()
		}
	}
	switch x := v.(type) {
	case goja.String:
		w.gap = min(x.Length(), 10)
	case *goja.Object, *goja.Symbol:
	default:
		if f, ok := x.Export().(float64); ok && !math.IsNaN(f) {
			w.gap = int(min(max(f, 0), 10))
		} else if i, ok := x.Export().(int64); ok {
			w.gap = int(min(max(i, 0), 10))
		}
	}
	return v
}

// replace is the replacer goja calls for every value it writes.
func (w *jsonWalk) replace(fc goja.FunctionCall) goja.Value {
	g := w.g
	holder, _ := fc.This.(*goja.Object)
	key, v := fc.Argument(0), fc.Argument(1)
	up, known := w.seen[holder]
	depth := up.depth // 0 for the object goja puts the value in first
	// goja's writer holds depth+1 levels while the UDF's replacer and the
	// toJSON of what it writes next run.
	g.nest = w.base + depth + 1
	if w.user != nil {
		v = invoke(w.user, holder, key, v)
	}
	// A step per 8 values, or per value in a Proxy, whose traps make
	// each value cost several times a plain one's.
	if w.values++; w.values%8 == 0 || holder != nil && holder.ExportType() == proxyType {
		g.p.tick(g.c, 1)
	}
	if g.stopped() {
		panic(stringifyStopped{})
	}
	// The separator, line break and indent before the value, and its key.
	bytes := 1.0
	if w.gap > 0 {
		bytes += 1 + float64(w.gap*(depth+1))
	}
	if known && !up.array {
		bytes += 3 + w.quoted(g.str(key), bytes)
	}
	// A String or Number object is converted here, once, as goja would
	// convert it next (its toString or valueOf may be the UDF's, and
	// return anything), and goja gets the primitive.
	if o, ok := v.(*goja.Object); ok {
		switch o.ClassName() {
		case "String":
			v = g.str(o)
		case "Number":
			v = o.ToNumber()
		}
	}
	o, isObj := v.(*goja.Object)
	if !isObj {
		if s, ok := v.(goja.String); ok && s.Length() >= fastQuote && asciiString(s) {
			// Counted without its escapes first, so that a string past
			// the bound is refused before it is quoted; then its escapes,
			// from the quoted text.
			n := s.Length() + 2
			w.add(bytes + float64(n))
			room := int(limits.UDFJSONBytes - w.out)
			q, ok := quoteASCII(s.String(), n+room)
			if !ok {
				w.add(float64(room + 1)) // throws
			}
			w.add(float64(len(q) - n))
			return invoke(w.rawJSON, goja.Undefined(), g.vm.ToValue(q))
		}
		w.add(bytes + w.primitive(v, bytes))
		return v
	}
	switch c := o.ClassName(); c {
	case "Boolean", "BigInt":
		w.add(bytes + 25)
		return v
	case "RawJSON":
		w.add(bytes + float64(g.str(o.Get("rawJSON")).Length()))
		return v
	}
	if _, ok := goja.AssertFunction(o); ok {
		w.add(bytes + 4)
		return v
	}
	if w.base+depth+1 > limits.UDFJSONNesting {
		g.throwRange(nestMessage("JSON.stringify", "the value nests"))
	}
	// A typed array (or an arguments object) is written as an object,
	// whose keys goja lists all at once before it writes the first:
	// charged here, as a bulk built-in's items are.
	if isTypedArray(o) || o.ClassName() == "Arguments" {
		n := lengthOf(o)
		if !g.p.charge(g.c, n, 8, "JSON.stringify") {
			panic(stringifyStopped{})
		}
	}
	// Brackets, and the closing one's line and indent.
	bytes += 2
	if w.gap > 0 {
		bytes += 1 + float64(w.gap*(depth+1))
	}
	w.add(bytes)
	from, array := o, invoke(w.isArray, goja.Undefined(), o).ToBoolean()
	if array && o.ExportType() == arrayType {
		// An array writes every item, each at least one byte, with a
		// comma between: one too long is refused here, before goja
		// goes through its items (Array(1e8), all holes, took 400,000
		// calls of this replacer before the call's steps ran out, 1.3 s
		// in the extra worker). Its length is a plain property, read
		// without running any of the UDF's code (a Proxy's would run
		// its get trap, so a Proxy is left to the count).
		if n := lengthOf(o); n > 0 {
			w.least(2*n - 1)
		}
	}
	if w.list != nil && !array {
		w.cycle(o, holder)
		o = w.copy(o)
	}
	w.seen[o] = walked{depth: depth + 1, array: array, from: from, holder: holder}
	return o
}

// cycle throws goja's TypeError when o is already being written above
// holder: a property list's copies are fresh objects, which goja's own
// check cannot recognise.
func (w *jsonWalk) cycle(o, holder *goja.Object) {
	for h := holder; h != nil; {
		s, ok := w.seen[h]
		if !ok {
			return
		}
		if s.from == o {
			panic(w.g.vm.NewTypeError("Converting circular structure to JSON"))
		}
		h = s.holder
	}
}

// copy is o with the property list's keys only, in its order, each read
// once.
func (w *jsonWalk) copy(o *goja.Object) *goja.Object {
	vm := w.g.vm
	c := vm.NewObject()
	for _, k := range w.list {
		_ = c.DefineDataProperty(k, o.Get(k), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	}
	if w.ordered {
		return c
	}
	keys := make([]any, len(w.list))
	for i, k := range w.list {
		keys[i] = k
	}
	p := vm.NewProxy(c, &goja.ProxyTrapConfig{
		OwnKeys: func(*goja.Object) *goja.Object { return vm.NewArray(keys...) },
	})
	return vm.ToValue(p).(*goja.Object)
}

// primitive is the bytes a primitive value adds.
func (w *jsonWalk) primitive(v goja.Value, so float64) float64 {
	switch x := v.(type) {
	case goja.String:
		return w.quoted(x, so)
	case nil:
		return 4
	}
	if goja.IsUndefined(v) || goja.IsNull(v) {
		return 4
	}
	return 25 // a number or a boolean, at most
}

// quoted is the bytes s takes quoted, with its escapes: it reads s only
// while what is written so far, so, and s's length stay within the bound,
// so the walk reads at most limits.UDFJSONBytes of text.
func (w *jsonWalk) quoted(s goja.String, so float64) float64 {
	n := s.Length()
	if w.out+so+float64(n) > limits.UDFJSONBytes {
		return float64(n) + 2
	}
	extra := 0
	if asciiString(s) {
		// String returns goja's Go string as it is.
		for _, c := range []byte(s.String()) {
			switch {
			case c < 0x20:
				extra += 5
			case c == '"' || c == '\\':
				extra++
			}
		}
		return float64(n+extra) + 2
	}
	for i := range n {
		switch c := s.CharAt(i); {
		case c < 0x20:
			extra += 5
		case c == '"' || c == '\\':
			extra++
		case c >= 0x80:
			extra += 2 // up to three bytes of UTF-8
		}
	}
	return float64(n+extra) + 2
}

// add counts a value's bytes: past limits.UDFJSONBytes in all it throws
// a RangeError, as the bounded string built-ins do, and when goja's
// buffer, which doubles as it grows, would take the call past its
// allocation budget, it stops the call.
func (w *jsonWalk) add(bytes float64) {
	w.out += bytes
	w.least(0)
	g := w.g
	if bytes < 1<<16 {
		return
	}
	if !g.afford("JSON.stringify", 2*w.out) {
		panic(stringifyStopped{})
	}
}

// least throws add's RangeError when what is written so far and bytes
// more would pass limits.UDFJSONBytes.
func (w *jsonWalk) least(bytes float64) {
	if n := w.out + bytes; n > limits.UDFJSONBytes {
		w.g.throwRange(fmt.Sprintf("JSON.stringify would write more than %.0f bytes; subplay allows at most %d", n, limits.UDFJSONBytes))
	}
}

// arrayType is what an array (not a Proxy, not a typed array) exports to.
var arrayType = reflect.TypeOf([]any(nil))

// proxyType is what a Proxy exports to.
var proxyType = reflect.TypeOf(goja.Proxy{})

// fastQuote is the length from which an ASCII string is quoted here, in
// one pass, and handed to goja as raw JSON (JSON.rawJSON), which it
// copies as it is: goja's own quoting goes a character at a time, and
// 4 MiB of it took 0.7 s in js/wasm. The bytes are the same.
const fastQuote = 1024

// quoteASCII quotes an ASCII string as goja's JSON.stringify does: a
// backslash before " and \, the short escapes of JSON, and \u00xx for the
// other control characters. It gives up (false) once the quoted text
// would pass most bytes, so that escapes cannot make it build far past
// the bound before the count refuses it.
func quoteASCII(s string, most int) (string, bool) {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		if b.Len()+i-start > most {
			return "", false
		}
		b.WriteString(s[start:i])
		start = i + 1
		switch c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			const hex = "0123456789abcdef"
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xF])
		}
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
	return b.String(), b.Len() <= most
}

// asciiString reports whether goja holds s as its ASCII kind, a Go string
// (its other kinds hold UTF-16).
func asciiString(s goja.String) bool { return reflect.ValueOf(s).Kind() == reflect.String }
