// export.js is the Export panel: the configuration written in every form a
// user may need, REST JSON, describe-style YAML, a gcloud command and a
// Terraform resource, each with a copy button; as given or with every
// default filled in; with an existing configuration, the gcloud command is
// an update (only the flags that change) and Terraform gets an import
// block. The core's "convert" operation writes them; the panel lays them
// out.
import { h, replace } from "../lib/dom.js";
import { createEditor } from "../lib/editor.js";
import { renderDiagnostics, notIn } from "../lib/diaglist.js";

// FORMS are what convert writes, in its order, with the panel's names.
export const FORMS = [
  { id: "json", title: "REST JSON", hint: "The subscription resource, as the API and describe --format=json have it." },
  { id: "yaml", title: "YAML", hint: "As gcloud pubsub subscriptions describe --format=yaml prints it." },
  { id: "gcloud", title: "gcloud command", hint: "A gcloud pubsub subscriptions create command (update, when an existing configuration is given)." },
  { id: "terraform", title: "Terraform", hint: "A google_pubsub_subscription resource for the Google provider." },
];

/**
 * exportPanel builds the panel in root. opts.only names one form (an
 * embed with format=...): only it is shown, with no options.
 */
export function exportPanel(root, { getState, onChange, onJump, level = 3, only = "" }) {
  const H3 = `h${level}`;
  const summary = h("p", { class: "summary", role: "status" });
  const diags = h("ul", { class: "diag-list compact", "aria-label": "Export diagnostics" });
  const forms = only ? FORMS.filter((f) => f.id === only) : FORMS;
  const effective = h("input", {
    type: "checkbox",
    onchange: () => onChange({ export: { ...getState().export, effective: effective.checked } }),
  });
  const oldHost = h("div", { class: "editor small" });
  const blocks = forms.map((f) => outputBlock(f, H3));
  const options = only ? null : h("div", { class: "export-options" },
    h("label", { class: "inline check" }, effective, " With every default filled in (effective), instead of as given"),
    h("details", { class: "export-old" },
      h("summary", null, "Existing configuration (for a gcloud update command and a Terraform import block)"),
      h("p", { class: "hint" }, "Paste the subscription as it is now, in any form the editor takes; leave empty for a create command."),
      oldHost));
  replace(root, options, summary, diags, blocks.map((b) => b.el));

  let old = null;
  if (!only) {
    old = createEditor(oldHost, {
      doc: getState().export.old, format: "yaml", label: "Existing configuration", lines: false,
      hint: "name: projects/my-project/subscriptions/orders",
      onChange: (text) => onChange({ export: { ...getState().export, old: text } }),
    });
  }
  let lastKey = null;

  return {
    sync(state) {
      effective.checked = state.export.effective;
      if (old) old.setText(state.export.old);
    },
    requests(state, base) {
      const req = { ...base, effective: state.export.effective, import: true };
      if (only) req.to = only;
      if (!only && state.export.old.trim()) req.old = { text: state.export.old };
      return [["convert", req]];
    },
    render({ effective: eff, responses }) {
      const r = responses[0];
      if (!r) return;
      const key = JSON.stringify([r, eff && eff.diagnostics]);
      if (key === lastKey) return;
      lastKey = key;
      if (!r.ok) {
        const e = r.value.error || {};
        summary.textContent = e.message || "The configuration could not be converted.";
        summary.className = "summary" + (e.code === "loading" ? " pending" : " bad");
        root.dataset.state = e.code === "loading" ? "loading" : "error";
        renderDiagnostics(diags, [], null);
        diags.hidden = true;
        for (const b of blocks) b.set(null);
        return;
      }
      const v = r.value;
      root.dataset.state = "ready";
      const outputs = new Map((v.outputs || []).map((o) => [o.format, o]));
      summary.textContent = !outputs.size
        ? "The configuration could not be read, so there is nothing to export; fix the errors listed under Diagnostics."
        : v.valid ? "The configuration in every form."
          : "The configuration has errors (see Diagnostics); these forms carry them as they are.";
      summary.className = "summary " + (v.valid ? "ok" : "bad");
      // The configuration's own findings are in its list already.
      const extra = notIn(v.diagnostics, eff && eff.diagnostics);
      renderDiagnostics(diags, extra, onJump);
      diags.hidden = extra.length === 0;
      for (const b of blocks) b.set(outputs.get(b.form.id) || null);
    },
  };
}

// outputBlock is one form: its title, the text, a copy button, the files
// the text names, and what the form cannot express.
function outputBlock(form, H3) {
  const pre = h("pre", { class: "code export-text", tabindex: "0", "aria-label": form.title, dataset: { form: form.id } });
  const status = h("span", { class: "copy-status", role: "status" });
  const copy = h("button", {
    type: "button", class: "copy", "aria-label": `Copy the ${form.title}`,
    onclick: async () => {
      status.textContent = await copyText(pre.textContent) ? "Copied." : "Select the text and copy it.";
      setTimeout(() => { status.textContent = ""; }, 3000);
    },
  }, "Copy");
  const notes = h("ul", { class: "export-notes" });
  const files = h("div");
  const el = h("section", { class: "export-form", dataset: { form: form.id } },
    h("div", { class: "export-head" }, h(H3, null, form.title), copy, status),
    h("p", { class: "hint" }, form.hint),
    pre, files, notes);
  return {
    form,
    el,
    set(o) {
      pre.textContent = o ? o.text : "";
      copy.disabled = !o || !o.text;
      replace(notes, (o && o.notes || []).map((n) => h("li", { class: "hint" }, n.message, n.path ? h("code", null, " " + n.path) : null)));
      replace(files, Object.entries(o && o.files || {}).map(([name, text]) => h("div", { class: "export-file" },
        h("p", null, "With the file ", h("code", null, name), ":"),
        h("pre", { class: "code", tabindex: "0", "aria-label": `The file ${name}` }, text))));
    },
  };
}

// copyText puts text on the clipboard; false when the page may not (an
// insecure context or a denied permission).
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
