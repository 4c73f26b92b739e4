//go:build js

// Package quickjs is core/jsengine's host in js/wasm builds: the engine's
// binary in the host's own WebAssembly (the page's worker, workerd, Node),
// reached through syscall/js, which core does not import. An entry that
// runs UDFs on QuickJS-ng imports it for its effect: it registers itself.
package quickjs

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/subplay/subplay/core/jsengine"
)

func init() {
	jsengine.SetHost(func(l jsengine.Limits) (jsengine.Runtime, error) {
		r, err := open(l)
		if err != nil {
			return nil, err
		}
		return r, nil
	})
}

// In the browser and in workerd the binary runs in the host's own
// WebAssembly (V8's compiler), beside the Go core: Go instantiates it with
// imports written as Go callbacks and calls its exports through
// syscall/js. The imports do what native.go's do. A host that may not
// compile WebAssembly from bytes at run time (workerd) hands the compiled
// module over as globalThis.subplayQuickJS; elsewhere it is compiled from
// the embedded bytes, once.
//
// Two differences from native, both about what the host does and never
// about a verdict the engine gives: the deadline is checked at each
// interrupt poll only (the host cannot stop a call from outside; the page's
// loader ends a worker whose call outlasts its time-out), and the host's
// own stack is the host's (an overflow of it ends the instance: the call's
// finding says the engine was stopped, and the next call starts afresh).

var module struct {
	once sync.Once
	m    js.Value
	err  error
}

func compiled() (js.Value, error) {
	module.once.Do(func() {
		if err := jsengine.CheckBinary(); err != nil {
			module.err = err
			return
		}
		g := js.Global()
		if m := g.Get("subplayQuickJS"); m.Truthy() {
			module.m = m
			return
		}
		defer func() {
			if e := recover(); e != nil {
				module.err = fmt.Errorf("jsengine: compiling quickjs-ng: %v", e)
			}
		}()
		buf := g.Get("Uint8Array").New(len(jsengine.Wasm()))
		js.CopyBytesToJS(buf, jsengine.Wasm())
		module.m = g.Get("WebAssembly").Get("Module").New(buf)
	})
	return module.m, module.err
}

// instanceState is what the imports of one instance read and write.
type instanceState struct {
	budget     jsengine.Budget
	interrupts int
	started    time.Time
	stop       jsengine.Stop
	maxPages   uint32
}

// runtime is one QuickJS runtime and context in an instance of its own.
type runtime struct {
	exports js.Value
	memory  js.Value
	funcs   []js.Func
	state   *instanceState
	rt, cx  int
	closed  bool
}

// open starts an instance of the engine with one runtime and context.
func open(l jsengine.Limits) (r *runtime, err error) {
	m, err := compiled()
	if err != nil {
		return nil, err
	}
	g := js.Global()
	wa := g.Get("WebAssembly")
	r = &runtime{state: &instanceState{maxPages: jsengine.InstancePages(l)}}
	defer func() {
		if e := recover(); e != nil {
			r.release()
			r, err = nil, fmt.Errorf("jsengine: starting quickjs-ng: %v", e)
		}
	}()
	desc := map[string]any{"initial": 256, "maximum": int(r.state.maxPages)}
	r.memory = wa.Get("Memory").New(desc)
	imports := map[string]any{"a": r.memory}
	for name, f := range r.imports() {
		fn := js.FuncOf(guard(r.state, f))
		r.funcs = append(r.funcs, fn)
		imports[name] = fn
	}
	inst := wa.Get("Instance").New(m, map[string]any{jsengine.ImportModule: imports})
	r.exports = inst.Get("exports")
	r.call(jsengine.ExportCtors)
	r.rt = r.call(jsengine.ExportNewRuntime)
	if l.MemoryBytes > 0 {
		r.call(jsengine.ExportSetMemoryLimit, r.rt, l.MemoryBytes)
	}
	if l.StackBytes > 0 {
		r.call(jsengine.ExportSetMaxStack, r.rt, l.StackBytes)
	}
	r.call(jsengine.ExportEnableInterrupt, r.rt)
	r.cx = r.call(jsengine.ExportNewContext, r.rt, 0)
	if r.cx == 0 {
		panic("no context")
	}
	return r, nil
}

func (r *runtime) call(name string, args ...any) int {
	v := r.exports.Call(name, args...)
	if v.Type() == js.TypeNumber {
		return v.Int()
	}
	return 0
}

