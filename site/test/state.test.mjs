// Unit tests of the page's pure modules (share-link state, positions), run
// with Node's test runner by scripts/test-site: node --test site/test/
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { Text } from "@codemirror/state";
import { encode, decode, normalize, upgrade, defaults, CURRENT } from "../src/lib/state.js";
import { offsetOf, rangeOf } from "../src/lib/editor.js";

test("a state survives a share link", async () => {
  const s = { ...defaults(), config: "topic: projects/p/topics/t\nfilter: 'attributes:x'\n", format: "yaml", tab: "filter", filter: "attributes:y" };
  s.names = { ...s.names, time: "2024-05-01T12:00:00Z", uuid: "ü-π", count: 7, mode: "messages" };
  s.schema = { topic: '{"type":"record"}', table: "[]" };
  const frag = await encode(s);
  assert.match(frag, /^z=[A-Za-z0-9_-]+$/);
  const { state } = await decode("#" + frag);
  assert.deepEqual(state, normalize(s));
});

test("the v1 link in testdata keeps opening", async () => {
  const frag = fs.readFileSync(new URL("./testdata/share-v1.txt", import.meta.url), "utf8").trim();
  const config = fs.readFileSync(new URL("./testdata/share-v1.config", import.meta.url), "utf8");
  const { state } = await decode("#" + frag);
  assert.equal(state.config, config);
  assert.equal(state.tab, "filter");
  assert.equal(state.v, CURRENT);
});

test("plain parameters, as docs authors write them", async () => {
  const { state, params } = await decode("#widget=names&config=" + encodeURIComponent("{\"topic\": \"t\"}") + "&count=3&time=2024-05-01T00:00:00Z&theme=dark");
  assert.equal(state.config, "{\"topic\": \"t\"}");
  assert.equal(state.format, "");
  assert.equal(state.names.count, 3);
  assert.equal(state.names.time, "2024-05-01T00:00:00Z");
  assert.equal(params.get("widget"), "names");
  assert.equal(params.get("theme"), "dark");
});

const hostile = [
  ["not an object", 42],
  ["wrong types", { v: 1, config: 5, format: "<b>", tab: "nope", filter: {}, messages: [], names: { count: "9", time: 1 }, schema: "x" }],
  ["null names", { v: 1, names: null, schema: null }],
];
for (const [name, input] of hostile) {
  test(`normalize keeps a hostile state well-typed: ${name}`, () => {
    const s = normalize(input);
    const d = defaults();
    assert.equal(typeof s.config, "string");
    assert.ok(["", "json", "yaml"].includes(s.format));
    assert.ok(s.filter === null || typeof s.filter === "string");
    assert.equal(typeof s.names.count, "number");
    assert.equal(typeof s.schema.topic, "string");
    assert.deepEqual(Object.keys(s).sort(), Object.keys(d).sort());
  });
}

test("a link from a newer subplay is refused with a reason", () => {
  assert.throws(() => upgrade({ v: CURRENT + 1 }), /newer subplay/);
});

test("broken links fail cleanly", async () => {
  await assert.rejects(decode("#z=!!!"));
  await assert.rejects(decode("#z=" + Buffer.from("not deflate").toString("base64url")));
});

test("a link that inflates past the limit is refused", async () => {
  const big = JSON.stringify({ v: 1, config: "x".repeat(5 << 20) });
  const packed = Buffer.from(await new Response(new Blob([big]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer());
  await assert.rejects(decode("#z=" + packed.toString("base64url")), /4 MiB/);
});

const doc = Text.of(["{", '  "name": "π😀x",', "}"]);
const positions = [
  // [line, column (code points), offset (UTF-16)]
  ["line start", 1, 1, 0],
  ["second line", 2, 3, 4],
  ["a two-unit character", 2, 13, 2 + 12],
  ["after a two-unit character", 2, 14, 2 + 14],
  ["past the end of the line clamps", 2, 99, 2 + doc.line(2).length],
  ["past the last line clamps", 9, 1, doc.length],
];
for (const [name, line, column, want] of positions) {
  test(`offsetOf: ${name}`, () => {
    assert.equal(offsetOf(doc, line, column), want);
  });
}

test("rangeOf covers a word when there is no end", () => {
  const r = rangeOf(doc, { line: 2, column: 11 });
  assert.equal(doc.sliceString(r.from, r.to), '"π😀x"');
});

test("rangeOf uses the end when there is one", () => {
  const r = rangeOf(doc, { line: 2, column: 12, endLine: 2, endColumn: 15 });
  assert.equal(doc.sliceString(r.from, r.to), "π😀x");
});

test("rangeOf ignores diagnostics without a position", () => {
  assert.equal(rangeOf(doc, { line: 0 }), null);
});
