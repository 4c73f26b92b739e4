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
import { renderDiagnostics, messageIndex, inputOf, notIn } from "../lib/diaglist.js";
import { drawParts, firstFindings } from "../lib/more.js";

export function transformsPanel(root, { getState, onChange, onJump, onJumpMessage, level = 3 }) {
  const H3 = `h${level}`;
  const H4 = `h${level + 1}`;
  const summary = h("p", { class: "summary", role: "status" });
  const order = h("p", { class: "hint transform-order" });
  const udfs = h("div", { class: "udfs" });
  const messagesHost = h("div", { class: "editor small" });
  const msgDiags = h("ul", { class: "diag-list compact", "aria-label": "Sample message diagnostics" });
  const msgMore = h("p", { class: "hint more-note", hidden: true });
  const results = h("div", { class: "transform-results" });
  const more = h("p", { class: "more-rows", hidden: true });
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
    msgMore,
    h(H3, null, "Each message through the transforms"),
    results,
    more);

  const messages = createEditor(messagesHost, {
    doc: getState().messages, format: "json", label: "Sample messages", lines: false,
    onChange: (text) => onChange({ messages: text }),
  });
  let lastKey = null;
  let configDs = []; // the answer's findings in the configuration

  return {
    messagesEditor: messages,
    // configDiagnostics are the findings the page marks in the
    // configuration's editor beside its own (a UDF's syntax error).
    configDiagnostics: (seen) => notIn(configDs, seen),
    sync(state) {
      messages.setText(state.messages);
    },
    requests(state, base) {
      return [["transform", { ...base, messagesText: state.messages }]];
    },
    render({ state, effective, responses }) {
      const r = responses[0];
      if (!r) return;
      const key = JSON.stringify([r, effective && effective.diagnostics, effective && effective.effective && effective.effective.messageTransforms, state.messages]);
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
        more.hidden = true;
        msgMore.hidden = true;
        configDs = [];
        messages.setDiagnostics([]);
        renderDiagnostics(msgDiags, [], null);
        msgDiags.hidden = true;
        return;
      }
      root.dataset.state = "ready";
      draw(r.value, effective);
    },
  };

  function draw(v, effective) {
    const all = v.diagnostics || [];
    const perMessage = (v.results || []).flatMap((x) => x.diagnostics || []);
    const mds = firstFindings([...(v.messageDiagnostics || []), ...perMessage], msgMore);
    messages.setDiagnostics(mds);
    renderDiagnostics(msgDiags, mds, (d) => messages.jump(d), null, {
      label: (d) => (messageIndex(d) >= 0 ? `Message ${messageIndex(d) + 1}` : ""),
    });
    msgDiags.hidden = mds.length === 0;
    // A UDF's findings are positioned in the configuration (its code sits
    // there): the page marks them in its editor too (configDiagnostics).
    const stepDs = (v.results || []).flatMap((x) => (x.steps || []).flatMap((st) => st.diagnostics || []));
    configDs = [...all, ...stepDs].filter((d) => inputOf(d, "config") === "config");

    const ts = v.transforms || [];
    order.textContent = v.order ? `Order: ${v.order}.` : "";
    order.hidden = !v.order;
    const udfCount = ts.filter((t) => t.kind === "javascriptUdf").length;
    const errs = all.filter((d) => d.severity === "error" && transformIndex(d) >= 0).length;
    if (!ts.length) {
      summary.textContent = "The configuration has no message transforms: each message is delivered as published (the filter still applies).";
      summary.className = "summary na";
    } else {
      const tally = [`${v.delivered} delivered`, `${v.acked} acknowledged by the filter`, `${v.dropped} dropped`, `${v.failed} failed`];
      if (v.invalid) tally.push(`${v.invalid} not valid`);
      summary.textContent = `${udfCount} JavaScript UDF${udfCount === 1 ? "" : "s"}` +
        (errs ? `; ${errs} error${errs === 1 ? "" : "s"} in them (see each UDF).` : `. Sample messages: ${tally.join(", ")}.`);
      summary.className = "summary " + (errs || v.failed ? "bad" : "ok");
    }
    const udfsOf = (effective && effective.effective && effective.effective.messageTransforms) || [];
    replace(udfs, ts.length ? ts.map((t) => udfBlock(t, udfsOf[t.index], all)) : h("p", { class: "muted" }, "No transforms."));
    const published = publishedOf(getState().messages);
    const list = v.results || [];
    if (list.length) drawParts(results, list, (m) => messageBlock(m, ts, published[m.index], v), more, "messages");
    else {
      replace(results, h("p", { class: "muted" }, "No sample messages."));
      more.hidden = true;
    }
  }

  // udfBlock shows one transform: its place, name and whether it runs,
  // its code (from the effective configuration), and its findings (each a
  // button to its place in the configuration).
  function udfBlock(t, cfg, ds) {
    const code = cfg && cfg.javascriptUdf ? cfg.javascriptUdf.code || "" : "";
    const mine = ds.filter((d) => transformIndex(d) === t.index);
    const list = h("ul", { class: "diag-list compact", "aria-label": `Diagnostics of transform ${t.index + 1}` });
    renderDiagnostics(list, mine, onJump);
    list.hidden = mine.length === 0;
    const state = t.runs ? "runs" : t.enabled ? "not previewed" : "disabled";
    return h("section", { class: "udf", dataset: { index: t.index, errors: mine.filter((d) => d.severity === "error").length } },
      h(H4, null, `Transform ${t.index + 1}: `,
        t.functionName ? h("code", { class: "udf-name" }, t.functionName) : h("span", null, kindName(t.kind)), " ",
        h("span", { class: `badge ${t.runs ? "badge-set" : "badge-default"}` }, state)),
      t.note ? h("p", { class: "hint" }, t.note) : null,
      code ? h("pre", { class: "code udf-code", tabindex: "0", "aria-label": `Code of transform ${t.index + 1}` }, code) : null,
      list);
  }

  // messageBlock shows one message's way through: as published, after
  // each transform (what changed marked), and its outcome.
  function messageBlock(m, ts, published, v) {
    const nameOf = (i) => {
      const t = ts.find((x) => x.index === i);
      return t && t.functionName ? ` (${t.functionName})` : "";
    };
    const rows = [published ? stateRow("Published", published, null) : h("tr", null,
      h("th", { scope: "row" }, "Published"), h("td", { colspan: "2", class: "muted" }, "as in the sample messages"))];
    for (const st of m.steps || []) {
      const label = `After transform ${st.transform + 1}${nameOf(st.transform)}`;
      if (st.outcome === "dropped") {
        rows.push(h("tr", { class: "step-dropped", dataset: { outcome: st.outcome } }, h("th", { scope: "row" }, label),
          h("td", { colspan: "2" }, h("span", { class: "badge badge-acked" }, "dropped"), " the UDF returned null")));
      } else if (st.outcome === "failed" || st.outcome === "not-run") {
        rows.push(h("tr", { class: "step-error", dataset: { outcome: st.outcome } }, h("th", { scope: "row" }, label),
          h("td", { colspan: "2" }, h("span", { class: "badge badge-invalid" }, st.outcome === "failed" ? "failed" : "not run"), " ",
            (st.diagnostics || []).map((d) => h("button", { type: "button", class: "link msg-finding sev-text-error", onclick: () => onJump && onJump(d) }, d.message)))));
      } else {
        rows.push(stateRow(label, st.message, st.changes || [], st.outcome));
      }
    }
    const verdict = outcome(m, ts, v);
    return h("section", { class: "msg-through", dataset: { index: m.index, outcome: m.outcome } },
      h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": `Message ${m.index + 1}, scrollable` },
        h("table", { class: "steps" },
          h("caption", null, `Message ${m.index + 1}`),
          h("thead", null, h("tr", null, h("th", { scope: "col" }, "Step"), h("th", { scope: "col" }, "Data"), h("th", { scope: "col" }, "Attributes"))),
          h("tbody", null, rows))),
      h("p", { class: "verdict" }, h("span", { class: `badge ${verdict.badge}` }, verdict.text), " ", verdict.why));
  }

  function outcome(m, ts, v) {
    const by = m.by !== undefined && m.by !== null ? ` by transform ${m.by + 1}` + (ts.find((x) => x.index === m.by)?.functionName ? ` (${ts.find((x) => x.index === m.by).functionName})` : "") : "";
    switch (m.outcome) {
      case "dropped":
        return { badge: "badge-acked", text: `dropped${by}`, why: "The UDF returned null: the message is acknowledged and never delivered." };
      case "failed":
        return { badge: "badge-invalid", text: `failed${by}`, why: "The service does not deliver it (it goes to the dead-letter topic when one is set)." };
      case "acked":
        return { badge: "badge-acked", text: "acknowledged by the filter", why: filterWhy(m) };
      case "invalid":
        return { badge: "badge-invalid", text: "not valid", why: "The message has errors, so the service would refuse to publish it: nothing runs on it." };
      default:
        return { badge: "badge-delivered", text: "delivered", why: v.filter ? filterWhy(m) : "The subscription has no filter." };
    }
  }
}

