//go:build !noudf && !quickjs

package transform

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/subplay/subplay/core/limits"
)

// guards bounds the built-ins that one call can make do unbounded work
// without a step: a regular expression on the backtracking engine, and
// the string builders whose output can be the product of their inputs'
// sizes (replace with a long replacement on a long text, join or concat of
// one long string many times). Each checks before it allocates.
type guards struct {
	vm         *goja.Runtime
	p          *Program
	c          *compiled
	rangeError *goja.Object
	// imported is the kind of goja string made from a Go string.
	imported reflect.Type
	// get holds RegExp.prototype's getters as they were before the UDF's
	// code ran, so that a redefined getter cannot hide a flag.
	get map[string]goja.Callable
	// seen caches the analysis of each pattern and flags the runtime met.
	seen map[string]rxPattern
	// joining counts the arrays join is joining, to give "" for a cycle
	// as goja (and V8) do (a set, not a list to scan: 45,000 nested arrays
	// took 2.7 s).
	joining map[*goja.Object]int
	// nest is the Go recursion the built-ins under way hold, in levels of
	// JSON (limits.UDFJSONNesting; enter).
	nest int
	// describe is Object.getOwnPropertyDescriptor, and typedLength the
	// typed arrays' length getter, as they were before the UDF's code ran
	// (see steady).
	describe    goja.Callable
	typedLength *goja.Object
	// capture is the key an object pattern with a rest reads first
	// ({[keysName(4)]: flag, ...r}): Object.prototype holds it, an accessor
	// whose getter charges the object the rest is about to copy (captured).
	// The UDF never sees it (installCapture).
	capture *goja.Symbol
	// captureGet is capture's getter (given to the objects that inherit
	// from nothing: markOrphans).
	captureGet goja.Value
	// reflectGet, reflectSet and reflectHas are Reflect.get, set and has
	// as they were before the UDF's code ran (guards.count reads and sets
	// through them, sortItems asks a Proxy through has).
	reflectGet, reflectSet, reflectHas goja.Callable
	// mapper, compare, listed and like are elementHelpers', and kinds the
	// typed arrays' prototypes with what their arrays hold (boundElements).
	mapper, compare, listed, like, fromEntries goja.Callable
	kinds                                      map[*goja.Object]int
	// dataViewLength is DataView.prototype's byteLength getter as the
	// sandbox found it (isView).
	dataViewLength goja.Callable
	// plain is what a RegExp's split reads as the sandbox left it (see
	// plainRegExp).
	plain rxPlain
	// heights are, for each object a link made a prototype, the longest
	// way down to an object that inherits from it (chains.go).
	heights map[uintptr]chainHeight
	// lastMade is the object made checked last (made), nil after any
	// other link.
	lastMade *goja.Object
	// protos are the engine's prototypes whose heights seedHeights
	// records at the first change of a prototype (nil after).
	protos *goja.Object
}

// rxPlain is RegExp.prototype, RegExp, and the values and getters of
// theirs that the spec's split reads, as the guards left them.
type rxPlain struct {
	proto, ctor *goja.Object
	// props are the prototype's properties by name (a data property's
	// value, an accessor's getter), and species RegExp's species getter.
	props   map[string]*goja.Object
	species *goja.Object
}

// rxSplitReads are the properties of RegExp.prototype the spec's split
// reads, directly or through the flags getter.
var rxSplitReads = []string{"constructor", "exec", "flags", "hasIndices", "global", "ignoreCase", "multiline", "dotAll", "unicode", "unicodeSets", "sticky"}

// own is o's own property key as a data value or a getter, nil when o
// has none.
func (g *guards) own(o *goja.Object, key goja.Value) *goja.Object {
	d, ok := invoke(g.describe, goja.Undefined(), o, key).(*goja.Object)
	if !ok {
		return nil
	}
	if get, ok := d.Get("get").(*goja.Object); ok {
		return get
	}
	v, _ := d.Get("value").(*goja.Object)
	return v
}

// copied charges an object the engine copies all of (a spread's source,
// a rest's): its items, and the long keys it holds.
func (g *guards) copied(v goja.Value, what string) {
	g.p.charge(g.c, g.items(v, what), 1, what)
	g.chargeKeys(v, false)
}

func (g *guards) plainState(proto *goja.Object) rxPlain {
	st := rxPlain{proto: proto, ctor: g.object("RegExp"), props: map[string]*goja.Object{}}
	for _, k := range rxSplitReads {
		st.props[k] = g.own(proto, g.vm.ToValue(k))
	}
	st.species = g.own(st.ctor, goja.SymSpecies)
	return st
}

// plainRegExp reports whether the spec's split of rx would read nothing
// the UDF changed: rx has no own property but lastIndex, and RegExp's
// prototype, constructor and species are as the sandbox left them. Then
// its result is splitFast's.
func (g *guards) plainRegExp(rx *goja.Object) bool {
	st := g.plain
	if rx.Prototype() != st.proto || len(rx.Symbols()) > 0 {
		return false
	}
	if names := rx.GetOwnPropertyNames(); len(names) != 1 || names[0] != "lastIndex" {
		return false
	}
	for k, v := range st.props {
		if g.own(st.proto, g.vm.ToValue(k)) != v {
			return false
		}
	}
	return st.props["constructor"] == st.ctor && g.own(st.ctor, goja.SymSpecies) == st.species
}

// splitFast is the spec's split of a text by an expression RE2 runs,
// found with RE2 over the whole text, nil when RE2 cannot run it or does
// not read the text as the spec does (rxPattern.runeText).
// The spec tries a sticky match at each position in turn, which goja
// runs on its backtracking engine (a search from past the start), one
// call each: 200 KB split by /,/ went past the call's allocation budget.
// RE2's successive matches are the same: each is the leftmost from where
// the last ended, and an empty match where the last ended (or at the
// text's start) is passed over, as the spec passes over an empty match
// where its last piece ended. lim is the pieces' bound (limit's).
func (g *guards) splitFast(p rxPattern, rx *goja.Object, s goja.String, lim uint32) goja.Value {
	if p.re == nil || p.backtrack != "" || s == nil || !g.plainRegExp(rx) {
		return nil
	}
	text, ok := p.runeText(s)
	if !ok {
		return nil
	}
	vm := g.vm
	if lim == 0 {
		return vm.NewArray()
	}
	if text == "" {
		if p.re.MatchString("") {
			return vm.NewArray()
		}
		return vm.NewArray(s)
	}
	if !g.searchable("split", len(text)) {
		return goja.Undefined()
	}
	left := g.p.stepsLeft(g.c)
	// Pieces past the steps left are refused by the caller: more matches
	// than that (and the two an empty match at either end can pass over)
	// are never needed.
	most := int(min(float64(lim), left, float64(len(text))) + 3)
	if !matchesFit(p, most) {
		return nil
	}
	ms := p.re.FindAllStringSubmatchIndex(text, most)
	g.scan(float64(len(text)))
	var a []any
	piece := func(i, j int) bool {
		if i < 0 {
			a = append(a, goja.Undefined())
		} else {
			a = append(a, text[i:j])
		}
		return uint32(len(a)) == lim
	}
	at := 0
	for _, m := range ms {
		q, e := m[0], m[1]
		if q >= len(text) {
			break
		}
		if e == at {
			continue
		}
		if piece(at, q) {
			return vm.NewArray(a...)
		}
		at = e
		for i := 2; i+1 < len(m); i += 2 {
			if piece(m[i], m[i+1]) {
				return vm.NewArray(a...)
			}
		}
	}
	piece(at, len(text))
	return vm.NewArray(a...)
}

// replaceFast is the spec's replace of every match of an expression with
// the g flag, the matches found by RE2 in one pass over the whole text;
// nil when it does not apply, and the built-in runs. goja's replace asks
// exec for each match in turn: in a text outside ASCII each search from
// past the start goes over a new copy of the whole text (charged by
// rxCopyChars), and a replace of thousands of matches in tens of KB was
// refused; in an ASCII text its own exec ran uncharged, each match a
// value made (700,000 matches: 1 s in js/wasm before the allocation
// budget stopped it), where here each is a step (TestConversionsCharged's
// "replace in an ASCII text").
// It applies when the spec's loop would read nothing the UDF changed
// (plainRegExp), RE2 reads the text as the spec does
// (runeText), the expression never matches the empty string, so that
// RE2's successive matches are the spec's (each the leftmost from where
// the last ended), and has no named group, and the replacement is
// well-formed text or a function (unless a group that may match the empty
// string is repeated: rxPattern.emptyRepeated). The function is called
// once per match, in order, after every match is found, with the match,
// its groups (undefined for one that matched nothing), its position in
// UTF-16 code units and the text, as the spec calls it.
func (g *guards) replaceFast(p rxPattern, rx *goja.Object, s goja.String, replace goja.Value) goja.Value {
	if p.re == nil || p.backtrack != "" || !p.global || p.sticky || !p.nonEmpty || p.named ||
		s == nil || g.stopped() || !g.plainRegExp(rx) {
		return nil
	}
	fn, isFunc := goja.AssertFunction(replace)
	if isFunc && p.emptyRepeated {
		return nil
	}
	var tmpl string
	if !isFunc {
		r, ok := replace.(goja.String)
		if !ok {
			return nil
		}
		if _, _, wellFormed, _ := texts(r); !wellFormed {
			return nil
		}
		tmpl = r.String()
	}
	text, ok := p.runeText(s)
	if !ok {
		return nil
	}
	// The spec sets lastIndex to 0 first (a TypeError when it cannot), and
	// the search that finds no more matches sets it to 0 again.
	if err := rx.Set("lastIndex", 0); err != nil {
		panic(err)
	}
	g.p.tick(g.c, 1) // the call's own step, as the wrapped built-in takes
	if g.stopped() || !g.searchable("replace", s.Length()) {
		return goja.Undefined()
	}
	// Each match is a step, as each of the built-in's calls of exec is;
	// more matches than the steps left are never needed.
	left := g.p.stepsLeft(g.c)
	most := int(min(left, float64(len(text)))) + 1
	if !matchesFit(p, most) {
		return nil
	}
	ms := p.re.FindAllStringSubmatchIndex(text, most)
	g.scan(float64(s.Length()))
	if float64(len(ms)) > left {
		g.p.refuseSteps(g.c, "replace", "more than "+countText(left))
		return goja.Undefined()
	}
	if !g.p.charge(g.c, float64(len(ms)), 1, "replace") {
		return goja.Undefined()
	}
	var b goja.StringBuilder
	at, at16 := 0, 0 // a byte offset in text, and the same in UTF-16 code units
	for _, m := range ms {
		b.WriteUTF8String(text[at:m[0]])
		if isFunc {
			for _, r := range text[at:m[0]] {
				at16 += utf16.RuneLen(r)
			}
			args := []goja.Value{g.vm.ToValue(text[m[0]:m[1]])}
			for i := 2; i+1 < len(m); i += 2 {
				if m[i] < 0 {
					args = append(args, goja.Undefined())
				} else {
					args = append(args, g.vm.ToValue(text[m[i]:m[i+1]]))
				}
			}
			args = append(args, g.vm.ToValue(at16), s)
			b.WriteString(g.str(invoke(fn, goja.Undefined(), args...)))
			if g.stopped() {
				return goja.Undefined()
			}
			for _, r := range text[m[0]:m[1]] {
				at16 += utf16.RuneLen(r)
			}
		} else {
			substitute(&b, tmpl, text, m)
		}
		at = m[1]
	}
	b.WriteUTF8String(text[at:])
	if onReplaceFast != nil {
		onReplaceFast()
	}
	return b.String()
}

