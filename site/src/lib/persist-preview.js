// persist-preview.js keeps, beside the saved work (persist.js), the core's
// last answers for it: what the panels drew from, keyed by the calls that
// produced them (calls.js wireKey) and by the core that computed them. On
// the next visit early.js draws them at once, as it draws the build's
// preview of the default state, while the core downloads and compiles;
// the core's own answer then replaces them. A returning visitor usually
// has saved work, for which the build's preview never applies.
//
// What is read back is untrusted (another tab, an older page, a person
// with the developer tools may have written it): readPreview returns the
// answers only for exactly the calls and the core asked for, and only in
// the shape the panels draw; anything else, or anything over
// PREVIEW_MAX_CHARS, is ignored.

/* global __SUBPLAY_MANIFEST__ */
import { idleWriter } from "./persist.js";
import { wireKey } from "../calls.js";

export const PREVIEW_KEY = "subplay:preview";

/** PREVIEW_MAX_CHARS bounds the stored answers (docs/playground.md): the
 * settings panel's answer for the default configuration is about 8 KB, and
 * one with the most findings the core reports a few times that; storage
 * is about 5 M characters per site, shared with the saved work. Larger
 * answers are not kept, and a larger entry is not even parsed. */
export const PREVIEW_MAX_CHARS = 256 * 1024;

// Answers that stand for no answer of the core: a call waiting for
// another build, a core that died, a build that could not answer, a
// failure of the page's own machinery. Never kept.
const TRANSIENT = new Set(["loading", "crashed", "needs-module", "internal", "load"]);

/**
 * coreIdentity names the core this page ships: its version and the
 * content-hashed file of every build it may load (build.mjs's manifest),
 * so answers computed by any other build are never shown. "" outside a
 * bundle (no manifest): nothing is kept or shown then.
 */
export function coreIdentity(manifest = typeof __SUBPLAY_MANIFEST__ === "undefined" ? null : __SUBPLAY_MANIFEST__) {
  if (!manifest || !manifest.wasm) return "";
  const files = Object.keys(manifest.wasm).sort().map((name) => `${name}=${manifest.wasm[name].file}`);
  return [String(manifest.version), ...files].join(" ");
}

/**
 * encodePreview returns the text to store for answers to the calls keyed
 * key (results as loader.js gives them: {ok, value, body}), or null when
 * they are not to be kept: a transient answer, an answer without the
 * core's own text, or more than PREVIEW_MAX_CHARS in all. The core's JSON
 * text goes in as it is, so keeping an answer parses or serialises
 * nothing large.
 */
export function encodePreview(key, core, results, at = Date.now()) {
  if (!core || typeof key !== "string" || !Array.isArray(results) || !results.length) return null;
  const parts = [];
  for (const r of results) {
    if (!r || typeof r.body !== "string") return null;
    if (!r.ok && TRANSIENT.has(r.value?.error?.code)) return null;
    parts.push(`{"ok":${r.ok ? "true" : "false"},"value":${r.body}}`);
  }
  const text = `{"key":${JSON.stringify(key)},"core":${JSON.stringify(core)},"at":${Number(at)},"results":[${parts.join(",")}]}`;
  return text.length > PREVIEW_MAX_CHARS ? null : text;
}

/**
 * readPreview returns the stored answers ([{ok, value}], one per call)
 * when they were computed for exactly the calls keyed key by the core
 * named core, else null. It never throws: storage refused, a bad or
 * oversized entry, answers of another shape all give null.
 */
export function readPreview(storage, key, core) {
  let v;
  try {
    const text = storage.getItem(PREVIEW_KEY);
    if (typeof text !== "string" || text.length > PREVIEW_MAX_CHARS) return null;
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!core || !v || typeof v !== "object" || v.key !== key || v.core !== core || !Array.isArray(v.results)) return null;
  let calls;
  try {
    calls = JSON.parse(key);
  } catch {
    return null;
  }
  if (!Array.isArray(calls) || v.results.length !== calls.length) return null;
  for (const r of v.results) {
    if (!r || typeof r !== "object" || typeof r.ok !== "boolean" || !r.value || typeof r.value !== "object") return null;
    if (!r.ok && (!r.value.error || typeof r.value.error.message !== "string")) return null;
  }
  const [base] = v.results;
  if (base.ok && !Array.isArray(base.value.diagnostics)) return null;
  return v.results.map(({ ok, value }) => ({ ok, value }));
}

/**
 * createPreviewKeeper returns keep(calls, results), which after wait ms of
 * quiet stores the latest answers, keyed by wireKey(calls), when the page
 * is idle (persist.js idleWriter, as the saver: the write stays out of the
 * tasks that answer a keystroke), and drop(), which forgets what is
 * pending. A refused write (a private window, a full quota) leaves no
 * preview, and nothing else changes.
 */
export function createPreviewKeeper({ storage, core, wait, idle }) {
  const writer = idleWriter((p) => {
    const text = encodePreview(wireKey(p.calls), core, p.results);
    try {
      // Too large or transient: an older entry would only be wasted space.
      if (text === null) storage.removeItem(PREVIEW_KEY);
      else storage.setItem(PREVIEW_KEY, text);
    } catch {
      try {
        storage.removeItem(PREVIEW_KEY);
      } catch {
        // Storage refused altogether: there is no preview to keep.
      }
    }
  }, { wait, idle });
  return {
    keep(calls, results) {
      if (core) writer.schedule({ calls, results });
    },
    drop: writer.drop,
    flush: writer.flush,
  };
}
