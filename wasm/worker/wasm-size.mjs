// Attributes the code of a Go WebAssembly module to Go packages, to see
// what a build links and what it costs (scripts/bench-edge reports only
// totals). Build without -s -w so the name section is there:
//
//   GOOS=js GOARCH=wasm go build -o /tmp/w.wasm ./wasm/worker
//   node wasm/worker/wasm-size.mjs /tmp/w.wasm [top]
//
// Prints the size of each section and the code bytes per package (by
// module path for modules, by package for the standard library).
import { readFileSync } from "node:fs";

const file = process.argv[2];
const top = Number(process.argv[3] ?? 25);
const buf = readFileSync(file);
let pos = 8;
const u32 = () => {
  let r = 0, shift = 0, b;
  do { b = buf[pos++]; r |= (b & 0x7f) << shift; shift += 7; } while (b & 0x80);
  return r >>> 0;
};
const sections = [];
let imports = 0, codeSizes = [], names = new Map();
while (pos < buf.length) {
  const id = buf[pos++];
  const size = u32();
  const start = pos;
  sections.push([id, size]);
  if (id === 2) { // imports: function imports shift function indices
    const n = u32();
    for (let i = 0; i < n; i++) {
      pos += u32(); pos += u32(); // module, field
      const kind = buf[pos++];
      if (kind === 0) { u32(); imports++; }
      else if (kind === 1) { pos++; const f = buf[pos++]; u32(); if (f & 1) u32(); }
      else if (kind === 2) { const f = buf[pos++]; u32(); if (f & 1) u32(); }
      else if (kind === 3) { pos += 2; }
    }
  } else if (id === 10) {
    const n = u32();
    for (let i = 0; i < n; i++) { const s = u32(); codeSizes.push(s); pos += s; }
  } else if (id === 0) {
    const nlen = u32();
    const name = buf.toString("utf8", pos, pos + nlen);
    pos += nlen;
    if (name === "name") {
      while (pos < start + size) {
        const sub = buf[pos++], ssize = u32(), sstart = pos;
        if (sub === 1) {
          const n = u32();
          for (let i = 0; i < n; i++) { const idx = u32(), l = u32(); names.set(idx, buf.toString("utf8", pos, pos + l)); pos += l; }
        }
        pos = sstart + ssize;
      }
    }
  }
  pos = start + size;
}
const secName = { 0: "custom", 1: "type", 2: "import", 3: "function", 5: "memory", 6: "global", 7: "export", 9: "elem", 10: "code", 11: "data" };
console.log("sections:", sections.map(([id, s]) => `${secName[id] ?? id}=${(s / 1e6).toFixed(2)}MB`).join(" "));
if (names.size === 0) { console.log("no name section: build without -s -w"); process.exit(0); }
const byPkg = new Map();
codeSizes.forEach((s, i) => {
  const fn = names.get(i + imports) ?? "?";
  // Go writes "/" as "_" in these names: github.com_hamba_avro_v2.(*Reader).ReadVal.
  const name = fn.replace(/^\(\*?/, "");
  let key;
  const host = name.match(/^([a-z0-9-]+\.[a-z]+)_([^_.]+)_([^_.]+)(_v\d+)?/);
  if (host) key = `${host[1]}/${host[2]}/${host[3]}${host[4] ? "/" + host[4].slice(1) : ""}`;
  else key = "std:" + name.slice(0, name.indexOf(".") > 0 ? name.indexOf(".") : name.length);
  byPkg.set(key, (byPkg.get(key) ?? 0) + s);
});
const total = codeSizes.reduce((a, b) => a + b, 0);
console.log(`code: ${(total / 1e6).toFixed(2)} MB in ${codeSizes.length} functions`);
for (const [k, v] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${(v / 1e6).toFixed(2).padStart(7)} MB  ${k}`);
}
