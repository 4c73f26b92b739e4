// loader.js is subplay.js: the one module a page needs to run subplay in the
// browser.
//
//   import { load } from "./subplay.js";
//   const sp = await load();
//   const res = await sp.call("validate", { text: "topic: projects/p/topics/t\n", format: "yaml" });
//
// The core runs in a Web Worker, so loading the module and running an
// operation never block the page. The worker and module URLs come from the
// build (their names carry content hashes).

import { toWire } from "./calls.js";
import { canShare, newSlot, expect, collect } from "./lib/slot.js";

/* global __SUBPLAY_MANIFEST__ */
const MANIFEST = __SUBPLAY_MANIFEST__;

/** The version of subplay this loader was built with. */
export const version = MANIFEST.version;

/** SubplayError is how a failed operation rejects: code is the contract's
 * error code ("bad-request", "unknown-operation", "internal") or, for
 * failures of the worker itself, "timeout", "load", or "crashed" (the core
 * died twice on the same request; it was restarted each time). */
export class SubplayError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "SubplayError";
    this.code = code;
  }
}

/**
 * load starts the worker and the WebAssembly module.
 * @param {object} [options]
 * @param {"full"|"cel"|"avro"|"min"} [options.module] which build to load
 *   (wasm/browser/doc.go): "full" (the default) answers every operation but
 *   UDFs and Terraform; "cel" answers "schema" with the error needs-module
 *   (no hamba/avro, four fifths of the download); "avro" checks filters
 *   without running them (no cel-go, two thirds); "min" has neither
 *   (under half). A build refusing a request says what it lacks
 *   (error.needs). sp.has(op) says whether the loaded build has an
 *   operation.
 * @param {string|URL} [options.base] where the built files are; by default
 *   next to this module.
 * @param {(loaded: number, total: number) => void} [options.onProgress]
 * @param {number} [options.timeout] milliseconds one call may take before
 *   the worker is stopped and restarted (default 10000).
 * @param {number} [options.spin] milliseconds the page may wait, blocked,
 *   for a quick answer right after sending a call (default SPIN_MS; 0:
 *   never), so that an edit's answer is drawn before the next frame. Only
 *   a cross-origin isolated page can (SharedArrayBuffer); elsewhere
 *   answers always come by message.
 * @returns {Promise<Subplay>} an EventTarget too: "crash" when the core
 *   died (detail.message) and a fresh worker is starting, "recover" when it
 *   is ready (detail.ms since the crash). Calls in flight at a crash are
 *   sent again to the fresh worker.
 */
export async function load(options = {}) {
  const sp = new Subplay(options);
  if (options.spin !== undefined) sp.spin = options.spin;
  await sp.ready;
  return sp;
}

/** SPIN_MS is how long, at most, the page's main thread watches the shared
 * answer slot after posting a call (lib/slot.js), or after the work it
 * did meanwhile (hold), before it leaves the answer to the worker's
 * message. Chosen by BenchmarkKeystroke with a long watch
 * (SUBPLAY_KEY_SPIN=40, 200 keys, load average 20-29): once the editor had
 * redrawn, 176 of 195 answers were there within 1 ms, 180 within 4, 182
 * within 8 and 183 within 12; the rest came 12 ms or later, from the
 * load. Beyond 4 ms a watch gains about one keystroke in a hundred and
 * costs its full length on every miss (BenchmarkKeystroke in site/test). */
export const SPIN_MS = 4;

class Subplay extends EventTarget {
  // The request/answer path's shared slot (expectShared, collectShared):
  // load's options.spin (ms; 0 turns it off), the worker's time for the
  // last call, the slot's buffer (null where the page is not
  // cross-origin isolated) and the worker that has it.
  spin = SPIN_MS;
  lastWorkerMs = 0;
  lastHeadStart = 0; // the last watched call's time in the worker before the watch (hold)
  slot = undefined;
  slotWorker = null;
  /** How the answers came: taken from the shared slot, or by message. */
  answered = { shared: 0, posted: 0 };
  // hold's depth, and the calls whose slot it is to watch afterwards.
  holding = 0;
  held = [];

  constructor({ module = "full", base, onProgress, timeout = 10000 } = {}) {
    super();
    if (!MANIFEST.wasm[module]) {
      throw new SubplayError("load", `there is no build called ${module}; use ${Object.keys(MANIFEST.wasm).join(", ")}`);
    }
    this.name = module;
    this.base = new URL(base || ".", import.meta.url);
    this.module = MANIFEST.wasm[module];
    this.onProgress = onProgress;
    this.timeout = timeout;
    this.version = MANIFEST.version;
    this.timing = null;
    this.operations = null;
    this.nextId = 1;
    this.pending = new Map();
    this.crashes = 0; // how many times the core died and was restarted
    this.compiled = null; // the compiled module, once a worker has it
    this.start();
  }