// matchBytes bounds what the offsets of the matches that splitFast and
// replaceFast ask RE2 for may take at once: RE2 gives every match with its
// groups' offsets in one slice each, before any step could look at the
// call's allocation. A call's steps allow some 50,000 matches, 4.4 MB with
// three groups; an expression with many groups and a text with many
// matches goes to goja's own path instead, match by match.
const matchBytes = 16 << 20

// matchesFit says whether most matches of p, with their groups' offsets,
// fit matchBytes.
func matchesFit(p rxPattern, most int) bool {
	per := 8*2*(p.re.NumSubexp()+1) + 24 // the offsets and the slice's header
	return float64(most)*float64(per) <= matchBytes
}

// onReplaceFast, when set (by a test), is called for each replace that
// replaceFast answers.
var onReplaceFast func()

// substitute writes the replacement template tmpl for the match m of an
// expression without named groups in text (offsets as RE2 gives them), as
// the spec's GetSubstitution: $$, $&, $` and $' and the groups $1 to $99;
// a $ that starts none of these is itself.
func substitute(b *goja.StringBuilder, tmpl, text string, m []int) {
	groups := len(m)/2 - 1
	for i := 0; i < len(tmpl); i++ {
		c := tmpl[i]
		if c != '$' || i+1 == len(tmpl) {
			j := strings.IndexByte(tmpl[i+1:], '$')
			if j < 0 {
				j = len(tmpl)
			} else {
				j += i + 1
			}
			b.WriteUTF8String(tmpl[i:j])
			i = j - 1
			continue
		}
		switch d := tmpl[i+1]; {
		case d == '$':
			b.WriteUTF8String("$")
		case d == '&':
			b.WriteUTF8String(text[m[0]:m[1]])
		case d == '`':
			b.WriteUTF8String(text[:m[0]])
		case d == '\'':
			b.WriteUTF8String(text[m[1]:])
		case d >= '0' && d <= '9':
			// Two digits when they name a group, else one.
			k, digits := int(d-'0'), 1
			if i+2 < len(tmpl) && tmpl[i+2] >= '0' && tmpl[i+2] <= '9' {
				if kk := k*10 + int(tmpl[i+2]-'0'); kk <= groups {
					k, digits = kk, 2
				}
			}
			if k < 1 || k > groups {
				b.WriteUTF8String(tmpl[i : i+1+digits])
			} else if m[2*k] >= 0 {
				b.WriteUTF8String(text[m[2*k]:m[2*k+1]])
			}
			i += digits
			continue
		default:
			b.WriteUTF8String("$")
			continue
		}
		i++
	}
}

// seenPatterns bounds guards.seen; past it the cache starts afresh.
const seenPatterns = 64

func newGuards(vm *goja.Runtime, p *Program, c *compiled) *guards {
	g := &guards{vm: vm, p: p, c: c, get: map[string]goja.Callable{}, seen: map[string]rxPattern{}, joining: map[*goja.Object]int{},
		capture: goja.NewSymbol("subplay")}
	g.rangeError, _ = vm.GlobalObject().Get("RangeError").(*goja.Object)
	g.imported = reflect.TypeOf(vm.ToValue("\u00e9"))
	g.describe = original(objectAt(vm, "Object"), "getOwnPropertyDescriptor", nil)
	g.reflectGet = original(objectAt(vm, "Reflect"), "get", nil)
	g.reflectSet = original(objectAt(vm, "Reflect"), "set", nil)
	g.reflectHas = original(objectAt(vm, "Reflect"), "has", nil)
	if d, ok := invoke(g.describe, goja.Undefined(), objectAt(vm, "%TypedArray%.prototype"), vm.ToValue("length")).(*goja.Object); ok {
		g.typedLength, _ = d.Get("get").(*goja.Object)
	}
	// goja names a DataView's class "Object": the byteLength getter tells
	// one (it throws on anything else and runs nothing of the UDF's).
	if d, ok := invoke(g.describe, goja.Undefined(), objectAt(vm, "DataView.prototype"), vm.ToValue("byteLength")).(*goja.Object); ok {
		g.dataViewLength, _ = goja.AssertFunction(d.Get("get"))
	}
	return g
}

// lacks reports whether o has no property key, own or inherited, found
// without running the UDF's code (a Proxy on the way: not known, false).
func (g *guards) lacks(o *goja.Object, key string) bool {
	k := g.vm.ToValue(key)
	for depth := 0; o != nil && depth < 64; depth++ {
		if o.ExportType() == proxyType {
			if h := standsIn(o); h != o {
				o = h // boundProxies' stand-in gives h's traps
				continue
			}
			return false
		}
		if _, ok := invoke(g.describe, goja.Undefined(), o, k).(*goja.Object); ok {
			return false
		}
		o = o.Prototype()
	}
	return o == nil
}

// bigSize refuses BigInt.asIntN's or asUintN's size past
// limits.UDFBigIntBits; it charges nothing.
func (g *guards) bigSize(fc goja.FunctionCall, what string) float64 {
	if len(fc.Arguments) > 0 {
		// Converted once, here: the built-in gets the primitive.
		fc.Arguments[0] = g.toPrimitive(fc.Arguments[0], "number")
	}
	if n := fc.Argument(0).ToFloat(); n > limits.UDFBigIntBits {
		g.throwRange(fmt.Sprintf("%s would make a BigInt of %s bits; subplay allows at most %d", what, countText(n), limits.UDFBigIntBits))
	}
	return 0
}

// steadyLength is o's length for a charge, when reading it runs none of
// the UDF's code, so that the built-in charged reads the same: a getter
// or a Proxy's trap could answer 0 to the charge and 4e9 to the built-in
// (Array.prototype.indexOf.call on such an object ran past a minute, and
// Array.from allocated 6.4 GB). Such an object gets a TypeError instead;
// a message's values are never one.
func (g *guards) steadyLength(o *goja.Object, what string) float64 {
	if o.ExportType() != arrayType && !g.steady(o, "length") {
		panic(g.vm.NewTypeError(what + ": subplay does not run it over an object whose length is a getter or comes through a Proxy's get trap (it could change between reads)"))
	}
	return lengthOf(o)
}

// steady reports whether reading o[key] runs none of the UDF's code: no
// Proxy with a get trap on the way (one without passes the read to its
// target), and a data property or one of the engine's own getters (a
// typed array's length) where the key is found.
func (g *guards) steady(o *goja.Object, key string) bool {
	k := g.vm.ToValue(key)
	for depth := 0; o != nil && depth < 64; depth++ {
		if o.ExportType() == proxyType {
			px, ok := o.Export().(goja.Proxy)
			if !ok {
				return false
			}
			h := px.Handler()
			if h == nil || !g.lacks(h, "get") {
				return false
			}
			o = px.Target()
			continue
		}
		if d, ok := invoke(g.describe, goja.Undefined(), o, k).(*goja.Object); ok {
			get, _ := d.Get("get").(*goja.Object)
			return get == nil || get == g.typedLength
		}
		o = o.Prototype()
	}
	return o == nil
}

var rxFlags = []struct{ getter, flag string }{
	{"global", "g"}, {"ignoreCase", "i"}, {"multiline", "m"}, {"dotAll", "s"}, {"unicode", "u"}, {"sticky", "y"},
}

var getters = goja.MustCompile("guards", `(function (p, names) {
	var o = {};
	names.forEach(function (k) { o[k] = Object.getOwnPropertyDescriptor(p, k).get; });
	return o;
})`, true)

func (g *guards) install() {
	vm := g.vm
	proto := g.object("RegExp.prototype")
	names := []any{"source"}
	for _, f := range rxFlags {
		names = append(names, f.getter)
	}
	f := programFunc(vm, getters)
	o, err := f(goja.Undefined(), proto, vm.NewArray(names...))
	if err != nil {
		panic("transform: guards: " + err.Error())
	}
	for _, k := range names {
		g.get[k.(string)], _ = goja.AssertFunction(o.ToObject(vm).Get(k.(string)))
	}

	g.wrapRx(proto, "exec", nil, g.execRoute)
	g.wrapRx(proto, "test", nil, g.execRoute)
	g.plain = g.plainState(proto)
	g.wrapRx(proto, "", goja.SymSearch, nil)
	g.wrapRx(proto, "", goja.SymMatchAll, nil)
	g.wrapRx(proto, "", goja.SymMatch, func(p rxPattern, rx *goja.Object, s goja.String) string {
		if p.global {
			return g.allRoute(p, s)
		}
		return g.execRoute(p, rx, s)
	})
	g.wrapRx(proto, "", goja.SymReplace, func(p rxPattern, rx *goja.Object, s goja.String) string {
		if p.global {
			return g.allRoute(p, s)
		}
		return g.execRoute(p, rx, s)
	})
	g.wrapRx(proto, "", goja.SymSplit, func(p rxPattern, _ *goja.Object, s goja.String) string { return g.allRoute(p, s) })

	g.boundReplace(proto)
	g.boundSplit(proto)
	g.boundStrings()
	g.boundCopies()
	g.boundDecodings()
	g.boundJoin()
	g.boundNested()
	g.boundRaw()
	g.boundParse()
	g.boundStringify()
}

// enter counts units of Go recursion (levels of JSON, see
// limits.UDFJSONNesting) for the built-in what while it runs, whose
// subject nests ("the arrays nest"): past the bound it throws a RangeError, as
// V8 does at its stack's end. It returns what gives the units back.
func (g *guards) enter(what, subject string, units int) func() {
	if g.nest+units > limits.UDFJSONNesting {
		g.throwRange(nestMessage(what, subject))
	}
	g.nest += units
	return func() { g.nest -= units }
}

// nestMessage is the RangeError of a built-in whose subject ("the
// arrays nest") nests past limits.UDFJSONNesting. A finding quotes the
// first fifty-odd characters of a thrown message: README says what the
// bound is.
func nestMessage(what, subject string) string {
	return what + ": " + subject + " past subplay's bound"
}

