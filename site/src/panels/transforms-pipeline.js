// transforms-pipeline.js says, above a Cloud Storage or BigQuery preview,
// that the subscription's transforms and filter ran on the sample messages
// first (the core's "pipeline" in a names or schema answer): which
// messages were written, as transformed, and which were dropped, failed
// or acknowledged by the filter, so nobody reads the rows or files as the
// messages as published.
import { h } from "../lib/dom.js";

const outcomeText = {
  delivered: "written",
  dropped: "dropped",
  failed: "failed",
  acked: "acknowledged by the filter, not written",
  invalid: "not valid (the service would refuse to publish it), not written",
};

/** pipelineNote returns the note for pipeline p, or null without one. */
export function pipelineNote(p, H) {
  if (!p) return null;
  const ran = [];
  if (p.transforms) ran.push(`${p.transforms} transform${p.transforms === 1 ? "" : "s"}`);
  if (p.filter) ran.push("the filter");
  const n = p.messages.length;
  return h("div", { class: "pipeline", "data-written": p.written.join(",") },
    h(H, null, ran.length ? "Transforms and filter ran first" : "Invalid sample messages left out"),
    h("p", { class: "summary", role: "note" },
      `The preview below is of what the subscription writes: `,
      ran.length ? `${ran.join(", then ")} ran on the sample messages first, ` : "sample messages with errors are left out, ",
      `and ${p.written.length} of ${n} message${n === 1 ? "" : "s"} came through${ran.length ? ", as transformed" : ""}.`),
    h("p", { class: "hint pipeline-order" }, p.order),
    h("ul", { class: "pipeline-messages" }, p.messages.map((m) => h("li", { "data-index": String(m.index), "data-outcome": m.outcome },
      `Message ${m.index + 1}: ${outcomeText[m.outcome] || m.outcome}`,
      m.by != null ? ` by transform ${m.by + 1}` : "",
      m.outcome === "delivered" && m.changed ? ", as the transforms changed it" : "",
      m.diagnostics && m.diagnostics.length ? ` (${m.diagnostics[0].message})` : ""))));
}

/** writtenBy names the sample messages at positions [from, from+count) of the written stream. */
export function writtenBy(p, from, count) {
  if (!p) return null;
  return p.written.slice(from, from + count).map((i) => i + 1).join(", ");
}
