package limits

// The bounds of the JavaScript transform engine (core/transform, on
// QuickJS-ng through core/jsengine). The service documents none of these
// for its UDFs that subplay could find (no code size, no time-out, no
// memory figure; only "at most 5 enabled transforms", which
// core/subscription checks), so each is subplay's own, chosen so that a UDF
// written for the documented purpose, batch work on a megabyte message
// included, runs far inside it, and a hostile one stops with a finding
// within a second instead of holding a browser tab or an edge worker. Every
// bound is enforced inside the engine: none depends on a browser's stack or
// on how fast the machine is, but UDFCallMillis, the net under the others.

// UDFCodeBytes bounds the code of one JavaScript UDF. A transform that edits
// one message is a few hundred bytes; 64 KiB leaves room for a pasted helper
// library and keeps parsing a hostile text short.
const UDFCodeBytes = 64 << 10

// UDFCallInterrupts bounds one call of a UDF (its top-level code, or the
// function on one message) in the engine's own unit: QuickJS-ng asks the
// host whether to go on after about every 10,000 function calls and loop
// iterations, and a regular expression's matcher asks as it backtracks. The
// count, not a clock, makes the verdict the same on every machine and
// surface. 2,000 polls are some twenty million loop iterations: sorting
// 6,000 records, parsing a 20,000-line CSV and re-serialising 1 MB of JSON
// each take under a tenth of it (core/transform TestBatchWork), and an
// endless loop meets it in about half a second natively
// (core/transform TestHostileStops).
const UDFCallInterrupts = 2_000

// UDFRequestInterrupts bounds all the calls of one request together, so
// that many sample messages cannot multiply UDFCallInterrupts: the messages
// after it are not run, with a finding.
const UDFRequestInterrupts = 4 * UDFCallInterrupts

// UDFCallMillis is the net under UDFCallInterrupts for work the engine does
// between two polls: a garbage collection that runs again and again as the
// heap nears UDFMemoryBytes, or a built-in that loops over a huge
// array-like object without polling. Only hostile code meets it; the finding
// says the time ran out, the one verdict that depends on the machine.
const UDFCallMillis = 800

// UDFRequestMillis bounds the wall-clock time of all the calls of one
// request, under the same reasoning as UDFCallMillis.
const UDFRequestMillis = 2_000

// UDFMemoryBytes is the engine's memory limit for one UDF in one request
// (its runtime's objects, strings and code): QuickJS-ng throws "out of
// memory" past it. Re-serialising a 1 MB JSON message takes about a tenth
// of it; the instance that holds the runtime is bounded a little above it
// (core/jsengine instancePages).
const UDFMemoryBytes = 128 << 20

// UDFStackBytes is the engine's stack limit: a call past it throws a
// RangeError, "Maximum call stack size exceeded", which the UDF can catch,
// as in V8. 256 KiB is about 1,400 levels of plain recursion and 400
// through a callback of a built-in (Array.prototype.map, a JSON reviver).
// The engine's frames also take the host's own stack, which it does not
// count: 256 KiB stays under what the smallest host we run in gives, with
// room to spare (core/jsengine TestStackWithinHost; a host's own overflow
// is still caught and reported, never a crash).
const UDFStackBytes = 256 << 10

// UDFConsoleLines and UDFConsoleBytes bound what console.log and its kin
// keep of one call: the first lines, each cut to UDFConsoleBytes.
const (
	UDFConsoleLines = 20
	UDFConsoleBytes = 500
)

// The cache of UDF syntax checks: validate checks each UDF's code on every
// keystroke, and the code rarely changed between two.
const (
	UDFCacheEntries = 32
	UDFCacheBytes   = 256 << 10
)
