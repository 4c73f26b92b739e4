// wasm-size.mjs breaks a Go WebAssembly module's code down by package:
// the size of each function body, summed by the package its name (from the
// "name" section) belongs to. Build the module without -s -w for names.
//
//   node site/tools/wasm-size.mjs module.wasm [top]
import fs from "node:fs";

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error("usage: node site/tools/wasm-size.mjs module.wasm [top]");
  process.exit(2);
}
const buf = fs.readFileSync(file);
let pos = 8;

function leb() {
  let result = 0;
  let shift = 0;
  for (;;) {
    const b = buf[pos++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(b & 0x80)) return result;
  }
}
function name() {
  const n = leb();
  const s = buf.toString("utf8", pos, pos + n);
  pos += n;
  return s;
}

let imported = 0;
const bodies = [];
const names = new Map();
const sections = {};
while (pos < buf.length) {
  const id = buf[pos++];
  const size = leb();
  const end = pos + size;
  sections[id] = (sections[id] || 0) + size;
  if (id === 2) { // imports: functions among them take the first indices
    for (let n = leb(); n > 0; n--) {
      name(); name();
      const kind = buf[pos++];
      if (kind === 0) { leb(); imported++; }
      else if (kind === 1) { pos++; const f = leb(); leb(); if (f & 1) leb(); }
      else if (kind === 2) { const f = leb(); leb(); if (f & 1) leb(); }
      else if (kind === 3) { pos += 2; }
    }
  } else if (id === 10) {
    for (let n = leb(); n > 0; n--) {
      const s = leb();
      bodies.push(s);
      pos += s;
    }
  } else if (id === 0) {
    const section = name();
    if (section === "name") {
      while (pos < end) {
        const sub = buf[pos++];
        const subSize = leb();
        const subEnd = pos + subSize;
        if (sub === 1) {
          for (let n = leb(); n > 0; n--) {
            const idx = leb();
            names.set(idx, name());
          }
        }
        pos = subEnd;
      }
    }
  }
  pos = end;
}

// Function names are the import path with "/" written "_", a dot, then
// the symbol: "github.com_hamba_avro_v2.(*Reader).Read". A path that starts
// with a domain has a dot before its first "_".
function pkgOf(fn) {
  const u = fn.indexOf("_");
  const domain = u > 0 && fn.slice(0, u).includes(".");
  const dot = fn.indexOf(".", domain ? u : 0);
  return dot < 0 ? fn : fn.slice(0, dot);
}
function moduleOf(p) {
  const parts = p.split("_");
  if (parts[0].includes(".")) return parts.slice(0, parts[0].startsWith("github.com") ? 3 : 2).join("/");
  return "std";
}
const byPkg = new Map();
let total = 0;
bodies.forEach((size, i) => {
  const p = pkgOf(names.get(imported + i) || "?");
  byPkg.set(p, (byPkg.get(p) || 0) + size);
  total += size;
});
const byModule = new Map();
for (const [p, size] of byPkg) {
  const m = moduleOf(p);
  byModule.set(m, (byModule.get(m) || 0) + size);
}
const mb = (n) => (n / 1e6).toFixed(2).padStart(6) + " MB";
console.log(`${file}: ${mb(buf.length)} raw; code ${mb(sections[10] || 0)}, data ${mb(sections[11] || 0)}`);
const top = Number(topArg) || 20;
console.log("code by module:");
for (const [m, size] of [...byModule].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${mb(size)}  ${m}`);
console.log("code by package:");
for (const [p, size] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${mb(size)}  ${p.replace(/_/g, "/")}`);
