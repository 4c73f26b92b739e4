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

// UDFPatternChars bounds the pattern a UDF makes a regular expression
// from at run time (new RegExp, RegExp.prototype.compile, and match,
// matchAll or search given a string), as long as a literal in its code
// may be: the engine's compilers allocate 120-220 bytes per character of a
// pattern (one of 8 million characters took 3.5 s and 790 MB natively).
const UDFPatternChars = UDFCodeBytes

// UDFNesting bounds how deeply a UDF's code nests, in levels of brackets.
// The engine's parser and compiler recurse on brackets and on chains of
// operators and statements, and in WebAssembly their recursion uses the
// host's stack: past about 1,100 brackets in Node 20 and workerd the Go
// instance dies, past about 550 in a Chromium worker. A flat scan before
// parsing (core/transform's depth.go) counts a bracket as one level and
// each link of a chain as its measured share of one (an assignment or a
// "!" half a level, a member access an eighth).
const UDFNesting = 200

// UDFNestingChecked bounds the same depth once the engine has added its
// checks around + and += (three brackets each). Chromium gives a worker
// (where the page runs the core) about half of Node's stack: there the
// instance died past about 550 brackets, 1,100 assignments, 4,000 "!",
// about 4,400 of the scan's units; 275 levels (2,200 units) keeps half of
// that (site/test's TestDeepUDFsInTheWorker runs UDFs at the bound there).
const UDFNestingChecked = 275

// UDFCallSteps bounds the work of one call of a UDF (running its top-level
// code once, or calling the function on one message), in steps: one step is
// one loop iteration or one function call in the UDF's code, or an item a
// spread or a built-in that goes through many (Array.from, sort, the Set
// constructor...) would go through, charged before it runs. It is counted,
// not timed, so the verdict is the same on every machine and every entry.
const UDFCallSteps = 50_000

// UDFRequestSteps bounds the steps of every call of one request together
// (up to 5 UDFs on up to SampleMessages messages): past it the remaining
// messages are not run and a finding says so.
const UDFRequestSteps = 250_000

// UDFCallSeconds is the time-out of a backtracking regular expression
// (regexp2's, which fires natively but not in js/wasm), and a call that runs
// longer than it gets a warning that its result may be wrong, is stopped at
// its next step, and ends the request's calls (later ones are not run), so
// a request costs about one time-out however many messages it has. Steps, not
// time, stop a UDF, so that every entry gives one verdict; this is the net
// for work without steps, generous because a loaded machine is slow.
const UDFCallSeconds = 10

// UDFPrototypeDepth bounds how many objects a UDF's object may inherit
// through (itself, its prototype, that one's... up to Object.prototype):
// goja reads every link on each property an object does not hold, and no
// step counts the links, so a chain of 20,000 read in a loop ran until the
// 10 s net natively and in js/wasm. Ordinary code stays far below it (a
// class hierarchy of ten levels is about twelve).
// Each way of making or changing a link is checked (see guards.linked):
// past the bound the call is refused (TestChainsRefused,
// TestChainsAtTheBound).
const UDFPrototypeDepth = 32

// UDFCallStack bounds the depth of JavaScript calls (recursion).
const UDFCallStack = 500

// UDFCallAllocBytes bounds what one call may allocate, measured as the
// growth of the process's allocation counter at every step (Go cannot count
// per goroutine, so in a busy server other requests' allocations count too:
// the bound is generous for that reason). Sample messages come in a text
// of at most DocumentBytes, and goja's values are large: a UDF that parses
// a 900 KiB JSON message, changes each of its items and stringifies it
// allocated 53 MiB (45.6 MiB without the loop) natively; TestLargeMessageFits
// runs such a UDF on a message near DocumentBytes. So the largest messages
// leave little room:
// a UDF that copies such a message a few more times is stopped.
//
// That is the most a call gets: its budget is UDFCallAllocBase plus
// UDFCallAllocPerByte for each byte of its input (the message's data and
// attributes; the code, for the top-level run), up to UDFCallAllocBytes,
// so that what a call may hold grows with what it was given, as every
// other cost of subplay does. A few bytes do not buy 64 MiB: a UDF that
// kept 1 MiB strings from a one-character message until its budget
// stopped it grew the extra worker's Go instance to 86 MB, and kept that
// worker's process over 300 MB under scripts/load-edge.
//
// The calls of one request together may allocate what one call on all
// their inputs together may (the same formula on the sum of the inputs):
// with a fresh budget each, five one-byte messages each given a loop that
// allocated 31 MB took 3 s in js/wasm.
const UDFCallAllocBytes = 64 << 20

// UDFCallAllocBase is the allocation budget of a call on an empty
// message: the calls of the test suite's ordinary UDFs allocate 864 bytes
// at the median and 39 KB at the 90th percentile; 32 MiB leaves a loop of
// UDFCallSteps iterations room for an object and a string each.
const UDFCallAllocBase = 32 << 20

// UDFCallAllocPerByte is what each byte of a call's input adds to its
// budget: JSON.parse, an edit of each item and JSON.stringify of a
// 946,245-byte message allocated 60.4 MiB (TestLargeMessageFits); at 48 a
// byte such a message gets the whole UDFCallAllocBytes.
const UDFCallAllocPerByte = 48

