// Package jsengine runs JavaScript in QuickJS-ng, compiled to WebAssembly,
// with the bounds the engine itself enforces: a memory limit, a stack
// limit, and an interrupt callback that the host counts. The same
// WebAssembly binary (quickjs-ng.wasm) runs on every surface: natively
// under wazero (native.go, registered by this package), and in the browser
// and workerd in the host's own WebAssembly (wasm/quickjs, which an entry
// imports to register it: core never imports syscall/js), so that a
// verdict that depends on the engine is the same everywhere.
//
// The package knows nothing of Pub/Sub: it evaluates scripts and returns
// strings. core/transform holds the policy.
package jsengine

import (
	"encoding/json"
	"errors"
	"time"
)

// Limits are fixed when a Runtime opens.
type Limits struct {
	// MemoryBytes is the engine's memory limit (JS_SetMemoryLimit): an
	// allocation past it throws "out of memory".
	MemoryBytes int
	// StackBytes is the engine's stack limit (JS_SetMaxStackSize): a call
	// past it throws a RangeError the script can catch.
	StackBytes int
}

// Budget bounds one Eval.
type Budget struct {
	// Interrupts is how many times the engine may poll the host before the
	// host stops the script. QuickJS-ng polls after a fixed count of
	// function calls and backward jumps, so the count (not the time) is
	// what makes a verdict the same on every machine.
	Interrupts int
	// Deadline is a net under the count for work the engine does between
	// polls (a garbage collection near the memory limit, a built-in that
	// loops over a huge array-like without polling). Only hostile code
	// meets it; the finding then says the time ran out.
	Deadline time.Duration
	// Now is what Date.now() and new Date() return (local time is UTC).
	Now time.Time
	// Done, when not nil, stops the script at its next poll once closed:
	// the caller has gone (a context's Done). TestCancelled holds it.
	Done <-chan struct{}
}

// Stop says why a script was stopped from outside.
type Stop string

const (
	// StopNone: the script ran to its end or threw.
	StopNone Stop = ""
	// StopBudget: the interrupt count ran out.
	StopBudget Stop = "budget"
	// StopDeadline: the deadline passed.
	StopDeadline Stop = "deadline"
	// StopStack: the host's own stack ran out under the engine's frames
	// before the engine's stack limit was reached; the Runtime is closed.
	StopStack Stop = "stack"
	// StopCancelled: Done was closed.
	StopCancelled Stop = "cancelled"
	// StopHost: the host ended the engine (its own stack or memory, or the
	// deadline passed where the engine does not poll); the Runtime is
	// closed and the next Eval fails.
	StopHost Stop = "host"
)

// Exception is a value the script threw (or the engine's own error), as
// QuickJS-ng describes it.
type Exception struct {
	Name    string `json:"name"`
	Message string `json:"message"`
	Stack   string `json:"stack"`
	// Value is the thrown value's JSON text when it is not an Error.
	Value string `json:"-"`
}

// Result is what one Eval gave.
type Result struct {
	// Value is the completion value converted to a string.
	Value string
	// Exception is set when the script threw or was stopped.
	Exception *Exception
	// Interrupts is how many times the engine polled the host.
	Interrupts int
	// Stop says why the host stopped the script, if it did.
	Stop Stop
}

// Runtime is one QuickJS runtime and context in an engine instance of its
// own.
type Runtime interface {
	// Eval runs code as a global script and returns its completion value as
	// a string, or what it threw.
	Eval(code, filename string, b Budget) (Result, error)
	// Check compiles code as a global script without running it, and
	// returns the syntax error, if any.
	Check(code, filename string) (*Exception, error)
	// Close frees the runtime and its instance.
	Close()
	// MemoryBytes is the instance's memory size now.
	MemoryBytes() int
}

// host opens runtimes: native.go's under wazero, or the one an entry
// registers with SetHost.
var host func(Limits) (Runtime, error)

// SetHost registers how runtimes are opened where this package has no host
// of its own (js/wasm: wasm/quickjs).
func SetHost(open func(Limits) (Runtime, error)) { host = open }

// ErrNoHost is returned by Open in a build with no host registered.
var ErrNoHost = errors.New("jsengine: no host runs the engine in this build")

// Open starts an instance of the engine with one runtime and context.
func Open(l Limits) (Runtime, error) {
	if host == nil {
		return nil, ErrNoHost
	}
	return host(l)
}

// ErrClosed is returned by Eval on a Runtime that was closed, or that the
// host ended.
var ErrClosed = errors.New("jsengine: the runtime is closed")

// DecodeException reads the engine's dump of a thrown value: an object
// with name, message and stack for an Error, any JSON value otherwise.
func DecodeException(dump string) *Exception {
	var e Exception
	if err := json.Unmarshal([]byte(dump), &e); err == nil && (e.Name != "" || e.Message != "") {
		return &e
	}
	return &Exception{Value: dump}
}

// InstancePages is an instance's memory bound: the engine's limit, and
// room for the stack, the binary's data and the allocator's own use.
func InstancePages(l Limits) uint32 {
	if l.MemoryBytes <= 0 {
		return 32768
	}
	b := uint64(l.MemoryBytes) + uint64(l.StackBytes) + 16<<20
	return uint32(min((b+65535)/65536, 32768))
}

// The rules of the imports both hosts implement, written once.

// Poll is the interrupt handler's rule: after the n-th poll of a call that
// started at started, whether to stop it, and why.
func Poll(b Budget, n int, started time.Time) Stop {
	switch {
	case b.Interrupts > 0 && n > b.Interrupts:
		return StopBudget
	case b.Deadline > 0 && time.Since(started) > b.Deadline:
		return StopDeadline
	case b.Done != nil && closed(b.Done):
		return StopCancelled
	}
	return StopNone
}

func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// GrowPages is the heap-growth import's rule: how many 64 KiB pages to add
// to a memory of have bytes so that it holds want, at most limit bytes in
// all; ok is false when want is past limit. It grows by a fifth at least, as
// emscripten's own glue does, so that a heap growing a little at a time is
// not grown each time.
func GrowPages(want, have, limit uint64) (pages uint64, ok bool) {
	if want <= have {
		return 0, true
	}
	if want > limit {
		return 0, false
	}
	target := min(max(want, have+have/5), limit)
	return (target - have + 65535) / 65536, true
}

// TM is the C struct tm the localtime import writes for a Unix time: UTC,
// no daylight saving time, a zero offset; ten 32-bit words.
func TM(sec int64) [10]int32 {
	t := time.Unix(sec, 0).UTC()
	return [10]int32{int32(t.Second()), int32(t.Minute()), int32(t.Hour()), int32(t.Day()),
		int32(t.Month()) - 1, int32(t.Year() - 1900), int32(t.Weekday()), int32(t.YearDay() - 1), 0, 0}
}
