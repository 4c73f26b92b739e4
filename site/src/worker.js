// worker.js runs the subplay WebAssembly module off the main thread, so the
// page never waits for Go to start or for a slow operation. It speaks a
// small message protocol with loader.js:
//
//   in:  {type: "init", wasm: URL, size: bytes}
//        {type: "call", id, calls: [[op, requestJSON], ...]}
//   out: {type: "progress", loaded, total}
//        {type: "ready", version, operations, timing: {fetch, compile, start}, transferred}
//        {type: "result", id, results: [{ok, value, ms}], ms}
//        {type: "fatal", message}
import "go:wasm_exec";

let api = null;

self.onmessage = (e) => {
  const m = e.data;
  if (m.type === "init") {
    init(m).catch((err) => self.postMessage({ type: "fatal", message: String(err && err.message || err) }));
  } else if (m.type === "call") {
    run(m);
  }
};

async function init({ wasm, size }) {
  const t0 = performance.now();
  const go = new self.Go();
  const started = new Promise((resolve) => { self.subplayReady = resolve; });
  let resp = await fetch(wasm);
  if (!resp.ok) throw new Error(`loading ${wasm}: HTTP ${resp.status}`);
  const t1 = performance.now();
  resp = counting(resp, size);
  // counting() rewraps the body with the right MIME type, so streaming
  // compilation works even from a host that labels .wasm files wrongly.
  const { instance } = WebAssembly.instantiateStreaming
    ? await WebAssembly.instantiateStreaming(resp, go.importObject)
    : await WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
  const t2 = performance.now();
  go.run(instance).then(() => self.postMessage({ type: "fatal", message: "the WebAssembly module exited" }));
  await started;
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
  });
}

// counting passes the body through while reporting how many bytes arrived,
// so the page can draw a progress bar. Content-Length is no help here: it
// counts compressed bytes, while the stream yields decompressed ones, so the
// total comes from the build's manifest.
function counting(resp, total) {
  if (!resp.body) return resp;
  let loaded = 0;
  let last = 0;
  const counter = new TransformStream({
    transform(chunk, ctl) {
      loaded += chunk.byteLength;
      const now = performance.now();
      if (total && (now - last > 50 || loaded >= total)) {
        last = now;
        self.postMessage({ type: "progress", loaded, total });
      }
      ctl.enqueue(chunk);
    },
  });
  return new Response(resp.body.pipeThrough(counter), {
    headers: { "Content-Type": "application/wasm" },
  });
}

function run({ id, calls }) {
  const t0 = performance.now();
  const results = [];
  for (const [op, request] of calls) {
    const s = performance.now();
    let r;
    try {
      r = api.call(op, request);
    } catch (err) {
      // Only reachable if the Go program itself died.
      r = { ok: false, body: JSON.stringify({ error: { code: "internal", message: String(err && err.message || err) } }) };
    }
    let value;
    try {
      value = JSON.parse(r.body);
    } catch {
      value = { error: { code: "internal", message: "the module answered with something that is not JSON" } };
      r.ok = false;
    }
    results.push({ ok: r.ok, value, ms: performance.now() - s });
  }
  self.postMessage({ type: "result", id, results, ms: performance.now() - t0 });
}

