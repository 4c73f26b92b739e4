// diaglist.js lists diagnostics beside an editor. Each one is a button:
// activating it moves the editor's selection to the span it names.
import { h, replace } from "./dom.js";
import { position, severityLabel } from "./format.js";

/**
 * renderDiagnostics fills list (a <ul>) with ds. onJump(d) is called when
 * one with a position is activated. count (optional) gets a summary.
 */
export function renderDiagnostics(list, ds, onJump, count) {
  ds = ds || [];
  const key = JSON.stringify(ds);
  if (list.subplayKey === key) return;
  list.subplayKey = key;
  if (count) {
    const e = ds.filter((d) => d.severity === "error").length;
    const w = ds.filter((d) => d.severity === "warning").length;
    count.textContent = ds.length === 0 ? "none" : `${e} error${e === 1 ? "" : "s"}, ${w} warning${w === 1 ? "" : "s"}, ${ds.length - e - w} info`;
  }
  if (ds.length === 0) {
    replace(list, h("li", { class: "diag-none" }, "No findings."));
    return;
  }
  replace(list, ds.map((d) => item(d, onJump)));
}

function item(d, onJump) {
  const pos = position(d);
  const body = [
    h("span", { class: `sev sev-${d.severity}` }, severityLabel(d.severity)),
    pos ? h("span", { class: "pos" }, pos) : null,
    h("span", { class: "msg" }, d.message),
    d.hint ? h("span", { class: "hint" }, d.hint) : null,
    h("span", { class: "code-id" }, d.code + (d.path ? " · " + d.path : "")),
  ];
  const li = h("li", { class: `diag diag-${d.severity}`, dataset: { code: d.code, line: d.line || "" } });
  if (pos && onJump) {
    li.append(h("button", {
      type: "button",
      class: "diag-jump",
      "aria-label": `${severityLabel(d.severity)} at line ${d.line}, column ${d.column || 1}: ${d.message}. Go there.`,
      onclick: () => onJump(d),
    }, body));
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
