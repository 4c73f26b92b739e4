package limits

// The bounds of the JavaScript transform engine (core/transform). The
// service documents none of these for its UDFs that subplay could find (no
// code size, no time-out, no memory figure; only "at most 5 enabled
// transforms", which core/subscription checks), so each is subplay's own,
// chosen so that any UDF written for the documented purpose (light edits of
// one message) runs far inside it, and a hostile one stops with a finding
// instead of holding a browser tab or an edge worker.

// UDFCodeBytes bounds the code of one JavaScript UDF. A transform that edits
// one message is a few hundred bytes; 64 KiB leaves room for a pasted helper
// library and keeps parsing a hostile text short.
const UDFCodeBytes = 64 << 10

// UDFCacheEntries and UDFCacheBytes bound the cache of compiled UDFs (the
// page validates on every keystroke; unchanged code is not compiled
// again): at most this many UDFs, holding at most this many bytes of code
// together (a compiled program takes several times its code).
const (
	UDFCacheEntries = 32
	UDFCacheBytes   = 256 << 10
)

// The bounds below are kept inside the engine (QuickJS-ng, core/jsengine):
// none depends on a browser's stack or on how fast the machine is, but
// UDFCallMillis, the net under the others.

// UDFCallInterrupts bounds one call of a UDF (its top-level code, or the
// function on one message) in the engine's own unit: QuickJS-ng asks the
// host whether to go on after about every 10,000 function calls and loop
// iterations, and a regular expression's matcher asks as it backtracks. The
// count, not a clock, makes the verdict the same on every machine and
// surface, as long as the count is met well before the time net
// (UDFCallMillis): 1,000 polls are some ten million loop iterations, which
// an endless loop meets in about a quarter of a second natively on an idle
// machine (core/transform TestPatterns' top-level loop; at 2,000 a loaded
// machine met the time net first). Sorting 6,000 records, parsing a
// 20,000-line CSV and re-serialising 1 MB of JSON each take a small part
// of it (the batch cases of core/transform TestAgreesWithV8).
const UDFCallInterrupts = 1_000

// UDFRequestInterrupts bounds all the calls of one request together, so
// that many sample messages cannot multiply UDFCallInterrupts: the messages
// after it are not run, with a finding.
const UDFRequestInterrupts = 4 * UDFCallInterrupts

// UDFCallMillis is the net under UDFCallInterrupts for work the engine does
// between two polls: its built-ins (JSON.parse and JSON.stringify, sort,
// a regular expression's replace over a long text) and a garbage collection
// that runs again and again as the heap nears UDFMemoryBytes. It is the one
// bound that depends on the machine, so it sits well above what real batch
// work takes: re-serialising 1 MB of JSON, parsing a 20,000-line CSV or
// redacting 500 KB of log take 0.6-1.8 s natively at a load average of 4
// (core/transform TestAgreesWithV8 runs them with the clock bounds
// scaled). Hostile allocation meets it: the engine's collector slows to a
// crawl near its limit. One second is the bound every hostile class must
// meet, so the heaviest batch work sits close to it natively on a loaded
// machine: the price of an interpreter.
const UDFCallMillis = 1_000

// UDFRequestMillis bounds the wall-clock time of all the calls of one
// request, under the same reasoning as UDFCallMillis.
const UDFRequestMillis = 3_000

// UDFMemoryBytes is the engine's memory limit for one UDF in one request
// (its runtime's objects, strings and code): QuickJS-ng throws "out of
// memory" past it. Every batch case of TestAgreesWithV8 runs within it,
// re-serialising 1 MB of JSON among them; the instance that holds the
// runtime is bounded a little above it
// (core/jsengine InstancePages), reserved at that size natively so that
// growing it copies nothing (core/playground TestHostile).
const UDFMemoryBytes = 64 << 20

// UDFStackBytes is the engine's stack limit: a call past it throws a
// RangeError, "Maximum call stack size exceeded", which the UDF can catch,
// as in V8. 64 KiB is about 370 levels of plain recursion and 100 through
// a callback of a built-in (Array.prototype.map), against about 10,000 in
// V8 (the recursion cases of core/transform's testdata/v8/EXCEPTIONS).
// It is this small because in the browser and in workerd the engine's
// frames also take the host's own stack, which the engine does not count,
// at up to six times what they take of the engine's (JSON.parse of deep
// nesting): measured as js/wasm in Node with V8's stack set to 492 KB, about
// what Chromium gives a worker, every deep case (recursion, recursion
// through map, JSON.parse of 5 million brackets, String of 45,000 nested
// arrays) met the engine's RangeError at 64 KiB, and at 128 KiB the host's
// stack ran out first, which ends the instance (a udf-budget finding, never
// a crash). So that every surface gives one verdict, the bound is the one
// the smallest host holds; natively 2 MiB would hold (about 11,900 levels).
const UDFStackBytes = 64 << 10

// UDFArrayWalk bounds the length an array method that walks every index
// (sort, forEach, indexOf, join, concat and their kin) may be called on:
// past it the call throws a RangeError. The engine's own loops in those
// methods do not poll its interrupt handler, so on a sparse array of
// length 2^32 - 1 one call ran for minutes, past every bound but the
// host's own time-out (core/playground/hostile's sparse-sort). 16,777,216
// is twice the elements UDFMemoryBytes could hold in a dense array, so no
// array a UDF can fill meets it.
const UDFArrayWalk = 1 << 24

// UDFConsoleLines and UDFConsoleBytes bound what console.log and its kin
// keep of one call: the first lines, each cut to UDFConsoleBytes.
const (
	UDFConsoleLines = 20
	UDFConsoleBytes = 500
)
