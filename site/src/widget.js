// widget.js is embed.html's widget: one part of the playground for
// documentation pages, configured by the URL fragment:
//
//   embed.html#widget=filter&filter=...&messages=...&theme=dark&id=w1
//   embed.html#widget=settings&format=terraform&config=...
//   embed.html#widget=export&to=gcloud&config=...
//
// widget is filter, names, schema, settings, transforms or export; the
// state comes from "z" (a share link's state) or plain parameters (see
// state.js); format= says what form the configuration is in (json, yaml,
// gcloud, terraform), so a docs page can embed its own snippet. The export
// widget's to= shows one form only. The page tells
// its parent how tall it is with postMessage, so an iframe can fit it.
// embed.js starts the core before loading this module, and calls start.
import { $, h, replace } from "./lib/dom.js";
import { createEditor, warmEditor } from "./lib/editor.js";
import { renderDiagnostics } from "./lib/diaglist.js";
import { createRunner } from "./lib/runner.js";
import { decode, defaults, encode } from "./lib/state.js";
import { applyTheme } from "./lib/theme.js";
import { loadingIndicator } from "./lib/loading.js";
import { settingsPanel } from "./panels/settings.js";
import { filterPanel } from "./panels/filter.js";
import { storagePanel } from "./panels/storage.js";
import { schemaPanel } from "./panels/schema.js";
import { transformsPanel } from "./panels/transforms.js";
import { exportPanel, FORMS } from "./panels/export.js";
import { load } from "./loader.js";
import { createRouter, PAGE_MODULES } from "./modules.js";

import { WIDGETS } from "./widgets.js";

const root = $("#widget");
const loading = loadingIndicator();
let state = defaults();
let params = new URLSearchParams();

const yieldTask = () => new Promise((resolve) => setTimeout(resolve, 0));

function reportHeight() {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (window.parent !== window) {
    window.parent.postMessage({
      type: "subplay:height", height, widget: params.get("widget"), id: params.get("id") || undefined,
      rendered: Number(document.body.dataset.rendered || 0) > 0,
    }, "*");
  }
  document.documentElement.dataset.height = String(height);
}

/**
 * start builds the widget. core is the promise of the build the widget
 * needs, which embed.js started loading; onProgress receives the progress
 * callback for it.
 */
