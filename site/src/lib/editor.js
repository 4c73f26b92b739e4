// editor.js wraps CodeMirror 6 for the configuration and the other text
// inputs: one setup, diagnostics from the core turned into editor marks,
// and a way to jump to a line and column.
import { EditorState, Compartment } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection, placeholder,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { syntaxHighlighting, indentOnInput, bracketMatching } from "@codemirror/language";
import { classHighlighter } from "@lezer/highlight";
import { setDiagnostics, linter, lintGutter, lintKeymap } from "@codemirror/lint";
import { searchKeymap, highlightSelectionMatches } from "@codemirror/search";
import { json } from "@codemirror/lang-json";
import { yaml } from "@codemirror/lang-yaml";

// The colours live in style.css (CSS variables, light and dark), so the
// editor follows the page theme without a second CodeMirror theme.
const theme = EditorView.theme({
  "&": { fontSize: "13px" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.5" },
  ".cm-content": { caretColor: "var(--fg)" },
});

function languageOf(format) {
  if (format === "yaml") return yaml();
  if (format === "json") return json();
  return [];
}

/**
 * createEditor mounts an editor in parent.
 * opts: doc, format ("json", "yaml" or "" for plain), label (for screen
 * readers), onChange(text), lines (show line numbers), hint (shown while
 * empty), onEdit(text, apply) (see editFirst).
 */
export function createEditor(parent, { doc = "", format = "json", label, onChange, onEdit, lines = true, hint } = {}) {
  const lang = new Compartment();
  const extensions = extensionsFor({ lang, format, label, onChange, lines, hint });
  const view = new EditorView({
    state: EditorState.create({ doc, extensions }),
    parent,
    dispatchTransactions: onEdit ? editFirst(onEdit) : undefined,
  });
  let lastDiagnostics = null;
  let current = format;
  return {
    view,
    get text() { return view.state.doc.toString(); },
    setText(text) {
      if (text === view.state.doc.toString()) return;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    setFormat(f) {
      if (f === current) return;
      current = f;
      view.dispatch({ effects: lang.reconfigure(languageOf(f)) });
    },
    setDiagnostics(ds) {
      // Most keystrokes leave the findings as they were; redrawing the
      // marks anyway is a measurable part of an edit's cost.
      const key = JSON.stringify(ds || []) + "@" + view.state.doc.length;
      if (key === lastDiagnostics) return;
      lastDiagnostics = key;
      view.dispatch(setDiagnostics(view.state, toEditor(view.state.doc, ds)));
    },
    jump(d) {
      const r = rangeOf(view.state.doc, d);
      if (!r) return;
      view.dispatch({ selection: { anchor: r.from, head: r.to }, scrollIntoView: true });
      view.focus();
    },
  };
}

/**
 * editFirst makes a dispatchTransactions that tells onEdit(text, apply)
 * about a change of the text before the editor redraws: text is the new
 * text, apply() redraws (once; it is called after onEdit anyway). Only
 * then does CodeMirror update its view: the DOM, the syntax highlighting,
 * the gutters, the lint marks. A keystroke spends most of its time there,
 * so a request for the core posted before apply() is computed in the
 * worker meanwhile. onEdit must not dispatch to this editor before
 * apply(): CodeMirror allows no update that does not start from the view's
 * state.
 */
export function editFirst(onEdit) {
  return (trs, view) => {
    if (!trs.some((tr) => tr.docChanged)) {
      view.update(trs);
      return;
    }
    let applied = false;
    const apply = () => {
      if (applied) return;
      applied = true;
      view.update(trs);
    };
    try {
      // newDoc is the text after the changes, without computing the
      // transaction's new state (the syntax tree, the lint fields).
      onEdit(trs[trs.length - 1].newDoc.toString(), apply);
    } finally {
      apply();
    }
  };
}

/**
 * typeDirect inserts typed text itself, from the beforeinput event, rather
 * than letting the browser edit the DOM and CodeMirror read the edit back
 * (its MutationObserver): in Chromium the browser's own editing took 4 to
 * 6 ms of a typed character's time before CodeMirror even saw it
 * (BenchmarkKeystroke, digits against Backspace, which CodeMirror handles
 * from keydown). Only plain typing goes this way: compositions (IME, dead
 * keys), other kinds of input (paste, drop, autocorrect) and read-only
 * editors keep CodeMirror's path. Input handlers (EditorView.inputHandler)
 * see the text first, as on CodeMirror's path.
 */
export const typeDirect = EditorView.domEventHandlers({
  beforeinput(e, view) {
    if (e.inputType !== "insertText" || e.isComposing || view.composing || !e.data || view.state.readOnly) return false;
    const text = e.data;
    const insert = () => view.state.update(view.state.replaceSelection(text), { userEvent: "input.type", scrollIntoView: true });
    const { from, to } = view.state.selection.main;
    e.preventDefault();
    if (view.state.facet(EditorView.inputHandler).some((h) => h(view, from, to, text, insert))) return true;
    view.dispatch(insert());
    return true;
  },
});

function gutters() {
  return [lineNumbers(), highlightActiveLineGutter(), lintGutter()];
}

function extensionsFor({ lang, format, label, onChange, lines, hint }) {
  return [
    lines ? gutters() : [],
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    syntaxHighlighting(classHighlighter),
    keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap, ...lintKeymap]),
    typeDirect,
    // The lint machinery from the start, without a source of its own: the
    // diagnostics come from the core. Otherwise the first setDiagnostics
    // adds it, and reconfiguring a live editor is a long task.
    linter(null),
    lang.of(languageOf(format)),
    hint ? placeholder(hint) : [],
    theme,
    EditorView.lineWrapping,
    // tabindex: the content is focusable anyway (contenteditable), but
    // axe counts a scrolling editor (a long text on a phone) as a region
    // keyboards cannot reach unless it says so.
    EditorView.contentAttributes.of({ "aria-label": label || "editor", "aria-multiline": "true", tabindex: "0" }),
    EditorView.updateListener.of((u) => {
      if (u.docChanged && onChange) onChange(u.state.doc.toString());
    }),
  ];
}

