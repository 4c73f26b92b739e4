// Unit tests of the diagnostics list's order and routing (site/src/lib/diaglist.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { ordered, summary, messageIndex, inputOf, itemKeys } from "../src/lib/diaglist.js";

test("what blocks comes first, then by position", () => {
  const ds = [
    { severity: "info", code: "i1", line: 1 },
    { severity: "warning", code: "w1", line: 2 },
    { severity: "info", code: "i2", line: 3 },
    { severity: "error", code: "e2", line: 9 },
    { severity: "error", code: "e1", line: 4, column: 2 },
  ];
  assert.deepEqual(ordered(ds).map((d) => d.code), ["e1", "e2", "w1", "i1", "i2"]);
  assert.equal(summary(ds), "2 errors, 1 warning, 2 info notes");
  assert.equal(summary([]), "none");
  assert.equal(summary([{ severity: "info" }]), "1 info note");
});

test("which message a finding is about: the core's field, else the path", () => {
  const cases = [
    [{ message: 2, path: "/0/data" }, 2],
    [{ path: "/3/data" }, 3],
    [{ path: "/messages/1/attributes/k" }, 1],
    [{ path: "/12" }, 12],
    [{ path: "/topic" }, -1],
    [{}, -1],
  ];
  for (const [d, want] of cases) assert.equal(messageIndex(d), want, JSON.stringify(d));
});

test("which text a finding is about", () => {
  const cases = [
    [{ input: "messages", path: "/topic" }, "messages"],
    [{ path: "/topicSchema/fields" }, "topicSchema"],
    [{ path: "/tableSchema/0" }, "tableSchema"],
    [{ path: "/messages/0" }, "messages"],
    [{ path: "/ackDeadlineSeconds" }, "config"],
  ];
  for (const [d, want] of cases) assert.equal(inputOf(d, "config"), want, JSON.stringify(d));
});

test("an item is drawn again only when what it shows changes", () => {
  const a = { severity: "error", code: "e1", line: 4, message: "m" };
  const label = (d) => (d.line === 4 ? "Message 1" : "");
  const [k1, k2, k3] = itemKeys([a, { ...a }, { ...a, line: 5 }], label, true);
  assert.equal(k1, k2, "equal findings");
  assert.notEqual(k1, k3, "another line");
  assert.notEqual(itemKeys([a], label, true)[0], itemKeys([a], null, true)[0], "another label");
  assert.notEqual(itemKeys([a], null, true)[0], itemKeys([a], null, false)[0], "a button or not");
});
