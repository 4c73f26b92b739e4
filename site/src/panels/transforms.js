// transforms.js is the Transforms panel: each JavaScript UDF of the
// configuration with its findings (their positions are in the
// configuration, so they are marked in its editor), and for each sample
// message its state before and after each transform, with what changed
// marked, which transform dropped it, and the filter's verdict on what the
// transforms produced. The core's "transform" operation runs them (in the
// "extra" build: the JavaScript engine is not in the first one); the panel
// lays out its answer.
import { h, replace } from "../lib/dom.js";
import { createEditor } from "../lib/editor.js";
import { renderDiagnostics, messageIndex, inputOf } from "../lib/diaglist.js";

export function transformsPanel(root, { getState, onChange, onJump, onJumpMessage, level = 3 }) {
  const H3 = `h${level}`;
  const H4 = `h${level + 1}`;
  const summary = h("p", { class: "summary", role: "status" });
  const order = h("p", { class: "hint transform-order" });
  const udfs = h("div", { class: "udfs" });
  const messagesHost = h("div", { class: "editor small" });
  const msgDiags = h("ul", { class: "diag-list compact", "aria-label": "Sample message diagnostics" });
  const results = h("div", { class: "transform-results" });
  replace(root,
    summary,
    order,
    h(H3, null, "JavaScript UDFs"),
    udfs,
    h(H3, null, "Sample messages"),
    h("p", { class: "hint" }, onJumpMessage
      ? 'The same messages as the Filter tab: a JSON (or YAML) list, each with "attributes" and "data" (base64) or "text".'
      : 'A JSON (or YAML) list of messages, each with "attributes" and "data" (base64) or "text".'),
    messagesHost,
    msgDiags,
    h(H3, null, "Each message through the transforms"),
    results);

  const messages = createEditor(messagesHost, {
    doc: getState().messages, format: "json", label: "Sample messages", lines: false,
    onChange: (text) => onChange({ messages: text }),
  });
  let lastKey = null;

  return {
    messagesEditor: messages,
    sync(state) {
      messages.setText(state.messages);
    },
    requests(state, base) {
      return [["transform", { ...base, messagesText: state.messages }]];
    },
    render({ effective, responses }) {
      const r = responses[0];
      if (!r) return;
      const key = JSON.stringify([r, effective && effective.diagnostics]);
      if (key === lastKey) return;
      lastKey = key;
      if (!r.ok) {
        const e = r.value.error || {};
        root.dataset.state = e.code === "loading" ? "loading" : "error";
        summary.textContent = e.message || "The transforms could not be run.";
        summary.className = "summary" + (e.code === "loading" ? " pending" : " bad");
        replace(order);
        replace(udfs);
        replace(results);
        messages.setDiagnostics([]);
        renderDiagnostics(msgDiags, [], null);
        msgDiags.hidden = true;
        return;
      }
      root.dataset.state = "ready";
      draw(r.value);
    },
  };

  function draw(v) {
    const all = v.diagnostics || [];
    const isMsg = (d) => inputOf(d, "config") === "messages";
    // Findings in the configuration (a UDF's code sits in it) are marked
    // in its editor by the base call; the panel lists each beside its UDF.
    const cfgDs = all.filter((d) => !isMsg(d));
    const mds = [...all.filter(isMsg), ...(v.messageDiagnostics || [])];
    messages.setDiagnostics(mds);
    renderDiagnostics(msgDiags, mds, (d) => messages.jump(d), null, {
      label: (d) => (messageIndex(d) >= 0 ? `Message ${messageIndex(d) + 1}` : ""),
    });
    msgDiags.hidden = mds.length === 0;

    const ts = v.transforms || [];
    order.textContent = v.order || "";
    order.hidden = !v.order;
    const n = ts.filter((t) => t.javascriptUdf || t.kind === "javascriptUdf" || t.functionName !== undefined).length;
    if (!ts.length) {
      summary.textContent = "The configuration has no message transforms: each message is delivered as published (the filter still applies).";
      summary.className = "summary na";
    } else {
      const errs = cfgDs.filter((d) => d.severity === "error").length;
      summary.textContent = `${n} JavaScript UDF${n === 1 ? "" : "s"}` + (errs ? `; ${errs} error${errs === 1 ? "" : "s"} (see each UDF).` : ", run on each sample message.");
      summary.className = "summary " + (errs ? "bad" : "ok");
    }
    replace(udfs, ts.length ? ts.map((t, i) => udfBlock(t, i, cfgDs)) : h("p", { class: "muted" }, "No transforms."));
    const list = v.results || v.messages || [];
    replace(results, list.length ? list.map((m, i) => messageBlock(m, i, ts)) : h("p", { class: "muted" }, "No sample messages."));
  }

  // udfBlock shows one transform: its place, name and whether it runs,
  // its code, and its findings (each a button to its place in the
  // configuration).
  function udfBlock(t, i, ds) {
    const index = t.index ?? i;
    const udf = t.javascriptUdf || t;
    const name = udf.functionName || t.functionName || "";
    const code = udf.code ?? t.code ?? "";
    const mine = ds.filter((d) => transformIndex(d) === index);
    const off = t.disabled || t.enabled === false;
    const list = h("ul", { class: "diag-list compact", "aria-label": `Diagnostics of transform ${index + 1}` });
    renderDiagnostics(list, mine, onJump);
    list.hidden = mine.length === 0;
    return h("section", { class: "udf", dataset: { index, errors: mine.filter((d) => d.severity === "error").length } },
      h(H4, null, `Transform ${index + 1}: `, name ? h("code", { class: "udf-name" }, name) : (t.kind || "not a JavaScript UDF"), " ",
        h("span", { class: `badge ${off ? "badge-default" : "badge-set"}` }, off ? "disabled" : "enabled")),
      code ? h("pre", { class: "code udf-code", tabindex: "0", "aria-label": `Code of transform ${index + 1}` }, code) : null,
      list);
  }

  // messageBlock shows one message's way through: as published, after
  // each transform (what changed marked), dropped, and the filter.
  function messageBlock(m, i, ts) {
    const index = m.index ?? i;
    const steps = m.steps || [];
    const rows = [stateRow("Published", m.input || m.before || m.published, null)];
    let prev = m.input || m.before || m.published;
    for (const s of steps) {
      const t = ts.find((x) => (x.index ?? -1) === s.transform) || ts[s.transform] || {};
      const name = (t.javascriptUdf && t.javascriptUdf.functionName) || t.functionName || "";
      const label = `After transform ${s.transform + 1}${name ? ` (${name})` : ""}`;
      if (s.skipped || s.disabled) {
        rows.push(h("tr", { class: "step-skipped" }, h("th", { scope: "row" }, label), h("td", { colspan: "2", class: "muted" }, "disabled: not run")));
        continue;
      }
      if (s.dropped) {
        rows.push(h("tr", { class: "step-dropped" }, h("th", { scope: "row" }, label),
          h("td", { colspan: "2" }, h("span", { class: "badge badge-acked" }, "dropped"), " the UDF returned null")));
        break;
      }
      if (s.error) {
        rows.push(h("tr", { class: "step-error" }, h("th", { scope: "row" }, label),
          h("td", { colspan: "2", class: "error-text" }, s.error.message || String(s.error))));
        break;
      }
      const out = s.output || s.after || s.message;
      rows.push(stateRow(label, out, prev));
      prev = out;
    }
    const verdict = outcome(m, ts);
    return h("section", { class: "msg-through", dataset: { index, outcome: verdict.kind } },
      h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": `Message ${index + 1}, scrollable` },
        h("table", { class: "steps" },
          h("caption", null, `Message ${index + 1}`),
          h("thead", null, h("tr", null, h("th", { scope: "col" }, "Step"), h("th", { scope: "col" }, "Data"), h("th", { scope: "col" }, "Attributes"))),
          h("tbody", null, rows))),
      h("p", { class: "verdict" }, h("span", { class: `badge ${verdict.badge}` }, verdict.text), " ", verdict.why));
  }

  function outcome(m, ts) {
    if (m.droppedBy !== undefined && m.droppedBy !== null && m.droppedBy >= 0) {
      const t = ts.find((x) => (x.index ?? -1) === m.droppedBy) || ts[m.droppedBy] || {};
      const name = (t.javascriptUdf && t.javascriptUdf.functionName) || t.functionName || "";
      return { kind: "dropped", badge: "badge-acked", text: `dropped by transform ${m.droppedBy + 1}`, why: name ? `${name} returned null, so the message is acknowledged and never delivered.` : "" };
    }
    if (m.error) return { kind: "error", badge: "badge-invalid", text: "failed", why: m.error.message || "" };
    const f = m.filter || {};
    const match = f.match ?? m.match ?? m.delivered;
    if (match === undefined) return { kind: "unknown", badge: "badge-default", text: "not evaluated", why: f.reason || "" };
    return match
      ? { kind: "delivered", badge: "badge-delivered", text: "delivered", why: f.reason || m.reason || "" }
      : { kind: "filtered", badge: "badge-acked", text: "auto-acknowledged by the filter", why: f.reason || m.reason || "" };
  }
}

