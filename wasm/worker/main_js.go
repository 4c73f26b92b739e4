//go:build js && wasm

package main

import (
	"net/http"
	"os"

	"github.com/subplay/subplay/core/httpapi"
	"github.com/subplay/subplay/wasm/worker/admit"
	"github.com/syumai/workers"
)

func main() {
	// The instance's memory only grows: whatever the heap once reached
	// stays allocated to the isolate. Unless GOMEMLIMIT says otherwise,
	// the collector works harder near this limit instead of letting the
	// heap reach twice what is live.
	// (memory_js.go; it is limits.WorkerMemoryLimitMB.)
	if os.Getenv("GOMEMLIMIT") == "" {
		setMemoryLimit()
	}
	// The instance runs one Go call at a time, which nothing interrupts:
	// the share, not the native server's pool and time limit, keeps
	// costly requests from starving the others (admit.Share).
	share := admit.NewShare()
	api := httpapi.Handler(httpapi.WithAdmission(share))
	// Every call's context carries the pauser's hook, under either glue
	// (pause_js.go).
	h := withPause(api)
	if wrapHandler != nil {
		h = wrapHandler(h)
	}
	exposeSync(h, api, share)
	// With syumai's own glue this serves one request and returns; with the
	// persistent glue no request comes this way and it blocks for the life
	// of the isolate, which keeps the instance (and exposeSync's entry) alive.
	workers.Serve(h)
}

// wrapHandler, when set (by testhooks_js.go, only in builds with the
// subplay_testhooks tag), wraps the API handler.
var wrapHandler func(http.Handler) http.Handler
