//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// Outside WebAssembly, syumai's Serve would listen on every interface of
// port 9900; subplay serves natively with `subplay serve` instead.
func main() {
	fmt.Fprintln(os.Stderr, "wasm/worker is built with GOOS=js GOARCH=wasm (scripts/build-worker);\n"+
		"run it with scripts/edge-serve, or serve the API natively with `subplay serve`")
	os.Exit(2)
}
