// The persistent glue: one Go instance per isolate answers every request,
// where syumai/workers' generated glue starts a new Go instance (Go
// start-up plus package initialisation) for each one. The worker's entry
// (glue.mjs) installs fetch from here in place of syumai's and keeps its
// other handlers.
//
// The instance is started by the first request and then called through
// binding.subplayServe (wasm/worker/serve_js.go); the handler keeps no
// state between requests, so sharing it is safe. glue.test.mjs holds what
// can be held outside workerd; scripts/test-edge holds the rest.

// What the entry hands in (persistentFetch): start(context) starts a Go
// instance with syumai's runtime context and resolves to its Go object
// (wasm_exec.js's) once the program is ready; createRuntimeContext is
// syumai's (runtime.mjs).
let start;
let createRuntimeContext;

// persistentFetch returns the fetch handler, given the entry's hooks.
export function persistentFetch(hooks) {
  ({ start, createRuntimeContext } = hooks);
  return fetch;
}

let live; // a Promise of the binding of the live instance
// The body limit, and the size from which a body may be costly, the same
// in every instance, from the first that started.
let bodyLimit;
let largeBody;

// The costly-work share's state (wasm/worker/admit's share) as the last retired
// instance left it, for its successor (subplayShareInit, serve_js.go).
let shareState;

function liveBinding(env, ctx) {
  if (live === undefined) {
    const binding = {};
    if (shareState !== undefined) binding.subplayShareInit = shareState;
    const instance = start(createRuntimeContext({ env, ctx, binding })).then((go) => {
      binding.go = go; // release lets go of it
      bodyLimit = binding.subplayMaxBody;
      largeBody = binding.subplayLargeBody;
      instance.bound = binding; // started: a request beside the turn may use it (takeTurn)
      return binding;
    });
    live = instance;
    // The calls inside Go, by the function that settles each one's answer,
    // and the functions to call once there are none.
    binding.calls = new Set();
    binding.idle = [];
    // A long call pauses (wasm/worker/pause_js.go): Go asks for its wake
    // to run as a task of its own, queued from the running request, so
    // that other requests and abort events run first. A wake that does not answer true ran into a Go program
    // that ended during it: the calls inside fail, the next request starts
    // a fresh instance.
    // A wake may come after the instance was released (release): the
    // calls had all been answered, and what paused was work left running
    // after its answer (its client had gone: core/httpapi's runGuarded
    // stops waiting for it). There is nothing to wake, and the instance
    // did not fail.
    binding.subplayPause = (wake, id) => setTimeout(() => {
      if (binding.released) return;
      let alive = false;
      try {
        alive = wake(id) === true;
      } catch (e) {
        console.error("subplay: the Go instance failed during a long call:", e);
      }
      if (!alive) binding.died();
    }, 0);
    // died fails the calls inside a Go program that has ended; the next
    // request starts a fresh instance.
    binding.died = () => {
      if (live === instance) live = undefined;
      for (const settle of binding.calls) settle(undefined);
      binding.calls.clear();
    };
    live.catch(() => {
      if (live === instance) live = undefined;
    });
  }
  return live;
}

// call runs a request in Go and resolves to its answer, or to undefined if
// the Go program ended during it. The request's signal
// (enable_request_signal) cancels the call when the client goes away.
function call(binding, req, body, others) {
  return new Promise((resolve) => {
    // Go settles a call from inside itself (its goroutine invokes this
    // function), so what waits for the instance to be idle runs once Go
    // has returned: a release run here took the instance from under the
    // Go code that was calling out ("Cannot read properties of undefined
    // (reading 'exports')" in wasm_exec's valueInvoke, seen as a failed
    // instance under scripts/load-edge once UDFs paused more often).
    const settle = (res) => {
      binding.calls.delete(settle);
      if (binding.calls.size === 0 && binding.idle.length > 0) {
        queueMicrotask(() => {
          if (binding.calls.size === 0) for (const f of binding.idle.splice(0)) f();
        });
      }
      resolve(res);
    };
    binding.calls.add(settle);
    let started;
    try {
      started = binding.subplayServe(req.method, req.url, [...req.headers], body, others, req.signal ?? null, settle);
    } catch (e) {
      console.error("subplay: the Go instance failed, starting another:", e);
    }
    if (started !== true) {
      settle(undefined); // the Go program ended during the call
      return;
    }
    // A call still open has paused, or has not run yet: a task later, Go
    // is asked whether it is alive (which lets a call that has not run yet
    // run, and end the program if it must), so that a program that ended
    // never leaves a request waiting for nothing.
    setTimeout(() => {
      if (!binding.calls.has(settle)) return;
      let alive = false;
      try {
        alive = binding.subplayAlive() === true;
      } catch (e) {
        console.error("subplay: the Go instance failed, starting another:", e);
      }
      if (!alive) binding.died();
    }, 0);
  });
}

