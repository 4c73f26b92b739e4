// storage.js previews a Cloud Storage subscription: the object names it
// writes (prefix, datetime format, uuid, suffix), how a stream of messages
// is batched into files and when each rolls over, and what the text files
// of the sample messages hold. The core's "names" operation computes all of
// it; this panel asks twice: once for the next names, once for the files.
import { h, replace, field, id } from "../lib/dom.js";
import { renderDiagnostics, notIn, counts } from "../lib/diaglist.js";
import { bytes, breakable } from "../lib/format.js";
import { pipelineNote, writtenBy } from "./transforms-pipeline.js";

const closedByText = {
  maxDuration: "time limit", maxBytes: "size limit", maxMessages: "message limit",
};

export function storagePanel(root, { getState, onChange, onJump, level = 3 }) {
  // Headings follow the page they are in: under the page's h2 sections,
  // or right under an embed's h1.
  const H3 = `h${level}`;
  const H4 = `h${level + 1}`;
  const n = getState().names;
  const set = (key, v) => onChange({ names: { ...getState().names, [key]: v } });
  const inp = (key, attrs) => h("input", {
    ...attrs, value: n[key],
    oninput: (e) => set(key, attrs.type === "number" ? Number(e.target.value) : e.target.value),
  });
  const inputs = {
    time: inp("time", { type: "text", class: "mono", placeholder: "now (e.g. 2024-05-01T12:00:00Z)", spellcheck: "false" }),
    uuid: inp("uuid", { type: "text", class: "mono", placeholder: "random", spellcheck: "false" }),
    count: inp("count", { type: "number", min: "1", max: "1000", step: "1" }),
    rate: inp("rate", { type: "number", min: "0", step: "any" }),
    size: inp("size", { type: "number", min: "0", step: "1" }),
    duration: inp("duration", { type: "text", class: "mono", placeholder: "900s", spellcheck: "false" }),
  };
  const group = id("mode");
  const modes = ["stream", "messages"].map((m) => h("input", {
    type: "radio", name: group, value: m, id: `${group}-${m}`, checked: n.mode === m,
    onchange: () => set("mode", m),
  }));
  const streamFields = h("div", { class: "grid-3" },
    field("Messages per second", inputs.rate),
    field("Bytes per message", inputs.size),
    field("Stream length", inputs.duration, "A duration such as 900s."));

  const summary = h("p", { class: "summary", role: "status" });
  const diags = h("ul", { class: "diag-list compact", "aria-label": "Cloud Storage diagnostics" });
  const template = h("p", { class: "template" });
  const names = h("ol", { class: "names mono", "aria-label": "Object names" });
  const folders = h("div");
  const batchSummary = h("p", { class: "batch-summary" });
  const files = h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": "Files, scrollable" });
  const contents = h("div", { class: "contents" });
  const pipe = h("div");
  const batchBox = h("div", null,
    h(H3, null, "Batching into files"),
    h("fieldset", { class: "modes" }, h("legend", null, "Messages to batch"),
      h("label", { for: modes[0].id }, modes[0], " a synthetic stream"),
      h("label", { for: modes[1].id }, modes[1], " the sample messages")),
    streamFields,
    pipe,
    batchSummary,
    files,
    h(H3, null, "File contents"),
    contents);

  replace(root,
    summary,
    h("fieldset", { class: "grid" }, h("legend", null, "Names"),
      field("Time (RFC 3339)", inputs.time, "When the first file opens. Empty: now."),
      field("UUID", inputs.uuid, "Empty: random, as the service does."),
      field("How many", inputs.count, "At most one per file of the batching below.")),
    diags,
    template,
    names,
    folders,
    batchBox);

  let lastKey = null;

  return {
    sync(state) {
      for (const [k, el] of Object.entries(inputs)) {
        if (document.activeElement !== el && String(el.value) !== String(state.names[k])) el.value = state.names[k];
      }
      for (const m of modes) m.checked = m.value === state.names.mode;
    },
    requests(state, base) {
      const s = state.names;
      const common = { ...base };
      if (s.time) common.time = s.time;
      if (s.uuid) common.uuid = s.uuid;
      // One simulation gives both the names and the files, so the names
      // listed are the files the batching table shows, in its order and
      // at its times.
      const batch = s.mode === "messages"
        ? { ...common, messagesText: state.messages }
        : { ...common, stream: { rate: s.rate, size: s.size, duration: s.duration } };
      return [["names", { ...batch, count: s.count }]];
    },
    render({ state, effective, responses }) {
      streamFields.hidden = state.names.mode !== "stream";
      const [list] = responses;
      if (!list) return;
      const key = JSON.stringify([responses.map((x) => [x.ok, x.value]), state.names, effective && effective.diagnostics]);
      if (key === lastKey) return;
      lastKey = key;
      const clear = () => {
        replace(names); replace(files); replace(contents); replace(folders); replace(template); replace(batchSummary);
      };
      if (!list.ok) {
        summary.textContent = list.value.error ? list.value.error.message : "No preview.";
        summary.className = "summary" + (list.value.error && list.value.error.code === "loading" ? "" : " bad");
        clear();
        renderDiagnostics(diags, [], null);
        diags.hidden = true;
        return;
      }
      const v = list.value;
      const own = notIn(v.diagnostics, effective && effective.diagnostics);
      renderDiagnostics(diags, own, onJump);
      diags.hidden = own.length === 0;
      const shown = (v.files && v.files.length ? v.files.map((f) => f.name) : v.names || []).slice(0, Math.max(1, state.names.count || 1));
      batchBox.hidden = !shown.length;
      if (!shown.length) {
        const status = storageStatus(effective, own);
        summary.replaceChildren(...status.text);
        summary.className = "summary " + status.kind;
        // The status says it; a red finding would repeat it as a fault.
        if (status.kind === "na") diags.hidden = true;
        clear();
        return;
      }
      summary.textContent = `The first ${shown.length} object name${shown.length === 1 ? "" : "s"}, one per file of the batching below.`;
      summary.className = "summary ok";
      replace(template, v.template ? ["Layout: ", h("code", null, v.template), v.glob ? [" · matches ", h("code", null, v.glob)] : null] : []);
      replace(names, shown.map((x) => h("li", null, breakable(x))));
      const dirs = foldersOf(shown, v.folders);
      replace(folders, dirs.length
        ? [h("p", { class: "muted" }, `Folders in the bucket for these ${shown.length} file${shown.length === 1 ? "" : "s"}:`), h("ul", { class: "mono" }, dirs.map((f) => h("li", null, f)))]
        : []);
      renderSimulation(list, state);
    },
  };

  function renderSimulation(sim, state) {
    // The sample messages went through the transforms and the filter
    // first: the note says so, and which ones the files hold.
    replace(pipe, sim && sim.ok ? pipelineNote(sim.value.pipeline, H4) : null);
    if (!sim || !sim.ok) {
      replace(batchSummary, sim && sim.value.error ? h("span", { class: "error-text" }, sim.value.error.message) : "");
      replace(files);
      replace(contents);
      return;
    }
    const v = sim.value;
    const s = v.summary;
    if (!s) {
      replace(batchSummary);
      replace(files);
      replace(contents, h("p", { class: "muted" }, "No files."));
      return;
    }
    const by = Object.entries(s.closedBy || {}).filter(([, c]) => c > 0)
      .map(([k, c]) => `${c} by ${closedByText[k] || k}`).join(", ");
    replace(batchSummary,
      `${s.files} file${s.files === 1 ? "" : "s"}, ${s.messages} message${s.messages === 1 ? "" : "s"}, ${bytes(s.bytes)}`,
      by ? ` (closed: ${by})` : "",
      v.limits ? ` · limits: ${v.limits.maxDuration}${v.limits.maxBytes ? ", " + bytes(v.limits.maxBytes) : ""}${v.limits.maxMessages ? ", " + v.limits.maxMessages + " messages" : ""}, ${v.limits.output}` : "",
      s.truncated ? ` · showing the first ${v.files.length}` : "");
    replace(files, fileTable(v.files.slice(0, 200), v.files[0] && v.files[0].firstMessage, v.pipeline));
    renderContents(v.contents, state);
  }

  function renderContents(c, state) {
    if (state.names.mode !== "messages") {
      replace(contents, h("p", { class: "muted" }, "Choose the sample messages above to see what the files hold."));
      return;
    }
    if (!c) {
      replace(contents, h("p", { class: "muted" }, "No files."));
      return;
    }
    if (c.format === "avro") {
      replace(contents, h("ul", null, (c.avro || []).map((a) => h("li", null,
        `File ${a.index + 1}: ${a.records} Avro record${a.records === 1 ? "" : "s"} of ${a.schema}, ${bytes(a.payloadBytes)} of payload`,
        a.metadata ? ", with metadata" : ""))));
      return;
    }
    replace(contents, (c.text || []).slice(0, 20).map((f) => h("div", { class: "file" },
      h("p", { class: "muted" }, `File ${f.index + 1} (${bytes(f.bytes)})${f.base64 ? ", not UTF-8: shown as base64" : ""}`),
      h("pre", { class: "code", tabindex: "0", "aria-label": `Contents of file ${f.index + 1}` }, f.text ?? f.base64 ?? ""))),
    c.truncated ? h("p", { class: "muted" }, "Some files are left out.") : null);
  }
}

