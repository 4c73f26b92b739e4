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
import { setDiagnostics, lintGutter, lintKeymap } from "@codemirror/lint";
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
 * empty).
 */
export function createEditor(parent, { doc = "", format = "json", label, onChange, lines = true, hint } = {}) {
  const lang = new Compartment();
  const extensions = [
    lines ? [lineNumbers(), highlightActiveLineGutter(), lintGutter()] : [],
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    syntaxHighlighting(classHighlighter),
    keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap, ...lintKeymap]),
    lang.of(languageOf(format)),
    hint ? placeholder(hint) : [],
    theme,
    EditorView.lineWrapping,
    EditorView.contentAttributes.of({ "aria-label": label || "editor", "aria-multiline": "true" }),
    EditorView.updateListener.of((u) => {
      if (u.docChanged && onChange) onChange(u.state.doc.toString());
    }),
  ];
  const view = new EditorView({ state: EditorState.create({ doc, extensions }), parent });
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
 * warmEditor builds and drops a bare editor. The first editor of a page
 * pays for compiling CodeMirror's code and mounting its styles; paying that
 * in a task of its own keeps each task of the page's start short.
 */
export function warmEditor() {
  const host = document.createElement("div");
  host.className = "editor warm";
  document.body.append(host);
  const view = new EditorView({ state: EditorState.create({ doc: "{}", extensions: [lineNumbers(), theme] }), parent: host });
  view.destroy();
  host.remove();
}