  start() {
    const t0 = performance.now();
    const worker = new Worker(new URL(MANIFEST.worker, this.base), { name: "subplay" });
    this.worker = worker;
    // Messages from a worker that was replaced are ignored: they answer
    // for an instance that no longer exists.
    const mine = (fn) => (e) => { if (this.worker === worker) fn(e); };
    let started = false;
    this.up = false; // whether this worker said it is ready
    this.ready = new Promise((resolve, reject) => {
      worker.onmessage = mine((e) => {
        const m = e.data;
        switch (m.type) {
          case "progress":
            if (this.onProgress) this.onProgress(m.loaded, m.total);
            break;
          case "ready":
            started = true;
            this.up = true;
            this.version = m.version;
            this.operations = m.operations ? new Set(m.operations) : null;
            this.timing = { ...m.timing, total: performance.now() - t0, transferred: m.transferred, readyAt: performance.now() };
            this.compiled = m.module || null; // for a restart (recover)
            resolve();
            this.replay();
            break;
          case "result":
            this.answered.posted++;
            this.settle(m);
            break;
          case "crashed":
          case "fatal":
            if (started) this.recover(m.message);
            else this.failLoad(new SubplayError("load", m.message), reject);
            break;
        }
      });
      worker.onerror = mine((e) => {
        const message = "the subplay worker failed: " + (e.message || "unknown error");
        if (started) this.recover(message);
        else this.failLoad(new SubplayError("load", message), reject);
      });
    });
    // A failed restart is reported through the calls that wait on it.
    this.ready.catch(() => {});
    worker.postMessage({ type: "init", wasm: new URL(this.module.file, this.base).href, size: this.module.size, module: this.compiled });
  }

  failLoad(err, reject) {
    this.worker.terminate();
    this.up = false;
    this.fail(err);
    reject(err);
  }

