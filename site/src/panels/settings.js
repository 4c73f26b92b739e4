// settings.js is the effective-settings panel: every setting of the
// subscription with its value, whether the user set it or the service
// fills it in, the range the API accepts and one line of help. All of that
// comes from the core's "effective" operation (its rows carry the rule
// table's fields); the panel only lays it out.
import { h, patch, replace } from "../lib/dom.js";
import { breakable, human, value } from "../lib/format.js";

const deliveryNames = {
  pull: "Pull", push: "Push", bigquery: "BigQuery", cloudStorage: "Cloud Storage", bigtable: "Bigtable",
};

export function settingsPanel(root) {
  const summary = h("p", { class: "summary", role: "status" });
  const body = h("tbody");
  // Fixed column widths (colgroup, table-layout: fixed in the stylesheet):
  // a long value wraps inside its column instead of moving the others at
  // every edit.
  const table = h("table", { class: "settings" },
    h("caption", { class: "visually-hidden" }, "Effective settings"),
    h("colgroup", null, h("col", { class: "c-setting" }), h("col", { class: "c-value" }), h("col", { class: "c-origin" }), h("col", { class: "c-allowed" })),
    h("thead", null, h("tr", null,
      h("th", { scope: "col" }, "Setting"),
      h("th", { scope: "col" }, "Value"),
      h("th", { scope: "col" }, "Origin"),
      h("th", { scope: "col" }, "Allowed"),
    )),
    body);
  replace(root, summary, h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": "Effective settings, scrollable" }, table));
  let lastKey = null;

  return {
    // The base "effective" call serves this panel; it needs no other.
    requests: () => [],
    render({ effective }) {
      if (!effective || !effective.settings) return; // a "validate" answer, from another panel
      const key = JSON.stringify([effective.valid, effective.deliveryType, effective.settings]);
      if (key === lastKey) return;
      lastKey = key;
      const dt = deliveryNames[effective.deliveryType] || effective.deliveryType || "unknown";
      summary.textContent = effective.effective
        ? `${effective.valid ? "Valid" : "Not valid"}; delivery: ${dt}.`
        : "The configuration could not be read, so there are no settings to show; fix the errors listed under Diagnostics.";
      summary.className = "summary " + (effective.valid ? "ok" : "bad");
      // An object whose fields have rows of their own would only repeat
      // them in one line.
      const rows = effective.settings || [];
      const parents = new Set(rows.map((s) => s.path.slice(0, s.path.lastIndexOf("/"))));
      patch(body, inOrder(rows.filter((s) => !(s.field && s.field.kind === "object" && parents.has(s.path)))), (s) => JSON.stringify(s), row);
    },
  };
}

// inOrder puts the rows of the delivery type (push, BigQuery, Cloud
// Storage...) right after the topic, where gcloud prints them, instead of
// after the general settings; the rest keep the rule table's order.
export function inOrder(rows) {
  const isDelivery = (s) => !!(s.field && s.field.delivery);
  const delivery = rows.filter(isDelivery);
  const rest = rows.filter((s) => !isDelivery(s));
  const at = rest.findIndex((s) => s.path === "/topic");
  return at < 0 ? [...delivery, ...rest] : [...rest.slice(0, at + 1), ...delivery, ...rest.slice(at + 1)];
}

// shown renders a value: a map (labels, tags, attributes) as key=value
// chips, a resource name so that it wraps at its slashes, anything else
// as compact JSON.
function shown(v) {
  if (v && typeof v === "object" && !Array.isArray(v) && Object.values(v).every((x) => typeof x !== "object")) {
    const keys = Object.keys(v);
    if (!keys.length) return h("span", { class: "muted" }, "none");
    return h("span", { class: "chips" }, keys.map((k) => h("code", { class: "chip" }, k, "=", String(v[k]))));
  }
  return h("code", null, breakable(value(v)));
}

function row(s) {
  const f = s.field || {};
  const hasValue = s.value !== undefined && s.value !== "";
  const dur = f.kind === "duration" && hasValue ? human(s.value) : "";
  const origin = s.origin || "unset";
  return h("tr", { class: `origin-${origin}`, dataset: { path: s.path } },
    h("th", { scope: "row" },
      h("code", null, breakable(s.path.replace(/^\//, ""))),
      f.help ? h("small", { class: "help" }, breakable(f.help)) : null),
    h("td", { class: "value" }, hasValue ? shown(s.value) : h("span", { class: "muted" }, s.value === "" ? "empty" : f.defaultText || "not set"),
      dur ? h("small", { class: "muted" }, ` (${dur})`) : null),
    h("td", null, h("span", { class: `badge badge-${origin}` }, originText(origin))),
    h("td", { class: "range" }, allowed(f)));
}

function originText(o) {
  return { set: "set", default: "default", derived: "derived", unset: "not set" }[o] || o;
}

// allowed says which values the API takes, from the field's own bounds.
function allowed(f) {
  const parts = [];
  const unit = f.unit ? ` ${f.unit}` : "";
  const hm = (v) => (f.kind === "duration" && human(v) ? `${v} (${human(v)})` : v);
  if (f.min && f.max) parts.push(`${hm(f.min)} to ${hm(f.max)}${unit}`);
  else if (f.min) parts.push(`at least ${hm(f.min)}${unit}`);
  else if (f.max) parts.push(`at most ${hm(f.max)}${unit}`);
  if (f.enum && f.enum.length) parts.push("one of " + f.enum.join(", "));
  if (f.zeroMeansDefault) parts.push("0 means the default");
  if (f.default !== undefined && f.default !== "") parts.push(`default ${hm(f.default)}`);
  else if (f.defaultText) parts.push(f.defaultText);
  if (f.required) parts.push("required");
  if (f.immutable) parts.push("fixed at creation");
  return parts.join("; ");
}