// filterWhy is the filter's reason, and when the transforms changed the
// verdict, what it would have been on the message as published.
function filterWhy(m) {
  const parts = [m.reason || ""];
  if (m.match !== undefined && m.matchOriginal !== undefined && m.match !== m.matchOriginal) {
    parts.push(`As published, the filter would have ${m.matchOriginal ? "delivered" : "not delivered"} it.`);
  }
  return parts.filter(Boolean).join(" ");
}

function kindName(kind) {
  return { compression: "compression", aiInference: "AI inference" }[kind] || kind || "unknown";
}

// transformIndex says which transform a finding concerns: the core's
// "transform" field when it sends one, else its JSON pointer
// (/messageTransforms/N/...).
function transformIndex(d) {
  if (Number.isInteger(d.transform)) return d.transform;
  const m = /^\/messageTransforms\/(\d+)(?:\/|$)/.exec(d.path || "");
  return m ? Number(m[1]) : -1;
}

// stateRow is a message's data and attributes at one step; changes (the
// core's list of what this step changed) are marked by colour and said in
// words for screen readers.
function stateRow(label, s, changes, stepOutcome) {
  s = s || {};
  const kinds = new Map((changes || []).map((c) => [c.field, c]));
  const data = typeof s.text === "string" ? s.text : s.data || "";
  const dataChanged = kinds.has("data");
  const attrs = s.attributes || {};
  const chips = Object.keys(attrs).sort().map((k) => {
    const c = kinds.get("attributes." + k);
    return h("span", { class: `attr${c ? " diff-" + c.kind : ""}`, title: c && c.kind === "changed" ? `was ${c.before}` : null },
      h("code", null, k), "=", h("code", null, attrs[k]),
      c ? h("span", { class: "visually-hidden" }, ` (${c.kind}${c.kind === "changed" ? `, was ${c.before}` : ""})`) : null);
  });
  const removed = (changes || []).filter((c) => c.kind === "removed").map((c) => h("del", { class: "attr diff-removed" },
    h("code", null, c.field.replace(/^attributes\./, "")), "=", h("code", null, c.before ?? ""), h("span", { class: "visually-hidden" }, " (removed)")));
  return h("tr", { class: changes && changes.length ? "step-changed" : "step-same", dataset: { outcome: stepOutcome || "published" } },
    h("th", { scope: "row" }, label, stepOutcome === "unchanged" ? h("small", { class: "muted" }, " (unchanged)") : null),
    h("td", { class: "data" + (dataChanged ? " diff-changed" : "") }, h("code", null, data),
      dataChanged ? h("span", { class: "visually-hidden" }, " (changed)") : null),
    h("td", { class: "attrs" }, chips.length || removed.length ? [chips, removed] : h("span", { class: "muted" }, "none")));
}

// publishedOf reads the sample messages as published, for the first row:
// JSON only (YAML or broken text shows a note; the core reports problems).
let cacheText = null;
let cacheValue = [];
function publishedOf(text) {
  if (text === cacheText) return cacheValue;
  cacheText = text;
  try {
    let v = JSON.parse(text);
    if (v && !Array.isArray(v) && Array.isArray(v.messages)) v = v.messages;
    cacheValue = (Array.isArray(v) ? v : [v]).map((m) => {
      if (!m || typeof m !== "object") return null;
      const attributes = m.attributes && typeof m.attributes === "object" ? m.attributes : {};
      if (typeof m.text === "string") return { text: m.text, attributes };
      if (m.json !== undefined) return { text: JSON.stringify(m.json), attributes };
      return { text: decodeData(m.data), attributes };
    });
  } catch {
    cacheValue = [];
  }
  return cacheValue;
}

// decodeData shows base64 data as text when it is UTF-8, else as given.
function decodeData(b64) {
  if (typeof b64 !== "string") return "";
  try {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return b64;
  }
}
