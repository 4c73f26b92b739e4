// gallery.js lists the ready examples. They are the example files
// (core/subscription/testdata/examples), bundled at build time; an example
// written in both JSON and YAML offers both.
import examples from "virtual:examples";
import { h, replace } from "../lib/dom.js";

export { examples };

export function galleryPanel(root, { onOpen }) {
  if (!examples.length) {
    replace(root, h("p", { class: "muted" }, "This build has no examples."));
  } else {
    replace(root,
      h("p", { class: "hint" }, "Open an example to replace the configuration in the editor."),
      h("ul", { class: "gallery" }, examples.map((ex) => h("li", { class: "card", dataset: { example: ex.id } },
        h("h3", null, ex.title),
        h("p", { class: "buttons" }, ex.variants.map((v) => h("button", {
          type: "button",
          "aria-label": `Open the example ${ex.title} in ${v.format.toUpperCase()}`,
          onclick: () => onOpen(ex, v),
        }, v.format.toUpperCase())))))));
  }
  return { requests: () => [], render() {} };
}
