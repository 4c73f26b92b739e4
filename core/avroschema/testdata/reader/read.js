'use strict';
// Decodes an Avro object container file with avsc, an implementation
// independent of the Go one that wrote it, and prints one JSON object:
// {"codec": ..., "schema": ..., "records": [...]}. Bytes and fixed values
// print as {"$bytes": "<base64>"}; unions print wrapped, {"<branch>": value},
// except null; longs print as numbers (exact up to 2^53, enough for the
// microsecond timestamps the tests use).
const avro = require('avsc');

const path = process.argv[2];
if (!path) {
  console.error('usage: node read.js FILE.avro');
  process.exit(2);
}

function plain(v) {
  if (Buffer.isBuffer(v)) return { $bytes: v.toString('base64') };
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') {
    const out = {};
    for (const k of Object.keys(v)) out[k] = plain(v[k]);
    return out;
  }
  return v;
}

let header = null;
const records = [];
avro.createFileDecoder(path, {
  parseHook: (schema) => avro.Type.forSchema(schema, { wrapUnions: true }),
})
  .on('metadata', (type, codec) => {
    header = { codec, schema: type.schema() };
  })
  .on('data', (rec) => records.push(plain(rec)))
  .on('error', (err) => {
    console.error(String(err && err.message ? err.message : err));
    process.exit(1);
  })
  .on('end', () => {
    process.stdout.write(JSON.stringify({ ...header, records }) + '\n');
  });