// transformIndex says which transform a finding concerns: the core's
// "transform" field when it sends one, else its JSON pointer
// (/messageTransforms/N/...).
function transformIndex(d) {
  if (Number.isInteger(d.transform)) return d.transform;
  const m = /^\/messageTransforms\/(\d+)(?:\/|$)/.exec(d.path || "");
  return m ? Number(m[1]) : -1;
}

// stateRow is a message's data and attributes at one step; with prev,
// what differs from it is marked (and said in words, for screen readers).
function stateRow(label, s, prev) {
  s = s || {};
  const data = textOf(s);
  const dataChanged = prev && textOf(prev) !== data;
  const attrs = s.attributes || {};
  const before = prev ? prev.attributes || {} : null;
  const keys = Object.keys(attrs);
  const chips = keys.map((k) => {
    const change = !before ? "" : !(k in before) ? "added" : before[k] !== attrs[k] ? "changed" : "";
    return h("span", { class: `attr${change ? " diff-" + change : ""}` },
      h("code", null, k), "=", h("code", null, String(attrs[k])),
      change ? h("span", { class: "visually-hidden" }, ` (${change})`) : null);
  });
  const removed = before ? Object.keys(before).filter((k) => !(k in attrs)).map((k) => h("del", { class: "attr diff-removed" },
    h("code", null, k), "=", h("code", null, String(before[k])), h("span", { class: "visually-hidden" }, " (removed)"))) : [];
  return h("tr", { class: prev && (dataChanged || removed.length || chips.some((c) => c.className !== "attr")) ? "step-changed" : "step-same" },
    h("th", { scope: "row" }, label),
    h("td", { class: "data" + (dataChanged ? " diff-changed" : "") }, h("code", null, data),
      dataChanged ? h("span", { class: "visually-hidden" }, " (changed)") : null),
    h("td", { class: "attrs" }, chips.length || removed.length ? [chips, removed] : h("span", { class: "muted" }, "none")));
}

// textOf shows a message's data as text when it is (the UDF sees it so),
// else as base64.
function textOf(s) {
  if (typeof s.text === "string") return s.text;
  if (typeof s.data !== "string") return "";
  try {
    const bytes = Uint8Array.from(atob(s.data), (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return s.data;
  }
}
