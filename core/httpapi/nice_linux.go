//go:build linux

package httpapi

import (
	"runtime"
	"syscall"
)

// lowerThisThread runs the rest of the calling goroutine on an OS thread
// of its own at priority nice n. The thread is never handed back to the
// runtime, so it ends with the goroutine, and its priority with it (an
// unprivileged process could not raise it again).
func lowerThisThread(n int) {
	runtime.LockOSThread()
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), n)
}
