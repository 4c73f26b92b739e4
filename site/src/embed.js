// embed.js is the entry of embed.html. It reads which widget the URL asks
// for and checks the link, starts the build of the core that widget needs,
// and only then loads the widget itself (widget.js), so the download and
// the page's own start overlap. A link that cannot work (an unknown widget,
// state that does not decode) says so at once and downloads no core.
import { load } from "./loader.js";
import { stageEditor } from "./lib/stage.js";
import { decode } from "./lib/state.js";
import { WIDGETS } from "./widgets.js";

const name = new URLSearchParams(location.hash.slice(1)).get("widget") || "filter";
const w = WIDGETS[name];
let problem = w ? "" : `Unknown widget "${name}"; use one of ${Object.keys(WIDGETS).join(", ")}.`;
let decoded = null;
if (!problem) {
  try {
    decoded = await decode(location.hash);
  } catch (e) {
    problem = "This widget's link could not be read: " + e.message;
  }
}
let progress = () => {};
const core = problem
  ? Promise.reject(new Error(problem))
  : load({ module: w.module, onProgress: (loaded, total) => progress(loaded, total) });
core.catch(() => {});
await stageEditor();
const widget = await import("./widget.js");
widget.start(core, (f) => {
  progress = f;
}, { problem, decoded });
