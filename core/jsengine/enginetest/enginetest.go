// Package enginetest is the behaviour every host of core/jsengine must
// have, as a test both hosts run: core/jsengine's (wazero) and
// wasm/quickjs's (the host's own WebAssembly, under js/wasm).
package enginetest

import (
	"strings"
	"testing"
	"time"

	"github.com/subplay/subplay/core/jsengine"
)

func open(t *testing.T) jsengine.Runtime {
	t.Helper()
	r, err := jsengine.Open(jsengine.Limits{MemoryBytes: 64 << 20, StackBytes: 256 << 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// Eval holds the registered host to the engine's behaviour: values,
// the clock and the zone, throws, syntax errors, and each bound stopping
// what it is for, with the instance's memory within its bound.
func Eval(t *testing.T) {
	b := jsengine.Budget{Interrupts: 2000, Deadline: 2 * time.Second, Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	for _, c := range []struct{ name, code, want, exc string }{
		{"sum", "1+2", "3", ""},
		{"date", "new Date().toISOString()", "2026-01-02T03:04:05.000Z", ""},
		{"now", "Date.now()", "1767323045000", ""},
		{"local", "new Date(0).getHours() + ':' + new Date(0).getTimezoneOffset()", "0:0", ""},
		{"throw", "throw new TypeError('x')", "", "TypeError"},
		{"syntax", "let = ;", "", "SyntaxError"},
		{"loop", "while(true){}", "", "InternalError"},
		{"regexp", "/(a+)+$/.test('a'.repeat(40)+'b')", "", "InternalError"},
		{"recursion", "function f(n){return 1+f(n+1)}; f(0)", "", "RangeError"},
		{"alloc", "let a=[]; while(true) a.push('x'.repeat(1000))", "", "InternalError"},
		{"thousands", "'1234567'.replace(/\\B(?=(\\d{3})+(?!\\d))/g, ',')", "1,234,567", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := open(t)
			start := time.Now()
			res, err := r.Eval(c.code, "udf.js", b)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%v interrupts=%d stop=%q mem=%dMB exc=%+v", time.Since(start), res.Interrupts, res.Stop, r.MemoryBytes()>>20, res.Exception)
			// The instance's memory, outside the Go heap natively, stays
			// within the bound its limits give it, whatever the script does.
			if max := int(jsengine.InstancePages(jsengine.Limits{MemoryBytes: 64 << 20, StackBytes: 256 << 10})) * 65536; r.MemoryBytes() > max {
				t.Errorf("the instance grew to %d bytes, past its bound of %d", r.MemoryBytes(), max)
			}
			if c.exc == "" {
				if res.Exception != nil || res.Value != c.want {
					t.Fatalf("got %q %+v, want %q", res.Value, res.Exception, c.want)
				}
				return
			}
			if res.Exception == nil || !strings.Contains(res.Exception.Name, c.exc) {
				t.Fatalf("got %q %+v, want %s", res.Value, res.Exception, c.exc)
			}
		})
	}
}

// Cancelled holds the host to Budget.Done: an endless loop whose caller
// has gone stops at its next poll, long before its count or deadline.
func Cancelled(t *testing.T) {
	r := open(t)
	done := make(chan struct{})
	close(done)
	b := jsengine.Budget{Interrupts: 1 << 30, Deadline: time.Minute, Done: done}
	start := time.Now()
	res, err := r.Eval("while(true){}", "udf.js", b)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stop != jsengine.StopCancelled || res.Interrupts > 1 {
		t.Fatalf("stop %q after %d polls, want %q at the first", res.Stop, res.Interrupts, jsengine.StopCancelled)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
}
