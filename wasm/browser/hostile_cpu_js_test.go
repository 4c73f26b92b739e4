//go:build js && wasm

package main

import (
	"syscall/js"
	"time"
)

// nodeCPU reads the CPU time Node's process has used (user and system,
// every thread), and false where there is no Node (a browser).
func nodeCPU() (time.Duration, bool) {
	p := js.Global().Get("process")
	if p.Type() != js.TypeObject || p.Get("cpuUsage").Type() != js.TypeFunction {
		return 0, false
	}
	u := p.Call("cpuUsage")
	return time.Duration(u.Get("user").Float()+u.Get("system").Float()) * time.Microsecond, true
}

// settleTime is how long BenchmarkHostile leaves the instance idle after
// the ordinary requests, before the first hostile one (see there).
const settleTime = time.Second
