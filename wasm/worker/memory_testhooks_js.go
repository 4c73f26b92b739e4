//go:build js && wasm && subplay_testhooks

package main

import (
	"encoding/json"
	"net/http"
	"runtime"
	"strconv"
	"syscall/js"

	"github.com/subplay/subplay/wasm/worker/memstat"
)

// testMemory is a JavaScript global, so that what POST /__test/memory sets
// holds for the instances the isolate starts after this one too.
const testMemory = "subplayTestMemory"

var instance int

func init() {
	g := js.Global()
	s := g.Get(testMemory)
	if s.Type() != js.TypeObject {
		s = js.Global().Get("Object").New()
		s.Set("instances", 0)
		g.Set(testMemory, s)
	}
	instance = s.Get("instances").Int() + 1
	s.Set("instances", instance)
	if v := s.Get("limitMB"); v.Type() == js.TypeNumber {
		memoryLimitMB = int64(v.Int())
	}
	if v := s.Get("retireMB"); v.Type() == js.TypeNumber {
		retireMB = int64(v.Int())
	}
}

// serveMemoryHook answers
//
//	GET  /__test/memory                       the figures above
//	POST /__test/memory?limit=MB&retire=MB    sets the Go heap's soft limit and the retire
//	                                          bound (0: never) for this instance and the
//	                                          isolate's next ones; either may be left out
func serveMemoryHook(w http.ResponseWriter, r *http.Request) bool {
	if r.URL.Path != "/__test/memory" {
		return false
	}
	switch r.Method {
	case http.MethodGet:
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b, _ := json.Marshal(memstat.Stats{
			WasmBytes: wasmMemoryBytes(),
			HeapSys:   ms.HeapSys, HeapInuse: ms.HeapInuse, HeapReleased: ms.HeapReleased,
			Sys: ms.Sys, NumGC: ms.NumGC, Instance: instance, LimitMB: memoryLimitMB, RetireMB: retireMB,
		})
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	case http.MethodPost:
		s := js.Global().Get(testMemory)
		for _, p := range []struct {
			name, key string
			v         *int64
		}{{"limit", "limitMB", &memoryLimitMB}, {"retire", "retireMB", &retireMB}} {
			q := r.URL.Query().Get(p.name)
			if q == "" {
				continue
			}
			n, err := strconv.Atoi(q)
			if err != nil || n < 0 {
				http.Error(w, p.name+" must be a number of megabytes", http.StatusBadRequest)
				return true
			}
			*p.v = int64(n)
			s.Set(p.key, n)
		}
		setMemoryLimit()
		w.WriteHeader(http.StatusNoContent)
	default:
		return false
	}
	return true
}
