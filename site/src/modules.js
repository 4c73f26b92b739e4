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
