// modules.js says which builds of the core (wasm/browser/doc.go) the
// playground page loads, and routes each call to the build that can answer
// it. The first build starts with the page; it leaves out the JavaScript
// engine of message transforms and the Terraform reader (build tags noudf,
// nohcl), so it stays small. The second, "extra", has everything and is
// fetched the first time it is needed: for an operation the first lacks,
// or when the first answers "needs-module" (it saw a UDF or Terraform text
// it cannot fully handle, and refuses rather than answer partly).
// build.mjs reads PAGE_MODULES too, to list what the page downloads.
export const PAGE_MODULES = ["full", "extra"];

/** NEEDS_MODULE is the error code of a build that cannot fully answer. */
export const NEEDS_MODULE = "needs-module";

/** LOADING is the code of an answer that waits for the second build. */
export const LOADING = "loading";

/**
 * createRouter returns run(calls) → results, as loader.js's batch, for a
 * first build and a second one loaded on demand.
 * opts.load(name) → Promise<Subplay> loads a build (loader.js's load);
 * opts.next is the second build's name; opts.onStart() is told when the
 * second build starts loading, opts.onReady(sp) when it is there (the
 * caller asks again: the calls that waited answered LOADING),
 * opts.onFail(message) when it did not load (the next call tries again).
 * The router's first build is set with setFirst once it has loaded.
 */
export function createRouter({ load, next = PAGE_MODULES[1], onStart = () => {}, onReady = () => {}, onFail = () => {} }) {
  let first = null;
  let more = null; // a promise of the second build, once asked for
  let moreSp = null;
  let moreError = "";

  function loadMore() {
    if (!more) {
      onStart();
      more = load(next).then((m) => {
        moreSp = m;
        moreError = "";
        onReady(m);
        return m;
      }, (e) => {
        moreError = e.message;
        more = null; // the next call tries again
        onFail(e.message);
        throw e;
      });
      more.catch(() => {});
    }
    return more;
  }

  const waiting = () => ({
    ok: false,
    value: {
      error: {
        code: LOADING,
        message: moreError
          ? `The rest of the core did not load (${moreError}); edit to try again.`
          : "Loading the rest of the core (the JavaScript engine and the Terraform reader)…",
      },
    },
  });

  // toMore sends the calls at idx to the second build, or answers
  // "loading" for them while it is on its way.
  async function toMore(calls, idx, results) {
    if (!moreSp) {
      loadMore();
      for (const i of idx) results[i] = waiting();
      return null;
    }
    const rs = await moreSp.batch(idx.map((i) => calls[i]));
    idx.forEach((i, k) => { results[i] = rs[k]; });
    return rs;
  }

  async function run(calls) {
    const results = new Array(calls.length);
    const firstIdx = [];
    const moreIdx = [];
    calls.forEach((c, i) => ((!next || first.has(c[0])) ? firstIdx : moreIdx).push(i));
    const viaFirst = async () => {
      if (!firstIdx.length) return;
      const rs = await first.batch(firstIdx.map((i) => calls[i]));
      firstIdx.forEach((i, k) => { results[i] = rs[k]; });
      if (firstIdx[0] === 0) results.timing = rs.timing; // for the benchmarks
      // What the first build refused goes to the second: never its
      // partial answer.
      const refused = firstIdx.filter((i) => needsModule(results[i]));
      if (refused.length && next) await toMore(calls, refused, results);
    };
    const viaMore = async () => {
      if (!moreIdx.length) return;
      const rs = await toMore(calls, moreIdx, results);
      if (rs && moreIdx[0] === 0) results.timing = rs.timing;
    };
    await Promise.all([viaFirst(), viaMore()]);
    return results;
  }

  return {
    run,
    setFirst(sp) { first = sp; },
    /** The second build, once loaded; null before. */
    get more() { return moreSp; },
    /** Whether the second build is on its way. */
    get loading() { return !!more && !moreSp; },
  };
}

/** needsModule says whether an answer is a build's refusal to answer. */
export function needsModule(r) {
  return !!r && !r.ok && !!r.value && !!r.value.error && r.value.error.code === NEEDS_MODULE;
}

