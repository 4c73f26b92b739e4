//go:build !unix

package hostile

import "time"

// ProcessCPU is not measured here (js/wasm has no rusage): 0.
func ProcessCPU() time.Duration { return 0 }