export async function start(core, onProgress, { problem = "", decoded = null } = {}) {
  onProgress(loading.progress);
  // embed.js checked the link before downloading anything: a link that
  // cannot work shows why, with no loading bar above it.
  if (!problem && !decoded) {
    try {
      decoded = await decode(location.hash);
    } catch (e) {
      problem = "This widget's link could not be read: " + e.message;
    }
  }
  if (problem) {
    loading.done();
    const p = new URLSearchParams(location.hash.slice(1));
    applyTheme(p.get("theme"));
    replace(root, h("h1", { class: "widget-title" }, "subplay widget"), h("p", { class: "error-text", role: "alert" }, problem));
    reportHeight();
    return;
  }
  ({ state, params } = decoded);
  applyTheme(params.get("theme"));
  const name = params.get("widget") || "filter";
  const w = WIDGETS[name];
  // The first editor's first-time costs go in tasks of their own (see
  // warmEditor), and so does each step below.
  for (const step of warmEditor()) {
    await yieldTask();
    step();
  }
  await yieldTask();
  document.title = `subplay: ${w.title}`;
  document.documentElement.dataset.widget = name;
  new ResizeObserver(reportHeight).observe(document.documentElement);

  const ctx = {
    getState: () => state,
    onChange: (patch) => {
      state = { ...state, ...patch };
      refresh();
    },
    onJump: (d) => editor && editor.jump(d),
  };
  const heading = h("h1", { class: "widget-title" }, params.get("title") || w.title);
  const open = h("button", { type: "button", class: "link open-full", onclick: openFull }, "Open in the playground");
  const head = h("div", { class: "widget-head" }, heading, open);
  let editor = null;
  const diagList = h("ul", { class: "diag-list compact", "aria-label": "Configuration diagnostics" });
  const panelHost = h("div", { class: "panel", role: "region", "aria-label": w.title });
  const showEditor = w.config && params.get("editor") !== "0";
  const editorHost = showEditor ? h("div", { class: "editor small" }) : null;
  replace(root, head, editorHost, showEditor ? diagList : null, panelHost);
  if (showEditor) {
    editor = createEditor(editorHost, {
      doc: state.config,
      format: state.format || (/^\s*[{[]/.test(state.config) ? "json" : "yaml"),
      label: "Subscription configuration",
      onChange: (text) => ctx.onChange({ config: text }),
    });
  }
  await yieldTask();
  let panel;
  if (name === "filter") {
    if (state.filter === null) state.filter = "";
    panel = filterPanel(panelHost, { ...ctx, standalone: true, level: 2 });
  } else if (name === "names") {
    panel = storagePanel(panelHost, { ...ctx, level: 2 });
  } else if (name === "schema") {
    panel = schemaPanel(panelHost, { ...ctx, level: 2 });
  } else if (name === "transforms") {
    panel = transformsPanel(panelHost, { ...ctx, level: 2 });
  } else if (name === "export") {
    const to = params.get("to") || "";
    panel = exportPanel(panelHost, { ...ctx, level: 2, only: FORMS.some((f) => f.id === to) ? to : "" });
  } else {
    panel = settingsPanel(panelHost);
  }
  if (panel.sync) panel.sync(state);

  let sp;
  // What the widget's build lacks or refuses ("needs-module": a UDF, a
  // Terraform text, a filter to run) goes to the smallest build that has
  // it, fetched then (modules.js), or to "extra".
  const router = createRouter({
    load: (m) => load({ module: m, onProgress: loading.progress }),
    next: w.module === PAGE_MODULES[1] ? "" : PAGE_MODULES[1],
    onStart: () => {
      loading.show("the rest of the core");
      document.body.dataset.busy = PAGE_MODULES[1];
    },
    onReady: () => {
      loading.done();
      delete document.body.dataset.busy;
      refresh();
    },
    onFail: (message) => {
      loading.failed(message);
      delete document.body.dataset.busy;
    },
  });
  const runner = createRunner((calls) => router.run(calls), (job, results) => {
    let responses = results;
    let effective = null;
    if (w.config) {
      effective = results[0].ok ? results[0].value : null;
      responses = results.slice(1);
      const ds = effective ? effective.diagnostics : [{ severity: "error", code: results[0].value.error.code, message: results[0].value.error.message }];
      if (editor) editor.setDiagnostics(ds);
      renderDiagnostics(diagList, ds, (d) => editor && editor.jump(d));
    }
    panel.render({ state, effective, responses });
    // The panel's own findings in the configuration (a UDF's code).
    if (editor && effective && panel.configDiagnostics) editor.setDiagnostics([...effective.diagnostics, ...panel.configDiagnostics(effective.diagnostics)]);
    document.body.dataset.rendered = String(job.seq);
    // For the benchmarks: when the first preview was on the page, in ms
    // since navigation started.
    if (window.subplayFirstPreview === undefined) window.subplayFirstPreview = performance.now();
    document.dispatchEvent(new CustomEvent("subplay:rendered", { detail: { seq: job.seq, ms: performance.now() - job.t } }));
    reportHeight();
  });

  function refresh() {
    if (!sp) return;
    const base = { text: state.config, format: state.format };
    // Only the settings widget shows what "effective" adds to "validate".
    const calls = w.config ? [[name === "settings" ? "effective" : "validate", base], ...panel.requests(state, base)] : panel.requests(state, base);
    document.body.dataset.requested = String(runner(calls, {}));
  }

  async function openFull() {
    const frag = await encode({ ...state, tab: w.tab });
    window.open(new URL("./#" + frag, location.href).href, "_blank", "noopener");
  }

  reportHeight();
  try {
    sp = await core;
    router.setFirst(sp);
  } catch (e) {
    loading.failed(e.message);
    panelHost.replaceChildren();
    reportHeight();
    return;
  }
  loading.done();
  window.subplayTiming = sp.timing;
  document.body.dataset.ready = "true";
  refresh();
}
