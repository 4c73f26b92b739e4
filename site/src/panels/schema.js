// schema.js shows which schemas a subscription needs or produces: the Avro
// schema a Cloud Storage subscription writes its files with (and a sample
// file of the sample messages to download), or for a BigQuery subscription
// whether the table fits and the table schema that would. The core's
// "schema" operation computes them; the panel routes each finding to the
// text it is about (the configuration, the topic schema or the table).
import { h, replace } from "../lib/dom.js";
import { createEditor } from "../lib/editor.js";
import { renderDiagnostics, notIn, inputOf, messageIndex, counts } from "../lib/diaglist.js";
import { pipelineNote } from "./transforms-pipeline.js";
import { jsonBlock, bytes } from "../lib/format.js";

export function schemaPanel(root, { getState, onChange, onJump, onJumpMessage, level = 3 }) {
  // Headings follow the page they are in: under the page's h2 sections,
  // or right under an embed's h1.
  const H3 = `h${level}`;
  const H4 = `h${level + 1}`;
  const topicHost = h("div", { class: "editor small" });
  const tableHost = h("div", { class: "editor small" });
  const summary = h("p", { class: "summary", role: "status" });
  const diags = h("ul", { class: "diag-list compact", "aria-label": "Schema diagnostics" });
  const msgDiags = h("ul", { class: "diag-list compact", "aria-label": "Sample message diagnostics" });
  const msgNote = h("p", { class: "hint" });
  const msgBox = h("div", { class: "msg-findings" }, h(H3, null, "Sample messages"), msgNote, msgDiags);
  const avro = h("div");
  const bq = h("div");
  const download = h("p");
  const pipe = h("div");

  replace(root,
    summary,
    h(H3, null, "Topic schema"),
    h("p", { class: "hint" }, "The topic's schema, if it has one: Avro (JSON) or Protocol Buffers (.proto text)."),
    topicHost,
    h(H3, null, "BigQuery table schema"),
    h("p", { class: "hint" }, 'For a BigQuery subscription: the table\'s fields, as "bq show --schema" prints them.'),
    tableHost,
    diags,
    msgBox,
    pipe,
    avro,
    download,
    bq);

  const s = getState().schema;
  const fmt = (text) => (/^\s*[{["]/.test(text) || !text.trim() ? "json" : "");
  const topic = createEditor(topicHost, {
    doc: s.topic, format: fmt(s.topic), label: "Topic schema", lines: false,
    hint: '{"type": "record", "name": "Order", "fields": [{"name": "id", "type": "string"}]}',
    onChange: (text) => {
      topic.setFormat(fmt(text));
      onChange({ schema: { ...getState().schema, topic: text } });
    },
  });
  const table = createEditor(tableHost, {
    doc: s.table, format: "json", label: "BigQuery table schema (JSON)", lines: false,
    hint: '[{"name": "id", "type": "STRING", "mode": "REQUIRED"}]',
    onChange: (text) => onChange({ schema: { ...getState().schema, table: text } }),
  });
  let button = null; // the sample file's download button, if there is a file
  let lastKey = null;
  let lastOCF = null;

  // Which editor a finding belongs to: the core's "input" field, else
  // its path.
  const editorOf = (d) => {
    const i = inputOf(d, "config");
    return i === "topicSchema" ? topic : i === "tableSchema" ? table : null;
  };
  const jump = (d) => {
    const ed = editorOf(d);
    if (ed) ed.jump(d);
    else if (onJump) onJump(d);
  };

  return {
    sync(state) {
      topic.setText(state.schema.topic);
      table.setText(state.schema.table);
    },
    requests(state, base) {
      const req = { ...base, messagesText: state.messages };
      if (state.names.time) req.time = state.names.time;
      if (state.schema.topic.trim()) req.topicSchema = state.schema.topic;
      if (state.schema.table.trim()) req.tableSchema = state.schema.table;
      return [["schema", req]];
    },
    render({ effective, responses }) {
      const r = responses[0];
      if (!r) return;
      // The sample file changes on every call (its sync marker is random,
      // and its publish times follow the clock), while the rest seldom
      // does: a new file only updates the download button.
      const { ocf, ...rest } = r.ok ? r.value : {};
      const key = JSON.stringify([r.ok, r.ok ? rest : r.value, effective && effective.diagnostics]);
      if (key !== lastKey) {
        lastKey = key;
        lastOCF = null;
        draw(r, rest, effective);
      }
      if (r.ok && ocf !== lastOCF) {
        lastOCF = ocf;
        drawDownload(ocf);
      }
    },
  };

  // drawDownload offers the sample file. Its Blob is made when the button
  // is used, not on every edit: making a Blob and its URL cost more than
  // everything else this panel does for an edit.
  function drawDownload(ocf) {
    if (!ocf) {
      button = null;
      replace(download);
      return;
    }
    const size = (ocf.length / 4) * 3 - (ocf.endsWith("==") ? 2 : ocf.endsWith("=") ? 1 : 0);
    const text = `Download the Avro file of the sample messages (${bytes(size)})`;
    if (!button) {
      button = h("button", { type: "button", class: "button download", onclick: save });
      // For the tests, which cannot read a download: the file as a Blob.
      button.sampleFile = sampleFile;
      replace(download, button);
    }
    if (button.textContent !== text) button.textContent = text;
  }

  function sampleFile() {
    return new Blob([Uint8Array.from(atob(lastOCF), (c) => c.charCodeAt(0))], { type: "application/octet-stream" });
  }

  function save() {
    if (!lastOCF) return;
    const url = URL.createObjectURL(sampleFile());
    const a = h("a", { href: url, download: "sample.avro", hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    // The browser reads the URL after this click returns; a minute is
    // plenty, and keeps one small file in memory at most that long.
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  }

  function draw(r, v, effective) {
    if (!r.ok) {
      summary.textContent = r.value.error ? r.value.error.message : "No schema preview.";
      summary.className = "summary" + (r.value.error && r.value.error.code === "loading" ? "" : " bad");
      replace(avro); replace(bq); replace(download); replace(pipe);
      button = null;
      return;
    }
    // Findings about the sample messages go beside a note saying where
    // those are edited, each named by its message, not among the schema's.
    const isMsg = (d) => inputOf(d, "config") === "messages" || (v.messageDiagnostics || []).includes(d);
    const all = [...(v.diagnostics || []), ...(v.messageDiagnostics || [])];
    topic.setDiagnostics(all.filter((d) => editorOf(d) === topic));
    table.setDiagnostics(all.filter((d) => editorOf(d) === table));
    const ds = notIn(all.filter((d) => !isMsg(d)), effective && effective.diagnostics);
    renderDiagnostics(diags, ds, jump);
    diags.hidden = ds.length === 0;
    const mds = all.filter(isMsg);
    msgBox.hidden = mds.length === 0;
    msgNote.textContent = onJumpMessage
      ? "These are the sample messages of the Filter tab; choosing a finding opens them there."
      : "These are the sample messages the rows and the sample file are made from.";
    renderDiagnostics(msgDiags, mds, onJumpMessage || null, null, {
      label: (d) => (messageIndex(d) >= 0 ? `Message ${messageIndex(d) + 1}` : "Sample messages"),
    });
    const errs = counts((effective && effective.diagnostics) || []).error;
    const dt = v.deliveryType || (effective && effective.deliveryType);
    summary.textContent = dt === "cloudStorage" ? "Cloud Storage subscription: the files' Avro schema."
      : dt === "bigquery" ? "BigQuery subscription: the table it writes to."
        : errs ? `Cannot preview the schemas: the configuration has ${errs} error${errs === 1 ? "" : "s"} (see Diagnostics).`
          : `Does not apply: only Cloud Storage and BigQuery subscriptions write with a schema; this one delivers by ${dt || "pull"}. A topic schema pasted above is still checked.`;
    summary.className = "summary " + (dt === "cloudStorage" || dt === "bigquery" ? "" : errs ? "blocked" : "na");

    replace(pipe, pipelineNote(v.pipeline, H3));
    replace(avro, v.avro ? [h(H3, null, "Avro schema of the files"), jsonBlock(v.avro, "Avro schema of the files")] : []);
    const b = v.bigquery;
    if (!b) {
      replace(bq);
      return;
    }
    replace(bq,
      h(H3, null, "BigQuery"),
      b.checked
        ? h("p", { class: "summary " + (b.compatible ? "ok" : "bad") },
          b.compatible ? "The table fits: the subscription can write these messages to it." : "The table does not fit; see the findings above.")
        : h("p", { class: "muted" }, "Paste the table's schema above to check it."),
      b.tableSchema && b.tableSchema.length ? [h(H4, null, "A table schema that fits (for bq mk --schema)"), jsonBlock(b.tableSchema, "Generated BigQuery table schema")] : null,
      b.rows && b.rows.length ? [h(H4, null, v.pipeline ? "Rows the transformed messages become (\"message\" is the sample message's index, from 0)" : "Rows the sample messages become"), jsonBlock(b.rows, "Rows written")] : null);
  }
}