// What Go needs to know whether other requests compete for the instance
// (wasm/worker/admit's share limits costly work only then): how many requests
// are inside fetch, how many of those are still receiving a body in more
// than one piece (a large or slow upload, not ready for Go), and how many
// arrived in all, and by the start of the last Go call.
let inside = 0;
let uploading = 0;
let arrived = 0;
let arrivedAtCall = 0;

// readLimited reads a request body, but stops at the first piece that
// takes it past the limit: more than the limit is enough for Go to answer
// 413 (glue.test.mjs). A body declared larger
// than the limit is not read at all; Go refuses it by its Content-Length.
export async function readLimited(req, limit) {
  if (req.body === null) return null;
  if (Number(req.headers.get("content-length")) > limit) {
    await req.body.cancel();
    return null;
  }
  const reader = req.body.getReader();
  const chunks = [];
  let size = 0;
  let counted = false;
  try {
    for (;;) {
      if (chunks.length === 1 && !counted) {
        counted = true;
        uploading++;
      }
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        break;
      }
    }
  } finally {
    if (counted) uploading--;
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.byteLength;
  }
  return body;
}

// drain reads a body it does not keep, up to one byte past the limit, so
// that the client, still sending, reads the answer instead of a broken
// connection (a cancelled body of megabytes resets it).
async function drain(body, limit) {
  uploading++;
  try {
    const reader = body.getReader();
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        return;
      }
    }
  } finally {
    uploading--;
  }
}

// failed is the answer to a request during which the Go instance died (Go
// ends its program on a fatal error such as running out of memory; a
// panic is recovered and never gets here). The request is not replayed:
// whatever killed one instance would kill the next. The next request
// starts a fresh instance.
function failed(message = "the worker failed while answering this request and was restarted; the failure was logged") {
  return new Response(JSON.stringify({ error: { code: "internal", message } }),
    { status: 500, headers: { "content-type": "application/json", "access-control-allow-origin": "*",
      "cache-control": "no-store", "x-content-type-options": "nosniff" } });
}

// The memories of the instances this worker retired that V8 has not freed
// yet, as weak references. Where the collector is exposed (the local
// extra worker's --expose-gc, scripts/build-worker; never on Cloudflare),
// sweepRetired frees them. A collection run by the retiring request itself
// (a task after its answer, as this glue did before) freed nothing after
// some sequences of requests (TestWorkerdRetiredFreed replays one), as if
// the retiring request still held the instance until workerd had finished
// with it; one run at the start of a later request freed it (88 MB). V8's
// next full collection of its own may come only after more instances have
// piled up.
let retired = [];

// unreleased counts the retired instances still waiting for a call beside
// the turn to end before they are released (serve). Their memory is not
// yet V8's to free, so a fresh instance started meanwhile adds its memory
// to theirs: enter waits for them first, a little. (Once calls beside the
// turn no longer retired, the extra process peaked at 336-345 MB under
// scripts/load-edge with strings-kept alone, against 305 before; this
// wait did not measurably lower that, 326-366 MB in five runs: what set
// the peak was a retired instance that outlived its collections, and the
// size of each, which the allocation budget that grows with the input
// brought down, to 305-308 MB.)
let unreleased = 0;
const unreleasedWaitMs = 100;

