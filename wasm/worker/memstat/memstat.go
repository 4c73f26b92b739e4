// Package memstat holds the answer of a test bundle's GET /__test/memory:
// where the Go instance's memory stands. The worker's test hook
// (wasm/worker/memory_testhooks_js.go) writes it and edgebench cost reads
// it after each hostile case, to tell the instance's growth from the rest
// of the workerd process's (compiled code, V8's own heap). One type for
// both ends, so that the field names cannot drift apart.
package memstat

// Stats is the JSON answer of GET /__test/memory.
type Stats struct {
	// WasmBytes is the WebAssembly memory's size (memory.buffer.byteLength).
	// It only grows: the highest point the Go runtime ever asked for.
	WasmBytes int64 `json:"wasmBytes"`
	// HeapSys, HeapInuse and HeapReleased are runtime.MemStats' figures:
	// what the runtime holds for the heap, what is in use now, and what it
	// has handed back (which in WebAssembly stays in the memory).
	HeapSys      uint64 `json:"heapSys"`
	HeapInuse    uint64 `json:"heapInuse"`
	HeapReleased uint64 `json:"heapReleased"`
	// Sys is every byte the runtime obtained, heap, stacks and its own.
	Sys   uint64 `json:"sys"`
	NumGC uint32 `json:"numGC"`
	// Instance counts the Go instances this isolate has started, this one
	// included: it goes up when one was retired (or died).
	Instance int `json:"instance"`
	// LimitMB and RetireMB are the settings in force (wasm/worker/memory_js.go).
	LimitMB  int64 `json:"limitMB"`
	RetireMB int64 `json:"retireMB"`
}
