// page.js is the playground page: the configuration editor, its
// diagnostics, the preview panels, the examples and share links. Every
// answer comes from the core, which runs in a worker (loader.js). app.js
// loads it after starting the core, and calls start.
import { load } from "./loader.js";
import { $, h } from "./lib/dom.js";
import { createEditor, warmEditor } from "./lib/editor.js";
import { renderDiagnostics } from "./lib/diaglist.js";
import { createRunner } from "./lib/runner.js";
import { defaults, decode, encode, normalize, TABS } from "./lib/state.js";
import { createSaver, chooseOpening, ago, ASIDE_KEY, DEBOUNCE_MS } from "./lib/persist.js";
import { createPreviewKeeper } from "./lib/persist-preview.js";
import { applyTheme } from "./lib/theme.js";
import { loadingIndicator } from "./lib/loading.js";
import { settingsPanel } from "./panels/settings.js";
import { filterPanel } from "./panels/filter.js";
import { storagePanel } from "./panels/storage.js";
import { schemaPanel } from "./panels/schema.js";
import { galleryPanel } from "./panels/gallery.js";
import { transformsPanel } from "./panels/transforms.js";
import { exportPanel } from "./panels/export.js";
import { PAGE_MODULES, createRouter } from "./modules.js";
import { callsFor, wireKey } from "./calls.js";
import { FIRST, STORED, CORE } from "./early.js";

let state = defaults();
let lastBase = null;
const loading = loadingIndicator();

// The builds of the core the page uses (modules.js): the first gives the
// first preview; what it lacks or refuses ("needs-module") goes to the
// second, which is fetched only when first needed.
let sp = null; // the first build, once loaded
const router = createRouter({
  load: (name) => load({ module: name, onProgress: loading.progress }),
  onStart: () => {
    loading.show("the rest of the core");
    document.body.dataset.busy = PAGE_MODULES[1];
  },
  onReady: (m) => {
    more = m;
    watchCrashes(m);
    window.subplayMoreTiming = m.timing;
    loading.done();
    delete document.body.dataset.busy;
    refresh();
  },
  onFail: (message) => {
    loading.failed(message);
    delete document.body.dataset.busy;
  },
});
const runCalls = (calls) => router.run(calls);

