package main

import (
	"testing"

	"github.com/subplay/subplay/internal/golden"
)

// TestContract runs the contract corpus through the bridge's invoke, the
// function call(op, json) reaches from JavaScript. Under js/wasm
// (docs/development.md) this is the WebAssembly build answering in Node.
func TestContract(t *testing.T) {
	for _, c := range golden.Cases(t) {
		t.Run(c.Name, func(t *testing.T) {
			body, _ := invoke(c.Op, string(c.Request))
			c.Check(t, []byte(body))
		})
	}
}
