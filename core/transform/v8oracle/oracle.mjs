// oracle.mjs runs JavaScript UDFs the way the Pub/Sub documentation
// describes them, on V8 (Node's vm module), and prints what each one does
// to each message. It is the reference core/transform's TestAgreesWithV8
// holds the transform engine to.
//
// Input (stdin): a JSON list of cases,
//   {"name", "now": RFC 3339, "udfs": [{"name", "code"}],
//    "messages": [{"data": base64, "attributes", "messageId", "publishTime", "orderingKey"}]
//    or "generator": code defining function generate() that returns such
//    messages, with "text" in place of "data" when it likes}
// Output (stdout): a JSON list, one entry per case,
//   {"name", "messages" (only when generated, with base64 data),
//    "results": [[step, ...] per message], "deterministic": bool}
// where a step is {"outcome": "changed"|"unchanged"|"dropped"|"failed",
//   "data": base64, "attributes", "error": {"name", "message"}, "console": [...]}
// and the steps of a message stop at its first drop or failure.
//
// Every case runs twice, each time in fresh contexts; "deterministic" says
// whether both runs printed the same, so that a case whose V8 result is
// not reproducible (a clock, Math.random) is caught as a corpus error.

import vm from 'node:vm';
import {readFileSync} from 'node:fs';

// The contract fixes local time to UTC. Set before any Date is made.
process.env.TZ = 'UTC';

// Each call (top-level code, one message, a generator) may run this long.
const TIMEOUT_MS = 5000;

// The publish limits subplay checks on a transformed message
// (core/message.Check): a result past them fails the message.
const MAX_DATA_BYTES = 10_000_000;
const MAX_ATTRIBUTES = 100;
const MAX_KEY_BYTES = 256;
const MAX_VALUE_BYTES = 1024;

// PRELUDE runs first in every context: it keeps its own references to the
// built-ins it needs, so that a UDF that replaces JSON, Object or Date
// does not change how its input is made or its result is read.
const PRELUDE = String.raw`(function () {
  'use strict';
  const RealDate = Date;
  const keys = Object.keys, freeze = Object.freeze, isArray = Array.isArray;
  const defineProperty = Object.defineProperty, construct = Reflect.construct;
  const apply = Reflect.apply, realToString = RealDate.prototype.toString;
  let now = 0;
  // new Date() and Date.now() give the current message's publish time (or
  // the request's time); Date() as a function gives its string. Everything
  // else is the real Date: the prototype, parse, UTC, instanceof.
  const FakeDate = new Proxy(RealDate, {
    construct(target, args, newTarget) {
      return construct(target, args.length === 0 ? [now] : args, newTarget);
    },
    apply() {
      return apply(realToString, new RealDate(now), []);
    },
  });
  RealDate.now = function now_() { return now; };
  defineProperty(RealDate.prototype, 'constructor', {value: FakeDate, writable: true, configurable: true});
  defineProperty(globalThis, 'Date', {value: FakeDate, writable: true, configurable: true});

  const lines = [];
  const show = (v) => {
    if (typeof v === 'string') return v;
    try { return String(v); } catch (e) { return '[value]'; }
  };
  const log = (...a) => { if (lines.length < 100) lines.push(a.map(show).join(' ')); };
  globalThis.console = {log, info: log, warn: log, error: log, debug: log};

  const text = (v) => typeof v === 'string';
  const shape = (message) => ({outcome: 'failed', error: {name: 'ResultShape', message}});
  // check reads a result as core/transform/run.go does, in the same
  // order (the keys, data, attributes, each attribute), since a getter may
  // keep state.
  const check = (res, input) => {
    if (res === null) return {outcome: 'dropped'};
    if (res === undefined) return shape('the function returned undefined');
    if ((typeof res !== 'object' && typeof res !== 'function') || isArray(res)) {
      return shape('the function returned ' + (isArray(res) ? 'an array' : typeof res) + ', not an object');
    }
    for (const k of keys(res)) {
      if (k !== 'data' && k !== 'attributes') return shape('the returned object has a key ' + k);
    }
    const data = res.data;
    if (data === undefined) return shape('the returned object has no data');
    if (!text(data)) return shape('data is ' + (data === null ? 'null' : typeof data) + ', not a string');
    const av = res.attributes;
    let attributes;
    if (av === undefined) {
      attributes = input.attributes;
    } else {
      if (av === null || (typeof av !== 'object' && typeof av !== 'function') || isArray(av)) {
        return shape('attributes is not an object of strings');
      }
      attributes = {};
      for (const k of keys(av)) {
        const v = av[k];
        if (!text(v)) return shape('attribute ' + k + ' is not a string');
        attributes[k] = v;
      }
    }
    return {outcome: 'ok', data, attributes};
  };

  return {
    // call runs fn on one message. The message's objects are made here,
    // in the context, so that they have its Object.prototype.
    call(fn, input, meta, at) {
      now = at;
      lines.length = 0;
      const message = {data: input.data, attributes: {}};
      for (const k of keys(input.attributes)) message.attributes[k] = input.attributes[k];
      const metadata = {};
      if (meta.message_id !== undefined) metadata.message_id = meta.message_id;
      if (meta.publish_time !== undefined) metadata.publish_time = meta.publish_time;
      if (meta.ordering_key !== undefined) metadata.ordering_key = meta.ordering_key;
      freeze(metadata);
      let out;
      try {
        out = check(fn(message, metadata), input);
      } catch (e) {
        out = {outcome: 'failed', thrown: e};
      }
      out.console = lines.slice();
      return out;
    },
    setNow(at) { now = at; },
    lines,
  };
})()`;