// boundNested counts the Go recursion of the other built-ins that recurse
// per level of nested arrays: toLocaleString (as join, through each
// item's toLocaleString) and flat. flat is given at most the levels left
// (flat(Infinity) over 45,000 nested arrays ended the page's instance):
// when its result still holds an array and it was asked for more levels,
// the arrays nest too deeply for the bound, a RangeError.
func (g *guards) boundNested() {
	ap := g.object("Array.prototype")
	isArray := original(g.object("Array"), "isArray", nil)
	locale := original(ap, "toLocaleString", nil)
	replaceMethodKept(g.vm, ap, "toLocaleString", func(fc goja.FunctionCall) goja.Value {
		leave := g.enter("toLocaleString", "the arrays nest", limits.UDFJoinLevel)
		defer leave()
		return invoke(locale, fc.This, fc.Arguments...)
	})
	flat := original(ap, "flat", nil)
	replaceMethodKept(g.vm, ap, "flat", func(fc goja.FunctionCall) goja.Value {
		// The depth as flat converts it (ToIntegerOrInfinity, once: it
		// is passed on as a number).
		depth := 1.0
		if d := fc.Argument(0); !goja.IsUndefined(d) {
			depth = d.ToNumber().ToFloat()
			if math.IsNaN(depth) || depth < 0 {
				depth = 0
			}
			depth = math.Trunc(depth)
		}
		room := float64(max(limits.UDFJSONNesting-g.nest, 0))
		k := min(depth, room)
		leave := g.enter("flat", "the arrays nest", int(k))
		defer leave()
		r := invoke(flat, fc.This, g.vm.ToValue(k))
		if depth > k {
			// The result is a fresh array (or what a species constructor
			// made: a Proxy's items are left to the engine).
			if a, ok := r.(*goja.Object); ok && a.ExportType() != proxyType {
				n := lengthOf(a)
				for i := 0; float64(i) < n; i++ {
					if e, ok := a.Get(strconv.Itoa(i)).(*goja.Object); ok && invoke(isArray, goja.Undefined(), e).ToBoolean() {
						g.throwRange(nestMessage("flat", "the arrays nest"))
					}
				}
			}
		}
		return r
	})
}

// boundParse makes JSON.parse reckon what it would allocate before it
// parses, and stop the call (the allocation budget's finding) when that
// would pass the call's budget. goja's values are large next to their
// text: an empty array costs about 670 bytes, an empty object 290, a
// number 210 (measured natively on goja as go.mod pins it), so 3 MB of
// "[],[],..." allocated 634 MiB in the one call, where no step could look.
// It also refuses, as V8 does past its stack, text nested deeper than
// limits.UDFJSONNesting (goja's parser recurses per level).
func (g *guards) boundParse() {
	j := g.object("JSON")
	parse := original(j, "parse", nil)
	g.set(j, "parse", nil, func(fc goja.FunctionCall) goja.Value {
		s := g.text(&fc, 0)
		g.cost(jsonCallSteps)
		// Its text read whole (jsonCost, about 5-8 ns a character in
		// js/wasm), a step per 256 characters: a text that is not JSON
		// fails at once in goja, and JSON.parse of 8 MB of it in a loop ran
		// until the watch at 10 s natively when uncharged
		// (TestConversionsCharged's "JSON.parse of a long text that is not
		// JSON"). A
		// message of 1 MB costs 4,096 of the call's 50,000 steps.
		if !g.p.charge(g.c, float64(s.Length()), 256, "JSON.parse") {
			return goja.Undefined()
		}
		cost, depth := jsonCost(s.String())
		// goja's parser recurses per level, and so does its walk of a
		// reviver, which runs the UDF's code at every level.
		leave := g.enter("JSON.parse", "the text nests", depth)
		defer leave()
		if cl := g.c.call; cl != nil && cl.stopped == "" && cl.overAlloc(float64(cost)) {
			cl.refuse("udf-budget", fmt.Sprintf("JSON.parse would allocate about %d MiB, past the call's budget of %s", cost>>20, mib(cl.budget)),
				"goja, the engine, takes about 200 bytes per value of a JSON text: parse a smaller text, or fewer copies of it")
			return goja.Undefined()
		}
		return invoke(parse, fc.This, fc.Arguments...)
	})
}

// jsonCost reckons, in one pass over a JSON text, what goja allocates to
// parse it, a little over what it does (its bytes per array, object,
// literal and string, and four per character of a string), and how deeply
// it nests. Text that is not JSON gets a reckoning too; the parse then
// fails on its own.
func jsonCost(s string) (cost uint64, deepest int) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '[' || c == '{':
			cost += 290
			if c == '[' {
				cost += 380
			}
			if depth++; depth > deepest {
				deepest = depth
			}
		case c == ']' || c == '}':
			depth = max(depth-1, 0)
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			cost += 240 + 4*uint64(j-i)
			i = j
		case c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z':
			cost += 210
			for i+1 < len(s) && (s[i+1] == '.' || s[i+1] == '+' || s[i+1] == '-' || s[i+1] >= '0' && s[i+1] <= '9' || s[i+1] >= 'a' && s[i+1] <= 'z' || s[i+1] >= 'A' && s[i+1] <= 'Z') {
				i++
			}
		}
	}
	return cost, deepest
}

// object finds an object by its path from the global object.
func (g *guards) object(path string) *goja.Object { return objectAt(g.vm, path) }

// throwRange throws a RangeError with msg.
func (g *guards) throwRange(msg string) {
	e, err := g.vm.New(g.rangeError, g.vm.ToValue(msg))
	if err != nil {
		panic(err)
	}
	panic(e)
}

// affordFrom is the smallest build afford reads the allocation counter
// for (about a microsecond natively): smaller ones cost less than the look,
// and a statement's worth of them is what the steps' looks count.
const affordFrom = 4 << 10

// afford is the allocation budget's look before a built-in builds n bytes
// in one Go call (a string of n characters counts n, a buffer its bytes).
// If what the call allocated so far and n pass its budget, it stops the
// call with the budget's finding and reports false, and the caller builds
// nothing (the stop takes effect when the built-in returns). The steps'
// looks see what was allocated between two steps, but a statement may
// call built-ins any number of times with no step between them: an array
// literal of 300 toUpperCase() of a 16 MB string, or of 300 new
// ArrayBuffer(16e6), took a js/wasm instance past its 4 GiB and ended it.
func (g *guards) afford(what string, n float64) bool {
	cl := g.c.call
	if cl == nil {
		return true
	}
	if cl.stopped != "" {
		return false
	}
	if !(n >= affordFrom) {
		return true
	}
	if cl.overAlloc(n) {
		cl.stop(cl.overBudget("with " + what + " it would have allocated"))
		return false
	}
	return true
}

func (g *guards) tooLong(what string, n float64) {
	if n > limits.UDFStringBytes || math.IsNaN(n) {
		g.refuseLong(what, size(n))
	}
}

// refuseLong throws the RangeError of a call that would build more than
// limits.UDFStringBytes; built says how much.
func (g *guards) refuseLong(what, built string) {
	g.throwRange(fmt.Sprintf("%s would build %s; subplay allows at most %d", what, built, limits.UDFStringBytes))
}

// invoke runs f as the original built-in, passing its error on as a throw.
func invoke(f goja.Callable, this goja.Value, args ...goja.Value) goja.Value {
	v, err := f(this, args...)
	if err != nil {
		panic(err)
	}
	return v
}

// reflectSetOn is Reflect.set(o, key, v, receiver) as the sandbox found
// it: whether the property was set.
func (g *guards) reflectSetOn(o *goja.Object, key, v, receiver goja.Value) bool {
	r := invoke(g.reflectSet, goja.Undefined(), o, key, v, receiver)
	return r != nil && r.ToBoolean()
}

// methodOf reads o's property name, or sym when it is set.
func methodOf(o *goja.Object, name string, sym *goja.Symbol) goja.Value {
	if sym != nil {
		return o.GetSymbol(sym)
	}
	return o.Get(name)
}

// original returns o's own method (by name, or by symbol when sym is set).
func original(o *goja.Object, name string, sym *goja.Symbol) goja.Callable {
	f, ok := goja.AssertFunction(methodOf(o, name, sym))
	if !ok {
		panic("transform: guards: no method " + name)
	}
	return f
}

// halt leaves the built-in or helper at once after a stop (call.refuse,
// or a budget passed) has given the call's finding: the call is already
// interrupted (vm.Interrupt), which the UDF cannot catch, so the TypeError
// only unwinds the Go code under it, and the verdict is the stop's.
func (g *guards) halt() {
	panic(g.vm.NewTypeError("the call was stopped"))
}

// set replaces a method of o (see replaceMethod).
func (g *guards) set(o *goja.Object, name string, sym *goja.Symbol, f func(goja.FunctionCall) goja.Value) {
	replaceMethod(g.vm, o, name, sym, f)
}

// replaceMethod replaces a method of o (by name, or by symbol when sym is
// set) with f, which keeps the method's name and arity, as code may read
// them.
func replaceMethod(vm *goja.Runtime, o *goja.Object, name string, sym *goja.Symbol, f func(goja.FunctionCall) goja.Value) {
	putMethod(vm, o, name, sym, f, true)
}

// replaceMethodUncharged is replaceMethod for a method whose calls cost
// no builtinSteps.
func replaceMethodUncharged(vm *goja.Runtime, o *goja.Object, name string, sym *goja.Symbol, f func(goja.FunctionCall) goja.Value) {
	putMethod(vm, o, name, sym, f, false)
}

// replaceMethodKept is replaceMethod for a method whose calls are to cost
// what they did: builtinSteps when the method it replaces is a wrapper
// that charges them, nothing when it is the engine's own.
func replaceMethodKept(vm *goja.Runtime, o *goja.Object, name string, f func(goja.FunctionCall) goja.Value) {
	charged := false
	if r, ok := wrapping.Load(vm); ok {
		cur := methodOf(o, name, nil)
		for _, w := range r.(*wrappers).list {
			charged = charged || w.o == o && w.name == name && w.sym == nil && cur == goja.Value(w.fn)
		}
	}
	putMethod(vm, o, name, nil, f, charged)
}

