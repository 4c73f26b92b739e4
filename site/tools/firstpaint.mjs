// firstpaint.mjs answers the playground's default state at build time, with
// the very module the page loads first, run under Node: the page shows that
// answer at once, before its own core has downloaded and started, and
// replaces it as soon as the core answers. The answer is keyed by the exact
// calls it answers (calls.js), and the page shows it only when the calls it
// would send for what is on screen are those (a link, saved work, another
// tab: not shown).
//
//   node site/tools/firstpaint.mjs STAGE_DIR [MODULE]   prints the JSON
//
// build.mjs calls firstPaint while it bundles the page.
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { callsFor, toWire, wireKey } from "../src/calls.js";
import { defaults } from "../src/lib/state.js";

/**
 * firstPaint runs stage/subplay-MODULE.wasm (with the stage's
 * wasm_exec.js) on the calls the page makes for its default state and
 * returns {key, results, version}: results as the worker would post them
 * ({ok, value}). The default tab's panel is taken to add no calls of its
 * own; if it ever does, the page's key differs and the answer is simply
 * never shown (the browser suite checks that it is).
 */
export async function firstPaint(stage, module) {
  const calls = callsFor(defaults(), { requests: () => [] });
  // wasm_exec.js defines Go (and stubs for what Go's runtime asks of a
  // browser) on globalThis: build.mjs runs this in a process of its own.
  vm.runInThisContext(fs.readFileSync(path.join(stage, "wasm_exec.js"), "utf8"));
  const go = new globalThis.Go();
  const ready = new Promise((resolve) => { globalThis.subplayReady = resolve; });
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(path.join(stage, `subplay-${module}.wasm`)), go.importObject);
  const exited = go.run(instance).then(() => { throw new Error("the module exited while starting"); });
  await Promise.race([ready, exited]);
  const api = globalThis.subplay;
  const results = toWire(calls).map(([op, req]) => {
    const r = api.call(op, req);
    return { ok: r.ok, value: JSON.parse(r.body) };
  });
  return { key: wireKey(calls), results, version: api.version };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [stage, module = "full"] = process.argv.slice(2);
  if (!stage) {
    console.error("usage: node site/tools/firstpaint.mjs STAGE_DIR [MODULE]");
    process.exit(2);
  }
  firstPaint(stage, module).then((r) => {
    console.log(JSON.stringify(r));
    process.exit(0); // the Go program never ends by itself
  }, (e) => {
    console.error("firstpaint:", e.message);
    process.exit(1);
  });
}

/**
 * firstPaintPlugin serves `virtual:first-paint` to esbuild: firstPaint's
 * answer for stage/subplay-MODULE.wasm, computed once per build in a Node
 * process of its own (the Go program inside never ends by itself).
 */
export function firstPaintPlugin(stage, module) {
  let answer = null;
  return {
    name: "first-paint",
    setup(b) {
      b.onResolve({ filter: /^virtual:first-paint$/ }, () => ({ path: "first-paint", namespace: "first-paint" }));
      b.onLoad({ filter: /^first-paint$/, namespace: "first-paint" }, async () => {
        answer ??= promisify(execFile)(process.execPath, [fileURLToPath(import.meta.url), stage, module], { maxBuffer: 64 << 20 });
        const { stdout } = await answer;
        return { contents: "export default " + stdout.trim(), loader: "js" };
      });
    },
  };
}
