// binary-config.mjs writes a workerd config as the binary Cap'n Proto
// message `workerd serve --binary` reads, from the text config
// scripts/build-worker generates.
//
//   node wasm/worker/binary-config.mjs WORKERD CONFIG.capnp OUT.bin
//
// Why: workerd parsing a text config holds several copies of every
// embedded module while it compiles the text (a 42.8 MB data module alone
// took the process to 273 MB, 230 MB of it kept; read from the binary
// message, 184 MB and 111 MB), and the modules are embedded in the
// config. Only the local server is affected: Cloudflare reads no config.
//
// workerd has no command that prints the binary message, but `workerd
// compile` writes one: its own executable, then the message (a whole
// number of 8-byte words, starting with its segment table), then the
// message's size in words (a little-endian uint64), then a 16-byte
// marker. This takes the message from there and checks that layout (the
// executable's bytes, the size, the segment table's sizes adding up to
// the message), so a workerd that writes it otherwise fails here rather
// than serving a broken config.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [workerd, config, out] = process.argv.slice(2);
if (!out) {
  console.error("usage: node wasm/worker/binary-config.mjs WORKERD CONFIG.capnp OUT.bin");
  process.exit(2);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "binary-config-"));
try {
  // compile: the executable workerd compiles for configFile, read whole.
  const compile = (configFile) => {
    const exe = path.join(tmp, "exe");
    const fd = fs.openSync(exe, "w");
    const r = spawnSync(workerd, ["compile", configFile], { stdio: ["ignore", fd, "inherit"] });
    fs.closeSync(fd);
    if (r.status !== 0) throw new Error(`workerd compile ${configFile} failed (status ${r.status})`);
    return fs.readFileSync(exe);
  };
  const self = fs.readFileSync(fs.realpathSync(workerd));
  const exe = compile(config);
  const fail = (why) => {
    throw new Error(`workerd compile ${config}: ${why}; its output's layout changed, so no binary config`);
  };
  if (exe.length < self.length + 24 + 8 || !exe.subarray(0, self.length).equals(self)) fail("it does not start with the workerd executable");
  const words = exe.readBigUInt64LE(exe.length - 24);
  const msg = exe.subarray(self.length, exe.length - 24);
  if (BigInt(msg.length) !== words * 8n) fail(`its message is ${msg.length} bytes, its size says ${words} words`);
  // The segment table: the count less one, each segment's size in words,
  // padded to a whole word; then the segments.
  const segments = msg.readUInt32LE(0) + 1;
  const table = 4 * (1 + segments) + (segments % 2 === 0 ? 4 : 0);
  let sum = 0;
  for (let i = 0; i < segments && 4 + 4 * i < msg.length; i++) sum += msg.readUInt32LE(4 + 4 * i) * 8;
  if (table + sum !== msg.length) fail(`its segment table says ${table + sum} bytes, the message has ${msg.length}`);
  fs.writeFileSync(out, msg);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