/**
 * offsetOf turns a 1-based line and a 1-based column counted in Unicode
 * code points (the contract's columns) into a document offset, which
 * CodeMirror counts in UTF-16 units. Out-of-range positions clamp.
 */
export function offsetOf(doc, line, column) {
  if (!line || line < 1) return null;
  if (line > doc.lines) return doc.length;
  const l = doc.line(line);
  let off = 0;
  let cp = 1;
  const text = l.text;
  while (cp < (column || 1) && off < text.length) {
    const c = text.codePointAt(off);
    off += c > 0xffff ? 2 : 1;
    cp++;
  }
  return l.from + off;
}

/** rangeOf is the document range a diagnostic covers, or null. */
export function rangeOf(doc, d) {
  const from = offsetOf(doc, d.line, d.column);
  if (from === null) return null;
  let to = d.endLine ? offsetOf(doc, d.endLine, d.endColumn) : null;
  if (to === null || to < from) {
    // No end: cover the rest of the word, or one character.
    const line = doc.lineAt(from);
    const rest = line.text.slice(from - line.from);
    const m = /^[^\s,:\]}]+/.exec(rest);
    to = from + (m ? m[0].length : Math.min(1, rest.length));
  }
  return { from, to };
}

function toEditor(doc, ds) {
  const out = [];
  for (const d of ds || []) {
    const r = rangeOf(doc, d);
    if (!r) continue;
    out.push({
      from: r.from,
      to: r.to,
      severity: d.severity === "error" ? "error" : d.severity === "warning" ? "warning" : "info",
      source: d.code,
      message: d.hint ? `${d.message} (${d.hint})` : d.message,
    });
  }
  return out;
}

/**
 * warmEditor returns the steps that prepare the first editor of a page, to
 * run each in a task of its own. That editor pays for compiling
 * CodeMirror's code, mounting its style sheets and the first layout of an
 * editor; done in one go, that was a task of 60 to 130 ms. Each step here
 * exercises another part of that first-time work on an editor that is
 * thrown away; the last prepares the fonts the previews use.
 */
export function warmEditor() {
  const sample = '{\n  "a": [1, "b", true]\n}\n';
  const full = () => extensionsFor({ lang: new Compartment(), format: "json", lines: true });
  const detached = (extensions) => new EditorView({ state: EditorState.create({ doc: sample, extensions }) }).destroy();
  let host = null;
  let view = null;
  const mount = (extensions) => {
    host = document.createElement("div");
    host.className = "editor warm";
    document.body.append(host);
    view = new EditorView({ state: EditorState.create({ doc: sample, extensions }), parent: host });
  };
  const drop = () => {
    view.destroy();
    host.remove();
  };
  return [
    // The state side: facets, fields, the JSON parser.
    () => EditorState.create({ doc: sample, extensions: full() }),
    // Views not in the document: the view's code and its style sheets.
    () => detached([gutters(), theme]),
    () => detached([gutters(), theme, drawSelection(), bracketMatching(), highlightActiveLine()]),
    () => detached(full()),
    // In the document: the first layout of an editor.
    () => {
      mount([gutters(), theme]);
      drop();
    },
    () => mount(full()),
    // Its first diagnostics.
    () => view.dispatch(setDiagnostics(view.state, [
      { from: 4, to: 7, severity: "error", message: "warm" },
      { from: 10, to: 11, severity: "warning", message: "warm" },
    ])),
    drop,
    warmText,
  ];
}

// warmText lays out, out of sight, a line in each font the previews use
// and the page has not shown yet (bold and italic monospace, small bold
// labels). The first layout in a new font face loads and prepares the
// face; in the traces that was a 40 ms layout in the first preview's task.
function warmText() {
  const box = document.createElement("div");
  box.className = "visually-hidden";
  box.setAttribute("aria-hidden", "true");
  const table = document.createElement("table");
  table.className = "settings";
  const row = table.insertRow();
  const th = document.createElement("th");
  th.scope = "row";
  const code = document.createElement("code");
  code.textContent = "ackDeadlineSeconds 0123456789";
  th.append(code);
  row.append(th);
  for (const cls of ["sev", "badge", "help", "tok-comment mono", "summary", "range"]) {
    const cell = row.insertCell();
    const span = document.createElement("span");
    span.className = cls;
    span.textContent = "Error 10s (10 seconds) default";
    cell.append(span);
  }
  box.append(table);
  document.body.append(box);
  void box.offsetHeight; // lay it out now, in this task
  box.remove();
}
