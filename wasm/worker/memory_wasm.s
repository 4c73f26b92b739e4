//go:build js && wasm

#include "textflag.h"

// func wasmPages() int32: the instance's linear memory in 64 KiB pages
// (the memory.size instruction), what JavaScript sees as
// memory.buffer.byteLength / 65536.
TEXT ·wasmPages(SB), NOSPLIT, $0
	Get SP
	CurrentMemory
	I32Store ret+0(FP)
	RET
