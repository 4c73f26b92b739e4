//go:build unix

package hostile_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used: on a machine shared with
// other work it measures a call's cost where the wall clock measures the
// neighbours too.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
