// filter.js is the filter tester: a filter (the configuration's own, or one
// typed here), editable sample messages, and for each message whether the
// subscription delivers it or acknowledges it automatically, and why. The
// core's "filter" operation decides; the panel shows its answer.
import { h, replace, field } from "../lib/dom.js";
import { createEditor } from "../lib/editor.js";
import { renderDiagnostics, notIn, messageIndex } from "../lib/diaglist.js";
import { position } from "../lib/format.js";
import { drawParts, firstFindings } from "../lib/more.js";

/**
 * filterPanel builds the tester in root.
 * opts.standalone: the filter is typed here (embeds); otherwise it follows
 * the configuration until the user edits it in the panel.
 * opts.getState/onChange: the shared state; opts.onJump(d): show a
 * position in the configuration.
 */
export function filterPanel(root, { getState, onChange, onJump, standalone = false, level = 3 }) {
  // Headings follow the page they are in: under the page's h2 sections,
  // or right under an embed's h1.
  const H3 = `h${level}`;
  const H4 = `h${level + 1}`;
  const input = h("input", {
    type: "text", class: "mono filter-input", spellcheck: "false", autocomplete: "off",
    placeholder: 'attributes.region = "eu"',
    oninput: () => onChange({ filter: input.value }),
  });
  const origin = h("p", { class: "origin-note" });
  const follow = h("button", {
    type: "button", class: "link", hidden: true,
    onclick: () => onChange({ filter: null }),
  }, "Use the configuration's filter");
  const diags = h("ul", { class: "diag-list compact", "aria-label": "Filter diagnostics" });
  const msgDiags = h("ul", { class: "diag-list compact", "aria-label": "Sample message diagnostics" });
  const msgMore = h("p", { class: "hint more-note", hidden: true });
  const more = h("p", { class: "more-rows", hidden: true });
  const cel = h("pre", { class: "code", tabindex: "0", "aria-label": "The filter as a CEL expression" });
  const canonical = h("code", { class: "canonical" });
  const summary = h("p", { class: "summary", role: "status" });
  const results = h("tbody");
  const messagesHost = h("div", { class: "editor small" });

  replace(root,
    field("Filter", input, standalone ? 'The Pub/Sub filter language: attributes:k, attributes.k = "v", hasPrefix(attributes.k, "p"), AND, OR, NOT.' : null),
    standalone ? null : h("div", { class: "origin-row" }, origin, follow),
    diags,
    h(H3, null, "Sample messages"),
    h("p", { class: "hint" }, 'A JSON (or YAML) list of messages, each with "attributes" and "data" (base64) or "text".'),
    messagesHost,
    msgDiags,
    msgMore,
    h(H3, null, "Result"),
    summary,
    h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": "Results, scrollable" }, h("table", { class: "results" },
      h("caption", { class: "visually-hidden" }, "What happens to each sample message"),
      h("thead", null, h("tr", null,
        h("th", { scope: "col" }, "#"),
        h("th", { scope: "col" }, "Attributes"),
        h("th", { scope: "col" }, "Outcome"),
        h("th", { scope: "col" }, "Why"))),
      results)),
    more,
    h("details", { class: "cel" }, h("summary", null, "The filter in other forms"),
      h("p", null, "Canonical: ", canonical),
      h("p", null, "As CEL:"), cel));

  const messages = createEditor(messagesHost, {
    doc: getState().messages, format: "json", label: "Sample messages", lines: false,
    onChange: (text) => onChange({ messages: text }),
  });

  let lastKey = null;

  // own says whether the filter is typed in the panel (so positions of its
  // diagnostics are in the input) or read from the configuration.
  const own = (state) => standalone || state.filter !== null;

  function jump(d) {
    if (!own(getState())) {
      if (onJump) onJump(d);
      return;
    }
    const from = codeUnits(input.value, d.column || 1);
    const to = d.endColumn && d.endLine === d.line ? codeUnits(input.value, d.endColumn) : from + 1;
    input.focus();
    input.setSelectionRange(from, Math.max(from, to));
  }

  return {
    messagesEditor: messages,
    sync(state) {
      if (document.activeElement !== input && own(state) && input.value !== (state.filter ?? "")) {
        input.value = state.filter ?? "";
      }
      messages.setText(state.messages);
    },
    requests(state, base) {
      const req = { messagesText: state.messages };
      if (own(state)) req.filter = state.filter ?? "";
      else Object.assign(req, base);
      return [["filter", req]];
    },
    render({ state, effective, responses }) {
      const r = responses[0];
      if (!standalone) {
        const mine = own(state);
        follow.hidden = !mine;
        const cfgFilter = effective && effective.effective ? effective.effective.filter || "" : "";
        if (!mine && document.activeElement !== input) input.value = cfgFilter;
        origin.textContent = mine
          ? "Edited here; the configuration is unchanged."
          : cfgFilter ? "From the configuration. Edit it here to try another." : "The configuration has no filter, so every message is delivered. Type one to try it.";
      }
      if (!r) return;
      const key = JSON.stringify([r.ok, r.value, own(state), state.messages, effective && effective.diagnostics]);
      if (key === lastKey) return;
      lastKey = key;
      if (!r.ok) {
        summary.textContent = r.value.error ? r.value.error.message : "The filter could not be run.";
        summary.className = "summary" + (r.value.error && r.value.error.code === "loading" ? "" : " bad");
        replace(results);
        more.hidden = true;
        return;
      }
      const v = r.value;
      // A filter read from the configuration has its findings in the
      // configuration's list already.
      const fds = own(state) ? v.diagnostics || [] : notIn(v.diagnostics, effective && effective.diagnostics);
      renderDiagnostics(diags, fds, jump);
      diags.hidden = fds.length === 0;
      // Problems of the messages are marked in their editor.
      const perMessage = (v.results || []).flatMap((x) => x.diagnostics || []);
      const all = [...(v.messageDiagnostics || []), ...perMessage];
      const listed = firstFindings(all, msgMore);
      messages.setDiagnostics(listed);
      renderDiagnostics(msgDiags, listed, (d) => messages.jump(d), null, { label: messageLabel });
      msgDiags.hidden = all.length === 0;
      // A message with an error would not be published: the core gives it
      // outcome "invalid" and no verdict.
      const bad = new Map();
      for (const d of all) {
        const i = messageIndex(d);
        if (i >= 0) bad.set(i, [...(bad.get(i) || []), d]);
      }
      const isInvalid = (x) => x.outcome === "invalid";
      cel.textContent = v.cel || "";
      canonical.textContent = v.canonical || "";
      const list = v.results || [];
      if (!v.valid) {
        summary.textContent = "The filter is not valid, so the API would reject the subscription.";
        summary.className = "summary bad";
      } else if (!v.evaluated) {
        summary.textContent = "This build of subplay cannot evaluate filters; open the full playground to test them.";
        summary.className = "summary";
      } else {
        const ok = list.filter((x) => !isInvalid(x));
        const invalid = list.length - ok.length;
        const delivered = ok.filter((x) => x.match).length;
        summary.textContent = `${delivered} of ${ok.length}${invalid ? " valid" : ""} message${ok.length === 1 ? "" : "s"} delivered; ${ok.length - delivered} acknowledged automatically.`
          + (invalid ? ` ${invalid} message${invalid === 1 ? " is" : "s are"} not valid and would not be published (see ${invalid === 1 ? "its row" : "their rows"}).` : "");
        summary.className = "summary " + (invalid ? "bad" : "ok");
      }
      const msgs = attributesOf(state.messages);
      drawParts(results, v.evaluated ? list : [], (x) => resultRow(x, msgs[x.index], bad.get(x.index) || [], (d) => messages.jump(d)), more, "messages");
    },
  };
}

