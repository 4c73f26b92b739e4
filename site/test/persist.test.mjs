// Unit tests of the page's autosave (site/src/lib/persist.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createSaver, idleWriter, chooseOpening, readSaved, ago, SAVE_KEY, ASIDE_KEY } from "../src/lib/persist.js";

function fakes(hash = "") {
  const store = new Map();
  const storage = {
    getItem: (k) => (store.has(k) ? store.get(k) : null),
    setItem: (k, v) => store.set(k, String(v)),
    removeItem: (k) => store.delete(k),
  };
  const location = { pathname: "/", search: "", hash };
  const urls = [];
  const history = {
    replaceState: (_s, _t, url) => {
      urls.push(url);
      location.hash = url.includes("#") ? url.slice(url.indexOf("#")) : "";
    },
  };
  return { storage, location, history, urls };
}

const encode = async (s) => "z=" + s.config;

// fakeIdle stands for requestIdleCallback: the writes it was given wait in
// queued until the test runs them.
function fakeIdle() {
  const queued = [];
  const idle = (fn) => {
    queued.push(fn);
    return () => {
      const i = queued.indexOf(fn);
      if (i >= 0) queued.splice(i, 1);
    };
  };
  return { idle, queued };
}

const quiet = () => new Promise((r) => setTimeout(r, 30));

test("edits reach the URL and storage once typing pauses, the last one winning", async () => {
  const f = fakes();
  const saver = createSaver({ encode, isDefault: (s) => s.config === "default", ...f, wait: 5 });
  for (const c of ["a", "ab", "abc"]) saver.save({ config: c });
  assert.deepEqual(f.urls, []);
  await new Promise((r) => setTimeout(r, 30));
  assert.deepEqual(f.urls, ["/#z=abc"]);
  assert.equal(readSaved(f.storage).frag, "z=abc");
});

test("back to the defaults: a bare URL and nothing saved", async () => {
  const f = fakes("#z=x");
  f.storage.setItem(SAVE_KEY, JSON.stringify({ frag: "z=x", at: 1 }));
  const saver = createSaver({ encode, isDefault: (s) => s.config === "default", ...f });
  saver.save({ config: "default" });
  await saver.flush();
  assert.deepEqual(f.urls, ["/"]);
  assert.equal(readSaved(f.storage), null);
});

test("a refused storage does not lose the URL", async () => {
  const f = fakes();
  f.storage.setItem = () => { throw new Error("QuotaExceededError"); };
  const saver = createSaver({ encode, isDefault: () => false, ...f });
  saver.save({ config: "q" });
  assert.equal(await saver.flush(), "z=q");
  assert.deepEqual(f.urls, ["/#z=q"]);
});

test("saved work that is not ours reads as none", () => {
  const f = fakes();
  for (const v of ["not json", "null", '{"frag": 3, "at": 1}', '{"frag": "z=a"}']) {
    f.storage.setItem(SAVE_KEY, v);
    assert.equal(readSaved(f.storage), null, v);
  }
});

test("ago", () => {
  const cases = [[0, "just now"], [45e3, "45 seconds ago"], [60e3, "1 minute ago"], [7200e3, "2 hours ago"], [3 * 86400e3, "3 days ago"]];
  for (const [d, want] of cases) assert.equal(ago(1e9, 1e9 + d), want);
});

test("the write waits for an idle moment; flush does not", async () => {
  const f = fakes();
  const { idle, queued } = fakeIdle();
  const saver = createSaver({ encode, isDefault: () => false, ...f, wait: 5, idle });
  saver.save({ config: "a" });
  await new Promise((r) => setTimeout(r, 30));
  assert.deepEqual(f.urls, [], "written before the page was idle");
  assert.equal(queued.length, 1);
  await queued.shift()();
  assert.deepEqual(f.urls, ["/#z=a"]);
  saver.save({ config: "b" });
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(queued.length, 1);
  await saver.flush();
  assert.deepEqual(f.urls, ["/#z=a", "/#z=b"]);
  assert.equal(queued.length, 0, "flush cancels the idle write");
});

