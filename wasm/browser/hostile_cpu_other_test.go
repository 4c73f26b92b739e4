//go:build !(js && wasm)

package main

import "time"

// nodeCPU is false natively: hostile.Measure reads the process's CPU time
// itself there.
func nodeCPU() (time.Duration, bool) { return 0, false }

// settleTime is 0 natively: no code is compiled while it runs.
const settleTime = 0
