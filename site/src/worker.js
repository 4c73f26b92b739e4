// worker.js runs the subplay WebAssembly module off the main thread, so the
// page never waits for Go to start or for a slow operation. It speaks a
// small message protocol with loader.js:
//
//   in:  {type: "init", wasm: URL, size: bytes, module?: WebAssembly.Module}
//        {type: "call", id, calls: [[op, requestJSON], ...]}
//        {type: "slot", buffer: SharedArrayBuffer}   the shared answer slot
//   out: {type: "progress", loaded, total}
//        {type: "ready", version, operations, timing: {fetch, compile, start}, transferred, module}
//        {type: "result", id, results: [{ok, body, ms}], ms}   body: the response JSON
//             (unless the page took the answer from the shared slot:
//             lib/slot.js)
//        {type: "fatal", message}       loading failed
//        {type: "crashed", message}     the Go instance died after it was
//                                       ready; the worker is of no more use
//
// A test hook, {type: "kill"}, makes the Go program exit the way a fatal
// runtime error (stack overflow, out of memory) makes it exit, so the
// browser tests can check that the loader recovers.
import "go:wasm_exec";
import { offer } from "./lib/slot.js";

let api = null;
let go = null;
let dead = false;
let slot = null; // the shared answer slot, when the page is isolated

self.onmessage = (e) => {
  const m = e.data;
  if (m.type === "init") {
    init(m).catch((err) => self.postMessage({ type: "fatal", message: String(err && err.message || err) }));
  } else if (m.type === "call") {
    run(m);
  } else if (m.type === "slot") {
    slot = m.buffer;
  } else if (m.type === "kill") {
    kill();
  }
};

// crashed tells the loader, once, that the instance is gone. It is called
// from wherever the death shows first: Go's exit hook (a fatal error ends
// in runtime.wasmExit), an exception out of a call (a trap such as a
// JavaScript stack overflow inside the module), or an error nobody caught.
function crashed(message) {
  if (dead) return;
  dead = true;
  api = null;
  self.postMessage({ type: "crashed", message });
}

self.addEventListener("error", (e) => crashed("the core failed: " + (e.message || "unknown error")));
self.addEventListener("unhandledrejection", (e) => crashed("the core failed: " + String(e.reason && e.reason.message || e.reason)));

// kill ends the Go program through the runtime's own exit import, with the
// exit code a fatal error uses.
function kill() {
  if (!go || go.exited) return;
  const sp = go._inst.exports.getsp() >>> 0;
  go.mem.setInt32(sp + 8, 2, true);
  go.importObject.gojs["runtime.wasmExit"](sp);
}

async function init({ wasm, size, module }) {
  const t0 = performance.now();
  go = new self.Go();
  // Called by the runtime when the Go program ends, which it never does on
  // its own (main blocks forever): only a fatal error gets here.
  go.exit = (code) => crashed(`the core stopped (exit code ${code})`);
  const started = new Promise((resolve) => { self.subplayReady = resolve; });
  let instance, t1;
  if (module) {
    // A restart after a crash: the loader kept the compiled module, so
    // only a fresh instance is needed, no download and no compile.
    t1 = performance.now();
    instance = await WebAssembly.instantiate(module, go.importObject);
  } else {
    const resp = await fetch(wasm);
    if (!resp.ok) throw new Error(`loading ${wasm}: HTTP ${resp.status}`);
    t1 = performance.now();
    ({ module, instance } = await compile(resp, size));
  }
  const t2 = performance.now();
  const exited = go.run(instance).then(() => {
    crashed("the WebAssembly module exited");
    throw new Error("the WebAssembly module exited while starting");
  });
  await Promise.race([started, exited]);
  api = self.subplay;
  const t3 = performance.now();
  // Which operations this build has: the page sends the others to another
  // build (wasm/browser/doc.go).
  let operations = null; // null: unknown, so the page sends this build everything
  try {
    operations = JSON.parse(api.call("version", "{}").body).operations || null;
  } catch {
    // Reported as unknown; the operations themselves will say what fails.
  }
  // What the module cost on the wire (the page cannot see a worker's
  // requests); 0 when the browser does not say.
  const entry = performance.getEntriesByName(wasm)[0];
  self.postMessage({
    type: "ready",
    version: api.version,
    operations,
    timing: { fetch: t1 - t0, compile: t2 - t1, start: t3 - t2 },
    transferred: entry ? entry.transferSize : 0,
    module,
  });
  warmLater();
}