function fileTable(list, start, pipeline) {
  if (!list.length) return h("p", { class: "muted" }, "No files.");
  const t0 = start ? Date.parse(start) : 0;
  const rel = (t) => (t0 ? `+${((Date.parse(t) - t0) / 1000).toFixed(1)} s` : t);
  return h("table", { class: "files" },
    h("caption", { class: "visually-hidden" }, "Files written, in order"),
    h("thead", null, h("tr", null,
      ["#", "Object name", "Messages", "Size", "Opens", "Closes", "Closed by"].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", null, list.map((f) => h("tr", { class: f.oversized ? "oversized" : "" },
      h("td", { class: "num" }, String(f.index + 1)),
      h("td", { class: "mono name" }, breakable(f.name || "")),
      h("td", { class: "num", "data-messages": pipeline ? writtenBy(pipeline, f.firstIndex, f.messages) : null },
        String(f.messages), pipeline ? ` (message ${writtenBy(pipeline, f.firstIndex, f.messages)})` : ""),
      h("td", { class: "num" }, bytes(f.bytes)),
      h("td", { class: "num" }, rel(f.firstMessage)),
      h("td", { class: "num" }, rel(f.closed)),
      h("td", null, closedByText[f.closedBy] || f.closedBy || "", f.oversized ? " (one oversized message)" : "")))));
}

