// The worker's entry module. syumai/workers generates its JavaScript glue
// (renamed syumai-worker.mjs in the bundle by scripts/build-worker, with
// runtime.mjs and wasm_exec.js beside it); its fetch starts a new Go
// instance for every request. This module keeps that glue whole and
// replaces only its fetch, with one that keeps one instance per isolate
// (persistent.mjs); scheduled, queue and onRequest stay syumai's.
//
// The one thing it cannot take from syumai is how an instance starts:
// worker.mjs keeps its run function to itself, so start below is that
// function, kept to its text, returning the Go object it creates.
// glue.test.mjs fails when the run of the syumai/workers version go.mod
// pins is not the one start was written from, so that a new version is
// read again before it is used.
// First, the UDF engine's binary, where the build has one (engine.mjs).
import "./engine.mjs";
import syumai from "./syumai-worker.mjs";
import { createRuntimeContext, loadModule } from "./runtime.mjs";
import { persistentFetch } from "./persistent.mjs";

let mod;

// start runs a Go instance of the module with the runtime context, as
// syumai's run does, and resolves to its Go object once the program has
// said it is ready (syumai's workers.Serve calls the import workers.ready).
async function start(context) {
  if (mod === undefined) {
    mod = await loadModule();
  }
  const go = new Go();

  let ready;
  const readyPromise = new Promise((resolve) => {
    ready = resolve;
  });
  const instance = new WebAssembly.Instance(mod, {
    ...go.importObject,
    workers: {
      ready: () => {
        ready();
      },
    },
  });
  go.run(instance, context);
  await readyPromise;
  return go;
}

export default { ...syumai, fetch: persistentFetch({ start, createRuntimeContext }) };
