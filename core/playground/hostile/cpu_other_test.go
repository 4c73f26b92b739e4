//go:build !unix

package hostile_test

import "time"

var wallStart = time.Now()

// cpuTime falls back to the wall clock where the process's CPU time is not
// known (js/wasm).
func cpuTime() time.Duration { return time.Since(wallStart) }
