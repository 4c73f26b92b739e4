// calls.js says what the playground page asks the core for a state, and how
// a call looks on the wire (the worker protocol's [op, requestJSON]). The
// page, the loader and the build step that answers the default state ahead
// of time (site/tools/firstpaint.mjs) all read it from here, so the answer
// computed at build time is keyed by exactly the request the page sends.

// baseOp is the operation every edit runs for the diagnostics. Only the
// settings panel needs "effective", whose rows carry every field's bounds
// and help: an answer ten times the size of "validate"'s, which has the
// rest (the verdict, the findings, the effective subscription).
export function baseOp(tab) {
  return tab === "settings" ? "effective" : "validate";
}

/** callsFor is one edit's calls: the base operation, then what the shown
 * panel (its requests(state, base)) adds. */
export function callsFor(state, panel) {
  const base = { text: state.config, format: state.format };
  return [[baseOp(state.tab), base], ...panel.requests(state, base)];
}

/** toWire turns [[op, request]] into what the worker receives:
 * [[op, requestJSON]]; a request already given as JSON text stays as is. */
export function toWire(calls) {
  return calls.map(([op, req]) => [String(op), typeof req === "string" ? req : JSON.stringify(req ?? {})]);
}

/** wireKey is a string that is equal for two lists of calls exactly when
 * the worker would receive the same thing. */
export function wireKey(calls) {
  return JSON.stringify(toWire(calls));
}
