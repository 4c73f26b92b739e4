// Command worker is the subplay HTTP API (core/httpapi) as a Cloudflare
// Worker, built with GOOS=js GOARCH=wasm and served by
// github.com/syumai/workers.
//
// syumai/workers' JavaScript glue starts a new Go instance for every request,
// so each request pays Go start-up and package initialisation. The worker
// therefore also exposes a synchronous entry (binding.subplayServe, see
// serve_js.go) that the persistent glue (wasm/worker/glue.mjs, the entry,
// which replaces syumai's fetch with persistent.mjs's) calls for every
// request on one Go instance kept alive per isolate. Both glues run the same
// handler and the same module; scripts/build-worker chooses one.
//
// Built natively it only says how to run it: `subplay serve` serves the API
// on a machine, scripts/edge-serve runs this worker in workerd.
package main
