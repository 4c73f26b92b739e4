//go:build !noudf

package transform

// ScaleDeadlines lets the differential test run its batch cases free of
// the machine's load; it returns a function that restores the bounds.
func ScaleDeadlines(k int) func() {
	old := deadlineScale
	deadlineScale = k
	return func() { deadlineScale = old }
}