// sameNameAndArity gives fn the name and length of m, the function it
// stands in for, as code may read them.
func sameNameAndArity(fn, m *goja.Object) {
	_ = fn.DefineDataProperty("name", m.Get("name"), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	_ = fn.DefineDataProperty("length", m.Get("length"), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
}

func putMethod(vm *goja.Runtime, o *goja.Object, name string, sym *goja.Symbol, f func(goja.FunctionCall) goja.Value, charged bool) {
	old := methodOf(o, name, sym)
	var fn *goja.Object
	if r, ok := wrapping.Load(vm); ok && charged {
		// The wrapper the UDF calls (the last put in place) charges the
		// call (markCalls); a wrapper that an outer one calls does not.
		reg := r.(*wrappers)
		outer := new(bool)
		fn = vm.ToValue(func(fc goja.FunctionCall) goja.Value {
			if *outer {
				reg.charge()
			}
			return f(fc)
		}).(*goja.Object)
		reg.list = append(reg.list, wrapper{o: o, name: name, sym: sym, fn: fn, outer: outer})
	} else {
		fn = vm.ToValue(f).(*goja.Object)
	}
	if m, ok := old.(*goja.Object); ok {
		sameNameAndArity(fn, m)
	}
	if sym != nil {
		_ = o.SetSymbol(sym, fn)
		return
	}
	_ = o.Set(name, fn)
}

// jsonCallSteps is what a call of JSON.parse or JSON.stringify costs
// besides builtinSteps: a call on a small object took 80-150 us in js/wasm
// (the reader and writer set up for each call), and a loop of them ran its
// 50,000 steps in 0.8-1.6 s there at builtinSteps alone
// (TestBuiltinCallsCost holds the charge). A long text costs its allocation (the budget), at some 33 ns
// a character natively.
const jsonCallSteps = 16

// chargeBigText charges the text a BigInt is written as (chargeBits),
// where the engine writes it in one Go call: a template's placeholder, a
// + with a string, a key, ToString in a built-in (str), a BigInt's
// toString.
func (g *guards) chargeBigText(v goja.Value) { g.chargeBits(bitsOf(v)) }

// chargeBits charges writing a BigInt of the given bits as text, a step
// per 64 bits past 64: math/big writes a decimal in time that grows
// faster than its size (1,024 bits took 34 µs in js/wasm and 7 natively,
// 262,144 bits 50 ms and 11 ms; TestBigIntTextCharged), which
// limits.UDFBigIntBits bounds.
func (g *guards) chargeBits(bits int) {
	if bits > 64 {
		g.cost((bits + 63) / 64)
	}
}

// cost counts n steps to the current call (as builtinSteps are), and
// stops it past its steps (the built-in runs, the interrupt takes effect
// when it returns); the allocation counter waits for the next step.
func (g *guards) cost(n int) {
	if cl := g.c.call; cl != nil && cl.stopped == "" {
		cl.steps += n
		g.p.pastSteps(cl)
	}
}

// builtinSteps is what a call of a built-in the sandbox wraps costs, its
// own step besides what it charges for its work: such a call took 20-60
// us in js/wasm (JSON.parse of a small object, replace, repeat, Object.
// assign, a join of five items), where a light step takes 2.5, and a loop
// of nothing but one ran its 50,000 steps in 1.2-2.2 s there at a step an
// iteration (TestBuiltinCallsCost).
const builtinSteps = 4

// wrappers are the methods a sandbox replaced (replaceMethod), while it
// is being made (wrapping, by runtime), and what a call of one costs.
type wrappers struct {
	list   []wrapper
	charge func()
}

type wrapper struct {
	o     *goja.Object
	name  string
	sym   *goja.Symbol
	fn    *goja.Object
	outer *bool
}

var wrapping sync.Map // *goja.Runtime to *wrappers

// markCalls ends the registry of vm's wrappers: the outermost of each
// method, the one in place now, charges its calls.
func markCalls(vm *goja.Runtime) {
	r, ok := wrapping.LoadAndDelete(vm)
	if !ok {
		return
	}
	for _, w := range r.(*wrappers).list {
		*w.outer = methodOf(w.o, w.name, w.sym) == goja.Value(w.fn)
	}
}

// text converts argument i to a string once, as the built-in would, and
// puts the string in its place so that the built-in does not convert it
// again (a toString of the UDF's runs once).
func (g *guards) text(fc *goja.FunctionCall, i int) goja.String {
	for len(fc.Arguments) <= i {
		fc.Arguments = append(fc.Arguments, goja.Undefined())
	}
	s := g.str(fc.Arguments[i])
	fc.Arguments[i] = s
	return s
}

// str is JavaScript's ToString: an object's toString or valueOf runs once,
// a Symbol throws, and a string keeps its UTF-16 as it is.
func (g *guards) str(v goja.Value) goja.String {
	if o, ok := v.(*goja.Object); ok {
		v = o.ToString()
	}
	switch v := v.(type) {
	case goja.String:
		return v
	case *goja.Symbol:
		panic(g.vm.NewTypeError("cannot convert a Symbol value to a string"))
	}
	g.chargeBigText(v)
	s, _ := g.vm.ToValue(v.String()).(goja.String)
	return s
}

// prim is JavaScript's ToPrimitive with no hint, as + applies it: an
// object's Symbol.toPrimitive method with "default" if it has one (a Date
// has, and gives its string), else its valueOf, then its toString; the
// first that gives a primitive wins. Other values come back as they are.
func (g *guards) prim(v goja.Value) goja.Value { return g.toPrimitive(v, "default") }

// propertyKey is JavaScript's ToPropertyKey, up to the primitive: an
// object converted with the hint "string" (its toString before its
// valueOf), whose result the engine turns into a key with none of the
// UDF's code.
func (g *guards) propertyKey(v goja.Value) goja.Value { return g.toPrimitive(v, "string") }

// toPrimitive is JavaScript's ToPrimitive with a hint, "default" or
// "string".
func (g *guards) toPrimitive(v goja.Value, hint string) goja.Value {
	o, ok := v.(*goja.Object)
	if !ok {
		return v
	}
	if m := o.GetSymbol(goja.SymToPrimitive); m != nil && !goja.IsUndefined(m) && !goja.IsNull(m) {
		f, ok := goja.AssertFunction(m)
		if !ok {
			panic(g.vm.NewTypeError("Symbol.toPrimitive is not a function"))
		}
		r := invoke(f, o, g.vm.ToValue(hint))
		if _, bad := r.(*goja.Object); bad {
			panic(g.vm.NewTypeError("Symbol.toPrimitive gave an object, not a primitive value"))
		}
		return r
	}
	order := []string{"valueOf", "toString"}
	if hint == "string" {
		order = []string{"toString", "valueOf"}
	}
	for _, name := range order {
		if f, ok := goja.AssertFunction(o.Get(name)); ok {
			if r := invoke(f, o); !isObject(r) {
				return r
			}
		}
	}
	panic(g.vm.NewTypeError("cannot convert an object to a primitive value"))
}

func isObject(v goja.Value) bool {
	_, ok := v.(*goja.Object)
	return ok
}

// pattern reads what the engine needs of a RegExp object.
func (g *guards) pattern(v goja.Value) (rxPattern, *goja.Object, bool) {
	o, ok := v.(*goja.Object)
	if !ok || o.ClassName() != "RegExp" {
		return rxPattern{}, nil, false
	}
	src := invoke(g.get["source"], o).String()
	var flags strings.Builder
	for _, f := range rxFlags {
		if invoke(g.get[f.getter], o).ToBoolean() {
			flags.WriteString(f.flag)
		}
	}
	key := flags.String() + "/" + src
	p, ok := g.seen[key]
	if !ok {
		p = analyse(src, flags.String())
		if len(g.seen) >= seenPatterns {
			clear(g.seen)
		}
		g.seen[key] = p
	}
	return p, o, true
}

// execRoute says why a search of rx in s would go to the backtracking
// engine, "" if it would not: it does when it starts past the text's
// beginning (lastIndex of a g or y expression).
func (g *guards) execRoute(p rxPattern, rx *goja.Object, s goja.String) string {
	if !p.global && !p.sticky {
		return ""
	}
	v := rx.Get("lastIndex")
	if _, ok := v.(*goja.Object); ok {
		return "a search from a lastIndex set to an object"
	}
	f := v.ToFloat()
	if f >= 1 && f <= float64(s.Length()) {
		return fmt.Sprintf("a search from lastIndex %d", int64(f))
	}
	return ""
}

// allRoute says why a search for every match of rx in s would go to the
// backtracking engine, "" if it would not: it does in text with a
// character outside ASCII, unless the expression has the u flag and the
// text is well-formed UTF-16.
func (g *guards) allRoute(p rxPattern, s goja.String) string {
	if p.allLinear(s) {
		return ""
	}
	return "a search for every match in text with characters outside ASCII, without the u flag"
}

// wrapRx replaces a RegExp.prototype method with one that first refuses a
// pattern only the backtracking engine runs, and a call that would go to
// that engine without a bound (route says when it would; nil: never).
// Each call is a step.
func (g *guards) wrapRx(proto *goja.Object, name string, sym *goja.Symbol, route func(rxPattern, *goja.Object, goja.String) string) {
	orig := original(proto, name, sym)
	search := sym == nil && (name == "exec" || name == "test")
	g.set(proto, name, sym, func(fc goja.FunctionCall) goja.Value {
		// exec and test charge the text they search (searchFrom,
		// searched), with the pattern and the text found once, first.
		var p rxPattern
		var rx *goja.Object
		var s goja.String
		ok, start := false, -1
		if search {
			if cl := g.c.call; cl != nil && cl.stopped != "" {
				// Out of a loop of the engine's (split's goes position by
				// position): the stop's finding is given.
				g.halt()
			}
			if p, rx, ok = g.pattern(fc.This); ok {
				s = g.text(&fc, 0)
				if g.c.call != nil {
					if start = g.searchFrom(name, p, rx, s); start < 0 {
						return goja.Null()
					}
					if start > 0 && !asciiString(s) {
						// goja searches a text outside ASCII from past its
						// start with its backtracking engine, on a new copy
						// of the whole text (kept only while searches of the
						// same text go on matching): split's search at each
						// position made 200 KB split by /b/ take 2.9 s natively.
						g.scan(float64(s.Length()) * rxScanChars / rxCopyChars)
					}
				}
			}
		}
		w := 1
		if name == "exec" && ok {
			// exec builds its result (an array of the match and its
			// groups, with index, input and groups): 6-17 us natively,
			// 40 in js/wasm, where a light step takes 2.5, and about 150
			// with a named group (a loop of 24,000 exec ran 1 s there, 2 s
			// with a named group; TestExecCostsItsResult). The call's own
			// builtinSteps and these steps pay for it.
			w = 1 + 2*p.groups + namedGroupSteps*p.namedGroups
		}
		g.p.tick(g.c, w)
		if g.stopped() {
			return goja.Null()
		}
		if !search {
			if p, rx, ok = g.pattern(fc.This); ok {
				s = g.text(&fc, 0)
			}
		}
		if ok {
			r := ""
			if route != nil && s != nil {
				r = route(p, rx, s)
			}
			n := 0
			if s != nil {
				n = s.Length()
			}
			if why := p.refusal(n, r); why != "" {
				g.c.call.refuse("udf-regexp-backtracking", why, rxHint)
				return goja.Null()
			}
		}
		v := invoke(orig, fc.This, fc.Arguments...)
		if start >= 0 {
			g.searched(name == "test", p, rx, s, start, v)
		}
		if m, ok := v.(*goja.Object); ok && name == "exec" {
			g.orphan(m.Get("groups")) // a match's groups inherit from nothing
		}
		return v
	})
}

// namedGroupSteps is what each named group adds to a call of exec (each
// group adds 2, besides the call's own builtinSteps and step).
const namedGroupSteps = 16

// searchFrom is where a search of exec or test (the sandbox's expression
// p, rx on the text s) starts, and refuses one that would go through more
// text than the call's steps left pay for, a step per rxScanChars
// characters (-1 then). Every search of the sandbox's expressions comes
// through exec or test (split, replace, match and search call exec,
// since the prototype's exec is not the engine's own), and RE2 goes
// through text at tens of nanoseconds a character for some patterns
// (/x*y/ took 1 s on 16 MB, and a loop of 100 such tests over a minute).
func (g *guards) searchFrom(name string, p rxPattern, rx *goja.Object, s goja.String) int {
	n := 0
	if s != nil {
		n = s.Length()
	}
	start := 0
	if p.global || p.sticky {
		// An object there is converted by the search alone (and
		// refused by wrapRx's route): counted from 0.
		if f := rx.Get("lastIndex"); f != nil && !isObject(f) {
			start = int(min(max(f.ToFloat(), 0), float64(n)))
		}
	}
	// A sticky search only tries where it starts.
	if !p.sticky && !g.searchable(name, n-start) {
		return -1
	}
	return start
}

// searched charges what a search from start went through: to the match's
// end, or to the text's end when nothing matched (a test without g or y
// does not say where its match ended: the text is charged whole).
func (g *guards) searched(test bool, p rxPattern, rx *goja.Object, s goja.String, start int, r goja.Value) {
	end := 0
	if s != nil {
		end = s.Length()
	}
	if p.sticky {
		end = start
	}
	switch {
	case test && (p.global || p.sticky) && r.ToBoolean():
		end = int(rx.Get("lastIndex").ToFloat())
	case !test:
		if m, ok := r.(*goja.Object); ok {
			end = int(m.Get("index").ToFloat()) + g.str(m.Get("0")).Length()
		}
	}
	g.scan(float64(max(end-start, 1)))
}

// searchable reports whether the call's steps left pay for searching n
// characters, and refuses the call when they do not.
func (g *guards) searchable(what string, n int) bool {
	if float64(n)/rxScanChars <= g.p.stepsLeft(g.c)+1 {
		return true
	}
	g.c.call.refuse("udf-budget", fmt.Sprintf("%s would search %d characters, more than the call's steps left pay for (a step per %d characters searched)", what, n, rxScanChars),
		"search a shorter text, or fewer times")
	return false
}

// rxScanChars is how many characters searched cost a step.
const rxScanChars = 64

// rxCopyChars is how many characters of a text outside ASCII that goja
// copies for a search from past its start cost a step: a copy of 200 KB
// took about 0.3 ms natively, 1.5 ns a character. At a step per 1,024 a
// call's steps pay for about 50 M characters copied (about 75 ms
// natively), and a replace of 1,800 matches in 4.6 KB of such text still
// runs (TestWideTextCopies).
const rxCopyChars = 1024

// scan charges n characters searched, carrying what is short of a step to
// the next search.
func (g *guards) scan(n float64) {
	cl := g.c.call
	cl.scanned += n
	if k := math.Floor(cl.scanned / rxScanChars); k > 0 {
		cl.scanned -= k * rxScanChars
		g.p.charge(g.c, k, 1, "a search")
	}
}

// stopped reports whether the current call was stopped (its interrupt
// takes effect when the built-in returns).
func (g *guards) stopped() bool {
	cl := g.c.call
	return cl == nil || cl.stopped != ""
}

// replSize measures a replacement string for the bound: its length, how
// many of its $` and $' each insert up to the whole text, and how many
// other $ patterns insert parts of the matches (up to the text in all).
type replSize struct{ n, around, parts int }

func replacement(r goja.String) replSize {
	s := r.String()
	z := replSize{n: r.Length()}
	for i := strings.IndexByte(s, '$'); i >= 0 && i+1 < len(s); {
		switch s[i+1] {
		case '`', '\'':
			z.around++
			i++
		case '&', '<', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			z.parts++
			i++
		case '$':
			i++
		}
		j := strings.IndexByte(s[i+1:], '$')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return z
}

// bound is an upper bound of the length of a replacement's result on a
// text of n characters: the text, and for each of matches matches the
// replacement with its $` and $' expanded, and the parts of the matches.
func (z replSize) bound(n, matches int) float64 {
	return float64(n) + float64(matches)*(float64(z.n)+float64(z.around)*float64(n)) + float64(z.parts)*float64(n)
}

// callback wraps a replacer function so that the lengths of what it
// returns (with the text) stay within the bound; it converts each result
// to a string, as the built-in would next.
func (g *guards) callback(fn goja.Callable, n int, what string) goja.Value {
	total := float64(n)
	return g.vm.ToValue(func(fc goja.FunctionCall) goja.Value {
		s := g.str(invoke(fn, fc.This, fc.Arguments...))
		total += float64(s.Length())
		g.tooLong(what, total)
		return s
	})
}

// boundReplace bounds RegExp.prototype[Symbol.replace] (which
// String.prototype.replace and replaceAll call for an expression) and
// String.prototype.replace and replaceAll with a string to search for.
func (g *guards) boundReplace(proto *goja.Object) {
	rxReplace := original(proto, "", goja.SymReplace)
	rxMatch := original(proto, "", goja.SymMatch)
	g.set(proto, "", goja.SymReplace, func(fc goja.FunctionCall) goja.Value {
		p, rx, ok := g.pattern(fc.This)
		if !ok || g.stopped() {
			return invoke(rxReplace, fc.This, fc.Arguments...)
		}
		s := g.text(&fc, 0)
		if s == nil {
			return invoke(rxReplace, fc.This, fc.Arguments...)
		}
		n := s.Length()
		for len(fc.Arguments) < 2 {
			fc.Arguments = append(fc.Arguments, goja.Undefined())
		}
		if fn, ok := goja.AssertFunction(fc.Arguments[1]); ok {
			fc.Arguments[1] = g.callback(fn, n, "replace")
			if v := g.replaceFast(p, rx, s, fc.Arguments[1]); v != nil {
				return v
			}
			return invoke(rxReplace, fc.This, fc.Arguments...)
		}
		repl := replacement(g.text(&fc, 1))
		matches := 1
		if p.global {
			matches = n + 1
			if repl.bound(n, matches) > limits.UDFStringBytes {
				var exact bool
				if matches, exact = g.countMatches(p, rx, s, repl, rxMatch); !exact {
					g.refuseLong("replace", "at least "+size(repl.bound(n, matches)))
				}
			}
		}
		g.tooLong("replace", repl.bound(n, matches))
		if v := g.replaceFast(p, rx, s, fc.Arguments[1]); v != nil {
			return v
		}
		return invoke(rxReplace, fc.This, fc.Arguments...)
	})

	sp := g.object("String.prototype")
	for _, name := range []string{"replace", "replaceAll"} {
		orig := original(sp, name, nil)
		all := name == "replaceAll"
		g.set(sp, name, nil, func(fc goja.FunctionCall) goja.Value {
			search := fc.Argument(0)
			if o, ok := search.(*goja.Object); ok {
				if _, ok := goja.AssertFunction(o.GetSymbol(goja.SymReplace)); ok {
					return invoke(orig, fc.This, fc.Arguments...) // the expression's own replace
				}
			}
			if fc.This == nil || goja.IsUndefined(fc.This) || goja.IsNull(fc.This) {
				return invoke(orig, fc.This, fc.Arguments...)
			}
			s := g.str(fc.This)
			fc.This = s
			find := g.text(&fc, 0)
			if s == nil || find == nil {
				return invoke(orig, fc.This, fc.Arguments...)
			}
			n := s.Length()
			for len(fc.Arguments) < 2 {
				fc.Arguments = append(fc.Arguments, goja.Undefined())
			}
			matches := 1
			switch {
			case all && find.Length() == 0:
				matches = n + 1
			case all:
				matches = strings.Count(s.String(), find.String())
			}
			fn, isFunc := goja.AssertFunction(fc.Arguments[1])
			if !isFunc {
				repl := replacement(g.text(&fc, 1))
				g.tooLong(name, repl.bound(n, matches))
			}
			// goja finds every match before it replaces any, keeping
			// each (replaceAll('x', '') on 16 MB took 7.6 s and 2.5 GB):
			// charged as items read, as a bulk built-in's are.
			if all && !g.p.charge(g.c, float64(matches), 8, name) {
				return goja.Undefined()
			}
			if isFunc {
				fc.Arguments[1] = g.callback(fn, n, name)
			}
			return invoke(orig, fc.This, fc.Arguments...)
		})
	}
}

// countMatches counts the matches of a global replace of rx in s with
// repl, as far as the bound needs: up to the first count that takes the
// result past limits.UDFStringBytes (exact is false when it stopped
// there). A text of a million characters with a replacement of a million
// is refused after 16 matches found in microseconds, not after building a
// million. When goja runs the search on regexp2, it counts them all
// through match (wrapped: the backtracking bound applies), as goja's
// replace would find them next.
func (g *guards) countMatches(p rxPattern, rx *goja.Object, s goja.String, repl replSize, rxMatch goja.Callable) (count int, exact bool) {
	// bound is affine in the matches: the least count past the limit is
	// as far as the search needs to go.
	n := s.Length()
	per := repl.bound(n, 1) - repl.bound(n, 0)
	if per == 0 {
		return 0, false // the bound does not depend on the count
	}
	most := int(max(0, math.Floor((limits.UDFStringBytes-repl.bound(n, 0))/per)+1))
	if c, ok := p.countMatches(s, most); ok {
		return c, c < most
	}
	if m, ok := invoke(rxMatch, rx, s).(*goja.Object); ok {
		return int(m.Get("length").ToInteger()), true
	}
	return 0, true
}

// boundSplit charges a split's pieces as steps, one each (each piece is a
// value, several times the size of a one-character string), as the bulk
// built-ins' items are: it asks the built-in for one more piece than the
// call's steps left allow, and stops the call when it gets it. A split to
// a million pieces took 0.8 s in the extra worker when only
// limits.UDFSplitPieces bounded it.
func (g *guards) boundSplit(proto *goja.Object) {
	// limit passes the built-in a limit of one piece more than the steps
	// left allow (or the user's limit when smaller), so that a split makes
	// at most that many pieces before the charge looks at them.
	limit := func(fc *goja.FunctionCall) bool {
		for len(fc.Arguments) < 2 {
			fc.Arguments = append(fc.Arguments, goja.Undefined())
		}
		user := float64(math.MaxUint32)
		if !goja.IsUndefined(fc.Arguments[1]) {
			// Converted here (once), its string charged.
			g.numberArg(fc, 1, true)
			user = float64(toUint32(fc.Arguments[1].ToNumber().ToFloat()))
		}
		if room := g.p.stepsLeft(g.c); user > room {
			fc.Arguments[1] = g.vm.ToValue(room + 1)
			return true
		}
		fc.Arguments[1] = g.vm.ToValue(user)
		return false
	}
	charge := func(v goja.Value, capped bool) goja.Value {
		o, ok := v.(*goja.Object)
		if !ok || g.c.call == nil {
			return v
		}
		n := lengthOf(o)
		if capped && n > g.p.stepsLeft(g.c) {
			g.p.refuseSteps(g.c, "split", "more than "+countText(n-1))
			return goja.Undefined()
		}
		if !g.p.charge(g.c, n, 1, "split") {
			return goja.Undefined()
		}
		return v
	}
	rxSplit := original(proto, "", goja.SymSplit)
	g.set(proto, "", goja.SymSplit, func(fc goja.FunctionCall) goja.Value {
		p, rx, ok := g.pattern(fc.This)
		if !ok || g.stopped() {
			return invoke(rxSplit, fc.This, fc.Arguments...)
		}
		s := g.text(&fc, 0)
		capped := limit(&fc)
		if v := g.splitFast(p, rx, s, toUint32(fc.Arguments[1].ToFloat())); v != nil {
			return charge(v, capped)
		}
		return charge(invoke(rxSplit, fc.This, fc.Arguments...), capped)
	})
	sp := g.object("String.prototype")
	split := original(sp, "split", nil)
	// split takes the spec's steps here, in order: it refuses a null or
	// undefined this, calls the separator's Symbol.split (a regular
	// expression's, or the UDF's) with this and the limit if it has one
	// (read once), else converts this, the limit (charged), then the
	// separator.
	g.set(sp, "split", nil, func(fc goja.FunctionCall) goja.Value {
		if fc.This == nil || goja.IsUndefined(fc.This) || goja.IsNull(fc.This) {
			return invoke(split, fc.This, fc.Arguments...)
		}
		sep, isObj := fc.Argument(0).(*goja.Object)
		if isObj {
			if m := sep.GetSymbol(goja.SymSplit); m != nil && !goja.IsUndefined(m) && !goja.IsNull(m) {
				f, ok := goja.AssertFunction(m)
				if !ok {
					panic(g.vm.NewTypeError("split: the separator's Symbol.split is not a function"))
				}
				return invoke(f, sep, fc.This, fc.Argument(1))
			}
		}
		fc.This = g.str(fc.This)
		capped := limit(&fc)
		if isObj {
			fc.Arguments[0] = g.str(sep)
		}
		return charge(invoke(split, fc.This, fc.Arguments...), capped)
	})
}

func toUint32(f float64) uint32 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return uint32(int64(math.Mod(math.Trunc(f), 1<<32)))
}

// boundStrings bounds String.prototype.concat by the sum of its parts.
func (g *guards) boundStrings() {
	sp := g.object("String.prototype")
	concat := original(sp, "concat", nil)
	g.set(sp, "concat", nil, func(fc goja.FunctionCall) goja.Value {
		if fc.This == nil || goja.IsUndefined(fc.This) || goja.IsNull(fc.This) {
			return invoke(concat, fc.This, fc.Arguments...)
		}
		this := g.str(fc.This)
		fc.This = this
		total := float64(this.Length())
		for i := range fc.Arguments {
			if s := g.text(&fc, i); s != nil {
				total += float64(s.Length())
			}
		}
		g.tooLong("concat", total)
		if !g.afford("concat", total) {
			return goja.Undefined()
		}
		return invoke(concat, fc.This, fc.Arguments...)
	})
}

// boundCopies makes the built-ins that build a new string from their
// input in one Go call, with no bound or step of their own, look at the
// allocation budget first (afford): the case conversions (at least as long
// as their input) and the encodings (encodeURI, encodeURIComponent and
// escape, up to 9 characters for each of the input's, counted exactly;
// past limits.UDFStringBytes they throw the RangeError of the other
// builders).
func (g *guards) boundCopies() {
	sp := g.object("String.prototype")
	for _, name := range []string{"toUpperCase", "toLowerCase", "toLocaleUpperCase", "toLocaleLowerCase"} {
		orig := original(sp, name, nil)
		g.set(sp, name, nil, func(fc goja.FunctionCall) goja.Value {
			if fc.This == nil || goja.IsUndefined(fc.This) || goja.IsNull(fc.This) {
				return invoke(orig, fc.This, fc.Arguments...) // throws, as it does
			}
			this := g.str(fc.This)
			if !g.afford(name, float64(this.Length())) {
				return goja.Undefined()
			}
			return invoke(orig, this, fc.Arguments...)
		})
	}
	// goja copies a part of a text outside ASCII (and shares a part of
	// an ASCII one): 300 slice(1) of 8 MB in one statement allocated
	// 2.4 GB natively.
	for _, name := range []string{"slice", "substring", "substr"} {
		orig := original(sp, name, nil)
		g.set(sp, name, nil, func(fc goja.FunctionCall) goja.Value {
			if this, ok := fc.This.(goja.String); ok && g.copiesParts(this) && !g.afford(name, partLength(name, this.Length(), fc)) {
				return goja.Undefined()
			}
			return invoke(orig, fc.This, fc.Arguments...)
		})
	}
	global := g.vm.GlobalObject()
	for _, e := range []struct {
		name   string
		length func(goja.String) float64
		per    float64
	}{
		{"encodeURI", func(s goja.String) float64 { return encodedLength(s, &uriKept) }, 32},
		{"encodeURIComponent", func(s goja.String) float64 { return encodedLength(s, &componentKept) }, 32},
		{"escape", escapedLength, 16},
	} {
		orig := original(global, e.name, nil)
		g.set(global, e.name, nil, func(fc goja.FunctionCall) goja.Value {
			s := g.text(&fc, 0)
			if s.Length() >= affordFrom/9 {
				n := e.length(s)
				g.tooLong(e.name, n)
				if !g.chargeCoding(e.name, s, e.per) || !g.afford(e.name, n) {
					return goja.Undefined()
				}
			}
			return invoke(orig, fc.This, fc.Arguments...)
		})
	}
}

// chargeCoding charges s to an encoding or a decoding, a step per per
// characters; false when that stopped the call. Each goes through its
// whole text in one Go call, and one that keeps it (digits) allocates
// nothing the budget would see: 300 encodeURIComponent of 1.5 million
// digits in one statement would run 36 s in js/wasm uncharged
// (TestConversionsCharged's "an encoding that keeps its text"). Measured a character: encodeURI and encodeURIComponent 12-14
// ns natively, 80 in js/wasm; decodeURI and decodeURIComponent 6 ns;
// escape 20, unescape 23 and 160 in js/wasm: a step per 32 or 16 is about
// a light step's time (0.35 us natively, 2.5 in js/wasm).
func (g *guards) chargeCoding(what string, s goja.String, per float64) bool {
	if g.c.call == nil || s.Length() <= literalChars {
		return true
	}
	return g.p.charge(g.c, float64(s.Length()), per, what)
}

// boundDecodings charges the decodings (decodeURI, decodeURIComponent,
// unescape) as the encodings are (chargeCoding), their text converted
// first, as their first step does.
func (g *guards) boundDecodings() {
	global := g.vm.GlobalObject()
	for _, d := range []struct {
		name string
		per  float64
	}{{"decodeURI", 32}, {"decodeURIComponent", 32}, {"unescape", 16}} {
		name := d.name
		orig := original(global, name, nil)
		g.set(global, name, nil, func(fc goja.FunctionCall) goja.Value {
			if !g.chargeCoding(name, g.text(&fc, 0), d.per) {
				return goja.Undefined()
			}
			return invoke(orig, fc.This, fc.Arguments...)
		})
	}
}

// rxPatternPer is the characters of a pattern compiled at run time that
// cost a step, and rxCompileBytes what the engine's compilers allocate
// per character, about (120-220 bytes measured natively).
const (
	rxPatternPer   = 16
	rxCompileBytes = 256
)

// patternText charges the pattern a regular expression would be compiled
// from, v as the built-in is given it (a string, a RegExp, whose source
// it is, or another value, converted to its string here once and returned,
// to be passed on in its place): a step per rxPatternPer characters, the
// allocation budget's look, and a SyntaxError past
// limits.UDFPatternChars. It reports false when the call was stopped.
func (g *guards) patternText(what string, v goja.Value) (goja.Value, bool) {
	var text goja.String
	switch x := v.(type) {
	case goja.String:
		text = x
	case *goja.Object:
		if x.ClassName() == "RegExp" {
			// Through the getter as the sandbox found it: the engine reads
			// the source where the UDF cannot change it.
			if get := g.get["source"]; get != nil {
				if src, ok := invoke(get, x).(goja.String); ok {
					text = src
				}
			}
			break
		}
		text = g.str(x)
		v = text
	}
	n := 0
	if text != nil {
		n = text.Length()
	}
	if n > limits.UDFPatternChars {
		g.throwRange(fmt.Sprintf("%s would compile a pattern of %d characters; subplay allows at most %d", what, n, limits.UDFPatternChars))
	}
	// The engines' compilers recurse per group: 20,000 nested groups
	// ended the page's instance.
	if n > 0 && g.nest+groupDepth(text.String()) > limits.UDFJSONNesting {
		g.throwRange(nestMessage(what, "the groups nest"))
	}
	if n < rxPatternPer {
		return v, true
	}
	return v, g.p.charge(g.c, float64(n), rxPatternPer, what) && g.afford(what, float64(n)*rxCompileBytes)
}

// groupDepth is how deeply the groups of a pattern's text nest: its
// parentheses, but those escaped or in a character class.
func groupDepth(p string) int {
	depth, deepest, class := 0, 0, false
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\':
			i++
		case class:
			class = c != ']'
		case c == '[':
			class = true
		case c == '(':
			if depth++; depth > deepest {
				deepest = depth
			}
		case c == ')':
			depth = max(depth-1, 0)
		}
	}
	return deepest
}

