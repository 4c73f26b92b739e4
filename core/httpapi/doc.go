// Package httpapi serves the operations of core/playground over HTTP, for
// callers without a browser: CI jobs, documentation builds, bots.
//
//	POST /v1/<op>          the operation's JSON request in, its JSON response out
//	GET  /v1/version       the same as POST /v1/version with {}
//	GET  /v1/openapi.json  an OpenAPI 3.1 document of every route
//	GET  /healthz          {"status": "ok"}
//
// The bodies are exactly what the WebAssembly bridge and the CLI's
// --format json speak, because all three go through playground.Op.Run.
// Findings about a configuration are a 200 with diagnostics; only a request
// the API cannot take is an HTTP error, and every error has the body
// {"error": {"code": "...", "message": "..."}} with a stable code.
//
// The same Handler runs natively (subplay serve) and inside a Cloudflare
// Worker (wasm/worker), where one Go instance may answer many requests or
// only one, and which passes its own admission policy (WithAdmission). It therefore keeps no state between requests (the only thing
// it remembers is the OpenAPI document, which depends on nothing but the
// code), reads nothing from the environment, and builds that document only
// when it is asked for.
//
// It is the only package of core/ that imports net/http.
package httpapi