// release lets go of a retired instance once it has no call left. Its Go
// object stays reachable from whatever still holds one of its functions or
// timers, such as a timeout Go asked for while it waited (a deadline of a
// call that has ended; seen holding an instance 1.8 s after its last
// call). So the timeouts are cancelled and the Go object drops the
// instance and its memory; a call that still reached it would fail at once
// ("Go program has already exited"), which the glue answers as a failed
// instance. wasm_exec's run still awaits the program's end, with the
// instance in its suspended frame, and only the Go object holds that
// promise and its resolver: they are dropped too, so that whatever still
// holds the Go object (a function Go gave out, an abort listener on a
// request's signal) no longer reaches the instance through that frame.
// Before they were dropped, 2 of the 21 instances retired in 40 s of UDF
// load outlived dozens of collections, for more than 2 and 3 s, while the next
// instance's memory added to theirs; after, none of 18 outlived the first
// collection after its release (ad hoc logging in the glue). (Settling
// the promise instead, from a later request, made workerd warn at every
// retirement.)
function release(binding) {
  const go = binding.go;
  if (go === undefined || go.exited) return;
  binding.released = true;
  if (typeof globalThis.gc === "function") retired.push(new WeakRef(go._inst.exports.mem));
  for (const t of go._scheduledTimeouts.values()) clearTimeout(t);
  go._scheduledTimeouts.clear();
  go.exited = true;
  delete go._inst;
  delete go.mem;
  delete go._values;
  delete go._goRefCounts;
  delete go._ids;
  delete go._exitPromise;
  delete go._resolveExitPromise;
}

// collectRetired runs a full collection, then, after a timer of delay ms
// (a weak reference keeps its target alive to the end of the task that
// read it), looks at which retired memories are gone.
async function collectRetired(delay) {
  globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, delay));
  retired = retired.filter((ref) => ref.deref() !== undefined);
}

// sweepRetired runs at the start of each request while a retired instance
// is still reachable, before the request may start a fresh one.
function sweepRetired(ctx) {
  if (retired.length === 0 || typeof globalThis.gc !== "function") return;
  ctx.waitUntil(collectRetired(0));
}

// How many requests wait for the extra worker: they compete for nothing here.
let forwarding = 0;

// forward sends a request that this worker's build answered needs-module
// (it has no JavaScript engine for UDFs, no Terraform reader) to the extra
// worker, built with everything, through the service binding extra, and
// answers with its answer as it is: the one a single worker would give.
// The extra worker runs the same glue and guards (its own share, busy
// answers, memory limit); if its Go instance dies, its glue answers 500
// in JSON. If the extra worker itself fails (its isolate ended, an answer
// that is not the API's JSON), the client gets a JSON 500 from here, and
// this worker goes on serving.
async function forward(extra, req, body) {
  forwarding++;
  try {
    const res = await extra.fetch(req.url, { method: req.method, headers: req.headers, body });
    if ((res.headers.get("content-type") || "").startsWith("application/json")) return res;
    console.error("subplay: the extra worker answered", res.status, "with", res.headers.get("content-type"));
    if (res.body !== null) await res.body.cancel();
  } catch (e) {
    console.error("subplay: the extra worker failed:", e);
  } finally {
    forwarding--;
  }
  return failed("the worker that runs UDFs and reads Terraform failed while answering this request; the failure was logged");
}

