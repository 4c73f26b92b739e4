// slot.js is the shared answer slot between the page and the core's worker
// (loader.js, worker.js). A worker's postMessage reply reaches the page
// only after the frame that follows a key event has been drawn, so an
// answer sent that way always lands a frame late. When the page is
// cross-origin isolated, the loader also hands the worker a
// SharedArrayBuffer; for a call it means to wait for, it marks the slot
// with the call's id before posting it, and then watches the slot for a few
// milliseconds (Atomics.wait is not allowed on a page's main thread, so it
// polls). The worker writes its answer into the slot instead of posting it
// when the slot still waits for that call; otherwise, or when the answer
// does not fit, it posts it as usual.
//
// One 32-bit word says whose the slot is and what it holds: the call's id
// times 4 plus a phase. Each side moves it with compareExchange only, so
// an answer is never both taken from the slot and expected by message, and
// never neither:
//
//	page    0 or anything -> WAIT     before posting the call
//	worker  WAIT  -> WRITE            it will write this call's answer
//	worker  WRITE -> READY            written: the page takes it
//	worker  WAIT|WRITE -> GONE        it does not fit: posted instead
//	page    WAIT|WRITE -> GONE        it stopped watching: post it instead
//
// Layout (little-endian): the word and the number of results (Int32 each),
// the whole call's ms (Float64), then per result its ms (Float64), whether
// it is ok and its body's byte length (Int32 each), then the bodies one
// after the other, UTF-8.

export const WAIT = 1;
export const WRITE = 2;
export const READY = 3;
export const GONE = 0;

const HEADER = 16; // the word, the count, the call's ms
const ENTRY = 16; // per result: ms, ok, byte length

/** SLOT_BYTES is the slot's size: an answer larger than this is posted. */
export const SLOT_BYTES = 1 << 20;

/**
 * canShare says whether this context may use a shared slot: only a
 * cross-origin isolated page (and its workers) has SharedArrayBuffer.
 */
export function canShare(global = globalThis) {
  return !!global.crossOriginIsolated && typeof global.SharedArrayBuffer === "function" && typeof global.Atomics === "object";
}

/** newSlot makes a slot's buffer (the loader's, sent to each worker). */
export function newSlot(bytes = SLOT_BYTES) {
  return new SharedArrayBuffer(bytes);
}

function views(buffer) {
  return { word: new Int32Array(buffer, 0, 4), bytes: new Uint8Array(buffer) };
}

const mark = (id, phase) => (id << 2) | phase;

/**
 * expect marks the slot as waiting for call id (the page, before it posts
 * the call). ids are positive and below 2^29.
 */
export function expect(buffer, id) {
  Atomics.store(views(buffer).word, 0, mark(id, WAIT));
}

/**
 * offer writes the answer to call id into the slot if the page is still
 * waiting for exactly that call (the worker). It returns true when the
 * page will take it from there, false when the answer must be posted.
 */
export function offer(buffer, id, answer) {
  const { word, bytes } = views(buffer);
  if (Atomics.compareExchange(word, 0, mark(id, WAIT), mark(id, WRITE)) !== mark(id, WAIT)) return false;
  try {
    const n = answer.results.length;
    const first = HEADER + ENTRY * n;
    if (first > bytes.length) return giveUp(word, id);
    // Chromium's TextEncoder does not write into shared memory: the bodies
    // are encoded into a scratch buffer, then copied in one go.
    const out = scratch(bytes.length);
    const data = new DataView(buffer);
    const enc = new TextEncoder();
    let at = first;
    for (let i = 0; i < n; i++) {
      const r = answer.results[i];
      const { read, written } = enc.encodeInto(r.body, out.subarray(at));
      if (read !== r.body.length) return giveUp(word, id);
      const e = HEADER + ENTRY * i;
      data.setFloat64(e, r.ms, true);
      data.setInt32(e + 8, r.ok ? 1 : 0, true);
      data.setInt32(e + 12, written, true);
      at += written;
    }
    bytes.set(out.subarray(first, at), first);
    data.setInt32(4, n, true);
    data.setFloat64(8, answer.ms, true);
  } catch (e) {
    giveUp(word, id);
    throw e;
  }
  return Atomics.compareExchange(word, 0, mark(id, WRITE), mark(id, READY)) === mark(id, WRITE);
}

let scratchBytes = null;
function scratch(n) {
  if (!scratchBytes || scratchBytes.length !== n) scratchBytes = new Uint8Array(n);
  return scratchBytes;
}

function giveUp(word, id) {
  Atomics.compareExchange(word, 0, mark(id, WAIT), mark(id, GONE));
  Atomics.compareExchange(word, 0, mark(id, WRITE), mark(id, GONE));
  return false;
}

/**
 * collect watches the slot for the answer to call id for at most ms
 * milliseconds (plus grace while the worker is writing it), and returns
 * it as the worker would have posted it ({ms, results: [{ok, body, ms}]}),
 * or null: then the worker posts it. now is the clock (performance.now).
 */
export function collect(buffer, id, ms, { grace = 20, now = () => performance.now() } = {}) {
  const { word, bytes } = views(buffer);
  const t0 = now();
  for (;;) {
    const w = Atomics.load(word, 0);
    if (w === mark(id, READY)) return take(buffer, word, bytes);
    if (w !== mark(id, WAIT) && w !== mark(id, WRITE)) return null; // given up, or another call's
    const waited = now() - t0;
    if (waited > ms && (w === mark(id, WAIT) || waited > ms + grace)) {
      if (Atomics.compareExchange(word, 0, w, mark(id, GONE)) === w) return null;
    }
  }
}

function take(buffer, word, bytes) {
  const data = new DataView(buffer);
  const dec = new TextDecoder();
  const n = data.getInt32(4, true);
  const results = [];
  let at = HEADER + ENTRY * n;
  for (let i = 0; i < n; i++) {
    const e = HEADER + ENTRY * i;
    const len = data.getInt32(e + 12, true);
    // slice copies out of the shared memory: TextDecoder may refuse a
    // view of it, and the next call reuses the slot.
    results.push({ ok: data.getInt32(e + 8, true) === 1, body: dec.decode(bytes.slice(at, at + len)), ms: data.getFloat64(e, true) });
    at += len;
  }
  const ms = data.getFloat64(8, true);
  Atomics.store(word, 0, GONE);
  return { ms, results };
}