func (r *runtime) bytes() js.Value {
	return js.Global().Get("Uint8Array").New(r.memory.Get("buffer"))
}

func (r *runtime) view() js.Value {
	return js.Global().Get("DataView").New(r.memory.Get("buffer"))
}

func (r *runtime) imports() map[string]func(js.Value, []js.Value) any {
	st := r.state
	ret := func(v any) func(js.Value, []js.Value) any {
		return func(js.Value, []js.Value) any { return v }
	}
	abort := func(js.Value, []js.Value) any {
		// The C code after an abort is unreachable: the instance traps, and
		// Eval reports the engine stopped.
		st.stop = jsengine.StopHost
		return nil
	}
	// An i64 parameter arrives as a BigInt, which js.Value.Type does not
	// know: Number converts either.
	num := func(v js.Value) float64 {
		return js.Global().Get("Number").Invoke(v).Float()
	}
	return map[string]func(js.Value, []js.Value) any{
		"b": abort, "r": abort, "s": abort,
		"c": func(_ js.Value, a []js.Value) any {
			dv := r.view()
			iov, n, out := a[1].Int(), a[2].Int(), a[3].Int()
			total := 0
			for k := 0; k < n; k++ {
				total += dv.Call("getUint32", iov+8*k+4, true).Int()
			}
			dv.Call("setUint32", out, total, true)
			return 0
		},
		"d": ret(52), "o": ret(70), "e": ret(0),
		"f": func(_ js.Value, a []js.Value) any {
			dv := r.view()
			dv.Call("setUint32", a[0].Int(), 0, true)
			dv.Call("setUint32", a[1].Int(), 0, true)
			return 0
		},
		"g": ret(0), "h": ret(0),
		"i": func(js.Value, []js.Value) any {
			st.interrupts++
			if st.stop = jsengine.Poll(st.budget, st.interrupts, st.started); st.stop == jsengine.StopNone {
				return 0
			}
			return 1
		},
		"j": ret(0),
		"k": func(_ js.Value, a []js.Value) any {
			want := uint64(uint32(a[0].Int()))
			have := uint64(r.memory.Get("buffer").Get("byteLength").Int())
			pages, ok := jsengine.GrowPages(want, have, uint64(st.maxPages)*65536)
			if !ok {
				return 0
			}
			if pages > 0 {
				// Within the memory's maximum: GrowPages keeps to it.
				r.memory.Call("grow", pages)
			}
			return 1
		},
		"l": ret(nil),
		"m": func(_ js.Value, a []js.Value) any {
			ptr := a[1].Int()
			dv := r.view()
			for k, v := range jsengine.TM(int64(num(a[0]))) {
				dv.Call("setInt32", ptr+4*k, int(v), true)
			}
			return nil
		},
		"n": func(_ js.Value, a []js.Value) any {
			dv := r.view()
			dv.Call("setUint32", a[0].Int(), 0, true)
			dv.Call("setUint32", a[1].Int(), 0, true)
			u8 := r.bytes()
			for _, p := range []int{a[2].Int(), a[3].Int()} {
				js.CopyBytesToJS(u8.Call("subarray", p, p+4), []byte("UTC\x00"))
			}
			return nil
		},
		"p": func(js.Value, []js.Value) any {
			return float64(nowOf(st).UnixMilli())
		},
		"q": func(_ js.Value, a []js.Value) any {
			if a[0].Int() > 3 {
				return 28 // EINVAL
			}
			ns := uint64(nowOf(st).UnixNano())
			dv := r.view()
			ptr := a[2].Int()
			dv.Call("setUint32", ptr, uint32(ns), true)
			dv.Call("setUint32", ptr+4, uint32(ns>>32), true)
			return 0
		},
		"t": ret(0), "u": ret(nil),
	}
}

// guard keeps a Go panic inside an import from unwinding through the
// engine's frames, which syscall/js cannot do: the import returns 0 and the
// call is reported as stopped by the host.
func guard(st *instanceState, f func(js.Value, []js.Value) any) func(js.Value, []js.Value) any {
	return func(this js.Value, args []js.Value) (out any) {
		defer func() {
			if e := recover(); e != nil {
				st.stop = jsengine.StopHost
				out = 0
			}
		}()
		return f(this, args)
	}
}

