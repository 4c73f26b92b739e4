//go:build js && wasm && subplay_testhooks

package main

import (
	"context"
	"encoding/json"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync"
	"syscall/js"

	"github.com/subplay/subplay/core/playground"
	"github.com/subplay/subplay/core/terraform"
)

// With the subplay_testhooks tag (scripts/test-edge's test bundles, never
// deployed ones) the worker answers two more paths by ending its Go
// program the way a real failure does: a fatal runtime error (here a stack
// overflow, the usual way a browser's instance died of hostile input). They let
// the workerd suite check that the glue answers the request 500 and starts
// a fresh instance for the next one.
//
//	POST /__test/exit        the worker that receives it dies
//	POST /__test/exit-extra  the main worker (built without HCL) answers
//	                         needs-module, as it does for Terraform text, so
//	                         its glue forwards the request to the extra
//	                         worker, which dies
//
// And a few that let the workerd suite (TestWorkerdPause) watch long calls
// pause (pause_js.go), answered by the worker that receives them:
//
//	GET  /__test/pauses           the pauser's counts (pauseStats) as JSON
//	POST /__test/hold             the next pause of any call, once the event
//	                              loop has run, goes on pausing until
//	                              /__test/release or until that call is
//	                              cancelled
//	POST /__test/release          ends the hold
//	POST /__test/pause-every?n=N  pauses every N looks from now on (to
//	                              measure a pause); without n, every
//	                              PauseEvery looks, the deployed interval
//
// And GET /__test/memory, the Go instance's WebAssembly memory and heap
// figures (memory_testhooks_js.go), for edgebench cost.
//
// And POST /__test/keep, which leaves a Go function in a JavaScript global
// (subplayTestKept) for good: what any function Go hands out and the
// isolate keeps after the instance is retired (an abort listener on a
// request's signal, say) does, for TestWorkerdRetiredFreed.
func init() {
	testHold = holdPause
	wrapHandler = func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if servePauseHooks(w, r) || serveMemoryHook(w, r) {
				return
			}
			if r.Method == http.MethodPost {
				switch {
				case r.URL.Path == "/__test/keep":
					js.Global().Set("subplayTestKept", js.FuncOf(func(js.Value, []js.Value) any { return nil }))
					w.WriteHeader(http.StatusNoContent)
					return
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

// pauseStats is the answer of /__test/pauses.
type pauseStats struct {
	Calls      int `json:"calls"`      // calls answered
	Running    int `json:"running"`    // calls inside Go now, besides the one asking
	Paused     int `json:"paused"`     // calls blocked in a pause now
	Held       int `json:"held"`       // calls blocked by /__test/hold now
	Cancelled  int `json:"cancelled"`  // calls answered "cancelled"
	Pauses     int `json:"pauses"`     // pauses of all calls
	LastPauses int `json:"lastPauses"` // pauses of the last call that paused
}

var hold struct {
	sync.Mutex
	armed   bool
	held    int
	release chan struct{}
}

func holdPause(ctx context.Context) {
	hold.Lock()
	if !hold.armed {
		hold.Unlock()
		return
	}
	hold.armed = false
	hold.held++
	release := hold.release
	hold.Unlock()
	// Pausing, not blocked on release alone: workerd ends a request that
	// waits for nothing of its own as hung.
	for ctx.Err() == nil {
		select {
		case <-release:
		default:
			thePauser.wait(ctx, nil) // no work of the call: not counted in its state
			continue
		}
		break
	}
	hold.Lock()
	hold.held--
	hold.Unlock()
}

func servePauseHooks(w http.ResponseWriter, r *http.Request) bool {
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/__test/pauses":
		stats.mu.Lock()
		s := pauseStats{Calls: stats.calls, Running: stats.running - 1, Paused: stats.paused,
			Cancelled: stats.cancelled, Pauses: stats.pauses, LastPauses: stats.lastPauses}
		stats.mu.Unlock()
		hold.Lock()
		s.Held = hold.held
		hold.Unlock()
		b, _ := json.Marshal(s)
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	case r.Method == http.MethodPost && r.URL.Path == "/__test/hold":
		hold.Lock()
		hold.armed = true
		if hold.release == nil {
			hold.release = make(chan struct{})
		}
		hold.Unlock()
		w.WriteHeader(http.StatusNoContent)
	case r.Method == http.MethodPost && r.URL.Path == "/__test/release":
		hold.Lock()
		hold.armed = false
		if hold.release != nil {
			close(hold.release)
			hold.release = nil
		}
		hold.Unlock()
		w.WriteHeader(http.StatusNoContent)
	case r.Method == http.MethodPost && r.URL.Path == "/__test/pause-every":
		n, err := PauseEvery, error(nil)
		if q := r.URL.Query().Get("n"); q != "" {
			n, err = strconv.Atoi(q)
		}
		if err != nil || n < 1 || thePauser == nil {
			http.Error(w, "n must be a positive number of looks", http.StatusBadRequest)
			return true
		}
		thePauser.every = n
		w.WriteHeader(http.StatusNoContent)
	default:
		return false
	}
	return true
}