// detect mirrors what the core does for format "": text that opens with
// { or [ is JSON, anything else YAML. It only picks the highlighting.
function detect(text) {
  return /^\s*[{[]/.test(text) ? "json" : "yaml";
}
const editorFormat = () => state.format || detect(state.config);

let editor = null; // created by start, after the page has painted

function createConfigEditor() {
  editor = createEditor($("#editor"), {
    doc: state.config,
    format: editorFormat(),
    label: "Subscription configuration",
    // An edit's request goes to the core before the editor redraws (the
    // larger part of a keystroke's time), and its answer is taken from the
    // shared slot after (loader.js hold), so the worker computes while the
    // editor redraws.
    onEdit: (text, apply) => {
      const before = editorFormat();
      state.config = text;
      const after = () => {
        apply();
        if (editorFormat() !== before) editor.setFormat(editorFormat());
      };
      // Before the core is there, refresh may draw the build's preview,
      // which marks this editor: only after it has redrawn.
      if (!sp || applying) {
        after();
        refresh();
        return;
      }
      held(() => {
        refresh(true);
        after();
      });
    },
  });
}

// held runs fn with the builds' shared-slot watches put off until it
// returns (loader.js hold).
let more = null; // the second build, once loaded
function held(fn) {
  const inner = () => sp.hold(fn);
  return more ? more.hold(inner) : inner();
}

const formatSelect = $("#format");
formatSelect.addEventListener("change", () => {
  state.format = formatSelect.value;
  editor.setFormat(editorFormat());
  refresh();
});

const ctx = {
  getState: () => state,
  onChange: (patch) => {
    state = { ...state, ...patch };
    refresh();
  },
  onJump: (d) => editor.jump(d),
  // A finding about a sample message, from another tab: the messages are
  // edited in the filter tester.
  onJumpMessage: (d) => {
    selectTab("filter", false);
    panel("filter").messagesEditor.jump(d);
  },
};

// Panels are built the first time they are shown: each builds editors and
// tables, and building all of them at once made the page's first task
// long.
const factories = {
  settings: () => settingsPanel($("#panel-settings")),
  filter: () => filterPanel($("#panel-filter"), ctx),
  storage: () => storagePanel($("#panel-storage"), ctx),
  schema: () => schemaPanel($("#panel-schema"), ctx),
  transforms: () => transformsPanel($("#panel-transforms"), ctx),
  export: () => exportPanel($("#panel-export"), ctx),
  examples: () => galleryPanel($("#panel-examples"), {
    onOpen: (ex, v) => {
      applyState({ ...state, config: v.text, format: v.format, filter: null, tab: ex.tab });
      editor.view.focus();
    },
  }),
};
const panels = {};
function panel(name) {
  if (!panels[name]) {
    panels[name] = factories[name]();
    if (panels[name].sync) panels[name].sync(state);
  }
  return panels[name];
}

// Tabs, with the keyboard pattern screen-reader users expect: arrows move
// between tabs, Home and End jump, only the selected tab is in the tab order.
const tabs = [...document.querySelectorAll('[role="tab"]')];
function selectTab(name, focus) {
  state.tab = name;
  for (const t of tabs) {
    const on = t.dataset.tab === name;
    t.setAttribute("aria-selected", String(on));
    t.tabIndex = on ? 0 : -1;
    $("#" + t.getAttribute("aria-controls")).hidden = !on;
    if (on && focus) t.focus();
  }
  panel(name);
  refresh();
}
for (const t of tabs) {
  t.addEventListener("click", () => selectTab(t.dataset.tab, false));
  t.addEventListener("keydown", (e) => {
    const i = tabs.indexOf(t);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    selectTab(tabs[(next + tabs.length) % tabs.length].dataset.tab, true);
  });
}

const diagList = $("#diagnostics");
const diagCount = $("#diag-count");

// When the core dies (a fatal error in Go: the loader restarts it at once
// and sends the unanswered request again), the previews stay as they were,
// marked stale, with a short note, until a fresh answer replaces them.
const crashNote = $("#crash-status");
function markStale(message) {
  document.body.dataset.stale = "true";
  crashNote.hidden = false;
  crashNote.textContent = message;
}
function watchCrashes(mod) {
  mod.addEventListener("crash", () => markStale("The core stopped and is restarting; the preview is from before."));
}
// Until the core answers, the list says why it is empty (unless early.js
// drew the build's preview into it).
if (!document.body.dataset.firstPaint) diagList.replaceChildren(h("li", { class: "diag-none" }, "Checking as soon as the core has loaded…"));

// show draws one job's answers: the diagnostics and the shown panel. A
// job marked prebuilt is the build's answer for the default state
// (firstPaint), drawn before the core has loaded.
let lastShown = null; // the answers last drawn, as JSON text (show)
function show(job, results) {
  const t0 = performance.now();
  const base = results[0];
  const crashed = results.find((r) => !r.ok && r.value.error.code === "crashed");
  if (crashed) {
    markStale("The core stopped on this input and was restarted; the preview is from the last input it could answer.");
    document.body.dataset.rendered = String(job.seq);
    document.dispatchEvent(new CustomEvent("subplay:rendered", { detail: { seq: job.seq, crashed: true } }));
    return;
  }
  if (document.body.dataset.stale) {
    delete document.body.dataset.stale;
    crashNote.hidden = true;
    lastShown = null;
  }
  // An edit that changes no answer (a space between two settings, say)
  // redraws nothing: the answers' JSON text and the rest of the state the
  // panels read say so without parsing or comparing the parts. The
  // editor's marks are set anyway, since they are placed in the new text.
  const shownKey = job.prebuilt ? null
    : [job.meta.tab, JSON.stringify({ ...state, config: undefined }), ...results.map((r) => r.body)].join("\n");
  if (shownKey !== null && shownKey === lastShown) {
    if (base.ok) markEditor(panel(job.meta.tab), base.value.diagnostics);
    finish(job, results, t0);
    return;
  }
  lastShown = shownKey;
  if (base.ok) {
    lastBase = base.value;
    editor.setDiagnostics(base.value.diagnostics);
    renderDiagnostics(diagList, base.value.diagnostics, (d) => editor.jump(d), diagCount);
  } else {
    lastBase = null;
    editor.setDiagnostics([]);
    renderDiagnostics(diagList, [{ severity: "error", code: base.value.error.code, message: base.value.error.message }], null, diagCount);
  }
  // Only the visible panel is drawn; a panel is drawn again when shown.
  const shown = panel(job.meta.tab);
  shown.render({ state, effective: lastBase, responses: results.slice(1) });
  if (base.ok) markEditor(shown, base.value.diagnostics);
  finish(job, results, t0);
}

// markEditor marks the findings in the configuration editor: the base
// operation's, and a panel's own findings in the configuration (a UDF's
// code), which the shown panel has after it rendered.
function markEditor(shown, diagnostics) {
  const own = shown.configDiagnostics ? shown.configDiagnostics(diagnostics) : [];
  editor.setDiagnostics(own.length ? [...diagnostics, ...own] : diagnostics);
}

// finish records that a job is on the page, for the tests and benchmarks.
function finish(job, results, t0) {
  const done = performance.now();
  // For the benchmarks: when the first preview was on the page, in ms
  // since navigation started, whoever computed it.
  if (window.subplayFirstPreview === undefined) window.subplayFirstPreview = done;
  if (job.prebuilt) return;
  document.body.dataset.rendered = String(job.seq);
  // Kept for the next visit's first preview (early.js): only the settings
  // tab's answers, the only panel early.js draws.
  if (job.meta.tab === "settings") previews.keep(job.calls, results);
  // For the benchmarks: the core's first answer, and where its time went.
  if (window.subplayFirstCall === undefined) window.subplayFirstCall = { ...results.timing, done };
  document.dispatchEvent(new CustomEvent("subplay:rendered", {
    detail: {
      seq: job.seq, ms: done - job.t, renderMs: done - t0, ops: results.map((r) => r.ms), calls: job.calls.map((c) => c[0]),
      t: job.t, timing: results.timing, done,
    },
  }));
}
const runner = createRunner(runCalls, show);

// The first preview comes from answers computed before the core is up:
// those this browser kept for the work it restores (early.js STORED,
// lib/persist-preview.js), or the build's (site/tools/firstpaint.mjs): the
// answer of the module the page loads first, run on the default state
// while the site was built. Either is drawn only while the calls the page
// would send are exactly those it answers, and only until the core itself
// answers. An edit before that takes it away again: the diagnostics say
// they are coming, and the panel is dimmed as stale.
let prebuiltDrawn = null; // the preview drawn by show, with the editor's marks and jumps
function firstPaint(calls) {
  const key = wireKey(calls);
  const [from, preview] = STORED && key === STORED.key ? ["stored", STORED]
    : FIRST && key === FIRST.key ? ["build", FIRST] : [null, null];
  if (preview) {
    if (prebuiltDrawn === preview) return;
    prebuiltDrawn = preview;
    show({ seq: 0, meta: { tab: state.tab }, t: performance.now(), calls, prebuilt: true }, preview.results);
    document.body.dataset.firstPaint = "shown";
    document.body.dataset.previewFrom = from;
  } else if (document.body.dataset.firstPaint === "shown") {
    prebuiltDrawn = null;
    document.body.dataset.stale = "true";
    editor.setDiagnostics([]);
    diagCount.textContent = "";
    diagList.replaceChildren(h("li", { class: "diag-none" }, "Checking as soon as the core has loaded…"));
    diagList.subplayKey = undefined;
    document.body.dataset.firstPaint = "withdrawn";
  }
}

// The work is kept as it changes: in the URL and in this browser's storage.
const defaultKey = JSON.stringify(normalize(defaults()));
const saver = createSaver({
  encode, isDefault: (s) => JSON.stringify(normalize(s)) === defaultKey,
  storage: localStorage, history, location,
});
let saving = false; // off until the first state is on screen
// The core's last answers for the settings tab, kept beside the work.
const previews = createPreviewKeeper({ storage: localStorage, core: CORE, wait: DEBOUNCE_MS });

// refresh asks the core for the current state. The request goes at the
// end of the current task's synchronous work (several changes at once make
// one request), or at once when now is set (an edit in the configuration
// editor, onEdit).
function refresh(now = false) {
  if (saving) {
    saver.save(state);
    if (!shareStatus.hidden && shareStatus.dataset.kind === "share") shareStatus.hidden = true;
  }
  if (!sp) {
    firstPaint(callsFor(state, panel(state.tab)));
    return;
  }
  // One request per change: what changes several things at once
  // (applyState: the text, the format, the tab) calls refresh for each;
  // the request goes once they are done, still before the page yields to
  // the browser.
  if (requestQueued) return;
  if (now) {
    request();
    return;
  }
  requestQueued = true;
  queueMicrotask(() => {
    requestQueued = false;
    request();
  });
}
let requestQueued = false;

function request() {
  // The tests and benchmarks wait until the rendered job is the last
  // one requested.
  document.body.dataset.requested = String(runner(callsFor(state, panel(state.tab)), { tab: state.tab }));
}

let applying = false; // applyState: its changes make one request
function applyState(s) {
  state = normalize(s);
  applying = true;
  try {
    editor.setText(state.config);
  } finally {
    applying = false;
  }
  editor.setFormat(editorFormat());
  formatSelect.value = state.format;
  for (const p of Object.values(panels)) if (p.sync) p.sync(state);
  selectTab(TABS.includes(state.tab) ? state.tab : "settings", false);
}

// Share: the whole state goes into the fragment; nothing is uploaded.
const shareStatus = $("#share-status");
$("#share").addEventListener("click", async () => {
  await saver.flush();
  const url = location.href;
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch {
    // No clipboard (an insecure context or a denied permission): the link
    // is in the address bar and in the box below.
  }
  // The bar goes at the next edit: the address bar then holds the newer
  // state, and a stale link beside it would mislead.
  showStatus("share",
    copied ? "Link copied; the address bar keeps following your edits. " : "Copy this link: ",
    h("input", { type: "text", readonly: true, value: url, "aria-label": "Share link", class: "mono share-url", onfocus: (e) => e.target.select() }),
    ` (${url.length} characters)`,
    closeButton());
});

function showStatus(kind, ...children) {
  shareStatus.hidden = false;
  shareStatus.dataset.kind = kind;
  shareStatus.replaceChildren(...children.filter(Boolean));
}

function closeButton() {
  return h("button", { type: "button", class: "link", onclick: () => { shareStatus.hidden = true; } }, "Dismiss");
}

// offerRestore shows, after a share link replaced the work this browser
// had, a way back to it.
function offerRestore(saved) {
  try {
    localStorage.setItem(ASIDE_KEY, JSON.stringify(saved));
  } catch {
    // Without storage the offer lasts as long as the page.
  }
  showStatus("restore",
    `This link replaced your own work from ${ago(saved.at)}. `,
    h("button", {
      type: "button", onclick: async () => {
        const { state: s } = await decode("#" + saved.frag);
        applyState(s);
        localStorage.removeItem(ASIDE_KEY);
        shareStatus.hidden = true;
      },
    }, "Restore my work"),
    " ",
    h("button", { type: "button", class: "link", onclick: () => { localStorage.removeItem(ASIDE_KEY); shareStatus.hidden = true; } }, "Keep the link's"));
}

async function restoreFromHash() {
  if (location.hash.length < 2) return false;
  try {
    const { state: s, params } = await decode(location.hash);
    applyTheme(params.get("theme"));
    applyState(s);
    return true;
  } catch (e) {
    showStatus("error", "This link could not be opened: " + e.message + " ", closeButton());
    return false;
  }
}

// restoreWork opens what the URL holds, else the work saved in this
// browser. A link that differs from the saved work wins, and the saved
// work is offered back.
async function restoreWork() {
  const { from, frag, saved } = chooseOpening(localStorage, location.hash);
  if (from === "link") {
    const ok = await restoreFromHash();
    if (ok && saved && "#" + saved.frag !== frag) {
      const [mine, theirs] = await Promise.all([decode("#" + saved.frag).catch(() => null), decode(location.hash)]);
      if (mine && JSON.stringify(mine.state) !== JSON.stringify(theirs.state) && JSON.stringify(mine.state) !== defaultKey) offerRestore(saved);
    }
    return ok;
  }
  if (from === "default") return false;
  try {
    applyState((await decode(frag)).state);
    showStatus("restored", `Your work from ${ago(saved.at)} is back (kept in this browser). `,
      h("button", { type: "button", class: "link", onclick: () => { applyState(defaults()); shareStatus.hidden = true; } }, "Start over from the example"));
    return true;
  } catch {
    return false;
  }
}
window.addEventListener("hashchange", () => {
  // replaceState fires no hashchange: this is a link pasted or followed.
  restoreFromHash();
});

// Version and a small hook for the browser tests and benchmarks.
window.subplayPage = {
  get state() { return state; },
  get editor() { return editor; },
  setConfig: (text) => editor.setText(text),
  setMessages: (text) => panel("filter").messagesEditor.setText(text),
  setSchemas: (topic, table) => {
    state = { ...state, schema: { topic, table } };
    panel("schema").sync(state);
    refresh();
  },
  call: (op, req) => sp.call(op, req),
  // Calls routed as the page's own are (runCalls): to the extra build
  // when the first cannot answer; resolves with [{ok, value}].
  run: (calls) => runCalls(calls),
  // The build's answer for the default state: {key, results, version}.
  firstPaint: FIRST,
  // The answers kept by an earlier visit that early.js drew, {key,
  // results}, or null; and the name of the core this page ships.
  storedPreview: STORED,
  core: CORE,
  // For the recovery test: the core exits as on a fatal error.
  killCore: () => sp.kill(),
  // For the tests of the shared answer slot (loader.js, lib/slot.js): how
  // the first build's answers came, and how long the page may wait for one.
  get answered() { return sp && { ...sp.answered, isolated: window.crossOriginIsolated }; },
  setSpin: (ms) => { sp.spin = ms; },
};

// yieldTask lets the browser paint and handle input between the steps of
// starting up, so that none of them is a long task.
const yieldTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * start builds the page. core is the promise of the first build, which
 * app.js started loading before this module was even fetched; onProgress
 * receives the progress callback for it. early.settings is the settings
 * panel early.js built (and perhaps drew the build's preview into).
 */
export async function start(core, onProgress, early = {}) {
  onProgress(loading.progress);
  if (early.settings) panels.settings = early.settings;
  // The early preview's diagnostics are drawn again, with the buttons that
  // jump to the editor (firstPaint).
  diagList.subplayKey = undefined;
  // The first editor's first-time costs, in steps of their own (see
  // warmEditor), then the real one.
  for (const step of warmEditor()) {
    await yieldTask();
    step();
  }
  await yieldTask();
  createConfigEditor();

  await yieldTask();
  const restored = await restoreWork();
  if (!restored) applyState(state);
  saving = true;
  saver.save(state);
  try {
    sp = await core;
    router.setFirst(sp);
  } catch (e) {
    loading.failed(e.message);
    diagList.replaceChildren(h("li", { class: "diag-none" }, "No diagnostics: the core did not load."));
    return;
  }
  loading.done();
  watchCrashes(sp);
  window.subplayTiming = sp.timing;
  $("#version").textContent = sp.version;
  $("#version-foot").textContent = sp.version;
  $("#version-line").hidden = false;
  document.body.dataset.ready = "true";
  refresh();
}
