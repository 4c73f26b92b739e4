// early.js draws the first preview before the rest of the page exists: the
// build's answer for the default state (site/tools/firstpaint.mjs), into
// the diagnostics list and the settings panel, as soon as the page's entry
// runs, before the editor's code has been evaluated and long before the
// core has downloaded. It does so only when the page is sure to open the
// default state: no link in the address and no work saved in this browser
// (page.js restores those); and only when the calls the page would send
// for it are exactly those the build answered. page.js then takes over the
// panel, and its own check (firstPaint there) keeps the preview only while
// it matches what is on screen.
import FIRST from "virtual:first-paint";
import { callsFor, wireKey } from "./calls.js";
import { defaults } from "./lib/state.js";
import { readSaved, ASIDE_KEY } from "./lib/persist.js";
import { renderDiagnostics } from "./lib/diaglist.js";
import { settingsPanel } from "./panels/settings.js";

export { FIRST };

/**
 * paintEarly draws the build's preview when it applies and returns the
 * settings panel it built (for page.js to keep), or null.
 */
export function paintEarly() {
  try {
    if (!FIRST || location.hash.length > 1 || readSaved(localStorage) || readSaved(localStorage, ASIDE_KEY)) return null;
  } catch {
    return null; // storage refused: page.js decides once it has read what it can
  }
  const state = defaults();
  if (state.tab !== "settings") return null;
  const panel = settingsPanel(document.getElementById("panel-settings"));
  if (wireKey(callsFor(state, panel)) !== FIRST.key) return panel;
  const [base] = FIRST.results;
  renderDiagnostics(document.getElementById("diagnostics"), base.ok ? base.value.diagnostics : [], null, document.getElementById("diag-count"));
  panel.render({ state, effective: base.ok ? base.value : null, responses: FIRST.results.slice(1) });
  document.body.dataset.firstPaint = "shown";
  window.subplayFirstPreview = performance.now();
  return panel;
}
