// format.js turns values from the core into short display strings. It adds
// no knowledge of its own: bounds, defaults and units come with the data.
import { h } from "./dom.js";

const units = [[86400, "day"], [3600, "hour"], [60, "minute"], [1, "second"]];

/** human renders a REST duration ("604800s") as "7 days"; else "". */
export function human(d) {
  const m = /^(\d+)(?:\.\d+)?s$/.exec(typeof d === "string" ? d : "");
  if (!m) return "";
  const s = Number(m[1]);
  if (s === 0) return "0 seconds";
  for (const [n, name] of units) {
    if (s % n === 0) return `${s / n} ${name}${s / n === 1 ? "" : "s"}`;
  }
  return "";
}

/** value renders any JSON value compactly. */
export function value(v) {
  if (v === undefined) return "";
  if (typeof v === "string") return v;
  return JSON.stringify(v);
}

/** severityLabel is the word screen readers hear for a severity. */
export function severityLabel(s) {
  return s === "error" ? "Error" : s === "warning" ? "Warning" : "Info";
}

/** position renders "line 3, column 14" or "" for a diagnostic. */
export function position(d) {
  if (!d.line) return "";
  return d.column ? `${d.line}:${d.column}` : `${d.line}`;
}

/** jsonBlock shows a value as indented JSON, as text. */
export function jsonBlock(v, label) {
  return h("pre", { class: "code", tabindex: "0", "aria-label": label || "JSON" }, JSON.stringify(v, null, 2));
}

/** bytes renders a byte count. */
export function bytes(n) {
  if (typeof n !== "number") return String(n ?? "");
  if (n < 1024) return `${n} B`;
  if (n < 1 << 20) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1 << 20)).toFixed(1)} MiB`;
}

/**
 * breakable returns text as nodes that may wrap after a separator ("/",
 * "_", ".", "-") or between the words of a camelCase name, so that a
 * resource or field name breaks between its parts, never inside a word.
 */
export function breakable(text) {
  const parts = String(text).split(/(?<=[/_.\-])|(?<=[a-z])(?=[A-Z])/);
  return parts.flatMap((p, i) => (i ? [h("wbr"), p] : [p]));
}