function describeError(e) {
  if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
    let name = 'Object', message = '';
    try { name = (e.constructor && e.constructor.name) || e.name || 'Object'; } catch { /* a hostile getter */ }
    try { message = String(e.message); } catch { /* idem */ }
    return {name, message};
  }
  let message;
  try { message = String(e); } catch { message = '[value]'; }
  return {name: typeof e, message};
}

const timeoutError = (e) => e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';

function fail(e) {
  if (timeoutError(e)) return {outcome: 'failed', error: {name: 'Timeout', message: 'timeout'}};
  return {outcome: 'failed', error: describeError(e)};
}

function isIdent(s) {
  return /^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(s);
}

// A UDF's context: its code run once at top level at the request's time.
function start(udf, nowMs) {
  const ctx = vm.createContext({});
  const host = vm.runInContext(PRELUDE, ctx);
  host.setNow(nowMs);
  try {
    new vm.Script(udf.code, {filename: udf.name + '.js'}).runInContext(ctx, {timeout: TIMEOUT_MS});
  } catch (e) {
    return {error: fail(e), console: host.lines.slice()};
  }
  if (!isIdent(udf.name)) return {error: {outcome: 'failed', error: {name: 'Missing', message: 'not a function name'}}};
  let fn;
  try {
    // A name lookup, not a global property: a top-level let, const or class
    // holds its function too.
    fn = vm.runInContext(`typeof ${udf.name} === 'function' ? ${udf.name} : undefined`, ctx, {timeout: TIMEOUT_MS});
  } catch (e) {
    return {error: fail(e)};
  }
  if (typeof fn !== 'function') {
    return {error: {outcome: 'failed', error: {name: 'Missing', message: 'the code defines no function ' + udf.name}}};
  }
  // The call goes through a script so that vm's time-out covers it.
  const callScript = new vm.Script('__oracleCall()');
  return {ctx, host, fn, callScript};
}

// utf8 reads data as the UDF sees it: invalid bytes become U+FFFD, and a
// leading byte order mark stays (TextDecoder drops it unless told not to).
function utf8(b64) {
  return new TextDecoder('utf-8', {ignoreBOM: true}).decode(Buffer.from(b64 || '', 'base64'));
}

function bytes(s) {
  return Buffer.from(s, 'utf8');
}

// limits mirrors core/message.Check on a transformed message.
function limits(data, attributes) {
  const ks = Object.keys(attributes);
  if (bytes(data).length === 0 && ks.length === 0) return 'a message needs data or at least one attribute';
  if (bytes(data).length > MAX_DATA_BYTES) return 'data too large';
  if (ks.length > MAX_ATTRIBUTES) return 'too many attributes';
  for (const k of ks) {
    if (k === '') return 'empty attribute key';
    if (bytes(k).length > MAX_KEY_BYTES) return 'attribute key too long';
    if (bytes(attributes[k]).length > MAX_VALUE_BYTES) return 'attribute value too long';
    if (bytes(k).toString('utf8') !== k || bytes(attributes[k]).toString('utf8') !== attributes[k]) return 'attribute not UTF-8';
  }
  return '';
}

