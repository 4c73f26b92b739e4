// A worker with no Go and no WebAssembly: scripts/load-edge's target
// workerd-js serves it under the same load as the real workers, so that
// the memory workerd itself holds for a stream of requests can be read
// beside theirs. It reads each request's body, as the glue does, and
// answers a JSON document of about the size of the API's answer to
// load-edge's ordinary request.
export default {
  async fetch(req) {
    const bytes = req.body === null ? 0 : (await req.arrayBuffer()).byteLength;
    return new Response(JSON.stringify({ bytes, pad: "x".repeat(2000) }),
      { headers: { "content-type": "application/json" } });
  },
};
