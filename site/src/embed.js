// embed.js is the entry of embed.html. It reads which widget the URL asks
// for, starts the build of the core that widget needs, and only then loads
// the widget itself (widget.js), so the download and the page's own start
// overlap.
import { load } from "./loader.js";
import { stageEditor } from "./lib/stage.js";
import { WIDGETS } from "./widgets.js";

const name = new URLSearchParams(location.hash.slice(1)).get("widget") || "filter";
const w = WIDGETS[name];
let progress = () => {};
// An unknown widget loads nothing; widget.js says what went wrong.
const core = w
  ? load({ module: w.module, onProgress: (loaded, total) => progress(loaded, total) })
  : Promise.reject(new Error(`unknown widget "${name}"`));
core.catch(() => {});
await stageEditor();
const widget = await import("./widget.js");
widget.start(core, (f) => {
  progress = f;
});
