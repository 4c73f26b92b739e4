// build.mjs bundles the playground into a static folder. scripts/build-site
// runs it after building the WebAssembly modules into a staging folder:
//
//   node site/build.mjs --stage DIR --out DIR --version V
//
// Every asset gets a content hash in its name (cached for a year); the HTML
// pages and the loader subplay.js keep stable names (revalidated on every
// load). Each text asset and module is also written precompressed (.br,
// .gz) for `subplay serve` and static hosts that serve such files. The
// security headers live in one place, here: they go into each page's meta
// tag and into _headers, which `subplay serve` applies (and which static
// hosts such as Cloudflare Pages read as is).
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { PAGE_MODULES, QUICK_MODULE } from "./src/modules.js";
import { WIDGETS } from "./src/widgets.js";
import { firstPaintPlugin } from "./tools/firstpaint.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");

function args() {
  const a = { stage: "", out: "", version: "dev", brotli: "11", gzip: "9" };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) {
    const k = argv[i].replace(/^--/, "");
    if (!(k in a) || argv[i + 1] === undefined) {
      console.error("usage: node site/build.mjs --stage DIR --out DIR --version V [--brotli QUALITY] [--gzip LEVEL]");
      process.exit(2);
    }
    a[k] = argv[i + 1];
  }
  if (!a.stage || !a.out) {
    console.error("build.mjs: --stage and --out are required");
    process.exit(2);
  }
  return a;
}

// The Content-Security-Policy of the pages. No inline script and no eval:
// 'wasm-unsafe-eval' is the one allowance, to compile the module. The
// editor's styles are constructed style sheets (see patchStyleMod), so
// style-src needs no 'unsafe-inline' for <style> elements; CodeMirror sets a
// few style attributes, which style-src-attr allows.
export function csp({ embed }) {
  return [
    "default-src 'none'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self'",
    "connect-src 'self'",
    "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    // Embeds exist to be framed by docs pages; the playground itself is not.
    `frame-ancestors ${embed ? "*" : "'none'"}`,
  ].join("; ");
}

const securityHeaders = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Opener-Policy": "same-origin",
  // With the opener policy, this makes the page cross-origin isolated, so
  // the loader can take an edit's answer from memory shared with the
  // core's worker in the same frame (src/lib/slot.js). Everything a page
  // loads is its own, so nothing else changes; an embed in a docs page is
  // not isolated (its parent is not) and gets its answers by message.
  "Cross-Origin-Embedder-Policy": "require-corp",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
};

const hashLen = 10;
function contentHash(buf) {
  return createHash("sha256").update(buf).digest("hex").slice(0, hashLen);
}

function hashedName(name, buf) {
  const ext = path.extname(name);
  return `${path.basename(name, ext)}.${contentHash(buf)}${ext}`;
}

// patchStyleMod makes style-mod (CodeMirror's style injector) use a
// constructed style sheet on the document too, instead of a <style>
// element, which a CSP without 'unsafe-inline' would refuse. The build
// fails if the code it rewrites ever changes, so an upgrade cannot silently
// bring back the inline styles.
const patchStyleMod = {
  name: "style-mod-csp",
  setup(b) {
    b.onLoad({ filter: /style-mod[\\/]src[\\/]style-mod\.js$/ }, async (a) => {
      const src = await fs.promises.readFile(a.path, "utf8");
      const from = "if (!root.head && root.adoptedStyleSheets && win.CSSStyleSheet) {";
      if (!src.includes(from)) throw new Error("style-mod changed: update patchStyleMod in site/build.mjs");
      return { contents: src.replace(from, "if (root.adoptedStyleSheets && win.CSSStyleSheet) {"), loader: "js" };
    });
  },
};

// patchSegmenter makes @codemirror/commands create its Intl.Segmenter on
// first use (moving by sub-word), not while the module is evaluated:
// creating one loads ICU's word-break data, 40 to 60 ms on the main thread
// during the page's start. The build fails if the code it rewrites ever
// changes.
const patchSegmenter = {
  name: "commands-lazy-segmenter",
  setup(b) {
    b.onLoad({ filter: /@codemirror[\\/]commands[\\/]dist[\\/]index\.js$/ }, async (a) => {
      let src = await fs.promises.readFile(a.path, "utf8");
      const edits = [
        ["const segmenter = typeof Intl != \"undefined\" && Intl.Segmenter ?\n    /*@__PURE__*/new (Intl.Segmenter)(undefined, { granularity: \"word\" }) : null;",
          "let segmenter = undefined;\nconst makeSegmenter = () => (segmenter = typeof Intl != \"undefined\" && Intl.Segmenter ?\n    new (Intl.Segmenter)(undefined, { granularity: \"word\" }) : null);"],
        ["if (segmenter && cat == CharCategory.Word", "if ((segmenter === undefined ? makeSegmenter() : segmenter) && cat == CharCategory.Word"],
      ];
      for (const [from, to] of edits) {
        if (src.split(from).length !== 2) throw new Error("@codemirror/commands changed: update patchSegmenter in site/build.mjs");
        src = src.replace(from, to);
      }
      return { contents: src, loader: "js" };
    });
  },
};

