// Tests of the worker's glue outside workerd (node --test; scripts/test-edge
// runs them before it builds): that the hook still fits the syumai/workers
// version go.mod pins, and what the persistent fetch does with a Go
// instance that a fake stands in for. The suite in workerd holds the rest.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { persistentFetch, readLimited } from "./persistent.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, "..", "..");

// syumaiAsset reads a file that workers-assets-gen of the pinned version
// writes into a bundle.
function syumaiAsset(rel) {
  const gomod = readFileSync(path.join(root, "go.mod"), "utf8");
  const version = /github\.com\/syumai\/workers (v\S+)/.exec(gomod)[1];
  const cache = execFileSync("go", ["env", "GOMODCACHE"], { cwd: root, encoding: "utf8" }).trim();
  return readFileSync(path.join(cache, `github.com/syumai/workers@${version}`, "cmd/workers-assets-gen/assets", rel), "utf8");
}

// fn returns the text of the top-level function name in src.
function fn(src, name) {
  const at = src.search(new RegExp(`^(export )?async function ${name}\\(`, "m"));
  assert.ok(at >= 0, `no function ${name}`);
  return src.slice(at, src.indexOf("\n}\n", at) + 2);
}

test("start is syumai's run, returning its Go object", () => {
  const generated = syumaiAsset("common/worker.mjs");
  const theirs = fn(generated, "run").replace("async function run(ctx)", "async function start(context)").replace("go.run(instance, ctx);", "go.run(instance, context);");
  const ours = fn(readFileSync(path.join(here, "glue.mjs"), "utf8"), "start").replace("  return go;\n", "");
  assert.equal(ours, theirs, "syumai's run changed: read it again and bring start (glue.mjs) in line");
  // What glue.mjs imports and replaces is there.
  assert.match(generated, /^import \{ createRuntimeContext, loadModule \} from "\.\/runtime\.mjs";$/m);
  assert.match(generated, /^export default \{\n  fetch,\n  scheduled,\n  queue,\n  onRequest,\n\};$/m);
  const runtime = syumaiAsset("runtime/cloudflare.mjs");
  assert.match(runtime, /^export async function loadModule\(/m);
  assert.match(runtime, /^export function createRuntimeContext\(/m);
});

// fakeGo stands in for wasm/worker's Go program: start fills the binding
// as serve_js.go's exposeSync does, and subplayServe answers with answer.
function fakeGo(answer) {
  const starts = [];
  const start = async (context) => {
    const b = context.binding;
    starts.push(b);
    b.subplayMaxBody = 100;
    b.subplayLargeBody = 50;
    b.subplayAlive = () => true;
    b.subplayRefuse = () => null;
    b.subplayShareState = () => "{}";
    b.subplayServe = (method, url, headers, body, others, signal, done) => {
      const res = answer(method, url, body);
      if (res === "die") throw new Error("the Go program has exited");
      done(res);
      return true;
    };
    return {};
  };
  return { starts, start };
}

const json = (status, text, more = {}) => ({ status, headers: [["content-type", "application/json"]], body: new TextEncoder().encode(text), ...more });
const ctx = { waitUntil() {} };

test("one instance answers every request, and a dead one is replaced", async () => {
  let die = false;
  const go = fakeGo((method, url, body) => {
    if (die) return "die";
    return json(200, `{"got":${body === null ? 0 : body.byteLength}}`);
  });
  const fetch = persistentFetch({ start: go.start, createRuntimeContext: ({ env, ctx, binding }) => ({ env, ctx, binding }) });
  const env = { EXTRA: { fetch: async () => { throw new Error("not forwarded here"); } } };
  for (const body of ["{}", "{\"a\":1}"]) {
    const res = await fetch(new Request("http://w/v1/validate", { method: "POST", body }), env, ctx);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), `{"got":${body.length}}`);
  }
  assert.equal(go.starts.length, 1, "a second instance started");
  die = true;
  const res = await fetch(new Request("http://w/v1/validate", { method: "POST", body: "{}" }), env, ctx);
  assert.equal(res.status, 500);
  assert.equal((await res.json()).error.code, "internal");
  die = false;
  await fetch(new Request("http://w/v1/validate", { method: "POST", body: "{}" }), env, ctx);
  assert.equal(go.starts.length, 2, "the request after a dead instance did not start a fresh one");
});

test("a needs-module answer is sent, as it came, to the extra worker", async () => {
  const go = fakeGo(() => json(500, `{"error":{"code":"needs-module"}}`, { needsModule: true }));
  // A new module instance of the glue: its state is per isolate.
  const { persistentFetch: fresh } = await import("./persistent.mjs?needs-module");
  const fetch = fresh({ start: go.start, createRuntimeContext: ({ env, ctx, binding }) => ({ env, ctx, binding }) });
  let forwarded;
  const env = { EXTRA: { fetch: async (url, init) => {
    forwarded = { url, method: init.method, body: new TextDecoder().decode(init.body) };
    return new Response(`{"from":"extra"}`, { headers: { "content-type": "application/json" } });
  } } };
  const res = await fetch(new Request("http://w/v1/transform", { method: "POST", body: "{\"x\":1}" }), env, ctx);
  assert.equal(await res.text(), `{"from":"extra"}`);
  assert.deepEqual(forwarded, { url: "http://w/v1/transform", method: "POST", body: "{\"x\":1}" });
});

test("readLimited stops at the piece past the limit, and reads nothing of a body declared larger", async () => {
  let pulled = 0;
  const chunks = new ReadableStream({
    pull(c) {
      pulled++;
      c.enqueue(new Uint8Array(6));
      if (pulled === 5) c.close();
    },
  }, { highWaterMark: 0 });
  const big = new Request("http://w/", { method: "POST", body: chunks, duplex: "half" });
  assert.equal((await readLimited(big, 10)).byteLength, 12);
  assert.ok(pulled <= 3, `${pulled} pieces pulled for a limit of two`);
  const declared = new Request("http://w/", { method: "POST", body: "x".repeat(20), headers: { "content-length": "20" } });
  assert.equal(await readLimited(declared, 10), null);
  assert.equal(await readLimited(new Request("http://w/"), 10), null);
});
