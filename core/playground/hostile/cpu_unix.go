//go:build unix

package hostile

import (
	"syscall"
	"time"
)

// ProcessCPU is the process's user and system CPU time so far.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
