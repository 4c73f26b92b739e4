//go:build js && !noudf

package httpapi

// Under js/wasm the UDF engine runs in the host's own WebAssembly, whose
// host a js/wasm entry registers by importing wasm/quickjs (core does
// not import syscall/js); these tests register it the same way.
import _ "github.com/subplay/subplay/wasm/quickjs"
