//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main explains itself on a native build, so that go build ./... and
// go vet ./... work on every platform while the real entry is js/wasm.
func main() {
	fmt.Fprintln(os.Stderr, "wasm/browser is the playground's WebAssembly module; build it with GOOS=js GOARCH=wasm (scripts/build-site)")
	os.Exit(2)
}