// behind puts the global constructor name behind a proxy that passes the
// first argument of a call or a construction through check (which may
// charge it, convert it, or stop the call) and then calls or constructs
// the constructor with the arguments it was given; the proxy is the
// prototype's constructor. A proxy, not a function testing new.target:
// goja gives a function called from inside a constructor that
// constructor's new.target, so such a function took RegExp('a') inside a
// constructor for new RegExp('a') with the outer constructor's prototype
// (not instanceof RegExp), and would have made Number(5) there an object.
// RegExp's check charges its pattern (patternText), Number's its
// conversion (Program.number).
var behind = goja.MustCompile("behind", `(function (g, name, check, all) {
	"use strict";
	var C = g[name], construct = Reflect.construct, apply = Reflect.apply, define = Object.defineProperty;
	var pass = function (args) {
		var a = [];
		for (var i = 0; i < args.length; i++) {
			a.push(i === 0 || all ? check(args[i], i) : args[i]);
		}
		return a;
	};
	// goja's instanceof takes only its own functions for the ordinary
	// check, so the proxy answers Symbol.hasInstance with that check.
	var isProto = Object.prototype.isPrototypeOf, get = Reflect.get, has = Symbol.hasInstance;
	var instance = function (v) {
		return (typeof v === "object" && v !== null || typeof v === "function") && apply(isProto, this.prototype, [v]);
	};
	var W = new Proxy(C, {
		apply: function (t, self, args) { return apply(C, self, pass(args)); },
		construct: function (t, args, target) { return construct(C, pass(args), target); },
		get: function (t, k, r) { return k === has ? instance : get(t, k, r); }
	});
	define(C.prototype, "constructor", { value: W, writable: true, enumerable: false, configurable: true });
	define(g, name, { value: W, writable: true, enumerable: false, configurable: true });
})`, true)

