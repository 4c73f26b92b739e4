//go:build js && wasm && subplay_testhooks

package main

import (
	"encoding/json"
	"net/http"
	"runtime/debug"

	"github.com/subplay/subplay/core/playground"
	"github.com/subplay/subplay/core/terraform"
)

// With the subplay_testhooks tag (scripts/test-edge's test bundles, never
// deployed ones) the worker answers two more paths by ending its Go
// program the way a real failure does: a fatal runtime error (here a stack
// overflow, the browser's instance's cause of death in issue 10). They let
// the workerd suite check that the glue answers the request 500 and starts
// a fresh instance for the next one.
//
//	POST /__test/exit        the worker that receives it dies
//	POST /__test/exit-extra  the main worker (built without HCL) answers
//	                         needs-module, as it does for Terraform text, so
//	                         its glue forwards the request to the extra
//	                         worker, which dies
func init() {
	wrapHandler = func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				switch {
				case r.URL.Path == "/__test/exit",
					r.URL.Path == "/__test/exit-extra" && terraform.Supported:
					debug.SetMaxStack(1 << 20)
					recurse(0)
				case r.URL.Path == "/__test/exit-extra":
					b, _ := json.Marshal(playground.ErrorResponse{Error: &playground.Error{
						Code: playground.CodeNeedsModule, Message: "this test path runs in the extra worker"}})
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusInternalServerError)
					w.Write(b)
					return
				}
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
