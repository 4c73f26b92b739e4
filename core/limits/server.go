package limits

// Bounds of the HTTP API (core/httpapi), natively (subplay serve) and in
// the worker; the body limit is RequestBytes (request.go). Durations are
// in milliseconds, since this package imports nothing (not even time).

// HTTPMaxHeaderBytes bounds the request line and headers: the API reads
// only Content-Type, Content-Length and CORS headers, so 64 KiB is ample
// and far below net/http's default of 1 MiB.
const HTTPMaxHeaderBytes = 64 << 10

// HTTPReadHeaderMillis is how long a client may take to send its request
// line and headers: a slow-header (slowloris) client holds a connection
// for at most this long.
const HTTPReadHeaderMillis = 5_000

// HTTPReadMillis is how long a client may take to send a whole request,
// body included: the largest body (RequestBytes, 4 MiB) over a 4 Mbit/s link
// takes about 8 s.
const HTTPReadMillis = 15_000

// HTTPWriteMillis bounds the time from the end of the request headers to
// the end of the response. It must exceed the queue wait plus the
// operation's time limit, so that an answer in time is never cut off.
const HTTPWriteMillis = HTTPReadMillis + HTTPQueueWaitMillis + HTTPOperationMillis

// HTTPIdleMillis is how long a kept-alive connection may wait for its next
// request before the server closes it.
const HTTPIdleMillis = 60_000

// HTTPOpsPerCPU sizes the bound on operations running at once: this many
// per CPU the Go runtime may use (GOMAXPROCS). Operations are pure
// computation, so more of them than CPUs only share the CPUs more thinly;
// two per CPU keep every CPU busy while one request is being read or
// written.
const HTTPOpsPerCPU = 2

// HTTPLargeBody is the size from which a request body counts as large. An
// operation's cost grows with its input, and ordinary requests are a few
// KiB; large ones share a smaller pool of slots (HTTPLargeOpsPerCPU), so
// that a stream of large requests cannot take every CPU from small ones.
const HTTPLargeBody = 16 << 10

// HTTPLargeOpsPerCPU is the share of the CPUs that large requests may hold
// at once: one per two CPUs (at least one), leaving the rest to ordinary
// requests.
const HTTPLargeOpsPerCPU = 0.5

// HTTPCostlyMillis is the time from which a native operation counts as
// costly: a request class (operation and body size) whose recent calls
// each took this long shares the large pool (HTTPLargeOpsPerCPU) with
// large bodies. Ordinary requests take well under a millisecond; the
// hostile corpus's small costly ones (UDFs stopped by their step budget)
// take 30-100 ms.
const HTTPCostlyMillis = 20

// HTTPQueueWaitMillis is how long a request waits for a free slot before
// it is answered 503 with code "busy" and a Retry-After: long enough to
// ride out a burst, short enough that a client learns quickly the server
// is saturated.
const HTTPQueueWaitMillis = 2_000

// HTTPRetryAfterSeconds is the Retry-After of a "busy" answer.
const HTTPRetryAfterSeconds = 1

// HTTPOperationMillis is the time limit of one operation. Every operation
// on an input within RequestBytes should take well under a second; one that
// runs longer is answered 503 with code "timeout". Go cannot stop a running
// computation from outside, so its slot stays taken until it really ends:
// the bound on running operations still holds.
const HTTPOperationMillis = 10_000

// HTTPCostlyNice is the priority (nice, 0 to 19; higher yields more) at
// which a native server on Linux runs a costly operation (one that holds
// a slot of the large pool): on an OS thread of its own, lowered for it,
// so that ordinary requests get the cores first when both are busy. With
// two cores, one held by costly work, ordinary requests' p95 rose 3.4-4.2
// times under scripts/load-edge's hostile load (1.0-1.1 ms alone, 4.2-4.3
// loaded); at nice 10, 3.2-3.3 times; at 19, 2.4-2.5 (2.7 ms loaded), with
// the collector's pauses shorter too and no hostile answer turned into a
// time-out (scripts/load-edge, native target). 0 leaves the thread as it is; the
// environment's SUBPLAY_COSTLY_NICE sets another.
const HTTPCostlyNice = 19

// HTTPMemoryLimitMB is the soft memory limit (runtime/debug.SetMemoryLimit)
// of a native server, unless GOMEMLIMIT says otherwise: the garbage
// collector works harder near it, which keeps the process under the 300 MB
// that the load test allows.
const HTTPMemoryLimitMB = 200

// HTTPGCPercent is the garbage collector's target (runtime/debug.SetGCPercent,
// GOGC) of a native server, unless GOGC says otherwise: the heap may grow
// to five times what is live between two collections, not Go's default of
// twice, still held under HTTPMemoryLimitMB. Hostile requests allocate
// fast while little stays live (a UDF's discarded strings, a parser's
// trees): beside them at Go's default the server collected some 30 times a
// second, and every collection stops all goroutines twice, ordinary
// requests' included. With scripts/load-edge (native, -d 15s, three runs
// each, alternated in one run, on this project's two-core machine; session
// twenty) the ordinary p95 under hostile load was 4.0-4.4 ms at 100,
// 3.0-3.8 at 200 and 2.5-3.0 at 400 (ratios to unloaded 2.1-2.6, 1.5-1.8,
// 1.4-1.6), the collections in the loaded phase 29-35, 12-16 and 6-8 a
// second (the collector's CPU 2.0-2.2 s, 1.0-1.1 and 0.5 of the server's
// 24.5), and the peak RSS 129-143, 179-214 and 218-227 MB: the heap
// then reaches the soft limit, where the collector works harder, and the
// process stays under the load test's 300 MB.
const HTTPGCPercent = 400

