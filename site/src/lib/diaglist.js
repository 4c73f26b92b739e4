// diaglist.js lists diagnostics beside an editor, what blocks first: the
// errors, then the warnings, each in text order, then the info notes,
// folded away behind a count (they are consequences worth knowing, not
// problems). Each finding with a position is a button that moves the
// editor's selection to the span it names.
import { h, replace } from "./dom.js";
import { position, severityLabel } from "./format.js";

const rank = { error: 0, warning: 1 };

/** ordered returns ds sorted by severity (error, warning, info), then position. */
export function ordered(ds) {
  const r = (d) => rank[d.severity] ?? 2;
  return [...(ds || [])].sort((a, b) => r(a) - r(b) || (a.line || 0) - (b.line || 0) || (a.column || 0) - (b.column || 0));
}

/** counts returns how many errors, warnings and infos ds holds. */
export function counts(ds) {
  const c = { error: 0, warning: 0, info: 0 };
  for (const d of ds || []) c[d.severity in rank ? d.severity : "info"]++;
  return c;
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** summary says "2 errors, 1 warning, 6 info notes" (only what is there), or "none". */
export function summary(ds) {
  const c = counts(ds);
  const parts = [];
  if (c.error) parts.push(plural(c.error, "error"));
  if (c.warning) parts.push(plural(c.warning, "warning"));
  if (c.info) parts.push(plural(c.info, "info note"));
  return parts.length ? parts.join(", ") : "none";
}

/**
 * renderDiagnostics fills list (a <ul>) with ds. onJump(d) is called when
 * one with a position is activated. count (optional) gets the summary.
 * opts.label(d) may return a short prefix naming what a finding is about
 * (e.g. "Message 2").
 */
export function renderDiagnostics(list, ds, onJump, count, opts = {}) {
  ds = ds || [];
  const key = JSON.stringify(ds);
  // The buttons call the latest onJump, also from items drawn before.
  list.subplayJump = onJump;
  if (list.subplayKey === key) return;
  list.subplayKey = key;
  if (count) count.textContent = summary(ds);
  if (ds.length === 0) {
    list.subplayItems = null;
    replace(list, h("li", { class: "diag-none" }, "No findings."));
    return;
  }
  const all = ordered(ds);
  const blocking = all.filter((d) => d.severity in rank);
  const infos = all.slice(blocking.length);
  // Only what changed is drawn anew: an edit usually adds or removes one
  // finding and leaves the others as they were (itemKeys).
  const old = list.subplayItems || new Map();
  const drawn = new Map();
  const jump = onJump ? (d) => list.subplayJump && list.subplayJump(d) : null;
  const items = (group) => itemKeys(group, opts.label, !!onJump).map((k, i) => {
    const li = old.get(k)?.pop() || item(group[i], jump, opts.label);
    if (!drawn.has(k)) drawn.set(k, []);
    drawn.get(k).push(li);
    return li;
  });
  list.subplayItems = drawn;
  // The fold keeps its open state across edits: reading the notes and
  // typing at once must not close them.
  const wasOpen = list.querySelector("details.diag-infos")?.open || false;
  replace(list,
    items(blocking),
    infos.length ? h("li", { class: "diag-fold" }, h("details", { class: "diag-infos", open: wasOpen },
      h("summary", null, `${plural(infos.length, "info note")}: consequences worth knowing, nothing to fix`),
      h("ul", { class: "diag-list" }, items(infos)))) : null);
}

/**
 * itemKeys returns, for each finding of ds, a key that is equal for two
 * findings exactly when they are drawn the same: the finding, what
 * label(d) says about it, and whether it can be jumped to. Two equal
 * findings have equal keys; renderDiagnostics keeps a list of items per key.
 */
export function itemKeys(ds, label, jumps) {
  return ds.map((d) => JSON.stringify([d, label ? label(d) : "", jumps]));
}

function item(d, onJump, label) {
  const pos = position(d);
  const about = label ? label(d) : "";
  // The visible text is the accessible name: a screen reader hears what a
  // sighted user reads, in the same order.
  const body = [
    h("span", { class: `sev sev-${d.severity}` }, severityLabel(d.severity)),
    pos ? h("span", { class: "pos" }, h("span", { class: "visually-hidden" }, "line "), pos) : h("span", { class: "pos" }),
    h("span", { class: "msg" }, about ? h("strong", null, about + ": ") : null, d.message),
    d.hint ? h("span", { class: "hint" }, d.hint) : null,
    h("span", { class: "code-id" }, d.code + (d.path ? " · " + d.path : "")),
  ];
  const li = h("li", { class: `diag diag-${d.severity}`, dataset: { code: d.code, line: d.line || "", severity: d.severity } });
  if (pos && onJump) {
    li.append(h("button", { type: "button", class: "diag-jump", title: "Show in the editor", onclick: () => onJump(d) }, body));
  } else {
    li.append(h("div", { class: "diag-jump" }, body));
  }
  return li;
}

/**
 * notIn drops the diagnostics already listed in seen (the configuration's
 * own list), so a panel shows only what its operation adds.
 */
export function notIn(ds, seen) {
  const key = (d) => `${d.code} ${d.path || ""} ${d.line || 0}:${d.column || 0}`;
  const have = new Set((seen || []).map(key));
  return (ds || []).filter((d) => !have.has(key(d)));
}

/**
 * messageIndex says which sample message a finding concerns (0-based), or
 * -1: the core's "message" field when it sends one, else the first index
 * of its JSON pointer ("/2/data", "/messages/2/data").
 */
export function messageIndex(d) {
  if (Number.isInteger(d.message)) return d.message;
  const m = /^\/(?:messages\/)?(\d+)(?:\/|$)/.exec(d.path || "");
  return m ? Number(m[1]) : -1;
}

/**
 * inputOf says which text a finding is about: the core's "input" field
 * when it sends one ("config", "messages", "topicSchema", "tableSchema",
 * "filter"), else what its path says; fallback when the path says nothing.
 */
export function inputOf(d, fallback) {
  if (typeof d.input === "string" && d.input) return d.input;
  const p = d.path || "";
  if (p.startsWith("/topicSchema")) return "topicSchema";
  if (p.startsWith("/tableSchema")) return "tableSchema";
  if (p.startsWith("/messages")) return "messages";
  return fallback;
}
