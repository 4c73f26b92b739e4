//go:build js && wasm

package main

import (
	"github.com/subplay/subplay/core/httpapi"
	"github.com/syumai/workers"
)

func main() {
	h := httpapi.Handler()
	exposeSync(h)
	// With syumai's own glue this serves one request and returns; with the
	// persistent glue no request comes this way and it blocks for the life
	// of the isolate, which keeps the instance (and exposeSync's entry) alive.
	workers.Serve(h)
}