/**
 * storageStatus says why there are no names: the configuration has errors
 * (nothing can be previewed until they are fixed), or it is not a Cloud
 * Storage subscription (the preview does not apply).
 */
function storageStatus(effective, own) {
  const dt = effective && effective.deliveryType;
  if (dt && dt !== "cloudStorage") {
    return { kind: "na", text: [`Does not apply: this subscription delivers by ${dt}, not to Cloud Storage. Add a cloudStorageConfig, or open a Cloud Storage example.`] };
  }
  const n = counts([...((effective && effective.diagnostics) || []), ...(own || [])]).error;
  if (n > 0) {
    return { kind: "blocked", text: [`Cannot preview the object names: ${n} error${n === 1 ? "" : "s"} to fix first. `, h("a", { href: "#diagnostics", class: "jump-link" }, "See the diagnostics")] };
  }
  return { kind: "na", text: ["No object names to show."] };
}

// foldersOf lists every folder the names create ("a/b/x" creates "a/" and
// "a/b/"), across all of them: names that run into the next day land in
// folders of their own. The core's list (from the first file) is kept
// first.
function foldersOf(names, core) {
  const seen = new Set();
  const out = [];
  const add = (p) => {
    if (!seen.has(p)) {
      seen.add(p);
      out.push(p);
    }
  };
  for (const f of core || []) add(f.path);
  for (const n of names) {
    for (let i = n.indexOf("/"); i >= 0; i = n.indexOf("/", i + 1)) add(n.slice(0, i + 1));
  }
  return out;
}
