// early.js draws the first preview before the rest of the page exists,
// into the diagnostics list and the settings panel, as soon as the page's
// entry runs, before the editor's code has been evaluated and long before
// the core has downloaded. It draws one of two answers, each only for
// exactly the calls the page would send for the state it is about to open
// (a link in the address, else the work saved in this browser, else the
// default state: persist.js chooseOpening, as page.js restores them):
//   - the answers this browser kept for that state on an earlier visit
//     (lib/persist-preview.js), when the core that computed them is the
//     one this page ships: a returning visitor's preview;
//   - the build's answer for the default state (site/tools/firstpaint.mjs).
// page.js then takes over the panel, and its own check (firstPaint there)
// keeps the preview only while it matches what is on screen; the core's
// answer replaces it.
import FIRST from "virtual:first-paint";
import { callsFor, wireKey } from "./calls.js";
import { decode, defaults } from "./lib/state.js";
import { chooseOpening } from "./lib/persist.js";
import { coreIdentity, readPreview } from "./lib/persist-preview.js";
import { renderDiagnostics } from "./lib/diaglist.js";
import { settingsPanel } from "./panels/settings.js";

export { FIRST };

/** CORE names the core this page ships (persist-preview.js coreIdentity). */
export const CORE = coreIdentity();

/** STORED is the kept preview paintEarly drew, {key, results}, or null. */
export let STORED = null;

// opening returns the state the page is about to open and whether it is
// restored (a link or saved work), or null when storage is refused or the
// link cannot be read (page.js says why).
async function opening() {
  let open;
  try {
    open = chooseOpening(localStorage, location.hash);
  } catch {
    return null;
  }
  if (open.from === "default") return { state: defaults(), restored: false };
  try {
    return { state: (await decode(open.frag)).state, restored: true };
  } catch {
    return null;
  }
}

/**
 * paintEarly draws a preview when one applies and returns the settings
 * panel it built (for page.js to keep), or null.
 */
export async function paintEarly() {
  const open = await opening();
  if (!open || open.state.tab !== "settings") return null;
  const el = document.getElementById("panel-settings");
  const panel = settingsPanel(el);
  const key = wireKey(callsFor(open.state, panel));
  let results = null;
  let from = "build";
  if (open.restored) {
    try {
      results = readPreview(localStorage, key, CORE);
    } catch {
      results = null;
    }
    if (results) from = "stored";
  }
  if (!results && FIRST && key === FIRST.key) results = FIRST.results;
  if (!results) return panel;
  const [base] = results;
  const diagList = document.getElementById("diagnostics");
  const diagCount = document.getElementById("diag-count");
  try {
    const diags = base.ok ? base.value.diagnostics
      : [{ severity: "error", code: base.value.error.code, message: base.value.error.message }];
    renderDiagnostics(diagList, diags, null, diagCount);
    panel.render({ state: open.state, effective: base.ok ? base.value : null, responses: results.slice(1) });
  } catch {
    // Kept answers of a shape the panels cannot draw: nothing is shown,
    // and page.js says the core is coming.
    diagCount.textContent = "";
    diagList.subplayKey = undefined;
    return settingsPanel(el);
  }
  if (from === "stored") STORED = { key, results };
  document.body.dataset.firstPaint = "shown";
  document.body.dataset.previewFrom = from;
  window.subplayFirstPreview = performance.now();
  return panel;
}
