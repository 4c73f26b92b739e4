//go:build js && wasm && subplay_testhooks

package main

import (
	"encoding/json"
	"net/http"
	"runtime"
)

// wasmPages is in memory_testhooks_wasm.s.
func wasmPages() int32

// memoryStats is the answer of GET /__test/memory (test bundles only):
// where the Go instance's memory stands, for edgebench cost, which asks
// the extra worker after each hostile case to tell the instance's growth
// from the rest of the workerd process's (compiled code, V8's own heap).
type memoryStats struct {
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
}

func serveMemoryHook(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet || r.URL.Path != "/__test/memory" {
		return false
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b, _ := json.Marshal(memoryStats{
		WasmBytes: int64(wasmPages()) << 16,
		HeapSys:   ms.HeapSys, HeapInuse: ms.HeapInuse, HeapReleased: ms.HeapReleased,
		Sys: ms.Sys, NumGC: ms.NumGC,
	})
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
	return true
}
