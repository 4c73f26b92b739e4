// Patches the worker.mjs that syumai's workers-assets-gen generates so that
// one Go instance per isolate answers every request, instead of a new
// instance (Go start-up plus package initialisation) for each one.
//
// Usage: node wasm/worker/patch-glue.mjs dist/worker/build/worker.mjs
//
// The glue stays generated: this script replaces exactly one function,
// fetch, and refuses to run when the generated text is not the one it was
// reviewed against (a new syumai/workers version must be looked at again).
// scheduled, queue and onRequest keep syumai's per-call instances.
import { readFileSync, writeFileSync } from "node:fs";

const stock = `async function fetch(req, env, ctx) {
  const binding = {};
  await run(createRuntimeContext({ env, ctx, binding }));
  return binding.handleRequest(req);
}`;

const persistent = `// subplay: one Go instance per isolate (patched in by wasm/worker/patch-glue.mjs).
// The instance is started by the first request and then called
// synchronously through binding.subplayServe (wasm/worker/serve_js.go); the
// handler keeps no state between requests, so sharing it is safe.
let live; // a Promise of the binding of the live instance

function liveBinding(env, ctx) {
  if (live === undefined) {
    const binding = {};
    live = run(createRuntimeContext({ env, ctx, binding })).then(() => binding);
    live.catch(() => {
      live = undefined;
    });
  }
  return live;
}

// readLimited reads a request body, but never more than one byte past the
// limit: that byte is enough for Go to answer 413. A body declared larger
// than the limit is not read at all; Go refuses it by its Content-Length.
async function readLimited(req, limit) {
  if (req.body === null) return null;
  if (Number(req.headers.get("content-length")) > limit) {
    await req.body.cancel();
    return null;
  }
  const reader = req.body.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      break;
    }
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.byteLength;
  }
  return body;
}

async function fetch(req, env, ctx) {
  let binding = await liveBinding(env, ctx);
  const body = await readLimited(req, binding.subplayMaxBody);
  const headers = [...req.headers];
  let res;
  try {
    res = binding.subplayServe(req.method, req.url, headers, body);
  } catch (e) {
    // The instance has exited (it recovers every panic, so this should
    // not happen); the next one answers.
    console.error("subplay: the Go instance failed, starting another:", e);
    live = undefined;
    binding = await liveBinding(env, ctx);
    res = binding.subplayServe(req.method, req.url, headers, body);
  }
  const noBody = res.status === 204 || res.status === 304 || req.method === "HEAD";
  return new Response(noBody ? null : res.body, { status: res.status, headers: res.headers });
}`;

const file = process.argv[2];
if (!file) {
  console.error("usage: node patch-glue.mjs path/to/worker.mjs");
  process.exit(2);
}
const src = readFileSync(file, "utf8");
const at = src.indexOf(stock);
if (at < 0 || src.indexOf(stock, at + 1) >= 0) {
  console.error(`patch-glue: ${file} does not hold syumai's fetch exactly once; ` +
    "the generated glue changed, so review this patch against it");
  process.exit(1);
}
writeFileSync(file, src.slice(0, at) + persistent + src.slice(at + stock.length));