// UDFCallAllocFullInput is the input (in bytes) from which a call gets the
// whole UDFCallAllocBytes: 699,051 bytes.
const UDFCallAllocFullInput = (UDFCallAllocBytes-UDFCallAllocBase)/UDFCallAllocPerByte + 1

// UDFStringBytes bounds the result of one built-in call that builds a string
// from a count or from many pieces (String.prototype.repeat, padStart,
// padEnd, concat, replace, Array.prototype.join), of one + or += that joins
// strings, and, in bytes, of an ArrayBuffer or a typed array made from a
// count, checked before it allocates: a single call could
// otherwise ask for gigabytes at once, and one + after a check of the
// allocations so far could take a call to twice its budget. It is
// the service's largest message (10 MB) plus room.
const UDFStringBytes = 16 << 20

// UDFBacktrackPaths bounds a call of a regular expression that goja would
// run on its backtracking engine (regexp2, whose only bound is a time-out
// that js/wasm cannot fire): the number of paths that engine could try,
// counted as (n+1)^(q+1) times the alternatives for q quantifiers on a
// text of n characters. Past it, or for a quantifier over a group with a
// quantifier or an alternation in it, the call is refused; a pattern only
// that engine runs (lookarounds, backreferences) is refused always.
const UDFBacktrackPaths = 10_000_000

// UDFJSONNesting bounds how deeply the built-ins that recurse in Go may
// nest in a UDF, together, in levels of JSON: the text given to
// JSON.parse, the value given to JSON.stringify, arrays joined (join,
// toString, String(array), toLocaleString) or flattened (flat), and the
// groups of a pattern compiled at run time (new RegExp). Each level is
// Go's recursion, which no call of the UDF's counts, and in WebAssembly
// Go's recursion uses the host's stack, of which Chromium gives the page's
// worker about half of what Node has. Measured there (the transforms
// panel, the bound at 1,000 for JSON and for joins apart): the instance
// died past about 220 levels of join (past 100-150 under 160 levels of
// recursion through map), past 300-1,000 of
// toLocaleString, 4,000-45,000 of flat, 5,000-20,000 groups of a pattern;
// JSON.stringify and JSON.parse (with a reviver too) of 998 levels under
// that recursion held, and stringify of 998 with a join of 64 levels at
// the bottom did not. Counted together, and a level of join as
// UDFJoinLevel, every such stack stays under what held. A message nests
// a few levels; V8 stops at its stack's end, some thousands. TestBuilders
// holds the bound, and site/test's TestDeepUDFsInTheWorker runs UDFs that
// recurse past it in the page's worker.
const UDFJSONNesting = 640

// UDFJoinLevel is what one level of join, toString or toLocaleString over
// nested arrays counts against UDFJSONNesting: a level of join took about
// ten times the stack of a level of JSON.stringify (above), so joins alone
// nest at most 64 deep.
const UDFJoinLevel = 10

// UDFJSONBytes bounds what one JSON.stringify in a UDF writes, reckoned
// before it writes each value. goja writes JSON a character at a time:
// 8 MiB of it took 1.1 s in Node (js/wasm), past the 1 s a hostile input
// may cost. Sample messages come in a document of at most DocumentBytes
// (1 MiB), and one written back as JSON, even with an indent, stays well
// under 4 MiB.
const UDFJSONBytes = 4 << 20

// UDFSplitPieces bounds the pieces of one split made outside a call's
// steps (none is, today): within a call each piece is a step, as the items
// of the bulk built-ins are, and the steps left bound a split first.
const UDFSplitPieces = 1 << 20

// UDFBigIntBits bounds the BigInt a *, ** or << in a UDF may make, and
// BigInt.asIntN's and asUintN's sizes; a BigInt made from a text may have
// at most UDFBigIntBits/3 characters. math/big computes each in one Go
// call that no step can stop (1n << 4000000000n allocated 500 MB, 3n **
// 30000000n took 2.6 s, squaring in a loop 12.8 s, BigInt of a million
// digits 2.4 s), and writes one as text in time that grows faster than
// its size, where the engine writes it (a template, a + with a string, a
// key, String, join...): 262,144 bits took 50 ms in js/wasm and 11
// natively, 1,024 bits 34 µs and 7 (a loop writing one of 2^18 bits ran
// 1.2 s natively before the allocation budget stopped it). Where subplay
// sees the text written it charges a step per 64 bits; 2^10 bits (308
// decimal digits) keeps what it cannot see (String(b), Symbol(b), an
// Error's message) near a light step's cost, and is far past the 64 or 128
// bits of any number a message carries. TestBigIntTextCharged holds the charge and the bound.
const UDFBigIntBits = 1 << 10

// UDFCacheEntries and UDFCacheBytes bound the cache of compiled UDFs (the
// page validates on every keystroke; unchanged code is not compiled
// again): at most this many UDFs, holding at most this many bytes of code
// together (a compiled program takes several times its code).
const (
	UDFCacheEntries = 32
	UDFCacheBytes   = 256 << 10
)

// The bounds below are those of the QuickJS-ng engine (core/jsengine, built
// with -tags quickjs), which keeps them inside the engine: none depends on a
// browser's stack or on how fast the machine is, but UDFCallMillis, the net
// under the others.

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
// (core/jsengine instancePages), and natively wazero copies the instance's
// memory as it grows, so a process holds up to about twice this for a
// moment (core/playground TestHostile with -tags quickjs).
const UDFMemoryBytes = 64 << 20

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
