//go:build js && wasm

package main

import (
	"runtime/debug"

	"github.com/subplay/subplay/core/limits"
)

// wasmPages is in memory_wasm.s.
func wasmPages() int32

// wasmMemoryBytes is the size of the instance's WebAssembly memory, which
// never shrinks: the highest point the Go runtime ever needed (heap,
// stacks, fragmentation), plus the module's data.
func wasmMemoryBytes() int64 { return int64(wasmPages()) << 16 }

// The instance's memory settings: the soft limit of its Go heap and the
// size of its memory past which it asks the glue to retire it. Variables
// so that a test bundle can try others (memory_testhooks_js.go).
var (
	memoryLimitMB = int64(limits.WorkerMemoryLimitMB)
	retireMB      = int64(limits.WorkerRetireMemoryMB)
)

func setMemoryLimit() { debug.SetMemoryLimit(memoryLimitMB << 20) }

// shouldRetire reports whether the instance, after a call, holds more
// memory than retireMB: the glue of a worker that forwards nothing (the
// extra worker) then starts a fresh instance for the next request and
// drops this one, so that V8 can free its memory, which Go cannot hand
// back (WebAssembly memory only grows). 0 never retires.
func shouldRetire() bool {
	return retireMB > 0 && wasmMemoryBytes() > retireMB<<20
}
