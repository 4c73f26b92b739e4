//go:build !noudf && !quickjs

package transform

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/message"
)

// withCache runs f with the cache on or off, empty at the start.
func withCache(on bool, f func()) {
	cache.Lock()
	saved, off := cache.entries, cache.off
	cache.entries, cache.bytes, cache.off = nil, 0, !on
	cache.Unlock()
	defer func() {
		cache.Lock()
		cache.entries, cache.off = saved, off
		cache.bytes = 0
		for _, e := range saved {
			cache.bytes += len(e.key)
		}
		cache.Unlock()
	}()
	f()
}

// A UDF from the cache gives what compiling it gives: the same findings
// at the same places, and the same steps on every message (top-level state,
// the clock and the random sequence included).
func TestCacheSameResults(t *testing.T) {
	msgs := []message.Message{sample, {Data: []byte("x"), PublishTime: "2026-01-02T03:04:05Z"}, {Data: []byte(`{"a":1}`)}}
	codes := map[string]string{
		"redact":             redact,
		"state and clock":    "var n = 0, t0 = Date.now(), r = Math.random();\nfunction f(m) { n++; return {data: [n, t0, r, Math.random(), Date.now()].join(' ')} }",
		"syntax error":       "function f(m) {\n  return {data: m.data +};\n}",
		"missing function":   "function g(m) { return m }",
		"top-level throw":    "var x = 1;\nthrow new Error('early');\nfunction f(m) { return m }",
		"refused literal":    "function f(m) { return /a(?=b)/.test(m.data) ? null : m }",
		"steps at top level": "var s = 0; for (var i = 0; i < 3000; i++) s += i;\nfunction f(m) { for (var i = 0; i < 3000; i++) {} return {data: String(s)} }",
		"failing call":       "function f(m) {\n  return m.nothing.x;\n}",
		"endless top level":  "for (;;) {}\nfunction f(m) { return m }",
	}
	for name, code := range codes {
		t.Run(name, func(t *testing.T) {
			udfs := []UDF{{FunctionName: "f", Code: code}, {FunctionName: "f", Code: code}}
			opts := Options{Now: time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)}
			run := func() ([][]Step, any, int) {
				p, err := Compile(udfs, opts)
				if err != nil {
					t.Fatal(err)
				}
				var out [][]Step
				for _, m := range msgs {
					out = append(out, p.Run(m))
				}
				return out, p.Diagnostics, p.steps
			}
			var coldSteps, warmSteps [][]Step
			var coldDiags, warmDiags any
			var coldN, warmN int
			withCache(false, func() { coldSteps, coldDiags, coldN = run() })
			withCache(true, func() {
				run() // fills the cache
				warmSteps, warmDiags, warmN = run()
			})
			if !reflect.DeepEqual(coldDiags, warmDiags) {
				t.Errorf("compile findings differ:\ncold %v\nwarm %v", coldDiags, warmDiags)
			}
			if !reflect.DeepEqual(coldSteps, warmSteps) {
				t.Errorf("steps differ:\ncold %+v\nwarm %+v", coldSteps, warmSteps)
			}
			if coldN != warmN {
				t.Errorf("%d steps counted cold, %d warm", coldN, warmN)
			}
		})
	}
}

// Compiling unchanged code again makes no runtime; a result a budget cut
// short is not kept; the cache stays within its bounds.
func TestCacheHits(t *testing.T) {
	withCache(true, func() {
		u := []UDF{{FunctionName: "f", Code: redact}}
		Compile(u, Options{})
		hits := cache.hits
		p, _ := Compile(u, Options{})
		if cache.hits != hits+1 || p.udfs[0].vm != nil || !p.udfs[0].lazy {
			t.Errorf("second compile: %d hits (want %d), runtime made %v", cache.hits, hits+1, p.udfs[0].vm != nil)
		}
		if p, _ := Compile(u, Options{Now: time.Unix(1, 0)}); p.udfs[0].lazy {
			t.Error("another clock hit the cache")
		}
		Compile([]UDF{{FunctionName: "f", Code: "for (;;) {}\nfunction f(m) { return m }"}}, Options{})
		for _, e := range cache.entries {
			if len(e.diags) > 0 && e.diags[0].Code == "udf-budget" {
				t.Error("a stopped top level was cached")
			}
		}
		for i := range limits.UDFCacheEntries + 5 {
			Compile([]UDF{{FunctionName: "f", Code: fmt.Sprintf("function f(m) { return m } // %d", i)}}, Options{})
		}
		if len(cache.entries) > limits.UDFCacheEntries || cache.bytes > limits.UDFCacheBytes {
			t.Errorf("%d entries, %d bytes", len(cache.entries), cache.bytes)
		}
	})
}