// putBehind puts the global constructor name behind check (see behind),
// given its first argument, or every argument when all is set.
func (g *guards) putBehind(name string, all bool, check func(goja.Value) goja.Value) {
	vm := g.vm
	f := programFunc(vm, behind)
	c := vm.ToValue(func(fc goja.FunctionCall) goja.Value {
		if fc.Argument(1).ToInteger() == 0 {
			g.cost(builtinSteps) // the call's own cost, as a wrapped built-in's
		}
		return check(fc.Argument(0))
	})
	if _, err := f(goja.Undefined(), vm.GlobalObject(), vm.ToValue(name), c, vm.ToValue(all)); err != nil {
		panic("transform: guards: " + err.Error())
	}
}

// boundConversions charges the built-ins that convert their arguments to
// numbers (chargeText's rate), where the engine converts a long string in
// one Go call: Number, called or constructed, converts its argument here
// (Program.number); the functions of Math, isNaN, isFinite and
// String.fromCharCode and fromCodePoint convert each argument here, in
// turn as they would, and are charged for the strings they get.
func (g *guards) boundConversions() {
	g.putBehind("Number", false, func(v goja.Value) goja.Value { return g.p.number(g.c, g, 0, v) })
	// variadic convert every argument; the others as many as their
	// length says (Math.abs(1, o) leaves o as it is).
	variadic := map[string]bool{"max": true, "min": true, "hypot": true, "fromCharCode": true, "fromCodePoint": true}
	// thisIs, when not nil, says whether this is what the method reads
	// before its arguments (a Date's setter throws first on anything but
	// a Date: an argument's valueOf must not run before); when it is not,
	// or for fromCodePoint (which throws at a bad code point before
	// converting the next), only strings are charged.
	var thisIs func(goja.Value) bool
	chargeOnly := map[string]bool{"fromCodePoint": true}
	charge := func(o *goja.Object, name string) {
		is := thisIs
		f, ok := o.Get(name).(*goja.Object)
		if !ok || f == nil {
			return
		}
		orig, callable := goja.AssertFunction(f)
		if !callable {
			return
		}
		n := int(f.Get("length").ToInteger())
		if variadic[name] {
			n = -1
		}
		only := chargeOnly[name]
		g.set(o, name, nil, func(fc goja.FunctionCall) goja.Value {
			if g.c.call != nil {
				convert := !only && (is == nil || is(fc.This))
				// Each argument converted in turn, as the built-in would.
				for i := range fc.Arguments {
					if i == n {
						break
					}
					g.numberArg(&fc, i, convert)
				}
			}
			return invoke(orig, fc.This, fc.Arguments...)
		})
	}
	m := objectAt(g.vm, "Math")
	for _, k := range []string{"abs", "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "clz32", "cos", "cosh",
		"exp", "expm1", "floor", "fround", "hypot", "imul", "log", "log10", "log1p", "log2", "max", "min", "pow", "round",
		"sign", "sin", "sinh", "sqrt", "tan", "tanh", "trunc"} {
		charge(m, k)
	}
	// Date: UTC and the setters convert their arguments to numbers in
	// turn (after reading this's time, which runs nothing of the UDF's);
	// the constructor and parse read a string as a date, about 4 ns a
	// character natively (new Date(s) of 4 million digits took 16 ms,
	// Date.UTC(s) 35 ms), charged as a conversion but not converted here
	// (new Date(date) takes a Date's time as it is).
	date := objectAt(g.vm, "Date")
	charge(date, "UTC")
	proto := objectAt(g.vm, "Date.prototype")
	thisIs = func(v goja.Value) bool { o, ok := v.(*goja.Object); return ok && o.ClassName() == "Date" }
	for _, k := range []string{"setDate", "setFullYear", "setHours", "setMilliseconds", "setMinutes", "setMonth", "setSeconds", "setTime",
		"setUTCDate", "setUTCFullYear", "setUTCHours", "setUTCMilliseconds", "setUTCMinutes", "setUTCMonth", "setUTCSeconds", "setYear"} {
		charge(proto, k)
	}
	thisIs = nil
	only := func(v goja.Value) goja.Value {
		g.chargeNumber(v)
		return v
	}
	if parse, ok := goja.AssertFunction(date.Get("parse")); ok {
		g.set(date, "parse", nil, func(fc goja.FunctionCall) goja.Value {
			only(fc.Argument(0))
			return invoke(parse, fc.This, fc.Arguments...)
		})
	}
	g.putBehind("Date", true, only)
	// A DataView's offset and length: charged, not converted (the
	// constructor checks its buffer first).
	g.putBehind("DataView", true, only)
	charge(g.vm.GlobalObject(), "isNaN")
	charge(g.vm.GlobalObject(), "isFinite")
	str := objectAt(g.vm, "String")
	charge(str, "fromCharCode")
	charge(str, "fromCodePoint")
}