function sameAttributes(a, b) {
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && b[k] === a[k]);
}

// hide puts the function the call script calls on the context's global
// object, out of the way of code that lists the global's keys.
function hide(ctx, f) {
  Object.defineProperty(ctx, '__oracleCall', {value: f, writable: true, configurable: true, enumerable: false});
}

// sorted gives the attributes in the order of their keys' UTF-8 bytes, the
// order subplay's engine hands them to a UDF (a message's attributes are a
// map: the service promises no order).
function sorted(attrs) {
  const out = {};
  for (const k of Object.keys(attrs || {}).sort((a, b) => Buffer.compare(bytes(a), bytes(b)))) out[k] = attrs[k];
  return out;
}

function runMessage(runners, m, nowMs) {
  let cur = {data: utf8(m.data), attributes: sorted(m.attributes)};
  const pt = m.publishTime ? Date.parse(m.publishTime) : NaN;
  const at = Number.isNaN(pt) ? nowMs : pt;
  const meta = {};
  if (m.messageId) meta.message_id = m.messageId;
  if (!Number.isNaN(pt)) meta.publish_time = m.publishTime;
  if (m.orderingKey) meta.ordering_key = m.orderingKey;
  const steps = [];
  for (const r of runners) {
    if (r.error) {
      steps.push({...r.error, console: r.console || []});
      break;
    }
    let out;
    const input = cur;
    hide(r.ctx, () => r.host.call(r.fn, input, meta, at));
    try {
      out = r.callScript.runInContext(r.ctx, {timeout: TIMEOUT_MS});
    } catch (e) {
      out = {...fail(e), console: r.host.lines.slice()};
    }
    hide(r.ctx, undefined);
    if ('thrown' in out) {
      out = {outcome: 'failed', error: describeError(out.thrown), console: out.console};
    }
    if (out.outcome === 'ok') {
      const problem = limits(out.data, out.attributes);
      if (problem) {
        out = {outcome: 'failed', error: {name: 'ResultLimit', message: problem}, console: out.console};
      } else {
        const same = out.data === cur.data && sameAttributes(out.attributes, cur.attributes);
        const attributes = sorted(out.attributes);
        out = {outcome: same ? 'unchanged' : 'changed', data: bytes(out.data).toString('base64'), attributes, console: out.console};
        // The next UDF sees the text as UTF-8 carried it (a lone
        // surrogate becomes U+FFFD), as a delivered message would.
        cur = {data: utf8(out.data), attributes};
      }
    }
    steps.push(out);
    if (out.outcome === 'failed' || out.outcome === 'dropped') break;
  }
  return steps;
}

function generate(code) {
  const ctx = vm.createContext({});
  vm.runInContext(PRELUDE, ctx);
  const list = new vm.Script(code + '\n;JSON.stringify(generate())').runInContext(ctx, {timeout: 4 * TIMEOUT_MS});
  return JSON.parse(list).map((m) => {
    const out = {};
    if (m.text !== undefined) out.data = Buffer.from(m.text, 'utf8').toString('base64');
    else if (m.data !== undefined) out.data = m.data;
    for (const k of ['attributes', 'messageId', 'publishTime', 'orderingKey']) if (m[k] !== undefined) out[k] = m[k];
    return out;
  });
}

function runCase(c) {
  const nowMs = Date.parse(c.now || '1970-01-01T00:00:00Z');
  const out = {name: c.name};
  let messages = c.messages || [];
  if (c.generator) {
    try {
      messages = generate(c.generator);
    } catch (e) {
      return {name: c.name, error: 'generator: ' + describeError(e).message};
    }
    out.messages = messages;
  }
  // One request: a fresh context per UDF, kept for all its messages.
  const runners = c.udfs.map((u) => start(u, nowMs));
  out.results = messages.map((m) => runMessage(runners, m, nowMs));
  return out;
}

const cases = JSON.parse(readFileSync(0, 'utf8'));
const results = cases.map((c) => {
  const a = runCase(c), b = runCase(c);
  const da = JSON.stringify(a), db = JSON.stringify(b);
  a.deterministic = da === db;
  return a;
});
process.stdout.write(JSON.stringify(results));
