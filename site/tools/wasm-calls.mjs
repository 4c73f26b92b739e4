// wasm-calls.mjs measures what a build of the page's module (wasm/browser)
// costs after download, in Node's V8: compiling the module, starting Go
// (runtime and package initialisation) until subplay.call exists, and
// warm calls of the operations the page sends on each edit (the requests
// in core/httpapi/testdata/requests). It is how scripts/wasm-size --speed
// compares two builds of one module (say, with and without a compiler
// flag) on a noisy machine: run both, alternately, and compare medians.
//
//   node site/tools/wasm-calls.mjs module.wasm [calls] [starts]
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

const [file, callsArg, startsArg] = process.argv.slice(2);
if (!file) {
  console.error("usage: node site/tools/wasm-calls.mjs module.wasm [calls] [starts]");
  process.exit(2);
}
const calls = Number(callsArg) || 200;
const starts = Number(startsArg) || 5;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const goroot = execFileSync("go", ["env", "GOROOT"], { encoding: "utf8" }).trim();
await import(pathToFileURL(path.join(goroot, "lib/wasm/wasm_exec.js")).href);

const requests = ["validate", "effective", "filter", "names", "schema"].map((op) => [op,
  fs.readFileSync(path.join(root, "core/httpapi/testdata/requests", op + ".json"), "utf8")]);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const bytes = fs.readFileSync(file);
const compile = [];
let mod;
for (let i = 0; i < starts; i++) {
  const t = performance.now();
  mod = await WebAssembly.compile(bytes);
  compile.push(performance.now() - t);
}
const start = [];
let api;
for (let i = 0; i < starts; i++) {
  const go = new globalThis.Go();
  const t = performance.now();
  const ready = new Promise((r) => { globalThis.subplayReady = r; });
  const inst = await WebAssembly.instantiate(mod, go.importObject);
  go.run(inst);
  await ready;
  start.push(performance.now() - t);
  api = globalThis.subplay;
}
console.log(`${file}: compile ${median(compile).toFixed(1)} ms, Go start ${median(start).toFixed(1)} ms (medians of ${starts})`);
for (const [op, req] of requests) {
  const first = api.call(op, req);
  if (!first.ok && /unknown-operation/.test(first.body)) continue;
  const ms = [];
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    api.call(op, req);
    ms.push(performance.now() - t);
  }
  console.log(`  ${op.padEnd(10)} p50 ${median(ms).toFixed(3)} ms over ${calls} calls`);
}
process.exit(0);
