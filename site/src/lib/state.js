// state.js is the playground's whole state and its share-link form: the
// state as JSON, deflated, base64url, in the URL fragment (#z=...). The
// fragment never reaches a server, so sharing needs none.
//
// The format is versioned: a link carries "v", and UPGRADES turns an old
// state into the next version, one step at a time, so links made today keep
// opening after the state grows. test/testdata/share-v1.txt pins a v1 link
// that must keep restoring.

export const CURRENT = 1;

// UPGRADES[n] turns a version-n state into version n+1. Add one whenever
// the shape changes; never edit an existing one.
const UPGRADES = {};

export const TABS = ["settings", "filter", "storage", "schema", "transforms", "export", "examples"];

// FORMATS are the forms the editor's text may be in ("" detects it).
export const FORMATS = ["json", "yaml", "gcloud", "terraform"];

// EXPORT_FORMS are the forms the Export panel writes.
export const EXPORT_FORMS = ["json", "yaml", "gcloud", "terraform"];

export const DEFAULT_MESSAGES = `[
  {"text": "order 1", "attributes": {"region": "eu", "kind": "order"}},
  {"text": "order 2", "attributes": {"region": "us", "kind": "order"}},
  {"text": "refund", "attributes": {"region": "eu", "kind": "refund"}},
  {"text": "no attributes"}
]
`;

export const DEFAULT_CONFIG = `{
  "name": "projects/my-project/subscriptions/orders-eu",
  "topic": "projects/my-project/topics/orders",
  "ackDeadlineSeconds": 30,
  "filter": "attributes.region = \\"eu\\"",
  "retryPolicy": {
    "minimumBackoff": "10s",
    "maximumBackoff": "300s"
  }
}
`;

/** defaults returns a fresh state. */
export function defaults() {
  return {
    v: CURRENT,
    config: DEFAULT_CONFIG,
    format: "", // "" lets the core detect JSON or YAML
    tab: "settings",
    filter: null,
    messages: DEFAULT_MESSAGES,
    names: { time: "", uuid: "", count: 5, mode: "stream", rate: 100, size: 1024, duration: "900s" },
    schema: { topic: "", table: "" },
    // The Export panel: the configuration as given or effective, and the
    // configuration before, for a gcloud update command.
    export: { effective: false, old: "" },
  };
}

/**
 * normalize checks every field of a decoded state and replaces what is
 * missing or of the wrong type by its default: a share link is untrusted
 * input.
 */
export function normalize(s) {
  const d = defaults();
  if (!s || typeof s !== "object") return d;
  const str = (v, def) => (typeof v === "string" ? v : def);
  const num = (v, def) => (typeof v === "number" && Number.isFinite(v) ? v : def);
  const n = s.names && typeof s.names === "object" ? s.names : {};
  const sc = s.schema && typeof s.schema === "object" ? s.schema : {};
  const ex = s.export && typeof s.export === "object" ? s.export : {};
  return {
    v: CURRENT,
    config: str(s.config, d.config),
    format: FORMATS.includes(s.format) ? s.format : "",
    tab: TABS.includes(s.tab) ? s.tab : d.tab,
    filter: typeof s.filter === "string" ? s.filter : null,
    messages: str(s.messages, d.messages),
    names: {
      time: str(n.time, d.names.time),
      uuid: str(n.uuid, d.names.uuid),
      count: num(n.count, d.names.count),
      mode: n.mode === "messages" ? "messages" : "stream",
      rate: num(n.rate, d.names.rate),
      size: num(n.size, d.names.size),
      duration: str(n.duration, d.names.duration),
    },
    schema: { topic: str(sc.topic, ""), table: str(sc.table, "") },
    export: { effective: ex.effective === true, old: str(ex.old, "") },
  };
}

/** upgrade brings a decoded state of any known version to CURRENT. */
export function upgrade(s) {
  if (!s || typeof s !== "object") throw new Error("the link holds no playground state");
  let v = Number.isInteger(s.v) ? s.v : 1;
  if (v > CURRENT) throw new Error(`the link was made by a newer subplay (state version ${v}); reload the page`);
  while (v < CURRENT) {
    const up = UPGRADES[v];
    if (!up) throw new Error(`no upgrade from state version ${v}`);
    s = up(s);
    v++;
  }
  return normalize({ ...s, v: CURRENT });
}

/** encode returns the fragment (without "#") for a state. */
export async function encode(state) {
  const json = JSON.stringify(normalize(state));
  const packed = await pipe(new TextEncoder().encode(json), new CompressionStream("deflate-raw"));
  return "z=" + toBase64url(packed);
}

// maxInflated bounds what a link may expand to: a configuration is at most
// 1 MiB, and a hostile link must not exhaust memory.
const maxInflated = 4 << 20;

/**
 * decode reads a fragment: "z=" (a shared state) and/or plain parameters
 * (config, format, filter, messages, time, uuid, count, mode, rate, size,
 * duration, topicSchema, tableSchema, tab), which docs authors can write
 * by hand. It returns
 * {state, params} where params holds the parameters as given (the embed
 * reads widget, theme and id from there).
 */
export async function decode(fragment) {
  const params = new URLSearchParams(fragment.replace(/^#/, ""));
  let state = defaults();
  const z = params.get("z");
  if (z) {
    const bytes = await pipe(fromBase64url(z), new DecompressionStream("deflate-raw"), maxInflated);
    state = upgrade(JSON.parse(new TextDecoder().decode(bytes)));
  }
  const plain = {
    config: "config", format: "format", filter: "filter", messages: "messages", tab: "tab",
  };
  const s = { ...state, names: { ...state.names }, schema: { ...state.schema }, export: { ...state.export } };
  for (const [p, k] of Object.entries(plain)) if (params.has(p)) s[k] = params.get(p);
  if (params.has("config") && !params.has("format")) s.format = "";
  for (const k of ["time", "uuid", "duration", "mode"]) if (params.has(k)) s.names[k] = params.get(k);
  for (const k of ["count", "rate", "size"]) if (params.has(k)) s.names[k] = Number(params.get(k));
  if (params.has("topicSchema")) s.schema.topic = params.get("topicSchema");
  if (params.has("tableSchema")) s.schema.table = params.get("tableSchema");
  return { state: normalize(s), params };
}

async function pipe(bytes, transform, limit = Infinity) {
  const stream = new Blob([bytes]).stream().pipeThrough(transform);
  const chunks = [];
  let n = 0;
  for await (const c of stream) {
    n += c.byteLength;
    if (n > limit) throw new Error("the link expands to more than 4 MiB");
    chunks.push(c);
  }
  const out = new Uint8Array(n);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.byteLength;
  }
  return out;
}

function toBase64url(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(s) {
  const b = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
  return out;
}