// A worker that forwards nothing (the extra one, or one with everything)
// lets one request at a time into Go: the others wait their turn, first
// come first served. Every request that reaches the extra worker is costly
// (a UDF, Terraform, the schema operation), and the Go instance's memory
// is what its calls hold at once: two costly calls interleaved at their
// pauses grew one instance, or a retired one and its successor, together,
// so that the extra process peaked at 279-352 MB in seven runs of
// scripts/load-edge, with two WebAssembly memories (72 and 56 MB) at the
// peak. One at a time, an instance is retired between two calls, and its
// successor starts only after a collection has had its chance to free it
// (enter, release): 276-285 MB in five runs. The price: a request here
// waits for the ones before it, except a short one, which goes in beside a
// long call (see besideBusy). The main worker does not queue: its ordinary
// requests slip in at a long call's pauses.
//
// A waiting request looks again every turnPollMs on a timer of its own:
// workerd cancels as hung a request that waits only for what another
// request will do (a promise that one resolves; a first version of this
// queue lost most requests so under load), and cancels a request's timers
// when it ends. The holder, and the waiters' last looks, are kept here; a
// waiter that has not looked for turnGoneMs (its request was cancelled)
// loses its place, and a turn held for turnStaleMs, longer than any call
// runs (limits.HTTPOperationMillis), was lost with its request and is
// taken over.
const turnPollMs = 2;
const turnGoneMs = 100;
const turnStaleMs = 30_000;
let turnHolder; // { since } of the request in its turn, or undefined
let turnTickets = 0;
const turnWaiting = new Map(); // ticket -> Date.now() of its last look

// A short request need not wait for a long one. While a request holds the
// turn in a started instance, one request at a time whose kind has been
// short lately (isShort) goes in beside it, into the same instance: this
// JavaScript runs only while Go is idle (a long call waits in a pause for
// a task of its own, pause_js.go; a UDF pauses too, at its steps), so its
// call starts at once, between the holder's pauses, and a short one ends
// there. Under scripts/load-edge -d 60s with UDF validations as the
// ordinary requests, their p95 went from 28 ms alone to 1,371 ms beside
// the hostile ones before this, and from 27 to 64 ms with it;
// TestWorkerdBeside (scripts/test-edge) holds the behaviour. The kinds are learnt, not guessed: Go says of each
// answer whether its call reached a pause (paused), and a kind goes beside
// only once its last calls (one at least, up to shortAfter) were all
// short. Should one turn out long after all, it waits at its first pause
// until the long call ends (pause_js.go runs one long call at a time): it
// holds what 1,024 items of work left, not a second costly call's memory.
// A retired instance is released only once the call beside it has ended
// too (binding.calls).
let besideBusy = false;

// takeTurn resolves, once this request is the first waiter still looking
// and no request holds the turn, to { end } where end ends its turn; or,
// for a short request while the holder is inside a started instance and
// none is beside it, to { end, beside } where beside is that instance
// ({ instance, binding }) and end ends its place beside.
async function takeTurn(short) {
  const ticket = ++turnTickets;
  for (;;) {
    const now = Date.now();
    turnWaiting.set(ticket, now);
    const free = turnHolder === undefined || now - turnHolder.since >= turnStaleMs;
    if (free && firstWaiting(now) === ticket) break;
    if (short && !free && !besideBusy && live !== undefined && live.bound !== undefined) {
      turnWaiting.delete(ticket);
      besideBusy = true;
      return { end: () => { besideBusy = false; }, beside: { instance: live, binding: live.bound } };
    }
    await new Promise((resolve) => setTimeout(resolve, turnPollMs));
  }
  turnWaiting.delete(ticket);
  const me = { since: Date.now() };
  turnHolder = me;
  return {
    end: () => {
      if (turnHolder === me) turnHolder = undefined;
    },
  };
}

// Whether the last calls (up to shortAfter) of each kind of request (its
// path and its body's size to a power of two, like Go's cost classes)
// reached a pause. Kinds are kept up to kindsKept, the oldest forgotten
// first, so that made-up paths cannot grow the map.
const shortAfter = 4;
const kindsKept = 256;
const kinds = new Map();

function kindOf(req, size) {
  return new URL(req.url).pathname + " " + (32 - Math.clz32(size));
}

// isShort says whether a request of kind with a body of size bytes may go
// beside a long call: a small body, and a kind whose last calls (one at
// least) were all short.
function isShort(kind, size) {
  const recent = kinds.get(kind);
  return largeBody !== undefined && size < largeBody && recent !== undefined && !recent.includes(true);
}