// examplesPlugin serves `virtual:examples`: the gallery, read at build time
// from the example files in core/subscription/testdata/examples, so the
// page never carries a hand-made copy.
function examplesPlugin(dir) {
  return {
    name: "examples",
    setup(b) {
      b.onResolve({ filter: /^virtual:examples$/ }, () => ({ path: "examples", namespace: "virtual" }));
      b.onLoad({ filter: /^examples$/, namespace: "virtual" }, () => {
        const list = readExamples(dir);
        return { contents: "export default " + JSON.stringify(list), loader: "js", watchDirs: [dir] };
      });
    },
  };
}

// Names for the examples the lead writes; an example without one gets a
// name made from its file name.
const exampleTitles = {
  "pull": "Pull",
  "push-oidc": "Push with OIDC authentication",
  "bigquery": "BigQuery",
  "storage-text": "Cloud Storage, text files",
  "storage-avro": "Cloud Storage, Avro files",
  "dead-letter-retry": "Dead-letter topic and retry policy",
  "filtered": "Filtered",
  "ordered": "Ordered delivery",
  "exactly-once": "Exactly-once delivery",
};

// readExamples groups the example files by name (pull.json and pull.yaml
// are one example in two formats) and picks the panel that shows each best.
export function readExamples(dir) {
  if (!fs.existsSync(dir)) {
    console.warn(`build.mjs: no examples in ${path.relative(root, dir)}; the gallery will be empty`);
    return [];
  }
  const byId = new Map();
  for (const file of fs.readdirSync(dir).sort()) {
    const m = /^(.*)\.(json|ya?ml)$/.exec(file);
    if (!m) continue;
    const text = fs.readFileSync(path.join(dir, file), "utf8");
    if (!byId.has(m[1])) {
      byId.set(m[1], {
        id: m[1],
        title: exampleTitles[m[1]] || m[1].replace(/[-_]+/g, " ").replace(/^./, (c) => c.toUpperCase()),
        tab: /cloudStorageConfig/.test(text) ? "storage" : /bigqueryConfig/.test(text) ? "schema" : /"?filter"?\s*:/.test(text) ? "filter" : "settings",
        variants: [],
      });
    }
    byId.get(m[1]).variants.push({ file, format: m[2] === "json" ? "json" : "yaml", text });
  }
  const order = Object.keys(exampleTitles);
  const rank = (id) => (order.includes(id) ? order.indexOf(id) : order.length);
  return [...byId.values()].sort((a, b) => rank(a.id) - rank(b.id) || a.id.localeCompare(b.id));
}

async function bundle(entry, opts) {
  const r = await build({
    entryPoints: [path.join(here, "src", entry)],
    bundle: true,
    minify: true,
    write: false,
    legalComments: "none",
    target: ["chrome111", "firefox113", "safari16.4"],
    logLevel: "warning",
    ...opts,
  });
  if (r.outputFiles.length !== 1) throw new Error(`${entry}: expected one output file`);
  return Buffer.from(r.outputFiles[0].contents);
}

function compressible(name) {
  return /\.(html|js|css|wasm|json|svg|txt)$/.test(name);
}

// The quality is brotli 11 and gzip 9 for what we ship; scripts/serve and
// scripts/test-site ask for a quick build (brotli 4, gzip 6: a second for
// a module, instead of a minute at brotli 11), since they measure no sizes.
async function writeCompressed(file, quality, level) {
  const buf = await fs.promises.readFile(file);
  const [br, gz] = await Promise.all([
    promisify(zlib.brotliCompress)(buf, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: buf.length,
      },
    }),
    promisify(zlib.gzip)(buf, { level }),
  ]);
  await Promise.all([fs.promises.writeFile(file + ".br", br), fs.promises.writeFile(file + ".gz", gz)]);
  return { raw: buf.length, gzip: gz.length, br: br.length };
}

function render(template, vars) {
  return template.replace(/\{\{(\w+)\}\}/g, (_, k) => {
    if (!(k in vars)) throw new Error(`template variable ${k} is not set`);
    return vars[k];
  });
}