// warmLater has the core run its warming request (subplay.warm, see
// wasm/browser/warm.go) once, when the worker has had no call for
// warmIdleMs: V8 then optimises the transform engine's hot code on its
// other threads while nobody waits, not during a person's first long UDF.
// A build without transforms answers it at once.
const warmIdleMs = 1500;
let warmTimer = null;
let warmed = false;
function warmLater() {
  if (warmed || !api || typeof api.warm !== "function") return;
  clearTimeout(warmTimer);
  warmTimer = setTimeout(() => {
    if (warmed || dead || !api) return;
    warmed = true;
    try {
      api.warm();
    } catch (err) {
      crashed("the core failed while warming up: " + String(err && err.message || err));
      return;
    }
    if (go.exited) crashed("the core stopped while warming up");
  }, warmIdleMs);
}

// compile compiles and instantiates the module as it arrives. The response
// goes to instantiateStreaming as fetched, untouched: only a response that
// keeps its URL and its place in the HTTP cache lets Chromium store the
// compiled code and reuse it on the next visit (a Response built in script
// has neither), and a body that is also read by script (a clone, to count
// bytes for a progress bar) made the compile 1.3-1.8 times as long in 7 of
// 9 loads alternated in one browser (scripts/bench-site), so the download
// reports no bytes: the page shows "compiling" from the first byte. A host
// that labels .wasm files wrongly gets a rewrapped, counted body instead:
// streaming still works, the code cache does not.
async function compile(resp, size) {
  const wasmType = (resp.headers.get("Content-Type") || "").split(";")[0].trim() === "application/wasm";
  if (!WebAssembly.instantiateStreaming || !resp.body) {
    return WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
  }
  if (!wasmType) {
    return WebAssembly.instantiateStreaming(new Response(counting(resp.body, size), {
      headers: { "Content-Type": "application/wasm" },
    }), go.importObject);
  }
  self.postMessage({ type: "progress", loaded: size, total: size });
  return WebAssembly.instantiateStreaming(resp, go.importObject);
}

// counting passes a body through while reporting how many bytes arrived,
// so the page can draw a progress bar. Content-Length is no help here: it
// counts compressed bytes, while the stream yields decompressed ones, so the
// total comes from the build's manifest.
function counting(body, total) {
  let loaded = 0;
  let last = 0;
  return body.pipeThrough(new TransformStream({
    transform(chunk, ctl) {
      loaded += chunk.byteLength;
      const now = performance.now();
      if (total && (now - last > 50 || loaded >= total)) {
        last = now;
        self.postMessage({ type: "progress", loaded, total });
      }
      ctl.enqueue(chunk);
    },
  }));
}

function run({ id, calls }) {
  if (dead || !api) {
    crashed("the core is not running");
    return;
  }
  const t0 = performance.now();
  const results = [];
  for (const [op, request] of calls) {
    const s = performance.now();
    let r;
    try {
      r = api.call(op, request);
    } catch (err) {
      // The bridge recovers every Go panic, so an exception here means
      // the instance itself died (a trap, or a call after the program
      // ended): nothing it answers from now on can be trusted.
      crashed("the core failed while running " + op + ": " + String(err && err.message || err));
      return;
    }
    if (go.exited || !r) {
      crashed(`the core stopped while running ${op}`);
      return;
    }
    // The answer goes as the core wrote it, JSON text: a string crosses
    // to the page in one copy, where a parsed object would be cloned field
    // by field here and rebuilt there; the page parses it (loader.js) and
    // can tell an unchanged answer by the text alone.
    results.push({ ok: r.ok, body: String(r.body), ms: performance.now() - s });
  }
  answer(id, { results, ms: performance.now() - t0 });
  warmLater();
}

// answer hands the page a call's answer: through the shared slot when the
// page is watching it for this call, else as a message.
function answer(id, a) {
  try {
    if (slot && offer(slot, id, a)) return;
  } catch {
    // The slot refused (offer gave it up): the message still goes.
  }
  self.postMessage({ type: "result", id, ...a });
}

