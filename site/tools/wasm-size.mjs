// wasm-size.mjs breaks a Go WebAssembly module down: the size of each
// section, then the code (function bodies) summed by the Go package each
// function belongs to, by the names in the module's "name" section. Build
// the module without -s -w so that section is there; scripts/wasm-size
// does.
//
//   node site/tools/wasm-size.mjs module.wasm [top] [packages.txt]
//
// Go writes a function's name with "/" (and "-") as "_" ("github.com_hamba_avro_v2.
// (*Reader).ReadVal" becomes "github.com_hamba_avro_v2.__Reader_.ReadVal"),
// which makes the package ambiguous when a path holds dots or "_". Given
// the build's packages (go list -deps, one a line), each name goes to the
// longest package it starts with; without them, to everything before the
// first dot that follows the last "_" of the leading path, which is
// mostly right.
import fs from "node:fs";

const [file, topArg, pkgFile] = process.argv.slice(2);
if (!file) {
  console.error("usage: node site/tools/wasm-size.mjs module.wasm [top] [packages.txt]");
  process.exit(2);
}
const top = Number(topArg) || 20;
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
const sections = new Map();
const sectionNames = { 0: "custom", 1: "type", 2: "import", 3: "function", 4: "table", 5: "memory", 6: "global", 7: "export", 8: "start", 9: "elem", 10: "code", 11: "data", 12: "datacount" };
while (pos < buf.length) {
  const id = buf[pos++];
  const size = leb();
  const end = pos + size;
  let label = sectionNames[id] || String(id);
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
    label = `custom "${section}"`;
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
  sections.set(label, (sections.get(label) || 0) + size);
  pos = end;
}

// Known packages, written the way the names write them, longest first.
const known = pkgFile
  ? fs.readFileSync(pkgFile, "utf8").split("\n").filter(Boolean).map((p) => [p.replace(/[^A-Za-z0-9_.]/g, "_"), p])
    .sort((a, b) => b[0].length - a[0].length)
  : [];
function pkgOf(fn) {
  // Equality functions of types: "type:.eq.PKG.T", written "type_.eq.PKG.T".
  const eq = /^type_\.eq\.(.*)$/.exec(fn);
  if (eq) fn = eq[1];
  for (const [mangled, p] of known) {
    if (fn.startsWith(mangled + ".")) return p;
  }
  const m = /^((?:[^.]*_)*[^._]*)\./.exec(fn);
  const p = m ? m[1] : fn;
  return p.replace(/_/g, "/");
}
function moduleOf(p) {
  const parts = p.split("/");
  if (!parts[0].includes(".")) return "std";
  return parts.slice(0, parts[0] === "github.com" ? 3 : 2).join("/");
}

const byPkg = new Map();
bodies.forEach((size, i) => {
  const p = pkgOf(names.get(imported + i) || "?");
  byPkg.set(p, (byPkg.get(p) || 0) + size);
});
const byModule = new Map();
for (const [p, size] of byPkg) {
  const m = moduleOf(p);
  byModule.set(m, (byModule.get(m) || 0) + size);
}
const mb = (n) => (n / 1e6).toFixed(2).padStart(6) + " MB";
console.log(`${file}: ${mb(buf.length)} raw`);
console.log("sections: " + [...sections].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${mb(v).trim()}`).join(", "));
if (names.size === 0) {
  console.log("no name section: build without -s -w");
  process.exit(0);
}
console.log("code by module:");
for (const [m, size] of [...byModule].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${mb(size)}  ${m}`);
console.log("code by package:");
for (const [p, size] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${mb(size)}  ${p}`);
