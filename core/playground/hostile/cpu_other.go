//go:build !unix

package hostile

import "time"

// processCPU is not measured here (js/wasm has no rusage): 0.
func processCPU() time.Duration { return 0 }
