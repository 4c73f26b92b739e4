//go:build js && wasm && subplay_testhooks

package main

import (
	"net/http"
	"runtime/debug"
)

// With the subplay_testhooks tag (scripts/test-edge's third bundle, never
// a deployed one) the worker answers one more path, POST /__test/exit,
// by ending its Go program the way a real failure does: a fatal runtime
// error (here a stack overflow, the browser's instance's cause of death in
// issue 10). It lets the workerd suite check that the glue answers the
// request 500 and starts a fresh instance for the next one.
func init() {
	wrapHandler = func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/__test/exit" && r.Method == http.MethodPost {
				debug.SetMaxStack(1 << 20)
				recurse(0)
			}
			h.ServeHTTP(w, r)
		})
	}
}

// recurse never returns: each call takes a kilobyte of stack, past the
// maximum set above. The result is used so that nothing is optimised away.
func recurse(n int) int {
	var pad [1024]byte
	pad[n%len(pad)] = byte(n)
	return recurse(n+1) + int(pad[(n+1)%len(pad)])
}