func nowOf(st *instanceState) time.Time {
	if !st.budget.Now.IsZero() {
		return st.budget.Now
	}
	return time.Unix(0, 0)
}

// Eval runs code as a global script and returns its completion value as a
// string, or what it threw.
func (r *runtime) Eval(code, filename string, b jsengine.Budget) (jsengine.Result, error) {
	return r.eval(code, filename, 0, b)
}

// Check compiles code as a global script without running it, and returns
// the syntax error, if any.
func (r *runtime) Check(code, filename string) (*jsengine.Exception, error) {
	res, err := r.eval(code, filename, jsengine.EvalCompileOnly, jsengine.Budget{Interrupts: 1})
	return res.Exception, err
}

func (r *runtime) eval(code, filename string, flags int, b jsengine.Budget) (res jsengine.Result, err error) {
	if r.closed {
		return jsengine.Result{}, jsengine.ErrClosed
	}
	st := r.state
	st.budget, st.interrupts, st.stop, st.started = b, 0, jsengine.StopNone, time.Now()
	defer func() {
		res.Interrupts = st.interrupts
		if e := recover(); e != nil {
			// The instance trapped (an abort), or the host's own stack ran
			// out: it is gone.
			r.release()
			if st.stop == jsengine.StopNone || st.stop == jsengine.StopDeadline {
				st.stop = jsengine.StopHost
				if strings.Contains(fmt.Sprint(e), "Maximum call stack size exceeded") {
					st.stop = jsengine.StopStack
				}
			}
			res = jsengine.Result{Stop: st.stop, Interrupts: st.interrupts, Exception: &jsengine.Exception{Name: "InternalError", Message: "the engine was stopped"}}
			err = nil
		}
	}()
	codePtr := r.cstring(code)
	defer r.call(jsengine.ExportFree, codePtr)
	filePtr := r.cstring(filename)
	defer r.call(jsengine.ExportFree, filePtr)
	val := r.call(jsengine.ExportEval, r.cx, codePtr, len(code), filePtr, 0, flags)
	if val == 0 {
		return res, errors.New("jsengine: eval gave no value")
	}
	defer r.call(jsengine.ExportFreeValue, r.cx, val)
	if exc := r.call(jsengine.ExportResolveExc, r.cx, val); exc != 0 {
		defer r.call(jsengine.ExportFreeValue, r.cx, exc)
		return jsengine.Result{Exception: jsengine.DecodeException(r.takeString(jsengine.ExportDump, exc)), Stop: st.stop}, nil
	}
	if flags&jsengine.EvalCompileOnly != 0 {
		return jsengine.Result{}, nil
	}
	return jsengine.Result{Value: r.takeString(jsengine.ExportGetString, val)}, nil
}

// cstring copies s into the instance's memory, NUL-terminated.
func (r *runtime) cstring(s string) int {
	p := r.call(jsengine.ExportMalloc, len(s)+1)
	if p == 0 {
		panic("out of memory for the script")
	}
	b := make([]byte, len(s)+1)
	copy(b, s)
	js.CopyBytesToJS(r.bytes().Call("subarray", p, p+len(b)), b)
	return p
}

// takeString calls fn (GetString or Dump) on a value and reads, then frees,
// the C string it returns.
func (r *runtime) takeString(fn string, val int) string {
	p := r.call(fn, r.cx, val)
	if p == 0 {
		panic("no string (out of memory)")
	}
	defer r.call(jsengine.ExportFreeCString, r.cx, p)
	u8 := r.bytes()
	end := u8.Call("indexOf", 0, p).Int()
	if end < p {
		panic("unterminated string")
	}
	b := make([]byte, end-p)
	js.CopyBytesToGo(b, u8.Call("subarray", p, end))
	return string(b)
}

func (r *runtime) release() {
	r.closed = true
	for _, f := range r.funcs {
		f.Release()
	}
	r.funcs = nil
	r.exports = js.Undefined()
	r.memory = js.Undefined()
}

// Close frees the runtime and its instance (the host's collector takes
// the instance and its memory).
func (r *runtime) Close() {
	if !r.closed {
		r.release()
	}
}

// MemoryBytes is the instance's memory size now (what the engine grew to).
func (r *runtime) MemoryBytes() int {
	if r.closed {
		return 0
	}
	return r.memory.Get("buffer").Get("byteLength").Int()
}
