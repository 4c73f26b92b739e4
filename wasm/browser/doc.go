// Command browser is the playground's WebAssembly module: the core of
// subplay built with GOOS=js GOARCH=wasm and run inside a Web Worker by
// site/src/worker.js.
//
// It exposes one global object, subplay, with a version string and one
// function, call(op, requestJSON), which runs an operation of
// core/playground and returns {ok, body} where body is the response JSON.
// Every panic is recovered into an error response, because a panic that
// escapes a js.FuncOf callback ends the Go program and every later call
// would fail with "Go program has already exited".
//
// It is built five times (scripts/build-wasm --list), because the docs
// embeds should not download what they never run, and the page should not
// download the heavy engines before a request needs them:
//
//	full  (-tags noudf,nohcl)              every operation but JavaScript UDFs and
//	                                       Terraform input; the page's first module
//	cel   (-tags noavro,noudf,nohcl)       no hamba/avro ("schema" answers needs-module); the filter embed
//	avro  (-tags nocel,noudf,nohcl)        no cel-go, so filters are checked but not run; the schema embed
//	min   (-tags nocel,noavro,noudf,nohcl) neither; the object-names and settings embeds
//	extra (no tags)                        everything, with the JavaScript engine (QuickJS-ng) and
//	                                       HCL; fetched by the page when full answers needs-module
//
// noudf leaves out the JavaScript engine (core/transform, core/jsengine) and nohcl leaves out
// github.com/hashicorp/hcl/v2 (core/terraform); a build without one answers
// a request that needs it with the error code needs-module, naming what it
// lacks in the error's needs list (core/playground/needsmodule.go).
//
// scripts/build-wasm builds every one with patch/reflect2_methods.go.txt
// added to hamba/avro's dependency reflect2: without it, linking cel-go
// and hamba/avro together makes the linker keep every exported method of
// every reachable type, and the full build grows from about 18 MB to 27 MB
// (the patch file explains how).
//
// deps_test.go keeps the heavy packages out of the smaller builds.
package main
