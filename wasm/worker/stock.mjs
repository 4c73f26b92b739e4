// The entry of a bundle with syumai's stock glue (scripts/build-worker
// SUBPLAY_WORKER_GLUE=stock): its worker.mjs unchanged, renamed
// syumai-worker.mjs, after the engine module (engine.mjs says why).
import "./engine.mjs";

export { default } from "./syumai-worker.mjs";