// learn records whether a call of kind reached a pause.
function learn(kind, paused) {
  let recent = kinds.get(kind);
  if (recent === undefined) {
    if (kinds.size >= kindsKept) kinds.delete(kinds.keys().next().value);
    recent = [];
    kinds.set(kind, recent);
  }
  recent.push(paused);
  if (recent.length > shortAfter) recent.shift();
}

// firstWaiting is the oldest ticket among the waiters that have looked in
// the last turnGoneMs; the others are forgotten.
function firstWaiting(now) {
  let first;
  for (const [ticket, seen] of turnWaiting) {
    if (now - seen > turnGoneMs) turnWaiting.delete(ticket);
    else if (first === undefined || ticket < first) first = ticket;
  }
  return first;
}

// An isolate runs one piece of JavaScript (or Go) at a time: a request
// reaches Go when no other call is running, and a long call lets others
// in only at its pauses (in the main worker; the extra one queues, see
// takeTurn). A body is read (up to the limit) before its turn, so a slow
// client holds no Go time.
async function fetch(req, env, ctx) {
  inside++;
  const turn = { queued: env.EXTRA === undefined, end: undefined, beside: false };
  try {
    return await serve(req, env, ctx, turn);
  } finally {
    leave(turn);
    inside--;
  }
}

// enter resolves, in this request's turn where requests queue, to the
// live instance (a Promise of its binding, which the glue compares with
// live) and its binding; a retired instance gets a collection first,
// before a fresh one may start.
async function enter(env, ctx, turn, short = false) {
  if (turn.queued && turn.end === undefined) {
    const got = await takeTurn(short);
    turn.end = got.end;
    if (got.beside !== undefined) {
      turn.beside = true;
      return got.beside;
    }
  }
  // Before a fresh instance starts, the retired one is given a few
  // collections to be freed in, so that its memory and the fresh one's do
  // not add up. Most are freed at the first; now and then something not
  // yet found holds one for 4-8 s (scripts/extra-memory shows it), and the fresh
  // one starts anyway rather than keep the queue waiting.
  if (turn.queued && live === undefined && typeof globalThis.gc === "function") {
    for (let waited = 0; unreleased > 0 && waited < unreleasedWaitMs; waited += turnPollMs) {
      await new Promise((resolve) => setTimeout(resolve, turnPollMs));
    }
    for (let i = 0; i < 3 && retired.length > 0; i++) await collectRetired(1);
  }
  sweepRetired(ctx);
  const instance = liveBinding(env, ctx);
  return { instance, binding: await instance };
}

// leave ends this request's turn, if it holds one.
function leave(turn) {
  if (turn.end === undefined) return;
  turn.end();
  turn.end = undefined;
}

// refusal answers a large declared body that Go would refuse now (costly
// work has had its share of a busy isolate) without reading it, and is
// null for any other request. others counts the competing requests. Go is
// asked before anything is awaited, so the instance is held no longer.
// Answered 503 "busy" and drained, in the extra worker too: a stream of
// refused megabyte bodies there was read whole before its turn, only to be
// refused in it.
async function refusal(req, instance, binding, others) {
  if (req.method !== "POST" || req.body === null ||
      !(Number(req.headers.get("content-length")) >= binding.subplayLargeBody)) return null;
  let res;
  try {
    res = binding.subplayRefuse(req.method, req.url, [...req.headers], others());
  } catch (e) {
    console.error("subplay: the Go instance failed, starting another:", e);
  }
  if (res === undefined) { // it threw, or the Go program ended during the call
    if (live === instance) live = undefined;
    return failed();
  }
  if (res === null) return null;
  await drain(req.body, binding.subplayMaxBody);
  return new Response(res.body, { status: res.status, headers: res.headers });
}

