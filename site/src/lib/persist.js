// persist.js keeps the page's work: the state goes into the URL as the
// user types (history.replaceState, debounced, so a reload or a copied
// address bar brings back what is on screen) and into localStorage (so a
// closed tab does too). Opening a share link replaces what is on screen; the
// work it replaced is kept aside until the user restores or dismisses it.

export const SAVE_KEY = "subplay:work";
export const ASIDE_KEY = "subplay:work-before-link";
export const DEBOUNCE_MS = 400;

/**
 * createSaver returns save(state), which after DEBOUNCE_MS of quiet writes
 * the latest state's fragment to the URL and to storage; flush() does it
 * now. encode is state.js's; isDefault(state) says when the URL stays bare.
 * idle(fn) runs fn when the page is idle and returns what cancels it (by
 * default requestIdleCallback, within another DEBOUNCE_MS; without it, at
 * once): the write (compressing the state, replaceState, storage) then
 * stays out of the tasks that answer a keystroke and draw its frame.
 */
export function createSaver({ encode, isDefault, storage, history, location, wait, idle }) {
  let written = null;
  // Encoding is asynchronous: a write the idle callback began may still be
  // compressing when flush is called (Share clicked just then), and two
  // writes could finish out of order. Each write waits for the one before,
  // and flush for the last one begun.
  let last = Promise.resolve();
  const writer = idleWriter((s) => {
    const p = last.then(() => write(s));
    last = p.catch(() => {});
    return p;
  }, { wait, idle });
  async function write(s) {
    const frag = await encode(s);
    const bare = isDefault(s);
    const url = location.pathname + location.search + (bare ? "" : "#" + frag);
    if (location.pathname + location.search + location.hash !== url) history.replaceState(null, "", url);
    try {
      if (bare) storage.removeItem(SAVE_KEY);
      else storage.setItem(SAVE_KEY, JSON.stringify({ frag, at: Date.now() }));
    } catch {
      // Storage full or refused (a private window): the URL still holds it.
    }
    written = frag;
    return frag;
  }
  return {
    save: writer.schedule,
    // With nothing pending, the fragment last written, once any write
    // under way has ended.
    flush: async () => {
      const frag = await writer.flush();
      await last;
      return frag ?? written;
    },
  };
}

/**
 * idleWriter is the debounce both keepers of the page's work share
 * (createSaver here, persist-preview.js createPreviewKeeper): schedule(v)
 * makes v the pending value and, after wait ms without another schedule,
 * passes it to write when the page is idle (idle as createSaver's; null:
 * at once). flush() cancels what is scheduled and writes the pending value
 * now, returning what write returns (undefined with nothing pending);
 * drop() forgets the pending value. A value is written at most once.
 */
export function idleWriter(write, { wait = DEBOUNCE_MS, idle = whenIdle(wait) } = {}) {
  let timer = null;
  let cancelIdle = null;
  let pending = null;
  function stop() {
    if (timer) clearTimeout(timer);
    timer = null;
    if (cancelIdle) cancelIdle();
    cancelIdle = null;
  }
  // run takes no argument: requestIdleCallback passes its deadline.
  function run() {
    stop();
    const v = pending;
    pending = null;
    return v == null ? undefined : write(v);
  }
  return {
    schedule(v) {
      pending = v;
      stop();
      timer = setTimeout(() => {
        timer = null;
        if (idle) cancelIdle = idle(run);
        else run();
      }, wait);
    },
    flush: () => run(),
    drop() {
      pending = null;
      stop();
    },
  };
}

/** whenIdle(wait) is the default idle of idleWriter: fn runs when the
 * page is idle, within wait ms; null without requestIdleCallback. */
export function whenIdle(wait) {
  if (typeof requestIdleCallback !== "function") return null;
  return (fn) => {
    const h = requestIdleCallback(fn, { timeout: wait });
    return () => cancelIdleCallback(h);
  };
}

/** readSaved returns {frag, at} saved under key, or null. */
export function readSaved(storage, key = SAVE_KEY) {
  try {
    const v = JSON.parse(storage.getItem(key) || "null");
    return v && typeof v.frag === "string" && typeof v.at === "number" ? v : null;
  } catch {
    return null;
  }
}

/**
 * chooseOpening says what the page opens, for early.js (which draws its
 * preview first) and page.js (which restores it) alike: the link in the
 * address (hash, location.hash), else the work saved in storage or kept
 * aside when a link replaced it, else the default state. It returns
 * {from, frag, saved}: from is "link", "saved" or "default"; frag is the
 * fragment to decode, "#…" ("" for the default); saved is the saved work
 * (readSaved), which page.js offers back when a link replaced it.
 */
export function chooseOpening(storage, hash) {
  const saved = readSaved(storage) || readSaved(storage, ASIDE_KEY);
  if (hash.length > 1) return { from: "link", frag: hash, saved };
  if (saved) return { from: "saved", frag: "#" + saved.frag, saved };
  return { from: "default", frag: "", saved: null };
}

/** ago says how long ago a time was, roughly: "2 minutes ago". */
export function ago(at, now = Date.now()) {
  const s = Math.max(0, Math.round((now - at) / 1000));
  const [n, unit] = s < 60 ? [s, "second"] : s < 3600 ? [Math.round(s / 60), "minute"]
    : s < 86400 ? [Math.round(s / 3600), "hour"] : [Math.round(s / 86400), "day"];
  if (unit === "second" && n < 10) return "just now";
  return `${n} ${unit}${n === 1 ? "" : "s"} ago`;
}