async function main() {
  const a = args();
  const stage = path.resolve(a.stage);
  const out = path.resolve(a.out);
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const files = {}; // logical name -> output file name
  const immutable = new Set(); // names that carry a content hash
  const emit = (logical, name, buf, hashed = name !== logical) => {
    fs.writeFileSync(path.join(out, name), buf);
    files[logical] = name;
    if (hashed) immutable.add(name);
    return name;
  };

  // Every module scripts/build-site staged, by name (subplay-NAME.wasm),
  // with its build tags (scripts/build-wasm --list): the router
  // (modules.js) reads what each build has from them.
  const tags = Object.fromEntries(execFileSync(path.join(root, "scripts", "build-wasm"), ["--list"], { encoding: "utf8" })
    .trim().split(/\s+/).map((b) => [b.slice(0, b.indexOf(":")), b.slice(b.indexOf(":") + 1)]));
  const wasm = {};
  for (const file of fs.readdirSync(stage).sort()) {
    const m = /^subplay-(\w+)\.wasm$/.exec(file);
    if (!m) continue;
    if (!(m[1] in tags)) throw new Error(`${file}: scripts/build-wasm --list has no build called ${m[1]}`);
    const buf = fs.readFileSync(path.join(stage, file));
    wasm[m[1]] = { file: emit(file, hashedName(file, buf), buf), size: buf.length, tags: tags[m[1]] };
  }
  for (const name of [QUICK_MODULE, ...PAGE_MODULES, ...Object.values(WIDGETS).map((w) => w.module)]) {
    if (!wasm[name]) throw new Error(`the site uses the ${name} build, which scripts/build-site did not build`);
  }

  const wasmExec = path.join(stage, "wasm_exec.js");
  const worker = await bundle("worker.js", {
    format: "iife",
    plugins: [{
      name: "wasm-exec",
      setup(b) {
        b.onResolve({ filter: /^go:wasm_exec$/ }, () => ({ path: wasmExec }));
      },
    }],
  });
  emit("worker.js", hashedName("worker.js", worker), worker);

  const manifest = { version: a.version, worker: files["worker.js"], wasm };
  const define = { __SUBPLAY_MANIFEST__: JSON.stringify(manifest) };
  const examplesDir = path.join(root, "core", "subscription", "testdata", "examples");
  const esm = { format: "esm", define, plugins: [patchStyleMod, patchSegmenter, examplesPlugin(examplesDir), firstPaintPlugin(stage, PAGE_MODULES[0])] };

  // The loader keeps a stable name: other pages import it by URL.
  emit("subplay.js", "subplay.js", await bundle("loader.js", esm));
  // The two pages are split into chunks: each entry starts the core and
  // then imports the rest, which the browser evaluates in a task of its
  // own; the page and the embeds share the editor's chunk.
  const split = await build({
    entryPoints: { app: path.join(here, "src", "app.js"), embed: path.join(here, "src", "embed.js") },
    bundle: true,
    splitting: true,
    minify: true,
    write: false,
    metafile: true,
    outdir: out,
    entryNames: "[name].[hash]",
    chunkNames: "chunk.[hash]",
    legalComments: "none",
    // V8's compile hint: compile every function of these chunks while the
    // script is loaded (off the main thread when it streams) instead of
    // on first call. Most of the editor's code runs during the page's
    // start anyway; compiled lazily, it made the start's tasks twice as
    // long.
    banner: { js: "//# allFunctionsCalledOnLoad" },
    target: ["chrome111", "firefox113", "safari16.4"],
    logLevel: "warning",
    ...esm,
  });
  const chunkFiles = {}; // entry -> every file it loads, itself first
  for (const f of split.outputFiles) {
    const name = path.basename(f.path);
    emit(name, name, Buffer.from(f.contents), true);
  }
  const outputs = split.metafile.outputs;
  // closure is what a file loads: with dynamic, also what it imports later
  // (import()); without, what must be there before it runs.
  const closure = (file, dynamic, seen = new Set()) => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const imp of outputs[file].imports) {
      if (!imp.external && (dynamic || imp.kind !== "dynamic-import")) closure(imp.path, dynamic, seen);
    }
    return seen;
  };
  const staticFiles = {}; // entry -> what it needs before it runs, itself first
  for (const [file, meta] of Object.entries(outputs)) {
    if (!meta.entryPoint) continue;
    const entry = path.basename(meta.entryPoint);
    files[entry] = path.basename(file);
    chunkFiles[entry] = [...closure(file, true)].map((f) => path.basename(f));
    staticFiles[entry] = [...closure(file, false)].map((f) => path.basename(f));
  }
  const css = await bundle("style.css", { loader: { ".css": "css" } });
  emit("style.css", hashedName("style.css", css), css);
  const icon = fs.readFileSync(path.join(here, "src", "favicon.svg"));
  emit("favicon.svg", hashedName("favicon.svg", icon), icon);

  for (const [page, script, embed] of [["index.html", "app.js", false], ["embed.html", "embed.js", true]]) {
    const tpl = fs.readFileSync(path.join(here, "src", page), "utf8");
    const entryFile = files[script];
    // Only what the entry needs before it runs is preloaded: the entry
    // draws the build's first preview (early.js), and the editor's chunks,
    // which it imports afterwards, preloaded too were fetched and compiled
    // first and left the browser's processes about a quarter more CPU time
    // to spend before that preview (scripts/bench-site).
    const preload = staticFiles[script].filter((f) => f !== entryFile)
      .map((f) => `<link rel="modulepreload" href="${f}">`).join("\n");
    const html = render(tpl, {
      preload,
      csp: csp({ embed }).replace(/; frame-ancestors [^;]*/, ""), // not allowed in a meta tag
      style: files["style.css"],
      icon: files["favicon.svg"],
      script: files[script],
      version: a.version,
    });
    emit(page, page, Buffer.from(html));
  }

  // _headers: security headers everywhere, the CSP per page, and the cache
  // policy: hashed names never change, everything else is revalidated.
  const lines = ["/*"];
  for (const [k, v] of Object.entries(securityHeaders)) lines.push(`  ${k}: ${v}`);
  lines.push(`  Content-Security-Policy: ${csp({ embed: false })}`, "  Cache-Control: no-cache", "");
  for (const [p, embed] of [["/embed.html", true], ["/embed", true]]) {
    lines.push(p, `  ! Content-Security-Policy`, `  Content-Security-Policy: ${csp({ embed })}`, "");
  }
  for (const name of [...immutable].sort()) {
    lines.push(`/${name}`, "  ! Cache-Control", "  Cache-Control: public, max-age=31536000, immutable", "");
  }
  fs.writeFileSync(path.join(out, "_headers"), lines.join("\n"));

  // Compressed all at once: zlib's async calls run on libuv's threads.
  const sizes = {};
  const quality = Number(a.brotli);
  const gzipLevel = Number(a.gzip);
  await Promise.all([...new Set(Object.values(files))].filter(compressible).map(async (name) => {
    sizes[name] = await writeCompressed(path.join(out, name), quality, gzipLevel);
  }));
  // What each page downloads, for scripts/bench-site and the tests.
  const pageFiles = {};
  const common = [files["style.css"], files["favicon.svg"], files["worker.js"]];
  // The page starts with QUICK_MODULE, then the first of PAGE_MODULES
  // (modules.js startCore).
  const startModules = [QUICK_MODULE, PAGE_MODULES[0]];
  const rest = PAGE_MODULES.slice(1).map((m) => wasm[m].file);
  pageFiles["index.html"] = ["index.html", ...chunkFiles["app.js"], ...common, ...startModules.map((m) => wasm[m].file)];
  // The schema panel needs every operation: whatever other build the page
  // has is fetched by then.
  pageFiles["index.html, every panel opened"] = [...pageFiles["index.html"], ...rest];
  for (const [widget, w] of Object.entries(WIDGETS)) {
    pageFiles[`embed.html#widget=${widget}`] = ["embed.html", ...chunkFiles["embed.js"], ...common, wasm[w.module].file];
  }
  fs.writeFileSync(path.join(out, "manifest.json"), JSON.stringify({
    ...manifest, brotliQuality: quality, gzipLevel, files, sizes, pages: pageFiles,
    pageModules: PAGE_MODULES, startModules, widgetModules: Object.fromEntries(Object.entries(WIDGETS).map(([k, w]) => [k, w.module])),
  }, null, 2));

  // Every module, the lazily loaded ones (extra) included: what a page
  // pays when it fetches that build.
  for (const [name, w] of Object.entries(wasm)) {
    const z = sizes[w.file];
    console.log(`${("module " + name).padEnd(32)} raw ${kb(z.raw)}  gzip ${kb(z.gzip)}  br ${kb(z.br)}`);
  }
  for (const [page, list] of Object.entries(pageFiles)) {
    const sum = { raw: 0, gzip: 0, br: 0 };
    for (const f of list) for (const k of Object.keys(sum)) sum[k] += sizes[f][k];
    console.log(`${page.padEnd(32)} raw ${kb(sum.raw)}  gzip ${kb(sum.gzip)}  br ${kb(sum.br)}`);
  }
}

function kb(n) {
  return `${(n / 1024).toFixed(0).padStart(6)} KiB`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error("build.mjs:", e.message);
    process.exit(1);
  });
}
