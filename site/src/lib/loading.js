// loading.js drives the progress indicator shown while the module loads.
import { $ } from "./dom.js";

export function loadingIndicator() {
  const box = $("#loading");
  const bar = $("#loading-bar");
  const text = $("#loading-text");
  return {
    show(label) {
      box.hidden = false;
      box.classList.remove("failed");
      bar.hidden = false;
      bar.value = 0;
      text.textContent = label;
    },
    progress(loaded, total) {
      bar.max = total;
      bar.value = loaded;
      text.textContent = text.textContent.replace(/… ?\d*%?$/, "") + `… ${Math.round((100 * loaded) / total)}%`;
    },
    done() {
      box.hidden = true;
    },
    failed(msg) {
      box.classList.add("failed");
      text.textContent = "The subplay core did not load: " + msg;
      bar.hidden = true;
    },
  };
}
