// check-deploy.mjs checks that wrangler would deploy the worker as
// wrangler.jsonc describes it: `wrangler deploy --dry-run --outdir`, which
// bundles and validates without an account or the network. The bundle must
// already be built (scripts/build-worker); to check it without building it
// again, wrangler gets a copy of the configuration without its build step,
// and this script checks that the build step is the one the tests ran.
//
//   node wasm/worker/check-deploy.mjs BUNDLE_DIR OUT_DIR
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const [bundleDir, outDir] = process.argv.slice(2);
if (!bundleDir || !outDir) {
  console.error("usage: node wasm/worker/check-deploy.mjs BUNDLE_DIR OUT_DIR");
  process.exit(2);
}
// JSONC: drop // comments outside strings (the file has no /* */ ones).
const text = fs.readFileSync(path.join(here, "wrangler.jsonc"), "utf8")
  .replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*/g, (m, str) => str || "");
const config = JSON.parse(text);
const fail = (msg) => {
  console.error("check-deploy: " + msg);
  process.exit(1);
};
if (!config.build || config.build.command !== "scripts/build-worker") fail(`wrangler.jsonc's build command is ${JSON.stringify(config.build && config.build.command)}, not scripts/build-worker`);
if (path.resolve(here, config.main) !== path.resolve("dist/worker/build/worker.mjs")) fail(`wrangler.jsonc's main ${config.main} is not what scripts/build-worker writes`);
fs.mkdirSync(outDir, { recursive: true });
const copy = { ...config, main: path.resolve(bundleDir, "worker.mjs") };
delete copy.build;
const cfg = path.join(outDir, "wrangler.json");
fs.writeFileSync(cfg, JSON.stringify(copy, null, 2));
const out = execFileSync(path.join(here, "node_modules", ".bin", "wrangler"),
  ["deploy", "--dry-run", "--outdir", path.join(outDir, "bundle"), "--config", cfg], {
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_API_TOKEN: "", NO_UPDATE_NOTIFIER: "1", WRANGLER_LOG_PATH: outDir },
    stdio: ["ignore", "pipe", "inherit"],
  });
const files = fs.readdirSync(path.join(outDir, "bundle"));
if (!files.some((f) => f.endsWith(".wasm"))) fail(`the dry-run bundle has no WebAssembly module: ${files.join(", ")}`);
const m = /Total Upload: ([\d.]+ KiB) \/ gzip: ([\d.]+ KiB)/.exec(out);
if (!m) fail("wrangler printed no upload size:\n" + out);
console.log(`check-deploy: wrangler ${JSON.parse(fs.readFileSync(path.join(here, "node_modules", "wrangler", "package.json"))).version} --dry-run: upload ${m[1]}, gzip ${m[2]} (${files.join(", ")})`);