test("flush waits for a write the idle moment began; writes end in order", async () => {
  // encode answers when the test says: the idle write is still compressing
  // when Share calls flush (a share link once read the address bar then,
  // before the state was in it).
  const f = fakes();
  const { idle, queued } = fakeIdle();
  const gates = new Map();
  const slow = (s) => new Promise((r) => gates.set(s.config, () => r("z=" + s.config)));
  const saver = createSaver({ encode: slow, isDefault: () => false, ...f, wait: 5, idle });
  saver.save({ config: "a" });
  await quiet();
  queued.shift()();
  await null;
  assert.ok(gates.has("a"), "the idle write began");
  let flushed = null;
  const done = saver.flush().then((frag) => { flushed = frag; });
  await quiet();
  assert.equal(flushed, null, "flush answered before the write under way ended");
  gates.get("a")();
  await done;
  assert.equal(flushed, "z=a");
  assert.deepEqual(f.urls, ["/#z=a"]);

  // A later write whose encoding ends first still lands last.
  saver.save({ config: "b" });
  await quiet();
  queued.shift()();
  await null;
  saver.save({ config: "c" });
  const both = saver.flush();
  await quiet();
  assert.ok(!gates.has("c"), "the second write waits for the first to end");
  gates.get("b")();
  await quiet();
  gates.get("c")();
  assert.equal(await both, "z=c");
  assert.deepEqual(f.urls, ["/#z=a", "/#z=b", "/#z=c"]);
});

test("idleWriter: the last value, once quiet, when idle; flush, drop and cancel", async () => {
  // A step is a value to schedule, or "wait" (past the quiet time),
  // "idle" (the page idles: the queued write runs), "flush" or "drop".
  for (const [name, steps, want, queuedAfter = 0] of [
    ["the last of a burst, once the page is idle", ["a", "ab", "abc", "wait", "idle"], ["abc"]],
    ["nothing before the page is idle", ["a", "ab", "wait"], [], 1],
    ["nothing before the quiet time", ["a"], []],
    ["flush writes now and cancels the idle write", ["b", "wait", "flush"], ["b"]],
    ["flush before the quiet time cancels the timer", ["c", "flush", "wait"], ["c"]],
    ["drop forgets the pending value", ["d", "drop", "wait"], []],
    ["drop cancels the idle write", ["e", "wait", "drop"], []],
    ["a value is written once", ["f", "flush", "flush", "wait"], ["f"]],
    ["with nothing pending, flush writes nothing", ["flush"], []],
  ]) {
    const written = [];
    const { idle, queued } = fakeIdle();
    const w = idleWriter((v) => written.push(v), { wait: 5, idle });
    for (const step of steps) {
      if (step === "wait") await quiet();
      // A real deadline: the write must not take it for the value.
      else if (step === "idle") queued.shift()({ timeRemaining: () => 50, didTimeout: false });
      else if (step === "flush" || step === "drop") w[step]();
      else w.schedule(step);
    }
    assert.deepEqual(written, want, name);
    assert.equal(queued.length, queuedAfter, name + ": idle writes queued");
  }
  const w = idleWriter((v) => "wrote " + v, { wait: 5, idle: null });
  assert.equal(w.flush(), undefined, "flush with nothing pending");
  w.schedule("x");
  assert.equal(w.flush(), "wrote x", "flush gives what write returns");
  // Without idle the write follows the quiet time at once.
  const now = [];
  const direct = idleWriter((v) => now.push(v), { wait: 5, idle: null });
  direct.schedule("y");
  await quiet();
  assert.deepEqual(now, ["y"]);
});

test("chooseOpening: the link, else the saved work, else the default", () => {
  const work = { frag: "z=mine", at: 1 };
  const aside = { frag: "z=aside", at: 2 };
  for (const [name, hash, stored, want] of [
    ["a link over saved work", "#z=link", { [SAVE_KEY]: work }, { from: "link", frag: "#z=link", saved: work }],
    ["a link, nothing saved", "#z=link", {}, { from: "link", frag: "#z=link", saved: null }],
    ["saved work", "", { [SAVE_KEY]: work, [ASIDE_KEY]: aside }, { from: "saved", frag: "#z=mine", saved: work }],
    ["work a link put aside", "", { [ASIDE_KEY]: aside }, { from: "saved", frag: "#z=aside", saved: aside }],
    ["a bare # is no link", "#", { [SAVE_KEY]: work }, { from: "saved", frag: "#z=mine", saved: work }],
    ["saved work not ours", "", { [SAVE_KEY]: { frag: 3 } }, { from: "default", frag: "", saved: null }],
    ["nothing", "", {}, { from: "default", frag: "", saved: null }],
  ]) {
    const f = fakes();
    for (const [k, v] of Object.entries(stored)) f.storage.setItem(k, JSON.stringify(v));
    assert.deepEqual(chooseOpening(f.storage, hash), want, name);
  }
});
