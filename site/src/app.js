// app.js is the playground page's entry. It starts the core first, so the
// module downloads and compiles in its worker while the rest of the page
// (page.js, with the editor) loads and builds itself in tasks of its own.
import { load } from "./loader.js";
import { stageEditor } from "./lib/stage.js";
import { startCore } from "./modules.js";
import { paintEarly } from "./early.js";

let progress = () => {};
// The small build first, for the first answer; the full one behind it
// (modules.js startCore).
const core = startCore(load, { onProgress: (loaded, total) => progress(loaded, total) });
core.catch(() => {}); // page.js reports a failure
// The preview kept for the saved work, or the build's preview of the
// default state, before the editor's code is even evaluated (early.js).
const settings = await paintEarly();
await stageEditor();
const page = await import("./page.js");
page.start(core, (f) => {
  progress = f;
}, { settings });
