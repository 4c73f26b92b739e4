// Unit tests of modules.js startCore, the page's start-up order (the small
// build answers first, the full one takes over), with stand-ins for
// loader.js's builds; run with Node's test runner by scripts/test-site.
import { test } from "node:test";
import assert from "node:assert/strict";
import { startCore, QUICK_MODULE, PAGE_MODULES, NEEDS_MODULE } from "../src/modules.js";

// fakeBuild stands for a loaded build: it answers each call with
// {ok, value: {by: name, op}}, or with answer(op) when given, and
// records the calls it got and whether it was stopped.
function fakeBuild(name, { ops = null, answer = null } = {}) {
  const b = new EventTarget();
  Object.assign(b, {
    name, version: "v", timing: { compile: name === QUICK_MODULE ? 1 : 2 }, calls: [], stopped: false, spin: 8,
    answered: { shared: 0, posted: 0 },
    has: (op) => !ops || ops.includes(op),
    async batch(calls) {
      if (b.stopped) throw new Error(`${name} was stopped`);
      b.calls.push(...calls.map((c) => c[0]));
      return calls.map(([op]) => (answer && answer(op)) || { ok: true, value: { by: name, op } });
    },
    terminate() { b.stopped = true; },
  });
  return b;
}

// loads returns load(options) for startCore, whose builds arrive when the
// test resolves them (or fail when it rejects them).
function loads() {
  const pending = {};
  const asked = [];
  const load = ({ module }) => {
    asked.push(module);
    return new Promise((resolve, reject) => { pending[module] = { resolve, reject }; });
  };
  return { load, pending, asked };
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const full = PAGE_MODULES[0];

test("the small build is loaded first and answers validate and effective alone", async () => {
  const { load, pending, asked } = loads();
  const core = startCore(load);
  await tick();
  assert.deepEqual(asked, [QUICK_MODULE], "the full build waits until the small one is up");
  const quick = fakeBuild(QUICK_MODULE, { ops: ["validate", "effective", "filter"] });
  pending[QUICK_MODULE].resolve(quick);
  const sp = await core;
  await tick();
  assert.deepEqual(asked, [QUICK_MODULE, full]);
  assert.equal(sp.timing, quick.timing, "the timing is the first answer's build's");
  assert.equal(sp.name, QUICK_MODULE);
  const rs = await sp.batch([["effective", "{}"]]);
  assert.equal(rs[0].value.by, QUICK_MODULE);
  assert.equal(sp.has("schema"), true, "until the full build is up, every operation is taken");
});

test("other calls wait for the full build, which then answers everything and stops the small one", async () => {
  const { load, pending } = loads();
  const core = startCore(load);
  const quick = fakeBuild(QUICK_MODULE, { ops: ["validate", "effective", "filter"] });
  pending[QUICK_MODULE].resolve(quick);
  const sp = await core;
  await tick();
  let filterAnswer = null;
  const filter = sp.batch([["validate", "{}"], ["filter", "{}"]]).then((rs) => { filterAnswer = rs; });
  const effective = await sp.batch([["effective", "{}"]]);
  await tick();
  assert.equal(effective[0].value.by, QUICK_MODULE);
  assert.equal(filterAnswer, null, "a filter call is not answered by the small build");
  assert.deepEqual(quick.calls, ["effective"]);
  const f = fakeBuild(full, { ops: ["validate", "effective", "filter", "schema"] });
  pending[full].resolve(f);
  await filter;
  assert.deepEqual(filterAnswer.map((r) => r.value.by), [full, full]);
  assert.equal(quick.stopped, true, "the small build is stopped once the full one is up");
  assert.equal((await sp.batch([["effective", "{}"]]))[0].value.by, full);
  assert.equal(sp.has("schema"), true);
  assert.equal(sp.mainTiming, f.timing);
  assert.equal(sp.name, full, "the router forwards refusals by the build answering now");
});

test("the small build is stopped only once its calls in flight have their answers", async () => {
  const { load, pending } = loads();
  const core = startCore(load);
  const quick = fakeBuild(QUICK_MODULE);
  let release;
  const held = new Promise((r) => { release = r; });
  const batch = quick.batch;
  quick.batch = async (calls) => { await held; return batch(calls); };
  pending[QUICK_MODULE].resolve(quick);
  const sp = await core;
  await tick();
  const answer = sp.batch([["validate", "{}"]]);
  pending[full].resolve(fakeBuild(full));
  await tick();
  assert.equal(quick.stopped, false, "stopped with a call in flight");
  release();
  assert.equal((await answer)[0].value.by, QUICK_MODULE);
  assert.equal(quick.stopped, true);
});

test("a needs-module answer of the small build is asked of the full build", async () => {
  const { load, pending } = loads();
  const core = startCore(load);
  const refuse = () => ({ ok: false, value: { error: { code: NEEDS_MODULE, message: "no" } } });
  pending[QUICK_MODULE].resolve(fakeBuild(QUICK_MODULE, { answer: refuse }));
  const sp = await core;
  await tick();
  const answer = sp.batch([["validate", "{}"]]);
  pending[full].resolve(fakeBuild(full));
  assert.equal((await answer)[0].value.by, full);
});

test("without the full build the small one answers what waits, and without the small one the full one is the core", async () => {
  let { load, pending } = loads();
  let core = startCore(load);
  const quick = fakeBuild(QUICK_MODULE, { ops: ["validate", "effective"] });
  pending[QUICK_MODULE].resolve(quick);
  let sp = await core;
  await tick();
  const waiting = sp.batch([["filter", "{}"]]);
  pending[full].reject(new Error("offline"));
  assert.equal((await waiting)[0].value.by, QUICK_MODULE);
  assert.equal(sp.has("schema"), false, "once the full build failed, has is the small build's");
  assert.equal(quick.stopped, false);

  ({ load, pending } = loads());
  core = startCore(load);
  pending[QUICK_MODULE].reject(new Error("no min"));
  await tick();
  const f = fakeBuild(full);
  pending[full].resolve(f);
  sp = await core;
  assert.equal(sp, f);
});

test("crash and recover events of either build reach the page", async () => {
  const { load, pending } = loads();
  const core = startCore(load);
  const quick = fakeBuild(QUICK_MODULE);
  pending[QUICK_MODULE].resolve(quick);
  const sp = await core;
  const seen = [];
  sp.addEventListener("crash", (e) => seen.push(e.detail.message));
  quick.dispatchEvent(new CustomEvent("crash", { detail: { message: "min died" } }));
  const f = fakeBuild(full);
  pending[full].resolve(f);
  await tick();
  f.dispatchEvent(new CustomEvent("crash", { detail: { message: "full died" } }));
  assert.deepEqual(seen, ["min died", "full died"]);
});