// boundPositions charges the string arguments the built-ins below convert
// to numbers (positions, counts, lengths, digits), at chargeText's rate,
// before they run: 30 'x'.charAt(s) of a string of 4 million digits took
// 1.3 s natively in one statement with no step. An object there is
// converted here, as the built-in would convert it, and the string it
// gives charged (a loop of 'x'.charAt(o), o's valueOf giving such a
// string, cost a step and 120 ms an iteration), where that keeps the
// order of what runs: after this converted to a string (mode 's'), or
// when this and the argument before are primitives (mode 'p', whose
// first argument may be a RegExp or a splitter), or when this is an array
// or a typed array, whose length has no getter (mode 'a'; for their
// searches, mode 'i', only when it is not empty: an empty one answers -1
// or false before it converts its position), or when this is a number
// (mode 'n', as a Number's methods read it first and throw on anything
// else), a DataView (mode 'v') or an ArrayBuffer (mode 'b'), likewise.
// Elsewhere only a string is charged.
func (g *guards) boundPositions() {
	for _, b := range []struct {
		path  string
		mode  byte
		names []string
		at    []int
	}{
		{"String.prototype", 's', []string{"charAt", "charCodeAt", "codePointAt", "at", "padStart", "padEnd", "repeat"}, []int{0}},
		{"String.prototype", 's', []string{"slice", "substring", "substr"}, []int{0, 1}},
		{"String.prototype", 'p', []string{"indexOf", "lastIndexOf", "includes", "startsWith", "endsWith"}, []int{1}},
		{"Array.prototype", 'a', []string{"at", "with", "flat"}, []int{0}},
		{"Array.prototype", 'a', []string{"slice", "splice"}, []int{0, 1}},
		{"Array.prototype", 'i', []string{"indexOf", "lastIndexOf", "includes"}, []int{1}},
		{"Array.prototype", 'a', []string{"fill"}, []int{1, 2}},
		{"Array.prototype", 'a', []string{"copyWithin"}, []int{0, 1, 2}},
		{"%TypedArray%.prototype", 'a', []string{"at", "with"}, []int{0}},
		{"%TypedArray%.prototype", 'a', []string{"slice", "subarray"}, []int{0, 1}},
		{"%TypedArray%.prototype", 'i', []string{"indexOf", "lastIndexOf", "includes"}, []int{1}},
		{"%TypedArray%.prototype", 'a', []string{"set"}, []int{1}},
		{"%TypedArray%.prototype", 'a', []string{"fill"}, []int{1, 2}},
		{"%TypedArray%.prototype", 'a', []string{"copyWithin"}, []int{0, 1, 2}},
		{"Number.prototype", 'n', []string{"toFixed", "toPrecision", "toExponential", "toString"}, []int{0}},
		{"DataView.prototype", 'v', []string{"getInt8", "setInt8", "getUint8", "setUint8", "getInt16", "setInt16", "getUint16", "setUint16",
			"getInt32", "setInt32", "getUint32", "setUint32", "getFloat32", "setFloat32", "getFloat64", "setFloat64",
			"getBigInt64", "setBigInt64", "getBigUint64", "setBigUint64"}, []int{0}},
		{"ArrayBuffer.prototype", 'b', []string{"slice"}, []int{0, 1}},
	} {
		o := objectAt(g.vm, b.path)
		for _, name := range b.names {
			orig, ok := goja.AssertFunction(o.Get(name))
			if !ok {
				continue
			}
			mode, at, arrays := b.mode, b.at, b.path == "Array.prototype"
			typedFill := b.path == "%TypedArray%.prototype" && name == "fill"
			g.set(o, name, nil, func(fc goja.FunctionCall) goja.Value {
				if g.c.call == nil {
					return invoke(orig, fc.This, fc.Arguments...)
				}
				convert := false
				switch mode {
				case 's':
					convert = g.thisText(&fc)
				case 'p':
					// this is converted first (as boundThis does for the
					// methods not here; split's order is boundSplit's). The
					// text to look for is converted next, after IsRegExp
					// for includes, startsWith and endsWith: done here
					// when there is a position to convert after it.
					convert = g.thisText(&fc)
					if convert && len(fc.Arguments) > 1 && isObject(fc.Arguments[0]) {
						if name != "indexOf" && name != "lastIndexOf" && g.isRegExp(fc.Arguments[0]) {
							panic(g.vm.NewTypeError(name + ": the text to look for must not be a regular expression"))
						}
						fc.Arguments[0] = g.str(fc.Arguments[0])
					}
				case 'a', 'i':
					// The method reads this's length, then converts the
					// positions (indexOf and the like: only when the
					// length is not 0). An array's or a typed array's
					// length runs nothing; an array-like's, given to
					// Array.prototype's methods, neither when it is a
					// data property holding a primitive (steady; a
					// string there is converted, and charged), nor a
					// string's given as this.
					switch this := fc.This.(type) {
					case *goja.Object:
						if this.ClassName() == "Array" || isTypedArray(this) {
							convert = mode == 'a' || this.Get("length").ToInteger() > 0
						} else if arrays && g.steady(this, "length") {
							if l := this.Get("length"); !isObject(l) {
								g.chargeNumber(l)
								convert = mode == 'a' || lengthOf(this) > 0
							}
						}
					case goja.String:
						convert = arrays && (mode == 'a' || this.Length() > 0)
					}
				case 'v':
					// A DataView's method checks this first.
					convert = g.isView(fc.This)
				case 'b':
					// ExportType, not Export: it reads no property.
					convert = isObject(fc.This) && fc.This.ExportType() == arrayBufferType
				case 'n':
					if o, ok := fc.This.(*goja.Object); ok {
						convert = o.ClassName() == "Number"
					} else if fc.This != nil {
						if t := fc.This.ExportType(); t != nil {
							convert = t.Kind() == reflect.Int64 || t.Kind() == reflect.Float64
						}
					}
				}
				if typedFill && convert && len(fc.Arguments) > 0 {
					// A typed array's fill converts its value first
					// (guards.element), then the positions.
					fc.Arguments[0] = g.element(typedElement(asObject(fc.This)), fc.Arguments[0])
				}
				for _, i := range at {
					if i >= len(fc.Arguments) {
						break
					}
					g.numberArg(&fc, i, convert)
				}
				return invoke(orig, fc.This, fc.Arguments...)
			})
		}
	}
}

// isView reports whether v is a DataView.
func (g *guards) isView(v goja.Value) bool {
	if !isObject(v) || g.dataViewLength == nil {
		return false
	}
	_, err := g.dataViewLength(v)
	return err == nil
}

// thisText converts an object given as this to a string (its toString
// or valueOf run once), for a string method that begins so, and reports
// whether this is a string now: null, undefined and a Symbol are left for
// the method to refuse, before it converts anything else.
func (g *guards) thisText(fc *goja.FunctionCall) bool {
	switch fc.This.(type) {
	case *goja.Object:
		fc.This = g.str(fc.This)
	case nil, *goja.Symbol:
		return false
	}
	return !goja.IsUndefined(fc.This) && !goja.IsNull(fc.This)
}

// isRegExp is JavaScript's IsRegExp: v's Symbol.match if it has one (read
// once), else whether v is a regular expression.
func (g *guards) isRegExp(v goja.Value) bool {
	o, ok := v.(*goja.Object)
	if !ok {
		return false
	}
	if m := o.GetSymbol(goja.SymMatch); m != nil && !goja.IsUndefined(m) {
		return m.ToBoolean()
	}
	return o.ClassName() == "RegExp"
}