  // recover replaces a worker whose Go instance died (a fatal error, a
  // trap) with a fresh one, at once: the calls it had not answered are
  // sent again to the new one, each at most once, so a request that
  // itself kills the core fails with "crashed" instead of killing every
  // worker after it. Listeners hear "crash" now and "recover" when the new
  // worker is ready.
  recover(message) {
    this.worker.terminate();
    this.up = false;
    this.crashes++;
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      if (p.replayed) {
        this.pending.delete(id);
        p.reject(new SubplayError("crashed", `the core stopped while running this request (${message}); it was restarted`));
      } else {
        p.replayed = true;
        p.sent = false;
      }
    }
    this.dispatchEvent(new CustomEvent("crash", { detail: { message } }));
    const t = performance.now();
    this.start();
    this.ready.then(() => {
      this.dispatchEvent(new CustomEvent("recover", { detail: { message, ms: performance.now() - t } }));
    }, () => {});
  }

  // replay sends the calls a crashed worker left unanswered.
  replay() {
    for (const [id, p] of this.pending) if (!p.sent) this.send(id, p);
  }

  send(id, p) {
    p.sent = true;
    p.sentAt = performance.now();
    p.timer = setTimeout(() => this.restart(id), this.timeout);
    const watch = this.expectShared(id);
    this.worker.postMessage({ type: "call", id, calls: p.wire });
    if (watch && this.holding) this.held.push(id);
    else if (watch) this.collectShared(id);
  }

  // expectShared prepares the shared answer slot (lib/slot.js) for call
  // id, when the page is cross-origin isolated and waiting is likely to
  // pay: no other call is in flight (the worker would first finish it) and
  // the worker answered the last call within the time it had: the watch
  // and the head start hold gave it. A slow (hostile) input therefore
  // costs one watch, and its next calls are answered by message. Each
  // worker gets the slot once, before its first call that uses it.
  expectShared(id) {
    if (!this.spin || this.pending.size !== 1 || this.lastWorkerMs > this.spin + this.lastHeadStart) return false;
    if (this.slot === undefined) this.slot = canShare() ? newSlot() : null;
    if (!this.slot) return false;
    if (this.slotWorker !== this.worker) {
      this.worker.postMessage({ type: "slot", buffer: this.slot });
      this.slotWorker = this.worker;
    }
    expect(this.slot, id);
    return true;
  }

  // collectShared watches the slot for the answer to call id for at most
  // this.spin ms, blocking the page's main thread that long at most, and
  // settles the call when the answer is there; otherwise the worker posts
  // it and it settles as usual. Taken this way, the answer is drawn in
  // the task of the edit that asked for it, before the next frame.
  collectShared(id) {
    let m;
    const p0 = this.pending.get(id);
    const t0 = performance.now();
    try {
      m = collect(this.slot, id, this.spin);
      // When and how long the page watched, for the benchmarks (settle's
      // timing).
      p0.watchAt = t0;
      this.lastHeadStart = t0 - p0.sentAt;
      p0.watched = performance.now() - t0;
    } catch (e) {
      // An answer taken but unreadable: the call fails now rather than at
      // its time-out.
      const p = this.pending.get(id);
      this.pending.delete(id);
      clearTimeout(p.timer);
      p.reject(new SubplayError("internal", "the core's answer could not be read: " + e.message));
      return;
    }
    if (!m) return;
    this.answered.shared++;
    this.settle({ ...m, id, shared: true });
  }

  /** kill makes the core exit as a fatal error would: for tests of the
   * recovery. */
  kill() {
    this.worker.postMessage({ type: "kill" });
  }

  /** has says whether the loaded build has the operation op. */
  has(op) {
    return !this.operations || this.operations.has(op);
  }

  /**
   * call runs one operation. It resolves with the response object and
   * rejects with a SubplayError when the operation fails.
   */
  async call(op, request = {}) {
    const [r] = await this.batch([[op, request]]);
    if (!r.ok) throw errorOf(r.value);
    return r.value;
  }

  /**
   * batch runs several operations in one round trip to the worker and
   * resolves with [{ok, value, ms, body}] in the same order (body: the
   * response as JSON text); a failed operation does not fail the batch.
   */
  batch(calls) {
    const id = this.nextId++;
    const wire = toWire(calls);
    const enqueue = () => new Promise((resolve, reject) => {
      const p = { resolve, reject, wire, timer: 0, sent: false, replayed: false };
      this.pending.set(id, p);
      // A worker being replaced gets the call once it is ready (replay).
      if (this.up) this.send(id, p);
    });
    // A worker that is up gets the call at once, in the caller's task, so
    // that work the caller does after posting (see hold) overlaps the
    // worker's.
    return this.up ? enqueue() : this.ready.then(enqueue);
  }

  /**
   * hold runs fn, which may post calls (batch), and watches the shared
   * answer slot for them only once fn has returned: a page posts an edit's
   * call, redraws its editor while the worker computes, and then takes the
   * answer, still before the next frame. The watch is as long as without
   * hold (spin).
   */
  hold(fn) {
    this.holding++;
    try {
      return fn();
    } finally {
      if (--this.holding === 0) {
        const ids = this.held;
        this.held = [];
        for (const id of ids) if (this.pending.has(id)) this.collectShared(id);
      }
    }
  }

  settle(m) {
    const received = performance.now();
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    clearTimeout(p.timer);
    this.lastWorkerMs = m.ms;
    const results = m.results.map(parseResult);
    // Where a call's time went, for the page's benchmarks: when it was
    // posted, how long the worker ran it, when the answer was handled.
    results.timing = { sent: p.sentAt, worker: m.ms, received, watchAt: p.watchAt, watched: p.watched, shared: !!m.shared };
    p.resolve(results);
  }

  fail(err) {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(err);
    }
    this.pending.clear();
  }

  // restart stops a worker stuck in a call (Go cannot be interrupted from
  // outside) and starts a fresh one for the calls that follow.
  restart(id) {
    if (!this.pending.has(id)) return;
    this.worker.terminate();
    this.up = false;
    this.fail(new SubplayError("timeout", `the operation took longer than ${this.timeout} ms and was stopped`));
    this.start();
  }

  /** terminate stops the worker; the object cannot be used afterwards. */
  terminate() {
    this.worker.terminate();
    this.fail(new SubplayError("load", "subplay was terminated"));
  }
}

// parseResult turns the worker's {ok, body, ms} into {ok, value, ms, body}:
// value is the parsed response, body its JSON text as the core wrote it.
function parseResult({ ok, body, ms }) {
  try {
    return { ok, value: JSON.parse(body), ms, body };
  } catch {
    return { ok: false, value: { error: { code: "internal", message: "the module answered with something that is not JSON" } }, ms, body };
  }
}

function errorOf(value) {
  const e = (value && value.error) || {};
  return new SubplayError(e.code || "internal", e.message || "the operation failed");
}
