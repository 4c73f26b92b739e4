// Measures what syumai's stock glue pays on every request, outside workerd:
// instantiating the worker's module and running Go until the handler is
// ready (runtime start plus package initialisation), in Node's V8. Also
// the time of one warm synchronous call, what the persistent glue pays,
// and the instance's linear memory.
//
//   node wasm/worker/startup.mjs dist/worker/build [runs] [request.json]
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const dir = process.argv[2] ?? "dist/worker/build";
const runs = Number(process.argv[3] ?? 30);
const reqFile = process.argv[4] ?? "core/httpapi/testdata/requests/validate.json";
await import(pathToFileURL(resolve(dir, "wasm_exec.js")).href);

let t = performance.now();
const mod = new WebAssembly.Module(readFileSync(`${dir}/app.wasm`));
const compileMs = performance.now() - t;

let inst;
async function start() {
  const go = new globalThis.Go();
  let ready;
  const isReady = new Promise((r) => (ready = r));
  const binding = {};
  inst = new WebAssembly.Instance(mod, { ...go.importObject, workers: { ready: () => ready() } });
  go.run(inst, { binding, env: {}, ctx: {} });
  await isReady;
  return binding;
}

const times = [];
let binding;
for (let i = 0; i < runs; i++) {
  t = performance.now();
  binding = await start();
  times.push(performance.now() - t);
}
const body = new Uint8Array(readFileSync(reqFile));
// The last argument is how many other requests compete for the instance
// (wasm/worker/serve_js.go): none, calls here come one at a time.
const call = () => binding.subplayServe("POST", "http://127.0.0.1/v1/validate",
  [["content-type", "application/json"], ["content-length", String(body.length)]], body, 0);
const first = call();
if (first.status !== 200) throw new Error(`validate answered ${first.status}`);
const calls = [];
const memAfterStart = inst.exports.mem.buffer.byteLength;
for (let i = 0; i < 500; i++) {
  t = performance.now();
  call();
  calls.push(performance.now() - t);
}
const q = (a, p) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.ceil((a.length * p) / 100) - 1)];
console.log(JSON.stringify({
  module: `${dir}/app.wasm`,
  compileMs: +compileMs.toFixed(1),
  startFirstMs: +times[0].toFixed(1),
  startP50Ms: +q(times, 50).toFixed(1),
  startP95Ms: +q(times, 95).toFixed(1),
  callP50Ms: +q(calls, 50).toFixed(2),
  callP95Ms: +q(calls, 95).toFixed(2),
  // Linear memory of the instance: after start-up, and after 500 calls
  // (it only grows; a steady value means the calls reuse it).
  memStartMB: +(memAfterStart / 2 ** 20).toFixed(1),
  mem500CallsMB: +(inst.exports.mem.buffer.byteLength / 2 ** 20).toFixed(1),
}));
process.exit(0);