// boundThis converts an object given as this to the string methods that
// begin by converting this to a string, before anything else runs, so
// that every check inside (the charges by the text's length, the
// positions) sees the string: String.prototype.trim.call(o), o's toString
// giving 8 MB, was charged as an object of no length, and 300 of it in
// one statement ran 1.9 s natively. split, replace, replaceAll, match, matchAll and
// search look at their argument first; toString and valueOf take only a
// string or a String object. It goes last, around every other wrapper.
// TestStringMethodsConvertThisFirst checks each such method's order
// against V8's (this converted once, first); that the two lists leave none
// out is theirs to keep.
func (g *guards) boundThis() {
	o := g.object("String.prototype")
	// Those boundPositions wraps (at, charAt, indexOf, slice...) it
	// converts first itself: one Go call less each.
	names := []string{"concat", "isWellFormed", "localeCompare", "normalize", "toLocaleLowerCase",
		"toLocaleUpperCase", "toLowerCase", "toUpperCase", "toWellFormed", "trim", "trimEnd", "trimLeft",
		"trimRight", "trimStart"}
	wrapThis := func(name string, sym *goja.Symbol) {
		orig, ok := goja.AssertFunction(methodOf(o, name, sym))
		if !ok {
			return
		}
		g.set(o, name, sym, func(fc goja.FunctionCall) goja.Value {
			if g.c.call != nil {
				g.thisText(&fc)
			}
			return invoke(orig, fc.This, fc.Arguments...)
		})
	}
	for _, name := range names {
		wrapThis(name, nil)
	}
	wrapThis("", goja.SymIterator)
}

// numberArg is for a built-in about to convert argument i of fc to a
// number: an object is converted here when convert says that keeps the
// order of what runs (and put in its place, so the built-in does not
// convert it again), and the string it is, or gave, charged.
func (g *guards) numberArg(fc *goja.FunctionCall, i int, convert bool) {
	if convert && isObject(fc.Arguments[i]) {
		fc.Arguments[i] = g.toPrimitive(fc.Arguments[i], "number")
	}
	g.chargeNumber(fc.Arguments[i])
}

// chargeNumber charges v, if it is a string, as converted to a number
// (Program.chargeText), in a call.
func (g *guards) chargeNumber(v goja.Value) {
	if s, ok := v.(goja.String); ok {
		if cl := g.c.call; cl != nil {
			g.p.chargeText(cl, g, s.Length(), numberChars)
		}
	}
}

var arrayBufferType = reflect.TypeOf(goja.ArrayBuffer{})

// boundPatterns bounds the regular expressions a UDF compiles at run
// time (patternText): through RegExp, RegExp.prototype.compile, and
// match, matchAll and search given a string, which they compile.
func (g *guards) boundPatterns() {
	g.putBehind("RegExp", false, func(v goja.Value) goja.Value {
		p, _ := g.patternText("RegExp", v)
		return p // a stop takes effect before RegExp runs
	})
	// A string method compiles its argument unless it is an object with
	// the method's symbol (a RegExp, or the UDF's own matcher).
	compile := func(name string, o *goja.Object, sym *goja.Symbol) {
		orig := original(o, name, nil)
		g.set(o, name, nil, func(fc goja.FunctionCall) goja.Value {
			if len(fc.Arguments) > 0 && !goja.IsUndefined(fc.Arguments[0]) && (sym == nil || !g.matcher(fc.Arguments[0], sym)) {
				p, ok := g.patternText(name, fc.Arguments[0])
				if !ok {
					return goja.Undefined()
				}
				fc.Arguments[0] = p
			}
			return invoke(orig, fc.This, fc.Arguments...)
		})
	}
	compile("compile", g.object("RegExp.prototype"), nil)
	sp := g.object("String.prototype")
	compile("match", sp, goja.SymMatch)
	compile("matchAll", sp, goja.SymMatchAll)
	compile("search", sp, goja.SymSearch)
}

// matcher reports whether v is an object with a method under sym, which a
// string's match, matchAll or search calls instead of compiling v (its
// symbol read once more than the spec reads it).
func (g *guards) matcher(v goja.Value, sym *goja.Symbol) bool {
	o, ok := v.(*goja.Object)
	if !ok {
		return false
	}
	m := o.GetSymbol(sym)
	return m != nil && !goja.IsUndefined(m) && !goja.IsNull(m)
}

// wideString is the kind of goja string the engine makes outside ASCII,
// whose parts are copies.
var wideString = reflect.TypeOf(goja.StringFromUTF16([]uint16{0xe9}))

// copiesParts reports whether a part of s is a copy: s is outside ASCII,
// or made from a Go string (a message's data, guards.imported), which may
// be either and is counted as such.
func (g *guards) copiesParts(s goja.String) bool {
	t := reflect.TypeOf(s)
	return t == wideString || t == g.imported
}

// partLength is the length of what slice, substring or substr take from a
// text of n characters, given their arguments; n itself (the most) when an
// argument is an object, which the built-in converts (once: not here).
func partLength(name string, n int, fc goja.FunctionCall) float64 {
	arg := func(i int, undef float64) (float64, bool) {
		v := fc.Argument(i)
		if goja.IsUndefined(v) {
			return undef, true
		}
		if isObject(v) {
			return 0, false
		}
		f := v.ToFloat()
		if math.IsNaN(f) {
			return 0, true
		}
		return math.Trunc(f), true
	}
	l := float64(n)
	a, ok1 := arg(0, 0)
	switch name {
	case "substr":
		k, ok2 := arg(1, l)
		if !ok1 || !ok2 {
			return l
		}
		if a < 0 {
			a = max(l+a, 0)
		}
		return max(min(k, l-min(a, l)), 0)
	case "substring":
		b, ok2 := arg(1, l)
		if !ok1 || !ok2 {
			return l
		}
		a, b = min(max(a, 0), l), min(max(b, 0), l)
		return math.Abs(b - a)
	}
	b, ok2 := arg(1, l)
	if !ok1 || !ok2 {
		return l
	}
	rel := func(x float64) float64 {
		if x < 0 {
			return max(l+x, 0)
		}
		return min(x, l)
	}
	return max(rel(b)-rel(a), 0)
}

// The ASCII characters encodeURIComponent, encodeURI and escape keep as
// they are.
var componentKept, uriKept, escapeKept = asciiSet(alnum + "-_.!~*'()"), asciiSet(alnum + "-_.!~*'();/?:@&=+$,#"), asciiSet(alnum + "@*_+-./")

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

func asciiSet(chars string) (set [utf8.RuneSelf]bool) {
	for i := range len(chars) {
		set[chars[i]] = true
	}
	return set
}

// encodedLength is the length of what encodeURI or encodeURIComponent
// makes of s: a kept character stays, any other code point becomes %XX
// for each byte of its UTF-8 (a lone surrogate makes them throw).
func encodedLength(s goja.String, kept *[utf8.RuneSelf]bool) float64 {
	n := 0.0
	r := s.Reader()
	for {
		c, _, err := r.ReadRune()
		if err != nil {
			return n
		}
		switch {
		case c < utf8.RuneSelf && kept[c]:
			n++
		case utf8.RuneLen(c) > 0:
			n += 3 * float64(utf8.RuneLen(c))
		default:
			n += 3
		}
	}
}

// escapedLength is the length of what escape makes of s: letters, digits
// and @*_+-./ stay, other code units up to 0xFF become %XX, the rest %uXXXX.
func escapedLength(s goja.String) float64 {
	n := 0.0
	for i := range s.Length() {
		switch c := s.CharAt(i); {
		case c < utf8.RuneSelf && escapeKept[c]:
			n++
		case c <= 0xFF:
			n += 3
		default:
			n += 6
		}
	}
	return n
}

// boundRaw replaces String.raw with one that reads its template's raw
// strings and its substitutions in the spec's order, each once, and throws
// a RangeError before the result would pass limits.UDFStringBytes: goja's
// joins them unbounded (ten raw strings around nine 16 MB substitutions
// built 144 MB). chargeBulk charges its raw strings first.
func (g *guards) boundRaw() {
	vm := g.vm
	g.set(g.object("String"), "raw", nil, func(fc goja.FunctionCall) goja.Value {
		cooked := fc.Argument(0).ToObject(vm)
		raw := cooked.Get("raw")
		if raw == nil {
			raw = goja.Undefined()
		}
		ro := raw.ToObject(vm)
		n := int(min(lengthOf(ro), 1<<53))
		var b goja.StringBuilder
		total := 0
		// Each part is looked at as it is added (a part is up to 16 MB).
		add := func(s goja.String) bool {
			if total += s.Length(); total > limits.UDFStringBytes {
				g.refuseLong("String.raw", fmt.Sprintf("at least %d characters", total))
			}
			if !g.afford("String.raw", float64(s.Length())) {
				return false
			}
			b.WriteString(s)
			return true
		}
		for i := 0; i < n; i++ {
			if i%1024 == 1023 && g.stopped() {
				return goja.Undefined()
			}
			seg := ro.Get(strconv.Itoa(i))
			if seg == nil {
				seg = goja.Undefined()
			}
			if !add(g.str(seg)) {
				return goja.Undefined()
			}
			if i+1 == n {
				break
			}
			if i+1 < len(fc.Arguments) && !add(g.str(fc.Arguments[i+1])) {
				return goja.Undefined()
			}
		}
		return b.String()
	})
}

// boundJoin replaces Array.prototype.join with one that reads each element
// once, as the spec does, and stops as soon as the joined length would
// pass the bound, before it builds anything.
func (g *guards) boundJoin() {
	ap := g.object("Array.prototype")
	g.set(ap, "join", nil, func(fc goja.FunctionCall) goja.Value {
		o := fc.This.ToObject(g.vm)
		if g.joining[o] > 0 {
			return g.vm.ToValue("")
		}
		// Each level is Go's recursion (join, toString, join), which no
		// call of the UDF's counts.
		leave := g.enter("join", "the arrays nest", limits.UDFJoinLevel)
		g.joining[o]++
		defer func() { g.joining[o]--; leave() }()
		n := lengthOf(o)
		sep := g.str(g.vm.ToValue(","))
		if s := fc.Argument(0); !goja.IsUndefined(s) {
			sep = g.str(s)
		}
		if n <= 0 || math.IsNaN(n) {
			return g.vm.ToValue("")
		}
		// Every element is read (a hole or a getter too), so the length
		// bounds the time as fill's does.
		g.tooLong("join", n*float64(max(sep.Length(), 1)))
		total := (n - 1) * float64(sep.Length())
		parts := make([]goja.String, 0, int(min(n, 1024)))
		for i := 0; float64(i) < n; i++ {
			if i%1024 == 1023 {
				// A long join is work without a step of the UDF's own:
				// count it, so that many of them meet the budget.
				g.p.tick(g.c, 1)
				if g.stopped() {
					return g.vm.ToValue("")
				}
			}
			e := o.Get(strconv.Itoa(i))
			var s goja.String
			if e != nil && !goja.IsUndefined(e) && !goja.IsNull(e) {
				s = g.str(e)
			}
			if s != nil {
				total += float64(s.Length())
				g.tooLong("join", total)
			}
			parts = append(parts, s)
		}
		if !g.afford("join", total) {
			return g.vm.ToValue("")
		}
		var b goja.StringBuilder
		for i, s := range parts {
			if i > 0 {
				b.WriteString(sep)
			}
			if s != nil {
				b.WriteString(s)
			}
		}
		return b.String()
	})
}
