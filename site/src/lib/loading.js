// loading.js drives the indicator shown while a build of the core loads. It
// says which step is running: the download, with how much has arrived;
// then compiling and starting the module, which report no progress, so the
// bar is indeterminate then rather than stuck at 100%.
import { $ } from "./dom.js";
import { bytes } from "./format.js";

export function loadingIndicator() {
  const box = $("#loading");
  const bar = $("#loading-bar");
  const text = $("#loading-text");
  let what = "the subplay core";
  return {
    show(label) {
      what = label || what;
      box.hidden = false;
      box.classList.remove("failed");
      bar.hidden = false;
      bar.removeAttribute("value");
      text.textContent = `Downloading ${what}…`;
    },
    progress(loaded, total) {
      if (!total || loaded < total) {
        bar.max = total || 1;
        bar.value = loaded;
        text.textContent = `Downloading ${what}: ${bytes(loaded)} of ${bytes(total)}`;
        return;
      }
      // Downloaded: the browser finishes compiling it, then Go starts.
      bar.removeAttribute("value");
      text.textContent = `Compiling and starting ${what}…`;
    },
    done() {
      box.hidden = true;
    },
    failed(msg) {
      box.hidden = false;
      box.classList.add("failed");
      box.setAttribute("role", "alert");
      text.textContent = `${what[0].toUpperCase()}${what.slice(1)} did not load: ${msg}. Reload the page to try again.`;
      bar.hidden = true;
    },
  };
}
