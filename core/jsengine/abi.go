package jsengine

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
)

// quickjsWasm is QuickJS-ng as quickjs-emscripten builds it: the file
// dist/emscripten-module.wasm of the npm package
// @jitl/quickjs-ng-wasmfile-release-sync at the version below (MIT; see
// LICENSE.quickjs). It is kept in the repository so that `go build` and
// `go install` need nothing else; scripts/update-quickjs replaces it from
// the npm package and the page and the workers serve this same file.
//
//go:embed quickjs-ng.wasm
var quickjsWasm []byte

// Version is the npm package the binary comes from.
const Version = "@jitl/quickjs-ng-wasmfile-release-sync@0.32.0"

// wasmSHA256 pins the binary: the names below are its minified import and
// export names, which another build renames (TestBinaryPinned).
const wasmSHA256 = "b56fe5094b8751c47b8c32fb5ed4d75afe2dbb43412d3d983ac5d1156af456da"

// Wasm returns the engine's WebAssembly binary (the page and the workers
// serve the same bytes).
func Wasm() []byte { return quickjsWasm }

// CheckBinary reports whether the embedded binary is the pinned one.
func CheckBinary() error {
	sum := sha256.Sum256(quickjsWasm)
	if got := hex.EncodeToString(sum[:]); got != wasmSHA256 {
		return fmt.Errorf("jsengine: quickjs-ng.wasm is not the pinned build (sha256 %s)", got)
	}
	return nil
}

// The binary's exports, by the names its emscripten glue gives them
// (emscripten-module.mjs of the same package maps each minified name to the
// C function). Both hosts call them by these names: native.go here, and
// wasm/quickjs in the host's own WebAssembly.
const (
	ExportCtors           = "v"  // __wasm_call_ctors
	ExportMalloc          = "w"  // malloc(size) -> ptr
	ExportFree            = "N"  // free(ptr)
	ExportNewRuntime      = "L"  // QTS_NewRuntime() -> rt
	ExportFreeRuntime     = "M"  // QTS_FreeRuntime(rt)
	ExportNewContext      = "O"  // QTS_NewContext(rt, intrinsics) -> ctx
	ExportFreeContext     = "P"  // QTS_FreeContext(ctx)
	ExportSetMemoryLimit  = "z"  // QTS_RuntimeSetMemoryLimit(rt, bytes)
	ExportSetMaxStack     = "E"  // QTS_RuntimeSetMaxStackSize(rt, bytes)
	ExportEnableInterrupt = "Ga" // QTS_RuntimeEnableInterruptHandler(rt)
	ExportEval            = "qa" // QTS_Eval(ctx, code, len, filename, detectModule, flags) -> JSValue*
	ExportResolveExc      = "oa" // QTS_ResolveException(ctx, JSValue*) -> JSValue* of the exception, or 0
	ExportGetString       = "aa" // QTS_GetString(ctx, JSValue*) -> char*
	ExportDump            = "pa" // QTS_Dump(ctx, JSValue*) -> char* (JSON)
	ExportFreeCString     = "T"  // QTS_FreeCString(ctx, char*)
	ExportFreeValue       = "Q"  // QTS_FreeValuePointer(ctx, JSValue*)
)

// ImportModule is the module of every import of the binary; what each
// import does on both hosts:
//
//	a  memory (defined by the host: see native.go)
//	b  __assert_fail           r  abort         s  proc_exit: the engine is ended
//	c  fd_write: dropped (nothing is printed)
//	d  fd_close -> ENOSYS      o  fd_seek -> ESPIPE
//	e  environ_get, f environ_sizes_get: an empty environment
//	g  normalize module, h load module: no modules
//	i  the interrupt handler: counts, and stops past the budget
//	j  setitimer: no timers    l  keepalive: nothing
//	k  emscripten_resize_heap: grows memory up to the host's maximum
//	m  localtime: UTC          n  tzset: UTC, no daylight saving time
//	p  emscripten_date_now, q clock_time_get: the budget's Now
//	t  call a host function, u free a host reference: none are made
const ImportModule = "a"

// EvalCompileOnly is QuickJS's JS_EVAL_FLAG_COMPILE_ONLY: parse and
// compile, do not run.
const EvalCompileOnly = 1 << 5
