package hostile

import (
	"strings"
)

// transformRequest builds a "transform" request: one UDF named f with the
// given code, run on n messages.
func transformRequest(code string, n int) []byte { return transformsRequest([]string{code}, n) }

// transformsRequest is transformRequest with a transform for each code,
// in order.
func transformsRequest(codes []string, n int) []byte {
	var b strings.Builder
	b.WriteString(`{"config":{"name":"projects/p/subscriptions/s","topic":"projects/p/topics/t","messageTransforms":[`)
	for i, code := range codes {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"javascriptUdf":{"functionName":"f","code":`)
		writeJSONString(&b, code)
		b.WriteString(`}}`)
	}
	b.WriteString(`]},"messages":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"text":"{\"a\":1}","attributes":{"k":"v"}}`)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// AtBound are UDFs whose code nests deeply (sums, +=, parentheses,
// templates), the depths that once sat at the edge of what the page's
// worker could parse: the engine's parser recurses on them. The corpus
// runs them on every surface, and the site's browser test in the page's
// worker, where Chromium gives the least stack. Each must compile and run.
var AtBound = []struct{ Name, Code string }{
	{"sums-at-bound", "function f(m) { return {data: " + strings.Repeat("m.data+(", 53) + "''" + strings.Repeat(")", 53) + "} }"},
	{"plus-assign-at-bound", "function f(m) { var a = ''; " + strings.Repeat("a += ", 70) + "m.data; return {data: a} }"},
	{"parentheses-at-bound", "function f(m) { return {data: " + strings.Repeat("(", 197) + "m.data" + strings.Repeat(")", 197) + "} }"},
	{"templates-at-bound", "function f(m) { return {data: " + strings.Repeat("`${", 60) + "m.data" + strings.Repeat("}`", 60) + "} }"},
}

// deepArrays is top-level code that nests 45,000 arrays in a.
const deepArrays = "var a = [];\nfor (var i = 0; i < 45000; i++) a = [a];\n"

// DeepAtRun are UDFs whose built-ins recurse per level of the nesting
// they are given at run time (arrays joined or flattened, a pattern's
// groups, JSON), which no scan of the code can see: each must end in a
// value or a RangeError the UDF could catch, never in the end of the
// instance. The corpus runs them on every surface, and the site's browser
// test in the page's worker.
var DeepAtRun = []struct{ Name, Code string }{
	{"join-deep", deepArrays + "function f(m) { return {data: String(a)} }"},
	{"to-locale-string-deep", deepArrays + "function f(m) { return {data: a.toLocaleString()} }"},
	{"flat-deep", deepArrays + "function f(m) { return {data: String(a.flat(Infinity).length)} }"},
	{"regexp-groups-deep", "function f(m) { var n = 20000; return {data: String(new RegExp('('.repeat(n) + 'a' + ')'.repeat(n)).test('a'))} }"},
	// Joins inside a stringify (a toJSON at its bottom) inside recursion
	// through map (160 levels, near the 500 calls' bound): each within
	// the bounds it had until then (1,000 levels of JSON, 1,000 of join,
	// 500 calls), too deep together.
	{"join-under-stringify-under-recursion", "var a = [];\nfor (var i = 0; i < 64; i++) a = [a];\nvar b = {toJSON: function () { return String(a) }};\nfor (var i = 0; i < 998; i++) b = [b];\n" +
		"function r(n) { return n ? [0].map(function () { return r(n - 1) })[0] : JSON.stringify(b) }\nfunction f(m) { return {data: r(160)} }"},
}

func init() {
	udf := func(name, code string, n int) Case {
		return Case{Name: "transform/" + name, Op: "transform", Body: func() []byte { return transformRequest(code, n) }}
	}

	add(
		// Every message meets the loop: the request's interrupt budget
		// stops the rest.
		udf("endless-loop", "function f(m) { while (true) {} }", 20),
		udf("endless-loop-caught", "function f(m) { for (;;) { try { throw 1 } catch (e) {} } }", 3),
		udf("endless-top-level", "for (;;) {}\nfunction f(m) { return m }", 3),
		udf("recursion", "function f(m) { return f(m) }", 3),
		udf("recursion-through-builtin", "function f(m) { return [m].map(f)[0] }", 3),
		udf("string-doubling", "function f(m) { var s = 'x'; for (;;) s += s; }", 1),
		// A += on a property has both lengths first, as one on a name
		// does (its base and key are evaluated once and held).
		udf("string-doubling-property", "function f(m) { var o = {s: 'x'}; for (;;) o.s += o.s; }", 1),
		udf("string-doubling-computed", "function f(m) { var o = {s: 'x'}, k = 's'; for (;;) o[k] += o[k]; }", 1),
		udf("string-doubling-nested", "function f(m) { var o = {p: {s: 'x'}}; for (;;) o.p.s += o.p.s; }", 1),
		// An object's + converts it after both operands are evaluated, so
		// no length is known before it adds: the allocation budget stops
		// it, as it stopped every doubling before + had bounds of its own.
		udf("string-doubling-object", "function f(m) { var s = 'x', o = {toString: function () { return s }}; for (;;) s = o + o; }", 1),
		// Within the allocation budget before each +, past it after: a
		// check of what was allocated let the last + build 64 MiB more.
		// What any UDF may hold: strings kept until the call's allocation
		// budget stops it, about 64 MB live (with every doubling above
		// bounded by the string bound, this is the case that grows an
		// instance most), each made of 1,024 pieces of 1 KiB.
		udf("strings-kept", "function f(m) { var a = [], k = 'x'.repeat(1024); for (;;) a.push(k.repeat(1024)); }", 1),
		// The same made one character at a time: goja's repeat appends
		// once per count (1.6-1.8 s in js/wasm before its pieces were
		// charged).
		udf("repeat-pieces", "function f(m) { var a = []; for (;;) a.push('x'.repeat(1 << 20)); }", 1),
		udf("concat-past-budget", "function f(m) { var t = 'x'.repeat(16e6), s = t + t, u = s + s; return m }", 1),
		// Built-ins that allocate far more than their input in one call,
		// where no step can look: 3 MB of JSON text allocated 634 MiB.
		udf("json-parse-arrays", "function f(m) { JSON.parse('[' + '[],'.repeat(1e6) + '[]]'); return m }", 1),
		udf("json-parse-deep", "function f(m) { JSON.parse('['.repeat(5e6)); return m }", 1),
		udf("array-buffer-huge", "function f(m) { new ArrayBuffer(3e9); return m }", 1),
		udf("typed-array-huge", "function f(m) { return {data: String(new Float64Array(4e8).length)} }", 1),
		// Built-ins and spreads that go through many items in one
		// operation, with no step of the UDF's: 10 s to 45 s and up to
		// 5 GB each, natively, before they were charged as steps.
		udf("spread-sparse-keys", "function f(m) { return {data: String([...Array(1e7).keys()].length)} }", 1),
		udf("spread-string", "function f(m) { Math.max(...'1'.repeat(16e6)); return m }", 1),
		udf("array-from-length", "function f(m) { Array.from({length: 4294967295}); return m }", 1),
		udf("set-of-string", "function f(m) { new Set('x'.repeat(16e6)); return m }", 1),
		udf("sparse-sort", "function f(m) { var a = []; a.length = 4294967295; a.sort(); a.forEach(function () {}); return m }", 1),
		udf("apply-many", "function f(m) { var a = []; a.length = 1e8; Array.prototype.concat.apply([], a); return m }", 1),
		udf("stringify-repeated", "function f(m) { var s = 'x'.repeat(1e6); return {data: String(JSON.stringify(Array(1000).fill(s)).length)} }", 1),
		udf("stringify-shared", "function f(m) { var a = Array(1000).fill(0), b = Array(1000).fill(a), c = Array(100).fill(b); return {data: String(JSON.stringify(c).length)} }", 1),
		udf("stringify-sparse", "function f(m) { return {data: String(JSON.stringify(Array(1e8)).length)} }", 1),
		udf("stringify-proxy", "function f(m) { return {data: String(JSON.stringify(new Proxy(Array(1e8), {})).length)} }", 1),
		udf("stringify-deep-indent", "function f(m) { var a = []; for (var i = 0; i < 20000; i++) a = [a]; return {data: String(JSON.stringify(a, null, 10).length)} }", 1),
		udf("spread-typed-array", "function f(m) { var u = new Uint8Array(16e6); Math.max(...u); [...u]; return m }", 1),
		udf("split-chars", "function f(m) { var s = 'x'.repeat(16e6); s.split(''); s.split(''); return m }", 1),
		// Found by an audit of goja's built-ins, each
		// 1.2 s to over a minute and up to 8 GB natively before: a length
		// that answers the charge 0 and the built-in 10^8, a built-in that
		// moves every item per call, a destructuring rest the engine
		// drains, a replaceAll that keeps every match, BigInt arithmetic
		// in one Go call, per-character work in one call, a search repeated
		// over a long text, Go's recursion through nested arrays.
		udf("length-getter", "function f(m) { var n = 0, o = {get length() { return n++ ? 1e8 : 0 }}; Array.from(o); return m }", 1),
		udf("shift-loop", "function f(m) { var a = JSON.parse('[' + '0,'.repeat(1e5) + '0]'); for (var i = 0; i < 45000; i++) a.shift(); return m }", 1),
		// The largest array of numbers JSON.parse's reckoning lets
		// through whole (250,000 numbers, 500 KB): within the call's
		// allocation budget, and 0.2 s natively, but 0.9-1.5 s in js/wasm
		// (scripts/hostile --wasm), over the browser's budget.
		udf("json-parse-numbers", "function f(m) { JSON.parse('[' + '0,'.repeat(2.5e5) + '0]'); return m }", 1),
		udf("destructure-rest", "function f(m) { var [...r] = 'x'.repeat(16e6); return m }", 1),
		udf("replace-all-empty", "function f(m) { 'x'.repeat(16e6).replaceAll('x', ''); return m }", 1),
		udf("bigint-square", "function f(m) { var x = 3n; for (;;) x = x * x; }", 1),
		udf("bigint-shift", "function f(m) { return {data: String(1n << 4000000000n)} }", 1),
		udf("normalize-long", "function f(m) { return {data: 'é'.repeat(8e6).normalize('NFD')} }", 1),
		udf("regexp-test-loop", "function f(m) { var s = 'x'.repeat(16e6), r = /x*y/; for (var i = 0; i < 100; i++) r.test(s); return m }", 1),
		udf("string-raw-subs", "function f(m) { var s = 'x'.repeat(16e6); return {data: String.raw({raw: Array(10).fill('')}, s, s, s, s, s, s, s, s, s)} }", 1),
		// Built-ins called many times in one statement, with no step
		// between them: each builds a copy or reads
		// a whole text, and 300 of them in an array literal took a js/wasm
		// instance past its 4 GiB (it ended) or ran 2.2 s.
		udf("copies-in-one-statement", "function f(m) { var s = 'x'.repeat(16e6); return {data: String(["+repeatList("s.toUpperCase()", 300)+"].length)} }", 1),
		udf("buffers-in-one-statement", "function f(m) { return {data: String(["+repeatList("new ArrayBuffer(16e6)", 300)+"].length)} }", 1),
		udf("encodings-in-one-statement", "function f(m) { var s = '\u00e9'.repeat(1e6); return {data: String(["+repeatList("encodeURIComponent(s)", 100)+"].length)} }", 1),
		udf("joins-in-one-statement", "function f(m) { var b = Array(16).fill('x'.repeat(1e6)); return {data: String(["+repeatList("b.join('')", 300)+"].length)} }", 1),
		udf("searches-in-one-statement", "function f(m) { var s = 'x'.repeat(16e6); return {data: String(["+repeatList("s.indexOf('y')", 300)+"].length)} }", 1),
		udf("slices-in-one-statement", "function f(m) { var s = '\\u00e9' + 'x'.repeat(8e6); return {data: String(["+repeatList("s.slice(1)", 300)+"].length)} }", 1),
		udf("trims-in-one-statement", "function f(m) { var s = ' '.repeat(8e6) + 'x'; return {data: String(["+repeatList("s.trim()", 300)+"].length)} }", 1),
		udf("prefixes-in-one-statement", "function f(m) { var s = 'x'.repeat(8e6), t = s.slice(0, -1); return {data: String(["+repeatList("s.startsWith(t)", 300)+"].length)} }", 1),
		udf("parse-int-in-one-statement", "function f(m) { var s = '1'.repeat(4e6); return {data: String(["+repeatList("parseInt(s)", 300)+"].length)} }", 1),
		// Operators and built-ins that convert or compare a whole string
		// in one Go call: 300 +s of 4 million
		// digits in one statement ran past 100 s natively, 3,000 s == t
		// of 8 MB 2.5 s, 30 'x'.charAt(s) 1.3 s; the object's valueOf
		// gives the string to the operator; a loop's body of 5,000
		// assignments ran its 50,000 steps in 4.9 s.
		udf("conversions-in-one-statement", "function f(m) { var s = '1'.repeat(4e6); return {data: String(["+repeatList("+s", 300)+"].length)} }", 1),
		udf("comparisons-in-one-statement", "function f(m) { var s = 'x'.repeat(8e6), t = 'x'.repeat(8e6); return {data: String(["+repeatList("s == t", 3000)+"].length)} }", 1),
		udf("positions-in-one-statement", "function f(m) { var s = '1'.repeat(4e6); return {data: String(["+repeatList("'x'.charAt(s)", 300)+"].length)} }", 1),
		udf("conversions-of-an-object", "function f(m) { var s = '1'.repeat(4e6), o = {valueOf: function () { return s }}; for (;;) o * 2 }", 1),
		// ++ of an object and of a property, and an array's length given
		// an object, converted by the engine with no step: each ran until the native watch stopped it at 10 s,
		// under js/wasm until the page's loader gave up.
		udf("increment-of-an-object", "function f(m) { var s = '0'.repeat(4194303) + '1', o = {valueOf: String.prototype.valueOf.bind(s)}, x; return {data: String(["+repeatList("(x = o, x++)", 300)+"].length)} }", 1),
		udf("property-increment-loop", "function f(m) { var s = '0'.repeat(4194303) + '1', x = {}; for (;;) { x.p = s; x.p++ } }", 1),
		udf("length-of-an-object", "function f(m) { var s = '0'.repeat(4194303) + '1', o = {valueOf: String.prototype.valueOf.bind(s)}, a = []; return {data: String(["+repeatList("a.length = o", 300)+"].length)} }", 1),
		udf("nesting-per-message", "function f(m) { var a = []; for (var i = 0; i < 45000; i++) a = [a]; return m }", 5),
		// The same in the top-level code of five transforms: each of
		// their first runs counts toward the request's budget too.
		Case{Name: "transform/nesting-per-transform", Op: "transform", Body: func() []byte {
			code := deepArrays + "function f(m) { return m }"
			return transformsRequest([]string{code, code, code, code, code}, 1)
		}},
		// What the engine converts when it writes a typed array's element,
		// a DataView's value or an array's length, what a sort's comparator
		// returns, and long strings used as keys or sorted: each ran 3-10 s
		// natively, the loops until the watch,
		// under js/wasm until the page's loader gave up.
		udf("typed-array-elements", "function f(m) { var s = '0'.repeat(1.5e6) + '1', ta = new Float64Array(1); return {data: String(["+repeatList("ta[0] = s", 300)+"].length)} }", 1),
		udf("typed-array-from-a-list", "function f(m) { var s = '0'.repeat(1.5e6) + '1'; return {data: String(new Float64Array(Array(300).fill(s)).length)} }", 1),
		udf("typed-array-map", "function f(m) { var s = '0'.repeat(1.5e6) + '1'; return {data: String(new Float64Array(3000).map(function () { return s }).length)} }", 1),
		udf("dataview-values", "function f(m) { var s = '0'.repeat(1.5e6) + '1', v = new DataView(new ArrayBuffer(8)); return {data: String(["+repeatList("v.setFloat64(0, s)", 300)+"].length)} }", 1),
		udf("length-by-define-property", "function f(m) { var s = '0'.repeat(4194303) + '1', o = {valueOf: String.prototype.valueOf.bind(s)}, a = []; return {data: String(["+repeatList("Object.defineProperty(a, 'length', {value: o})", 300)+"].length)} }", 1),
		udf("sort-comparator-text", "function f(m) { var s = '0'.repeat(1.5e6) + '1'; return {data: String(Array(3000).fill(1).sort(function () { return s }).length)} }", 1),
		udf("long-key-set-loop", "function f(m) { var t = 'x'.repeat(8e6), o = {}; for (;;) o[t] = 1 }", 1),
		udf("map-long-key-loop", "function f(m) { var t = 'x'.repeat(8e6), c = new Map(); for (;;) c.get(t) }", 1),
		udf("set-of-long-strings", "function f(m) { var t = 'x'.repeat(8e6); return {data: String(new Set(Array(3000).fill(t)).size)} }", 1),
		udf("object-literal-long-keys", "function f(m) { var t = 'x'.repeat(8e6); return {data: String(["+repeatList("{[t]: 1}", 300)+"].length)} }", 1),
		udf("sort-long-strings", "function f(m) { var s = 'x'.repeat(8e6), t = (s + 'y').slice(0, -1), u = []; for (var i = 0; i < 3000; i++) u.push(i % 2 ? s : t); return {data: String(u.sort().length)} }", 1),
		// Long keys read (any object with more than 8 properties in its
		// chain: an array, a string) or held and gone through by a built-in,
		// a spread or a for-in: each loop ran until
		// the watch at 10 s natively.
		udf("long-key-read-loop", "function f(m) { var t = 'x'.repeat(8e6), a = []; for (;;) a[t] }", 1),
		udf("long-key-has-own-loop", "function f(m) { var t = 'x'.repeat(8e6), a = []; for (;;) a.hasOwnProperty(t) }", 1),
		udf("long-key-held-spread-loop", "function f(m) { var t = 'x'.repeat(8e6), h = {}; h[t] = 1; for (;;) ({...h}) }", 1),
		udf("long-key-held-for-in-loop", "function f(m) { var t = 'x'.repeat(8e6), h = {}; h[t] = 1; for (var i = 0; i < 20; i++) h['p' + i] = i; for (;;) for (var k in h) break }", 1),
		udf("long-keys-from-entries", "function f(m) { var t = 'x'.repeat(8e6); return {data: String(Object.keys(Object.fromEntries(Array(20000).fill([t, 1]))).length)} }", 1),
		// Long strings compared or searched by a built-in, and BigInts
		// written as text (3-10 s natively, a
		// BigInt of 262,144 bits 50 ms a write in js/wasm).
		udf("index-of-long-string-loop", "function f(m) { var s = 'x'.repeat(8e6) + 'a', t = 'x'.repeat(8e6) + 'b', a = [s]; for (;;) a.indexOf(t) }", 1),
		udf("object-is-long-strings-loop", "function f(m) { var s = 'x'.repeat(8e6) + 'a', t = 'x'.repeat(8e6) + 'b'; for (;;) Object.is(s, t) }", 1),
		udf("replace-all-long-pattern-loop", "function f(m) { var s = 'x'.repeat(8e6) + 'a', t = 'x'.repeat(8e6) + 'b'; for (;;) s.replaceAll(t, '') }", 1),
		udf("json-parse-not-json-loop", "function f(m) { var t = 'x'.repeat(8e6); for (;;) try { JSON.parse(t) } catch (e) {} }", 1),
		udf("bigint-text-loop", "function f(m) { var b = (1n << 1023n) + 1n; for (;;) `${b}` }", 1),
		udf("bigint-text-in-one-statement", "function f(m) { var b = (1n << 1023n) + 1n; for (;;) ["+repeatList("String(b)", 500)+"] }", 1),
		udf("regexp-source-loop", "function f(m) { var r = new RegExp('x'.repeat(60000)); for (;;) r.source }", 1),
		udf("bigint-string-loop", "function f(m) { var b = (1n << 1023n) + 1n; for (;;) String(b) }", 1),
		udf("bigint-error-messages", "function f(m) { var b = (1n << 1023n) + 1n; for (;;) new Error(b) }", 1),
		// Long keys hashed where nothing charged them (natively): a super property's key (8.6 s), a logical
		// assignment's read (1.2 s), a named key an array holds (1.1-1.4
		// s), a rest nested in an assignment's pattern (1.3 s), the keys a
		// Proxy's ownKeys trap gives (1.3-1.9 s).
		udf("super-long-key-loop", "function f(m) { var t = 'x'.repeat(8e6); class A { g() { for (;;) super[t] = 1 } } new A().g() }", 1),
		udf("logical-assignment-long-key-loop", "function f(m) { var t = 'x'.repeat(8e6), o = {}; for (var i = 0; i < 20; i++) o['p' + i] = i; for (;;) o[t] ??= 1 }", 1),
		udf("array-long-key-held-loop", "function f(m) { var t = 'x'.repeat(8e6), a = [], o = {}; a[t] = 1; for (var i = 0; i < 20; i++) o['p' + i] = i; for (;;) Object.assign(o, a) }", 1),
		udf("nested-rest-long-key-loop", "function f(m) { var t = 'x'.repeat(8e6), h = {}, r; h[t] = 1; var w = {x: h}; for (;;) ({x: {...r}} = w) }", 1),
		udf("proxy-own-keys-long-key-loop", "function f(m) { var t = 'x'.repeat(8e6), p = new Proxy({}, {ownKeys: function () { return [t] }, getOwnPropertyDescriptor: function () { return {value: 1, enumerable: true, configurable: true} }}); for (;;) ({...p}) }", 1),
		// Rests set to a property in a nested pattern (1.7-2.2 s natively before the allocations stopped them),
		// a generator's pattern's rest beside a rest parameter (1.7 s; nested
		// in its pattern 3.2 s), and a
		// typed array's element written through super with a computed key
		// (0.9 s js/wasm CPU) or by += (charged already: 85 ms).
		udf("property-rest-long-key-loop", "function f(m) { var t = 'x'.repeat(8e6), h = {}, o = {}; for (var i = 0; i < 20; i++) h['p' + i] = i; h[t] = 1; for (;;) [{...o.r}] = [h] }", 1),
		udf("generator-rest-beside-rest-long-key-loop", "function f(m) { var t = 'x'.repeat(8e6), h = {}; for (var i = 0; i < 20; i++) h['p' + i] = i; h[t] = 1; var g = function* ({...r}, ...a) {}; for (;;) g(h) }", 1),
		udf("generator-nested-rest-beside-rest-long-key-loop", "function f(m) { var t = 'x'.repeat(8e6), w = {x: {}}; for (var i = 0; i < 20; i++) w.x['p' + i] = i; w.x[t] = 1; var g = function* ({x: {...r}}, ...a) {}; for (;;) g(w) }", 1),
		udf("generator-getter-rest-beside-rest-long-key-statement", "function f(m) { var t = 'x'.repeat(8e6), o = {}; for (var i = 0; i < 20; i++) o['p' + i] = i; o[t] = 1; var w = {get x() { return o }}; var g = function* ({x: {...r}}, ...a) {}; for (;;) ["+strings.TrimSuffix(strings.Repeat("g(w),", 10000), ",")+"] }", 1),
		udf("generator-default-rest-beside-rest-long-key-statement", "function f(m) { var t = 'x'.repeat(8e6), o = {}; for (var i = 0; i < 20; i++) o['p' + i] = i; o[t] = 1; var g = function* ({x: {...r} = o}, ...a) {}; for (;;) ["+strings.TrimSuffix(strings.Repeat("g({}),", 10000), ",")+"] }", 1),
		udf("generator-iterable-rest-beside-rest-long-key-statement", "function f(m) { var t = 'x'.repeat(8e6), o = {}; for (var i = 0; i < 20; i++) o['p' + i] = i; o[t] = 1; var s = new Set([o]); var g = function* ([{...r}], ...a) {}; for (;;) ["+strings.TrimSuffix(strings.Repeat("g(s),", 10000), ",")+"] }", 1),
		udf("nested-rest-throws-midway-long-key-loop", "function f(m) { var t = 'x'.repeat(8e6), o = {}; o[t] = 1; Object.defineProperty(o, 'z', {enumerable: true, get() { throw 1 }}); var r; for (;;) try { [{...r}] = [o] } catch (e) {} }", 1),
		udf("parameter-rest-throws-midway-long-key-loop", "function f(m) { var t = 'x'.repeat(8e6), o = {}; o[t] = 1; Object.defineProperty(o, 'z', {enumerable: true, get() { throw 1 }}); var g = function ({x: {...r}}) {}; for (;;) try { g({x: o}) } catch (e) {} }", 1),
		udf("null-prototype-rest-throws-midway-long-key-loop", "function f(m) { var t = 'x'.repeat(8e6), o = Object.create(null); o[t] = 1; Object.defineProperty(o, 'z', {enumerable: true, get() { throw 1 }}); var r; for (;;) try { [{...r}] = [o] } catch (e) {} }", 1),
		udf("null-prototype-generator-rest-beside-rest-long-key-loop", "function f(m) { var t = 'x'.repeat(8e6), o = {__proto__: null}; o[t] = 1; var g = function* ({...r}, ...a) {}; for (;;) [g(o), g(o), g(o), g(o), g(o), g(o), g(o), g(o), g(o), g(o)] }", 1),
		udf("super-property-rest-long-key-loop", "function f(m) { var t = 'x'.repeat(8e6), h = {}; for (var i = 0; i < 20; i++) h['p' + i] = i; h[t] = 1; class A { g() { for (;;) [{...super.x}] = [h] } } new A().g() }", 1),
		udf("prototype-chain-deep-lookups", "function f(m) { var o = {}; for (var i = 0; i < 20000; i++) o = Object.create(o); var n = 0; for (;;) { if (o.missing) n++; if (o.x) n++; if (o.y) n++; if (o.z) n++ } }", 1),
		udf("member-reads-in-one-statement-loop", "function f(m) { var o = {}, n = 0; for (;;) { n += (o.m0 ? 1 : 0) + (o.m1 ? 1 : 0) + (o.m2 ? 1 : 0) + (o.m3 ? 1 : 0) + (o.m4 ? 1 : 0) + (o.m5 ? 1 : 0) + (o.m6 ? 1 : 0) + (o.m7 ? 1 : 0) + (o.m8 ? 1 : 0) + (o.m9 ? 1 : 0) + (o.m10 ? 1 : 0) + (o.m11 ? 1 : 0) + (o.m12 ? 1 : 0) + (o.m13 ? 1 : 0) + (o.m14 ? 1 : 0) + (o.m15 ? 1 : 0) + (o.m16 ? 1 : 0) + (o.m17 ? 1 : 0) + (o.m18 ? 1 : 0) + (o.m19 ? 1 : 0) } }", 1),
		udf("prototype-chain-at-bound-member-reads-loop", "function f(m) { var o = {}; for (var i = 0; i < 29; i++) o = Object.create(o); var n = 0; for (;;) { n += (o.m0 ? 1 : 0) + (o.m1 ? 1 : 0) + (o.m2 ? 1 : 0) + (o.m3 ? 1 : 0) + (o.m4 ? 1 : 0) + (o.m5 ? 1 : 0) + (o.m6 ? 1 : 0) + (o.m7 ? 1 : 0) + (o.m8 ? 1 : 0) + (o.m9 ? 1 : 0) + (o.m10 ? 1 : 0) + (o.m11 ? 1 : 0) + (o.m12 ? 1 : 0) + (o.m13 ? 1 : 0) + (o.m14 ? 1 : 0) + (o.m15 ? 1 : 0) + (o.m16 ? 1 : 0) + (o.m17 ? 1 : 0) + (o.m18 ? 1 : 0) + (o.m19 ? 1 : 0) } }", 1),
		udf("prototype-chain-constructor-deep-lookups", "function f(m) { var o = {}; function F() {} for (var i = 0; i < 20000; i++) { F.prototype = o; o = new F() } var n = 0; for (;;) { if (o.missing) n++; if (o.x) n++; if (o.y) n++; if (o.z) n++ } }", 1),
		udf("prototype-chain-reflect-construct-deep-lookups", "function f(m) { var o = {}; function F() {} for (var i = 0; i < 20000; i++) { F.prototype = o; o = Reflect.construct(Array, [], F) } var n = 0; for (;;) { if (o.missing) n++; if (o.x) n++; if (o.y) n++; if (o.z) n++ } }", 1),
		udf("prototype-chain-proxies-deep-lookups", "function f(m) { var o = {}; for (var i = 0; i < 20000; i++) o = new Proxy(o, {}); var n = 0; for (;;) { if (o.missing) n++; if (o.x) n++; if (o.y) n++; if (o.z) n++ } }", 1),
		udf("prototype-chain-proxy-new-target-deep-lookups", "function f(m) { var o = {}; for (var i = 0; i < 20000; i++) { var P = new Proxy(Array.bind(), {get(t, k) { return k === 'prototype' ? o : t[k] }}); o = new P() } var n = 0; for (;;) { if (o.missing) n++; if (o.x) n++; if (o.y) n++; if (o.z) n++ } }", 1),
		udf("prototype-chain-generator-deep-lookups", "function f(m) { var o = {}; function* g() {} for (var i = 0; i < 20000; i++) { g.prototype = o; o = g() } var n = 0; for (;;) { if (o.missing) n++; if (o.x) n++; if (o.y) n++; if (o.z) n++ } }", 1),
		udf("prototype-chain-classes-deep-lookups", "function f(m) { var C = class {}; for (var i = 0; i < 20000; i++) C = class extends C {}; var o = new C(); var n = 0; for (;;) { if (o.missing) n++; if (o.x) n++; if (o.y) n++; if (o.z) n++ } }", 1),
		udf("prototype-chain-spliced-deep-lookups", "function f(m) { var roots = [], leaves = []; for (var c = 0; c < 100; c++) { var r = {}, o = r; for (var i = 0; i < 25; i++) o = Object.create(o); roots.push(r); leaves.push(o) } for (var c = 1; c < 100; c++) Object.setPrototypeOf(roots[c - 1], leaves[c]); var o = leaves[0]; var n = 0; for (;;) { if (o.missing) n++; if (o.x) n++; if (o.y) n++; if (o.z) n++ } }", 1),
		udf("prototype-chain-leaked-from-defaults-deep-lookups", "function f(m) { var o = {}; function F(a = (o = this, 0), b = (function () { throw 1 })()) {} for (var i = 0; i < 20000; i++) { F.prototype = o; try { new F() } catch (e) {} } var n = 0; for (;;) { if (o.missing) n++; if (o.x) n++; if (o.y) n++; if (o.z) n++ } }", 1),
		udf("adds-assigned-loop", "function f(m) { var n = 0; for (;;) { n += 1; n += 1; n += 1; n += 1; n += 1; n += 1; n += 1; n += 1; n += 1; n += 1; n += 1; n += 1; n += 1; n += 1; n += 1; n += 1; n += 1; n += 1; n += 1; n += 1 } }", 1),
		udf("computed-reads-in-one-statement-loop", "function f(m) { var o = {}, n, k = 'a'; for (;;) { n = o[k], o[k], o[k], o[k], o[k], o[k], o[k], o[k], o[k], o[k], o[k], o[k], o[k], o[k], o[k], o[k], o[k], o[k], o[k], o[k] } }", 1),
		udf("products-in-one-statement-loop", "function f(m) { var o = {}, n, k = 'a'; for (;;) { n = o.m0 * k, o.m1 * k, o.m2 * k, o.m3 * k, o.m4 * k, o.m5 * k, o.m6 * k, o.m7 * k, o.m8 * k, o.m9 * k, o.m10 * k, o.m11 * k, o.m12 * k, o.m13 * k, o.m14 * k, o.m15 * k, o.m16 * k, o.m17 * k, o.m18 * k, o.m19 * k } }", 1),
		udf("differences-in-one-statement-loop", "function f(m) { var o = {}, n; for (;;) { n = (o.m0 ? 1 : 0) - (o.m1 ? 1 : 0) - (o.m2 ? 1 : 0) - (o.m3 ? 1 : 0) - (o.m4 ? 1 : 0) - (o.m5 ? 1 : 0) - (o.m6 ? 1 : 0) - (o.m7 ? 1 : 0) - (o.m8 ? 1 : 0) - (o.m9 ? 1 : 0) - (o.m10 ? 1 : 0) - (o.m11 ? 1 : 0) - (o.m12 ? 1 : 0) - (o.m13 ? 1 : 0) - (o.m14 ? 1 : 0) - (o.m15 ? 1 : 0) - (o.m16 ? 1 : 0) - (o.m17 ? 1 : 0) - (o.m18 ? 1 : 0) - (o.m19 ? 1 : 0) } }", 1),
		udf("equalities-in-one-statement-loop", "function f(m) { var o = {}, n, k = 'a'; for (;;) { n = o.m0 == k, o.m1 == k, o.m2 == k, o.m3 == k, o.m4 == k, o.m5 == k, o.m6 == k, o.m7 == k, o.m8 == k, o.m9 == k, o.m10 == k, o.m11 == k, o.m12 == k, o.m13 == k, o.m14 == k, o.m15 == k, o.m16 == k, o.m17 == k, o.m18 == k, o.m19 == k } }", 1),
		udf("templates-in-one-statement-loop", "function f(m) { var n, k = 'a'; for (;;) { n = `${k}${k}${k}${k}${k}${k}${k}${k}${k}${k}${k}${k}${k}${k}${k}${k}${k}${k}${k}${k}` } }", 1),
		udf("negations-in-one-statement-loop", "function f(m) { var n, k = 'a'; for (;;) { n = -k, -k, -k, -k, -k, -k, -k, -k, -k, -k, -k, -k, -k, -k, -k, -k, -k, -k, -k, -k } }", 1),
		udf("prototype-creates-in-one-statement-loop", "function f(m) { var p = {}; for (var i = 0; i < 28; i++) p = Object.create(p); var n; for (;;) { n = [Object.create(p), Object.create(p), Object.create(p), Object.create(p), Object.create(p), Object.create(p), Object.create(p), Object.create(p), Object.create(p), Object.create(p), Object.create(p), Object.create(p), Object.create(p), Object.create(p), Object.create(p), Object.create(p), Object.create(p), Object.create(p), Object.create(p), Object.create(p)] } }", 1),
		udf("prototype-sets-in-one-statement-loop", "function f(m) { var p = {}; for (var i = 0; i < 28; i++) p = Object.create(p); var o = {}, n; for (;;) { n = [Object.setPrototypeOf(o, p), Object.setPrototypeOf(o, p), Object.setPrototypeOf(o, p), Object.setPrototypeOf(o, p), Object.setPrototypeOf(o, p), Object.setPrototypeOf(o, p), Object.setPrototypeOf(o, p), Object.setPrototypeOf(o, p), Object.setPrototypeOf(o, p), Object.setPrototypeOf(o, p), Object.setPrototypeOf(o, p), Object.setPrototypeOf(o, p), Object.setPrototypeOf(o, p), Object.setPrototypeOf(o, p), Object.setPrototypeOf(o, p), Object.setPrototypeOf(o, p), Object.setPrototypeOf(o, p), Object.setPrototypeOf(o, p), Object.setPrototypeOf(o, p), Object.setPrototypeOf(o, p)] } }", 1),
		udf("constructs-in-one-statement-loop", "function f(m) { var p = {}; for (var i = 0; i < 28; i++) p = Object.create(p); function F() {} F.prototype = p; var n; for (;;) { n = [Reflect.construct(Object, [], F), Reflect.construct(Object, [], F), Reflect.construct(Object, [], F), Reflect.construct(Object, [], F), Reflect.construct(Object, [], F), Reflect.construct(Object, [], F), Reflect.construct(Object, [], F), Reflect.construct(Object, [], F), Reflect.construct(Object, [], F), Reflect.construct(Object, [], F), Reflect.construct(Object, [], F), Reflect.construct(Object, [], F), Reflect.construct(Object, [], F), Reflect.construct(Object, [], F), Reflect.construct(Object, [], F), Reflect.construct(Object, [], F), Reflect.construct(Object, [], F), Reflect.construct(Object, [], F), Reflect.construct(Object, [], F), Reflect.construct(Object, [], F)] } }", 1),
		udf("constructor-calls-in-one-statement-loop", "function f(m) { var p = {}; for (var i = 0; i < 28; i++) p = Object.create(p); function F() {} F.prototype = p; var n; for (;;) { n = [new F(), new F(), new F(), new F(), new F(), new F(), new F(), new F(), new F(), new F(), new F(), new F(), new F(), new F(), new F(), new F(), new F(), new F(), new F(), new F()] } }", 1),
		udf("prototype-reads-in-one-statement-loop", "function f(m) { var o = {}, n; for (;;) { n = [Object.getPrototypeOf(o), Object.getPrototypeOf(o), Object.getPrototypeOf(o), Object.getPrototypeOf(o), Object.getPrototypeOf(o), Object.getPrototypeOf(o), Object.getPrototypeOf(o), Object.getPrototypeOf(o), Object.getPrototypeOf(o), Object.getPrototypeOf(o), Object.getPrototypeOf(o), Object.getPrototypeOf(o), Object.getPrototypeOf(o), Object.getPrototypeOf(o), Object.getPrototypeOf(o), Object.getPrototypeOf(o), Object.getPrototypeOf(o), Object.getPrototypeOf(o), Object.getPrototypeOf(o), Object.getPrototypeOf(o)] } }", 1),
		udf("array-tests-in-one-statement-loop", "function f(m) { var o = {}, n; for (;;) { n = [Array.isArray(o), Array.isArray(o), Array.isArray(o), Array.isArray(o), Array.isArray(o), Array.isArray(o), Array.isArray(o), Array.isArray(o), Array.isArray(o), Array.isArray(o), Array.isArray(o), Array.isArray(o), Array.isArray(o), Array.isArray(o), Array.isArray(o), Array.isArray(o), Array.isArray(o), Array.isArray(o), Array.isArray(o), Array.isArray(o)] } }", 1),
		udf("own-tests-in-one-statement-loop", "function f(m) { var o = {a: 1}, n; for (;;) { n = [o.hasOwnProperty('a'), o.hasOwnProperty('a'), o.hasOwnProperty('a'), o.hasOwnProperty('a'), o.hasOwnProperty('a'), o.hasOwnProperty('a'), o.hasOwnProperty('a'), o.hasOwnProperty('a'), o.hasOwnProperty('a'), o.hasOwnProperty('a'), o.hasOwnProperty('a'), o.hasOwnProperty('a'), o.hasOwnProperty('a'), o.hasOwnProperty('a'), o.hasOwnProperty('a'), o.hasOwnProperty('a'), o.hasOwnProperty('a'), o.hasOwnProperty('a'), o.hasOwnProperty('a'), o.hasOwnProperty('a')] } }", 1),
		udf("char-codes-in-one-statement-loop", "function f(m) { var s = 'abc', n; for (;;) { n = [s.charCodeAt(1), s.charCodeAt(1), s.charCodeAt(1), s.charCodeAt(1), s.charCodeAt(1), s.charCodeAt(1), s.charCodeAt(1), s.charCodeAt(1), s.charCodeAt(1), s.charCodeAt(1), s.charCodeAt(1), s.charCodeAt(1), s.charCodeAt(1), s.charCodeAt(1), s.charCodeAt(1), s.charCodeAt(1), s.charCodeAt(1), s.charCodeAt(1), s.charCodeAt(1), s.charCodeAt(1)] } }", 1),
		udf("floors-in-one-statement-loop", "function f(m) { var x = 1.5, n; for (;;) { n = [Math.floor(x), Math.floor(x), Math.floor(x), Math.floor(x), Math.floor(x), Math.floor(x), Math.floor(x), Math.floor(x), Math.floor(x), Math.floor(x), Math.floor(x), Math.floor(x), Math.floor(x), Math.floor(x), Math.floor(x), Math.floor(x), Math.floor(x), Math.floor(x), Math.floor(x), Math.floor(x)] } }", 1),
		udf("computed-member-rest-long-key-loop", "function f(m) { var t = 'x'.repeat(8e6), h = {}, o = {}, k = 'r'; for (var i = 0; i < 20; i++) h['p' + i] = i; h[t] = 1; for (;;) [{...o[k]}] = [h] }", 1),
		udf("typed-subclass-super-computed-loop", "function f(m) { var s = '1'.repeat(4e6); class T extends Float64Array { g() { var k = 0; for (;;) super[k] = s } } new T(1).g() }", 1),
		udf("typed-array-add-assign-loop", "function f(m) { var s = '1'.repeat(4e6), ta = new Float64Array(1), k = 0; for (;;) ta[k] += s }", 1),
		// A name of 60,000 characters read at each iteration of the
		// top-level code of five transforms: an engine that hashes it at
		// each read spends its time there, not in the loop.
		Case{Name: "transform/long-names-per-transform", Op: "transform", Body: func() []byte {
			code := "var o = {};\nfor (var i = 0; i < 20; i++) o['p' + i] = i;\nfor (var j = 0; j < 49000; j++) o." + strings.Repeat("n", 60000) + ";\nfunction f(m) { return m }"
			return transformsRequest([]string{code, code, code, code, code}, 1)
		}},
		udf("large-loop-body", "function f(m) { var x; for (;;) { "+strings.Repeat("x = 1; ", 5000)+"} }", 1),
		// A string method given an object for this, and positions that
		// split and Array.prototype's methods on an array-like convert
		// themselves: 300 trims of 8 MB through
		// an object's toString ran 1.9 s natively uncharged.
		udf("string-method-object-this", "function f(m) { var s = ' '.repeat(8e6) + 'x', w = {toString: function () { return s }}; return {data: String(["+repeatList("String.prototype.trim.call(w)", 300)+"].length)} }", 1),
		// Built-ins whose work per character was charged far below its
		// cost: 150 parseFloat of 10,000 digits
		// ran 4.2 s in js/wasm, normalize of 1.5 million characters
		// outside ASCII 3.7 s; the encodings and decodings of a text they
		// keep were not charged at all.
		udf("parse-float-in-a-loop", "var d = '1'.repeat(1e4);\nfunction f(m) { for (var i = 0; i < 150; i++) parseFloat(d); return m }", 1),
		udf("normalize-outside-ascii", "function f(m) { var d = '\u00c5'.repeat(1.5e6); return {data: d.normalize('NFD')} }", 1),
		udf("locale-compare-long", "function f(m) { var d = 'a'.repeat(7.5e5), e = 'a'.repeat(7.5e5); return {data: String(d.localeCompare(e))} }", 1),
		udf("codings-in-one-statement", "function f(m) { var d = '1'.repeat(1.5e6); return {data: String(["+repeatList("encodeURIComponent(d), unescape(d)", 150)+"].length)} }", 1),
		// exec builds its result (an array with index, input and the
		// groups): at a step a call, 24,000 with a named group ran 2 s
		// in js/wasm (scripts/hostile --wasm).
		udf("exec-named-group-loop", "function f(m) { var re = /(?<x>b)/g, s = 'ab'.repeat(100); for (;;) { re.lastIndex = 0; re.exec(s) } }", 1),
		// A loop of nothing but a built-in's call: 20-150 us a call in
		// js/wasm at a step each ran 1.2-2.2 s there; a call now costs builtinSteps, JSON's more.
		udf("builtin-call-loop", "function f(m) { var j = '{\"a\":1,\"b\":[1,2],\"c\":\"x\"}'; for (;;) JSON.parse(j) }", 1),
		udf("positions-of-array-likes", "function f(m) { var s = '1'.repeat(4e6), o = {valueOf: function () { return s }}, al = {length: 1}, q = {toString: function () { return 'x' }}; return {data: String(["+repeatList("Array.prototype.at.call(al, o), 'x'.split(q, o)", 150)+"].length)} }", 1),
		// A pattern made at run time: one of 8 million characters took
		// 3.5 s and 790 MB to compile natively.
		udf("regexp-long-pattern", "function f(m) { return {data: String(new RegExp('x'.repeat(8e6)).test(m.data))} }", 1),
		udf("regexp-patterns-in-one-statement", "function f(m) { var s = 'x'.repeat(65536); return {data: String(["+repeatList("new RegExp(s)", 300)+"].length)} }", 1),
		udf("typed-from-length", "function f(m) { new Float64Array({length: 3e8}); return m }", 1),
		udf("repeat-huge", "function f(m) { return {data: 'x'.repeat(2147483647)} }", 2),
		udf("array-fill-huge", "function f(m) { new Array(4294967295).fill(1) }", 2),
		udf("array-push", "function f(m) { var a = []; for (;;) a.push({a: a.length}) }", 1),
		udf("prototype-tampering", "Object.defineProperty(Object.prototype, 'data', {get: function () { for (;;) {} }});\n"+
			"Array.prototype.join = function () { for (;;) {} };\nJSON.stringify = function () { return 1 };\n"+
			"function f(m) { return {attributes: {}} }", 3),
		udf("getter-result", "function f(m) { return {get data() { for (;;) {} }} }", 2),
		udf("proxy-result", "function f(m) { return new Proxy({}, {ownKeys: function () { for (;;) {} }}) }", 2),
		udf("eval", "function f(m) { return eval('for(;;){}') }", 2),
		udf("function-constructor", "function f(m) { return (function () {}).constructor('for(;;){}')() }", 2),
		udf("deep-nesting", "function f(m) { return "+strings.Repeat("[", 100000)+strings.Repeat("]", 100000)+" }", 1),
		udf("long-chain", "function f(m) { return m"+strings.Repeat("+1", 30000)+" }", 1),
		// A catastrophic pattern on goja's backtracking engine, whose
		// time-out cannot fire in js/wasm: refused before it runs, made at
		// run time or sent there by text outside ASCII.
		udf("regexp-lookahead-runtime", "function f(m) { return new RegExp('(a+)+(?=b)').test('a'.repeat(5000) + '!') ? m : null }", 3),
		udf("regexp-non-ascii-global", "function f(m) { return {data: ('a'.repeat(5000) + '!\u00e9').replace(/(a+)+$/g, 'x')} }", 3),
		// One call that would build a product-sized string.
		udf("replace-product", "function f(m) { return {data: 'a'.repeat(1e6).replace(/a/g, 'b'.repeat(1e6))} }", 2),
		udf("template-product", "var s = 'x'.repeat(16e6);\nfunction f(m) { return {data: `${s}${s}${s}${s}${s}${s}${s}${s}`} }", 1),
		udf("huge-code", "function f(m) { return m }\n//"+strings.Repeat("x", 3<<20), 1),
		// Chains that make the engine's parser or compiler recurse with no
		// bracket: in WebAssembly each ended the Go instance (stack
		// overflow), 400 += in 2 KB.
		udf("plus-assign-chain", "function f(m) { var a = 0; "+strings.Repeat("a += ", 12_000)+"1; return m }", 1),
		udf("plus-assign-short", "function f(m) { var a = 0; "+strings.Repeat("a += ", 400)+"1; return m }", 1),
		udf("not-chain", "function f(m) { return "+strings.Repeat("!", 60_000)+"m }", 1),
		udf("if-chain", "function f(m) { "+strings.Repeat("if (m) ", 9_000)+"return m }", 1),
		udf("member-chain", "function f(m) { return m"+strings.Repeat(".a", 30_000)+" }", 1),
		udf("regexp-groups", "function f(m) { return /"+strings.Repeat("(", 30_000)+strings.Repeat(")", 30_000)+"/.test('') ? m : m }", 1),
		// goja copies a text outside ASCII whole for each search from past
		// its start, and split searches at every position (FuzzUDF); with
		// a surrogate pair and no u flag the sandbox's split still does.
		// Without one it goes through the text once (splitFast).
		udf("split-wide-text", "function f(m) { ('😀' + 'ab'.repeat(1e5)).split(/b/); return m }", 1),
		udf("split-wide-text-bmp", "function f(m) { ('é' + 'ab'.repeat(1e5)).split(/b/); return m }", 1),
		udf("replace-wide-text", "function f(m) { ('é' + 'ab'.repeat(1e5)).replace(/b/g, 'c'); return m }", 1),
	)
	for _, u := range AtBound {
		add(udf(u.Name, u.Code, 1))
	}
	for _, u := range DeepAtRun {
		add(udf(u.Name, u.Code, 1))
	}
}

// repeatList is n copies of expr, separated by commas.
func repeatList(expr string, n int) string {
	return strings.TrimSuffix(strings.Repeat(expr+",", n), ",")
}
