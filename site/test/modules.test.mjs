// Unit tests of the router (src/modules.js), run with Node's test runner
// by scripts/test-site: node --test site/test/. The builds are the ones
// scripts/build-wasm --list ships, with their real tags; sizes are made up
// in the order of the real ones (modules_test.go checks the router with the
// built modules).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createRouter, pickBuild, LOADING, NEEDS_MODULE } from "../src/modules.js";

const list = execFileSync(fileURLToPath(new URL("../../scripts/build-wasm", import.meta.url)), ["--list"], { encoding: "utf8" });
const order = ["min", "avro", "cel", "full", "extra"];
const builds = Object.fromEntries(list.trim().split(/\s+/).map((b) => {
  const [name, tags] = b.split(":");
  return [name, { tags, size: order.indexOf(name) + 1 }];
}));

test("the shipped builds are the ones this test knows the order of", () => {
  assert.deepEqual(Object.keys(builds).sort(), [...order].sort());
});

test("pickBuild takes the smallest build that has what the refusing one has and what it lacked", () => {
  const cases = [
    ["min", ["cel"], "cel"], // the names embed's filter preview
    ["avro", ["cel"], "full"], // the schema embed keeps Avro
    ["cel", ["avro"], "full"],
    ["min", ["avro", "cel"], "full"],
    ["min", ["avro"], "avro"],
    ["full", ["udf"], "extra"], // the page
    ["full", ["hcl"], "extra"],
    ["min", ["hcl"], "extra"],
    ["min", [], "extra"], // a refusal that names nothing goes to everything
    ["min", undefined, "extra"],
    ["extra", ["udf"], ""], // nothing has more
    ["nosuch", ["cel"], "extra"],
  ];
  for (const [from, needs, want] of cases) {
    assert.equal(pickBuild(builds, from, needs, "extra"), want, `${from} lacking ${needs}`);
  }
  // Without the build list (outside a bundle) everything goes to the last.
  assert.equal(pickBuild({}, "min", ["cel"], "extra"), "extra");
});

// fake is a build that refuses each operation in refuse with the needs
// given there, and answers the others with its own name.
function fake(name, refuse = {}) {
  return {
    name,
    has: () => true,
    batch: async (calls) => calls.map(([op]) => (refuse[op]
      ? { ok: false, value: { error: { code: NEEDS_MODULE, message: "no", needs: refuse[op] } } }
      : { ok: true, value: { by: name } })),
  };
}

test("the router loads the build that can answer, and goes on while builds refuse", async () => {
  const fakes = {
    min: fake("min", { names: ["cel"], schema: ["avro", "cel"], transform: ["udf"] }),
    cel: fake("cel", { schema: ["avro"] }),
    avro: fake("avro", { names: ["cel"] }),
    full: fake("full", { transform: ["udf"] }),
    extra: fake("extra"),
  };
  const loaded = [];
  let ready = 0;
  const router = createRouter({
    builds,
    load: async (name) => { loaded.push(name); return fakes[name]; },
    onReady: () => { ready++; },
  });
  router.setFirst(fakes.min);
  const calls = [["validate", {}], ["names", {}], ["schema", {}], ["transform", {}]];
  let rs = await router.run(calls);
  assert.deepEqual(rs[0], { ok: true, value: { by: "min" } });
  for (const r of rs.slice(1)) assert.equal(r.value.error.code, LOADING);
  // Let the loads settle, then ask again as the page does on onReady.
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(loaded.sort(), ["cel", "extra", "full"]);
  assert.equal(ready, 3);
  rs = await router.run(calls);
  assert.deepEqual(rs.map((r) => r.value.by), ["min", "cel", "full", "extra"]);

  // A build that refuses what it was picked for hands on to a bigger one.
  const chain = createRouter({ builds, load: async (name) => fakes[name] });
  chain.setFirst(fake("min", { schema: ["cel"] }));
  await chain.run([["schema", {}]]);
  await new Promise((r) => setTimeout(r, 0));
  rs = await chain.run([["schema", {}]]); // cel is there: it refuses, full loads
  assert.equal(rs[0].value.error.code, LOADING);
  await new Promise((r) => setTimeout(r, 0));
  rs = await chain.run([["schema", {}]]);
  assert.equal(rs[0].value.by, "full");
});

test("a build with everything keeps its refusals", async () => {
  const router = createRouter({ builds, next: "", load: async () => assert.fail("nothing to load") });
  router.setFirst(fake("extra", { schema: ["avro"] }));
  const [r] = await router.run([["schema", {}]]);
  assert.equal(r.value.error.code, NEEDS_MODULE);
});
