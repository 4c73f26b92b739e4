// The JavaScript engine of UDFs for a worker built with it: QuickJS-ng's
// WebAssembly binary, as a module of the bundle. workerd (like Cloudflare)
// refuses to compile WebAssembly from bytes at run time, so the binary
// comes compiled, as an import, and wasm/quickjs takes it from
// globalThis.subplayQuickJS instead of compiling the copy embedded in
// app.wasm. scripts/build-worker puts this module, and the binary beside
// it, in each bundle whose build runs UDFs; the others get an empty
// engine.mjs. The glue imports it before anything else.
import quickjs from "./quickjs-ng.wasm";

globalThis.subplayQuickJS = quickjs;
