// runner.js keeps the previews at most one edit behind without queueing:
// while the worker computes, newer edits replace each other, and only the
// latest goes next. Typing fast therefore never builds a backlog.

/**
 * createRunner returns request(calls, meta), which returns the job's
 * sequence number. run(calls) returns a promise
 * of results; onResult(job, results) renders. job.t is when the oldest edit
 * the job answers was made, so job latency is measured from the edit.
 */
export function createRunner(run, onResult) {
  let busy = false;
  let pending = null;
  let seq = 0;

  async function pump() {
    busy = true;
    while (pending) {
      const job = pending;
      pending = null;
      let results;
      try {
        results = await run(job.calls);
      } catch (e) {
        const value = { error: { code: e.code || "internal", message: e.message || String(e) } };
        results = job.calls.map(() => ({ ok: false, value }));
      }
      try {
        onResult(job, results);
      } catch (e) {
        console.error("subplay: rendering failed", e);
      }
    }
    busy = false;
  }

  return function request(calls, meta) {
    const t = pending ? pending.t : performance.now();
    pending = { calls, meta, t, seq: ++seq };
    if (!busy) pump();
    return seq;
  };
}
