// Unit tests of the answers kept for the next visit's first preview
// (site/src/lib/persist-preview.js). The browser suite
// (storedpreview_test.go) checks them on the real page.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  PREVIEW_KEY, PREVIEW_MAX_CHARS, coreIdentity, createPreviewKeeper, encodePreview, readPreview,
} from "../src/lib/persist-preview.js";
import { wireKey } from "../src/calls.js";

function memory() {
  const store = new Map();
  return {
    store,
    getItem: (k) => (store.has(k) ? store.get(k) : null),
    setItem: (k, v) => store.set(k, String(v)),
    removeItem: (k) => store.delete(k),
  };
}

const calls = [["effective", { text: "{}", format: "" }]];
const key = wireKey(calls);
const CORE = "v1 full=subplay-full.abc.wasm";
const answer = (value, ok = true) => ({ ok, value, body: JSON.stringify(value) });
const good = [answer({ diagnostics: [{ severity: "warning", code: "w", message: "m" }], rows: [] })];

test("answers kept are read back for the same calls and core only", () => {
  const s = memory();
  s.setItem(PREVIEW_KEY, encodePreview(key, CORE, good));
  assert.deepEqual(readPreview(s, key, CORE), [{ ok: true, value: good[0].value }]);
  for (const [name, k, c] of [
    ["other calls", wireKey([["effective", { text: "{ }", format: "" }]]), CORE],
    ["another core", key, "v2 full=subplay-full.def.wasm"],
    ["no core", key, ""],
  ]) {
    assert.equal(readPreview(s, k, c), null, name);
  }
});

test("bad, foreign or oversized entries are ignored, never thrown", () => {
  const entry = (results) => JSON.stringify({ key, core: CORE, at: 1, results });
  const throwing = { getItem: () => { throw new Error("SecurityError"); } };
  assert.equal(readPreview(throwing, key, CORE), null, "storage refused");
  for (const [name, text] of [
    ["not JSON", "{"],
    ["null", "null"],
    ["a number", "7"],
    ["no results", JSON.stringify({ key, core: CORE })],
    ["too many results", entry([{ ok: true, value: { diagnostics: [] } }, { ok: true, value: {} }])],
    ["no value", entry([{ ok: true }])],
    ["ok not a boolean", entry([{ ok: "yes", value: { diagnostics: [] } }])],
    ["diagnostics not a list", entry([{ ok: true, value: { diagnostics: "x" } }])],
    ["an error without a message", entry([{ ok: false, value: { error: {} } }])],
    ["oversized", entry([{ ok: true, value: { diagnostics: [], pad: "x".repeat(PREVIEW_MAX_CHARS) } }])],
  ]) {
    const s = memory();
    s.setItem(PREVIEW_KEY, text);
    assert.equal(readPreview(s, key, CORE), null, name);
  }
});

test("transient, textless or oversized answers are not kept", () => {
  const err = (code) => answer({ error: { code, message: "m" } }, false);
  for (const [name, results] of [
    ["loading", [err("loading")]],
    ["crashed", [err("crashed")]],
    ["needs-module", [err("needs-module")]],
    ["no text", [{ ok: true, value: { diagnostics: [] } }]],
    ["none", []],
    ["oversized", [answer({ diagnostics: [], pad: "x".repeat(PREVIEW_MAX_CHARS) })]],
  ]) {
    assert.equal(encodePreview(key, CORE, results), null, name);
  }
  // An answer the user's input earned (a refused document) is kept.
  assert.notEqual(encodePreview(key, CORE, [err("document-too-large")]), null);
});

test("the keeper writes the latest answers once quiet, and survives refused storage", async () => {
  const s = memory();
  const keeper = createPreviewKeeper({ storage: s, core: CORE, wait: 5, idle: null });
  keeper.keep([["effective", { text: "a" }]], good);
  keeper.keep(calls, good);
  assert.equal(s.store.size, 0);
  await new Promise((r) => setTimeout(r, 30));
  assert.deepEqual(readPreview(s, key, CORE), [{ ok: true, value: good[0].value }]);
  // Too large now: the older entry goes too.
  keeper.keep(calls, [answer({ diagnostics: [], pad: "x".repeat(PREVIEW_MAX_CHARS) })]);
  keeper.flush();
  assert.equal(s.getItem(PREVIEW_KEY), null);
  const full = { ...memory(), setItem: () => { throw new Error("QuotaExceededError"); } };
  const k2 = createPreviewKeeper({ storage: full, core: CORE, wait: 5, idle: null });
  k2.keep(calls, good);
  assert.doesNotThrow(() => k2.flush());
});

test("the core's identity changes with its version and with any build's file", () => {
  const m = { version: "v1", wasm: { full: { file: "subplay-full.a.wasm" }, min: { file: "subplay-min.b.wasm" } } };
  const id = coreIdentity(m);
  assert.notEqual(id, "");
  assert.notEqual(coreIdentity({ ...m, version: "v2" }), id);
  assert.notEqual(coreIdentity({ ...m, wasm: { ...m.wasm, min: { file: "subplay-min.c.wasm" } } }), id);
  assert.equal(coreIdentity(null), "");
});
