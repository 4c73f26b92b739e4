// Command browser is the playground's WebAssembly module: the core of
// subplay built with GOOS=js GOARCH=wasm and run inside a Web Worker by
// site/worker.js.
//
// It exposes one global object, subplay, with a version string and one
// function, call(op, requestJSON), which runs an operation of
// core/playground and returns {ok, body} where body is the response JSON.
// Every panic is recovered into an error response, because a panic that
// escapes a js.FuncOf callback ends the Go program and every later call
// would fail with "Go program has already exited".
//
// It is built three times (scripts/build-site), because the docs embeds
// should not download what they never run:
//
//	full   (no tags)           everything; the playground page and the filter embed
//	lean   (-tags nocel)       no cel-go, so filters are checked but not run; the schema embed
//	min    (-tags nocel,noavro) no cel-go and no hamba/avro (no "schema" operation);
//	                           the object-names and settings embeds
//
// deps_test.go keeps the heavy packages out of the smaller builds.
package main