/** QUICK_MODULE is the small build (wasm/browser/doc.go: no cel-go, no
 * hamba/avro; it compiles in about half the time and starts Go in a
 * fraction of it) that answers the page's first calls while the first of
 * PAGE_MODULES is on its way. build.mjs lists it among what the page
 * downloads. */
export const QUICK_MODULE = "min";

/** QUICK_OPS are the operations QUICK_MODULE answers exactly as the first
 * of PAGE_MODULES does (it lacks only engines these never run); any other
 * call waits for that build. */
export const QUICK_OPS = new Set(["validate", "effective"]);

/**
 * startCore starts the page's core in the order that answers soonest:
 * QUICK_MODULE first, then, once it is up, the first of PAGE_MODULES (so
 * the two do not compete for the processor while the first answer is
 * computed). It resolves, as soon as QUICK_MODULE is up, with an object
 * that stands for loader.js's Subplay (has, batch, call, timing, version,
 * events "crash" and "recover") and hands over to the full build: until
 * that build is up, calls of QUICK_OPS only are answered by QUICK_MODULE,
 * the others wait; from then on every call goes to the full build, and
 * QUICK_MODULE's worker is stopped once it has no call in flight. If
 * QUICK_MODULE does not load, it resolves with the full build itself; if
 * the full build does not load, QUICK_MODULE answers what it can and the
 * router (createRouter) sends its "needs-module" answers on.
 * load is loader.js's load; options are passed to it.
 */
export function startCore(load, options = {}) {
  const main = PAGE_MODULES[0];
  const quick = load({ ...options, module: QUICK_MODULE });
  const full = quick.then(() => load({ ...options, module: main }), () => load({ ...options, module: main }));
  full.catch(() => {});
  return quick.then((q) => new Handover(q, full), () => full);
}

class Handover extends EventTarget {
  constructor(quick, full) {
    super();
    this.quick = quick;
    this.full = null; // the full build, once up
    this.failed = false; // whether the full build did not load
    this.inQuick = 0; // calls in flight on quick
    /** The first build's load timing (fetch, compile, start): the
     * first answer's; mainTiming is the full build's, once up. */
    this.timing = quick.timing;
    this.mainTiming = null;
    this.waitFull = full.then((m) => m, () => null);
    this.relay(quick);
    full.then((m) => {
      this.full = m;
      this.mainTiming = m.timing;
      this.relay(m);
      this.retire();
    }, () => {
      this.failed = true;
    });
  }

  // relay passes a build's crash and recovery events on.
  relay(sp) {
    for (const type of ["crash", "recover"]) {
      sp.addEventListener(type, (e) => this.dispatchEvent(new CustomEvent(type, { detail: e.detail })));
    }
  }

  // retire stops the small build once the full one has taken over.
  retire() {
    if (this.full && this.quick && this.inQuick === 0) {
      this.quick.terminate();
      this.quick = null;
    }
  }

  get current() {
    return this.full || this.quick;
  }

  /** name is the build answering now (the router forwards its refusals
   * by what that build lacks); version is its version. */
  get name() { return this.current.name; }
  get version() { return this.current.version; }

  /** has: until the full build is up, every operation is taken (the
   * calls QUICK_MODULE cannot answer wait for it). */
  has(op) {
    return this.full ? this.full.has(op) : this.failed ? this.quick.has(op) : true;
  }

  async batch(calls) {
    if (!this.full && !this.failed && calls.every(([op]) => QUICK_OPS.has(op))) {
      this.inQuick++;
      try {
        const rs = await this.quick.batch(calls);
        if (!rs.some(needsModule)) return rs;
      } finally {
        this.inQuick--;
        this.retire();
      }
    }
    const m = this.full || (this.failed ? null : await this.waitFull);
    return (m || this.quick).batch(calls);
  }

  async call(op, request = {}) {
    const [r] = await this.batch([[op, request]]);
    // A failure is raised by the build itself, with its error's code.
    return r.ok ? r.value : this.current.call(op, request);
  }

  kill() { this.current.kill(); }
  terminate() {
    this.quick?.terminate();
    this.full?.terminate();
  }
  get answered() { return this.current.answered; }
  get spin() { return this.current.spin; }
  set spin(ms) {
    if (this.quick) this.quick.spin = ms;
    if (this.full) this.full.spin = ms;
    this.waitFull.then((m) => { if (m) m.spin = ms; });
  }
}