async function serve(req, env, ctx, turn) {
  const seq = ++arrived;
  const competing = () => {
    const n = Math.max(inside - uploading - forwarding - 1, arrived - arrivedAtCall - (seq > arrivedAtCall ? 1 : 0));
    arrivedAtCall = arrived;
    return n;
  };
  let instance, binding, body, res, kind;
  if (turn.queued) {
    // Where requests queue, a request holds an instance only in its turn,
    // so that a retired one is referenced by no request waiting for its
    // turn: the body is read first (up to the limit the first instance
    // gave), and Go judges it in the turn. Only the refusal of a large
    // declared body asks the live instance at once, and lets it go before
    // anything is awaited.
    if (bodyLimit === undefined) {
      await enter(env, ctx, turn);
      leave(turn);
    }
    if (live !== undefined && live.bound !== undefined) {
      const early = await refusal(req, live, live.bound, competing);
      if (early !== null) return early;
    }
    body = await readLimited(req, bodyLimit);
    const size = body === null ? 0 : body.byteLength;
    kind = kindOf(req, size);
    ({ instance, binding } = await enter(env, ctx, turn, isShort(kind, size)));
  } else {
    ({ instance, binding } = await enter(env, ctx, turn));
    const early = await refusal(req, instance, binding, competing);
    if (early !== null) return early;
    body = await readLimited(req, binding.subplayMaxBody);
  }
  res = await call(binding, req, body, competing());
  if (kind !== undefined && res !== undefined) learn(kind, res.paused === true);
  // Go asks for a fresh instance once this one's memory has grown past its
  // bound (wasm/worker/memory_js.go): WebAssembly memory never shrinks, so
  // the next request starts another, and this one, referenced by nothing
  // once its calls have ended, is V8's to free. Only in a worker that
  // forwards nothing (the extra one, or one with everything): the main
  // worker answers the ordinary requests, whose latency a fresh instance's
  // start would cost, and retiring there too did not lower its process's
  // peak over the hostile corpus (465 against 468 MB, scripts/load-edge):
  // what grows there is not only the instance. A worker
  // that retires is one that queues (turn.queued): release is safe only
  // when no other request holds the instance.
  // Only the turn's holder retires: a call beside it sees the memory that
  // the holder's call has grown, and retiring there left no live instance
  // to go beside while the holder went on (every short request then
  // waited for its end: 148 ms at the median under a UDF that kept
  // megabyte strings, in ad hoc logging); the holder's own answer says
  // retire when it ends.
  if (res !== undefined && res.retire === true && turn.queued && !turn.beside && live === instance) {
    live = undefined;
    console.log("subplay: retiring the Go instance (its memory passed the bound); the next request starts a fresh one");
    // The share's allowance and what it learnt go on in the next instance:
    // costly calls that grow memory retire it, often one after another.
    try {
      shareState = binding.subplayShareState();
    } catch (e) {
      console.error("subplay: the share's state could not be read:", e);
    }
    // V8 frees it at its next full collection; where the collector is
    // exposed, the requests after this one run it (enter, sweepRetired).
    if (binding.calls.size === 0) release(binding);
    else {
      unreleased++;
      binding.idle.push(() => {
        unreleased--;
        release(binding);
      });
    }
  }
  // A long call may resume during this request's JavaScript (its wake
  // timer, or this call's end, let it run) and then queue its next wake
  // here: workerd cancels the timers of a request once it has ended, so
  // the request stays open in the background until Go has no call left.
  if (binding.calls.size > 0) ctx.waitUntil(new Promise((resolve) => binding.idle.push(resolve)));
  if (res === undefined || typeof res.status !== "number") {
    if (res !== undefined) console.error("subplay: the Go instance failed, starting another: it answered", res);
    if (live === instance) live = undefined; // unless another request already replaced it
    return failed();
  }
  // Only the main worker has the binding: the extra one, built with
  // everything, never answers needs-module, and if it did the client
  // would get that answer, never a loop.
  if (res.needsModule === true && env.EXTRA !== undefined) return forward(env.EXTRA, req, body);
  const noBody = res.status === 204 || res.status === 304 || req.method === "HEAD";
  return new Response(noBody ? null : res.body, { status: res.status, headers: res.headers });
}
