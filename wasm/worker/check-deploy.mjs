// check-deploy.mjs checks that wrangler would deploy the two workers as
// wrangler.jsonc and wrangler-extra.jsonc describe them: `wrangler deploy
// --dry-run --outdir` for each, which bundles and validates without an
// account or the network, and prints each upload's gzip size against
// Cloudflare's limits. The bundles must already be built
// (scripts/build-worker); to check them without building them again,
// wrangler gets a copy of each configuration without its build step, and
// this script checks that the build step is the one the tests ran, and
// that the main worker's binding reaches the extra one.
//
//   node wasm/worker/check-deploy.mjs WORKER_DIR OUT_DIR
//
// WORKER_DIR is what scripts/build-worker writes (dist/worker): build/ and
// build-extra/.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const [workerDir, outDir] = process.argv.slice(2);
if (!workerDir || !outDir) {
  console.error("usage: node wasm/worker/check-deploy.mjs WORKER_DIR OUT_DIR");
  process.exit(2);
}
const fail = (msg) => {
  console.error("check-deploy: " + msg);
  process.exit(1);
};
// Cloudflare's limits on a worker's compressed upload (paid and free
// plans), and our budget for the public worker's gzip size (mainBudget:
// the lean worker must start fast, and start-up grows with the module).
const KiB = 1024;
const paidLimit = 10 * 1000 * 1000;
const freeLimit = 3 * 1000 * 1000;
const mainBudget = 4.2e6;

// JSONC: drop // comments outside strings (the files have no /* */ ones).
const read = (file) => JSON.parse(fs.readFileSync(path.join(here, file), "utf8")
  .replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*/g, (m, str) => str || ""));
const workers = [
  { file: "wrangler.jsonc", dir: "build" },
  { file: "wrangler-extra.jsonc", dir: "build-extra" },
].map((w) => ({ ...w, config: read(w.file) }));
const [main, extra] = workers;
const binding = (main.config.services || []).find((s) => s.binding === "EXTRA");
if (!binding || binding.service !== extra.config.name) {
  fail(`wrangler.jsonc binds EXTRA to ${JSON.stringify(binding && binding.service)}, not to ${extra.config.name} (wrangler-extra.jsonc's name)`);
}
for (const key of ["compatibility_date", "compatibility_flags", "limits"]) {
  if (JSON.stringify(main.config[key]) !== JSON.stringify(extra.config[key])) fail(`the two configurations differ in ${key}`);
}

const wrangler = JSON.parse(fs.readFileSync(path.join(here, "node_modules", "wrangler", "package.json"))).version;
let over = false;
for (const { file, dir, config } of workers) {
  if (!config.build || config.build.command !== "scripts/build-worker") fail(`${file}'s build command is ${JSON.stringify(config.build && config.build.command)}, not scripts/build-worker`);
  if (path.resolve(here, config.main) !== path.resolve(`dist/worker/${dir}/worker.mjs`)) fail(`${file}'s main ${config.main} is not what scripts/build-worker writes`);
  const out = path.join(outDir, config.name);
  fs.mkdirSync(out, { recursive: true });
  const copy = { ...config, main: path.resolve(workerDir, dir, "worker.mjs") };
  delete copy.build;
  const cfg = path.join(out, "wrangler.json");
  fs.writeFileSync(cfg, JSON.stringify(copy, null, 2));
  const text = execFileSync(path.join(here, "node_modules", ".bin", "wrangler"),
    ["deploy", "--dry-run", "--outdir", path.join(out, "bundle"), "--config", cfg], {
      encoding: "utf8",
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_API_TOKEN: "", NO_UPDATE_NOTIFIER: "1", WRANGLER_LOG_PATH: out },
      stdio: ["ignore", "pipe", "inherit"],
    });
  const files = fs.readdirSync(path.join(out, "bundle"));
  if (!files.some((f) => f.endsWith(".wasm"))) fail(`${config.name}: the dry-run bundle has no WebAssembly module: ${files.join(", ")}`);
  const m = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(text);
  if (!m) fail(`${config.name}: wrangler printed no upload size:\n` + text);
  const gzip = Number(m[2]) * KiB;
  const notes = [];
  if (gzip > paidLimit) {
    notes.push("OVER Cloudflare's 10 MB limit");
    over = true;
  } else if (gzip > freeLimit) notes.push("over the free plan's 3 MB");
  if (config === main.config) notes.push(gzip > mainBudget ? "over the 4.2 MB budget" : "within the 4.2 MB budget");
  console.log(`check-deploy: ${config.name}: wrangler ${wrangler} --dry-run: upload ${m[1]} KiB, gzip ${m[2]} KiB = ${(gzip / 1e6).toFixed(2)} MB (${files.join(", ")}); ${notes.join("; ")}`);
}
if (over) fail("a worker is over Cloudflare's limit");
