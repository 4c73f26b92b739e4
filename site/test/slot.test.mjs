// Tests of the shared answer slot (src/lib/slot.js) that the loader and the
// core's worker use: run by scripts/test-site (node --test site/test/).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Worker } from "node:worker_threads";
import { newSlot, expect, offer, collect } from "../src/lib/slot.js";

const answer = (...bodies) => ({ ms: 1.5, results: bodies.map((body, i) => ({ ok: i % 2 === 0, body, ms: i + 0.25 })) });

test("the slot hands over exactly the answers it was asked for", () => {
  const cases = [
    { name: "one answer", expect: 7, offer: 7, answer: answer('{"valid":true}'), taken: true },
    { name: "several answers, not all ok", expect: 8, offer: 8, answer: answer('{"a":1}', '{"error":{}}', "{}"), taken: true },
    { name: "text beyond ASCII", expect: 9, offer: 9, answer: answer('{"m":"ü π 😀 \\u0000"}', "ж".repeat(1000)), taken: true },
    { name: "no answers", expect: 10, offer: 10, answer: answer(), taken: true },
    { name: "another call's answer", expect: 11, offer: 12, answer: answer("{}"), taken: false },
    { name: "an answer larger than the slot", expect: 13, offer: 13, answer: answer("x".repeat(5000)), taken: false, bytes: 4096 },
    { name: "just larger, in multi-byte text", expect: 14, offer: 14, answer: answer("é".repeat(2041)), taken: false, bytes: 4096 },
    { name: "too many answers for the slot", expect: 15, offer: 15, answer: answer(...Array(300).fill("")), taken: false, bytes: 4096 },
  ];
  for (const c of cases) {
    const buf = newSlot(c.bytes);
    expect(buf, c.expect);
    assert.equal(offer(buf, c.offer, c.answer), c.taken, c.name + ": offer");
    const got = collect(buf, c.expect, 0, { grace: 0 });
    assert.deepEqual(got, c.taken ? c.answer : null, c.name + ": collect");
    // Once handed over or given up, the same answer is not offered again.
    assert.equal(offer(buf, c.offer, c.answer), false, c.name + ": offered twice");
  }
});

test("an answer the page stopped waiting for is posted instead", () => {
  const buf = newSlot();
  expect(buf, 3);
  assert.equal(collect(buf, 3, 0, { grace: 0 }), null);
  assert.equal(offer(buf, 3, answer("{}")), false);
});

test("a slot nobody marked takes no answer", () => {
  assert.equal(offer(newSlot(), 1, answer("{}")), false);
});

// With the worker on another thread, whatever the timing, each answer
// arrives exactly once: taken from the slot, or refused there (and posted).
test("each answer is taken or posted, never both and never neither", async () => {
  const buf = newSlot(1 << 16);
  const w = new Worker(`
    const { parentPort, workerData } = require("node:worker_threads");
    import(workerData.slot).then(({ offer }) => {
      parentPort.on("message", ({ id, body, spin }) => {
        const t = Date.now() + spin;
        while (Date.now() < t); // an answer that takes a while
        parentPort.postMessage({ id, offered: offer(workerData.buf, id, { ms: 1, results: [{ ok: true, body, ms: 1 }] }) });
      });
      parentPort.postMessage("up");
    });
  `, { eval: true, workerData: { buf, slot: new URL("../src/lib/slot.js", import.meta.url).href } });
  try {
    const replies = [];
    let wake = null;
    w.on("message", (m) => { replies.push(m); if (wake) wake(); });
    const next = () => new Promise((resolve) => {
      const check = () => { if (replies.length) { wake = null; resolve(replies.shift()); } else wake = check; };
      check();
    });
    assert.equal(await next(), "up");
    let taken = 0;
    for (let id = 1; id <= 200; id++) {
      const body = JSON.stringify({ id, text: "é".repeat(id * 7) });
      expect(buf, id);
      w.postMessage({ id, body, spin: id % 3 });
      // Every fifth call is waited for long enough that only a stalled
      // machine leaves it to the message.
      const got = collect(buf, id, id % 5 === 0 ? 10000 : id % 4, { grace: 1 });
      const reply = await next();
      assert.equal(reply.id, id);
      assert.equal(reply.offered, got !== null, `call ${id}: offered ${reply.offered}, taken ${got !== null}`);
      if (got) {
        taken++;
        assert.equal(got.results[0].body, body);
      }
    }
    assert.ok(taken > 0, "no answer was ever taken from the slot");
  } finally {
    await w.terminate();
  }
});