// WorkerMemoryLimitMB is the soft memory limit of the Go instance in the
// worker (runtime/debug.SetMemoryLimit). A WebAssembly instance's memory
// only grows, so the heap's highest point, which the garbage collector
// lets reach twice the live heap by default, stays in the isolate for its
// life; Cloudflare allows an isolate 128 MB, JavaScript and the module
// included. Near this limit the collector runs more often instead.
const WorkerMemoryLimitMB = 64

// WorkerRetireMemoryMB is the size of a Go instance's WebAssembly memory
// past which the extra worker (the one the main worker forwards UDFs,
// Terraform and schemas to) retires the instance after a call: the next
// request starts a fresh one and the old one is dropped once its calls
// have ended, so that V8 can free its memory (Go cannot give WebAssembly
// memory back). Without it each costly request's peak stays, and peaks
// of different shapes add up (the heap fragments): the extra worker's
// instance grew from 22 MB to 157 MB over the hostile corpus. An instance
// starts at about 22 MB (the extra worker's module data and a small
// heap); the bound leaves ordinary requests inside it, and a fresh
// instance costs the next request some 25-35 ms (the first case of
// scripts/extra-memory took 31-43 ms, its like 6-10). Lower is better once
// retired instances are freed at once (the glue's sweepRetired): the
// extra process's peak over every case that reaches it, one at a time
// (scripts/extra-memory --retire N), was 354 MB at 64, 318 at 48, 296 at
// 40 and 281 at 32 (29 instances over 70 cases). 0 never retires.
const WorkerRetireMemoryMB = 32

// WorkerPauseLooks is how many of core/stop's looks (each after stop.Every
// items) a call makes in the worker between two pauses: 32 looks, 1,024
// items. A pause costs a JavaScript task and two goroutine switches, about
// 0.3 ms in workerd (BenchmarkWorkerdPause in core/httpapi); an ordinary request (a
// configuration, a few messages) makes far fewer looks and never pauses,
// while a costly one lets the isolate's other requests, and the news of its
// own client's departure, in every 1,024 items. The clock cannot set the
// pace instead: workerd's stands still while code runs. Work that makes no
// looks (a library's parser) holds the isolate until it is done:
// core/playground's BenchmarkHostile reports each hostile case's longest
// stretch between two pauses at this interval (hold-ms, scripts/hostile).
const WorkerPauseLooks = 32

// WorkerPauseBytes paces the pauses of work whose items are uneven, by
// what it allocates instead of by a count of items: a UDF call pauses
// (stop.Heavy) after every WorkerPauseBytes it allocates, besides every
// WorkerPauseLooks looks of its steps. A step may build a megabyte
// string: a UDF keeping such strings until its allocation budget stopped
// it made 196 steps, no pause at all, and held the extra worker for
// 200-500 ms while every UDF validation waited (scripts/load-edge with
// --body wasm/worker/edgebench/testdata/validate-udf.json: ordinary p95
// from 26 to 515 ms). Allocation measures the work where workerd's clock
// cannot. An ordinary call allocates far less (864 bytes at the median of
// the test suite's calls, 39 KB at the 90th percentile), so it never
// pauses for this. Natively there is no pause: the look is then a check
// of the client's cancellation every MiB.
const WorkerPauseBytes = 1 << 20

// WorkerCostlyShare is the share of an isolate's time that costly requests
// (see WorkerCostlyMillis) may take while other requests wait: one isolate
// runs one request at a time and cannot interrupt it, so everything else
// waits while a costly one runs, and the longest waits are in other
// libraries' code that makes no looks (a decoder, a parser: 100-300 ms in
// workerd). While costly calls hold a share s of the time, about s of the
// ordinary requests meet one, so only a share well under 5% keeps them
// off the p95: a quarter let one hostile case repeated by two clients
// take the ordinary p95 to 5.5-5.9 times its value alone (900,000 blank
// lines in YAML), a tenth to 3.3 times (scripts/load-edge --cases).
// Costly requests past it are
// answered 503 with a Retry-After, never failed, and the saved-up
// allowance (WorkerCostlyBurstMillis) still lets one or two in at once.
const WorkerCostlyShare = 0.10

// WorkerCostlyBurstMillis is how much costly time an isolate saves up
// while others do not wait: a second, a costly request or two at once.
const WorkerCostlyBurstMillis = 1_000

// WorkerCostlyMillis is the cost from which a request counts as costly in
// the worker: about ten ordinary requests (a few ms each in workerd; a
// UDF validation 10-20 ms). A request class (operation and body size)
// whose recent calls each took this long is costly, like every body of
// HTTPLargeBody or more. At 100, the Terraform cases of the hostile
// corpus that take 40-100 ms were never costly, were admitted every time,
// and each held the extra worker's isolate from the UDF validations queued
// behind it; at 50 the ordinary p95 of the load test with UDF validations
// (scripts/load-edge --body wasm/worker/edgebench/testdata/validate-udf.json)
// was 2.0-2.7 times its value alone in twelve runs, against 2.0-14 (half
// over 3) at 100.
const WorkerCostlyMillis = 50

// WorkerContendedMillis is how long a worker's isolate counts as contended
// after other requests were last in flight beside one: long enough to span
// the gaps between a busy client's requests, short enough that a client
// alone soon has the whole isolate again.
const WorkerContendedMillis = 2_000
