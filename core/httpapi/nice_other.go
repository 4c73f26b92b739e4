//go:build !linux

package httpapi

// lowerThisThread does nothing where subplay sets no thread's priority.
func lowerThisThread(int) {}