// attributesOf reads the attributes of JSON sample messages for display;
// YAML or broken text just shows none (the core reports the problems).
let cacheText = null;
let cacheValue = [];
function attributesOf(text) {
  if (text === cacheText) return cacheValue;
  cacheText = text;
  try {
    let v = JSON.parse(text);
    if (v && !Array.isArray(v) && Array.isArray(v.messages)) v = v.messages;
    cacheValue = (Array.isArray(v) ? v : [v]).map((m) => (m && typeof m.attributes === "object" && m.attributes) || {});
  } catch {
    cacheValue = [];
  }
  return cacheValue;
}

// messageLabel names the sample message a finding is about.
function messageLabel(d) {
  const i = messageIndex(d);
  return i >= 0 ? `Message ${i + 1}` : "";
}

function resultRow(x, attrs, ds, jump) {
  const keys = attrs ? Object.keys(attrs) : [];
  const invalid = x.outcome === "invalid";
  const findings = ds.map((d) => h("button", { type: "button", class: `link msg-finding sev-text-${d.severity}`, onclick: () => jump(d) },
    `${d.message}${position(d) ? ` (at ${position(d)})` : ""}`));
  if (invalid) {
    return h("tr", { class: "invalid", dataset: { index: x.index, match: "invalid" } },
      h("td", null, String(x.index + 1)),
      h("td", { class: "attrs" }, keys.map((k) => h("span", { class: "attr" }, h("code", null, k), "=", h("code", null, String(attrs[k]))))),
      h("td", null, h("span", { class: "badge badge-invalid" }, "not valid")),
      h("td", { class: "reason" }, findings));
  }
  return h("tr", { class: x.match ? "match" : "nomatch", dataset: { index: x.index, match: String(!!x.match) } },
    h("td", null, String(x.index + 1)),
    h("td", { class: "attrs" }, keys.length
      ? keys.map((k) => h("span", { class: "attr" }, h("code", null, k), "=", h("code", null, String(attrs[k]))))
      : h("span", { class: "muted" }, attrs ? "none" : "")),
    h("td", null, h("span", { class: `badge ${x.match ? "badge-delivered" : "badge-acked"}` },
      x.match ? "delivered" : "auto-acknowledged")),
    h("td", { class: "reason" }, x.reason || "", findings.length ? h("div", null, findings) : null));
}

// codeUnits converts a 1-based column in code points to a UTF-16 offset.
function codeUnits(s, column) {
  let off = 0;
  for (let cp = 1; cp < column && off < s.length; cp++) off += s.codePointAt(off) > 0xffff ? 2 : 1;
  return off;
}
