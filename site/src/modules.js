// modules.js says which builds of the core (wasm/browser/doc.go) the
// playground page loads, and routes each call to the build that can answer
// it. The first build starts with the page; it leaves out the JavaScript
// engine of message transforms and the Terraform reader (build tags noudf,
// nohcl), so it stays small. A build that cannot fully answer a call
// answers "needs-module" with the list of what it lacks (error.needs:
// "cel", "avro", "udf", "hcl", core/playground/needsmodule.go), and the
// router sends the call to the smallest build that has that and everything
// the refusing build has, fetched the first time it is needed: for the
// page that is "extra" (everything), for a docs embed that starts with a
// small build often a smaller one. Which build has what comes from the
// build tags scripts/build-wasm --list gives each (a build tagged noX
// lacks X), which build.mjs puts in the manifest beside each module's
// size. build.mjs reads PAGE_MODULES too, to list what the page downloads.
export const PAGE_MODULES = ["full", "extra"];

/* global __SUBPLAY_MANIFEST__ */
/** BUILDS: every build the site ships, name → { tags, size, file } (the
 * manifest build.mjs writes; empty outside a bundle). */
export const BUILDS = typeof __SUBPLAY_MANIFEST__ === "undefined" ? {} : __SUBPLAY_MANIFEST__.wasm;

/** NEEDS_MODULE is the error code of a build that cannot fully answer. */
export const NEEDS_MODULE = "needs-module";

/** LOADING is the code of an answer that waits for another build. */
export const LOADING = "loading";

/** tagsOf is the set of build tags of builds[name], or null when unknown. */
function tagsOf(builds, name) {
  const b = builds[name];
  if (!b || typeof b.tags !== "string") return null;
  return new Set(b.tags.split(",").filter(Boolean));
}

/**
 * pickBuild returns the build to send a call that build `from` refused
 * with needs-module, lacking `needs` (its error.needs): the smallest of
 * builds that has everything `from` has and everything `needs` names, or
 * `last` (the build with everything) when needs is empty, when `from` or
 * the builds are unknown, or when none fits. "" when that would be `from`
 * itself: nothing can answer better.
 */
export function pickBuild(builds, from, needs, last) {
  const fallback = last === from ? "" : last;
  const have = tagsOf(builds, from);
  if (!have || !needs || !needs.length) return fallback;
  let best = "";
  for (const name of Object.keys(builds)) {
    const tags = tagsOf(builds, name);
    if (name === from || !tags) continue;
    // Nothing `from` has may be left out, and every need must be in.
    if ([...tags].some((t) => !have.has(t)) || needs.some((n) => tags.has("no" + n))) continue;
    if (!best || builds[name].size < builds[best].size) best = name;
  }
  return best || fallback;
}

/**
 * createRouter returns run(calls) → results, as loader.js's batch, for a
 * first build and others loaded on demand.
 * opts.load(name) → Promise<Subplay> loads a build (loader.js's load);
 * opts.next is the build with everything, which answers what the first
 * build has no operation for and what no smaller build can ("": the first
 * build has everything); opts.builds is what each build has (BUILDS);
 * opts.onStart(name) is told when a build starts loading,
 * opts.onReady(sp) when it is there (the caller asks again: the calls that
 * waited answered LOADING), opts.onFail(message) when it did not load (the
 * next call tries again). The router's first build is set with setFirst
 * once it has loaded.
 */
export function createRouter({ load, next = PAGE_MODULES[1], builds = BUILDS, onStart = () => {}, onReady = () => {}, onFail = () => {} }) {
  let first = null;
  // name → { promise, sp, error } for the builds loaded on demand.
  const others = new Map();
  let latest = null;

  function loadBuild(name) {
    let o = others.get(name);
    if (!o) {
      o = { promise: null, sp: null, error: "" };
      others.set(name, o);
    }
    if (!o.promise && !o.sp) {
      onStart(name);
      o.promise = load(name).then((m) => {
        o.sp = m;
        o.error = "";
        latest = m;
        onReady(m);
        return m;
      }, (e) => {
        o.error = e.message;
        o.promise = null; // the next call tries again
        onFail(e.message);
        throw e;
      });
      o.promise.catch(() => {});
    }
    return o;
  }

  const waiting = (o) => ({
    ok: false,
    value: {
      error: {
        code: LOADING,
        message: o.error
          ? `The rest of the core did not load (${o.error}); edit to try again.`
          : "Loading the rest of the core…",
      },
    },
  });

  // via sends the calls at idx to the build called name, or answers
  // "loading" for them while it is on its way; it says whether they were
  // answered.
  async function via(name, calls, idx, results) {
    const o = loadBuild(name);
    if (!o.sp) {
      for (const i of idx) results[i] = waiting(o);
      return null;
    }
    const rs = await o.sp.batch(idx.map((i) => calls[i]));
    idx.forEach((i, k) => { results[i] = rs[k]; });
    return rs;
  }

  // forward sends the calls at idx, which the build `from` refused, each
  // to the build pickBuild names; what that build refuses in turn goes on
  // (each step to a build with strictly more, so it ends). Never a
  // partial answer: a refusal nothing can do better stays.
  async function forward(calls, idx, results, from) {
    const groups = new Map();
    for (const i of idx) {
      const e = results[i].value.error;
      const to = pickBuild(builds, from, e.needs, next);
      if (!to) continue;
      if (!groups.has(to)) groups.set(to, []);
      groups.get(to).push(i);
    }
    await Promise.all([...groups].map(async ([to, ids]) => {
      if (!(await via(to, calls, ids, results))) return;
      const again = ids.filter((i) => needsModule(results[i]));
      if (again.length && to !== next) await forward(calls, again, results, to);
    }));
  }

  async function run(calls) {
    const results = new Array(calls.length);
    const firstIdx = [];
    const nextIdx = [];
    calls.forEach((c, i) => ((!next || first.has(c[0])) ? firstIdx : nextIdx).push(i));
    const viaFirst = async () => {
      if (!firstIdx.length) return;
      const rs = await first.batch(firstIdx.map((i) => calls[i]));
      firstIdx.forEach((i, k) => { results[i] = rs[k]; });
      if (firstIdx[0] === 0) results.timing = rs.timing; // for the benchmarks
      // What the first build refused goes to a build that can answer.
      const refused = firstIdx.filter((i) => needsModule(results[i]));
      if (refused.length) await forward(calls, refused, results, first.name);
    };
    const viaNext = async () => {
      if (!nextIdx.length) return;
      const rs = await via(next, calls, nextIdx, results);
      if (rs && nextIdx[0] === 0) results.timing = rs.timing;
    };
    await Promise.all([viaFirst(), viaNext()]);
    return results;
  }

  return {
    run,
    setFirst(sp) { first = sp; },
    /** The build loaded on demand last; null before. */
    get more() { return latest; },
    /** Whether a build is on its way. */
    get loading() { return [...others.values()].some((o) => !!o.promise && !o.sp); },
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

  /** hold is loader.js's hold over every build that may take a call
   * posted inside fn (the small one, the full one, or both). */
  hold(fn) {
    const builds = [this.quick, this.full].filter((b) => b && typeof b.hold === "function");
    const run = (i) => (i === builds.length ? fn() : builds[i].hold(() => run(i + 1)));
    return run(0);
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
