//go:build nocel

package playground

// Filter checks a filter and prints it back. This build leaves cel-go out
// (the lean WebAssembly build for embeds), so the messages are decoded and
// checked but not run through the filter; the response says so.
func Filter(req *FilterRequest) (*FilterResponse, error) { return testFilter(req, nil) }

func init() {
	register("filter", "check a subscription filter and show its canonical form (this build does not evaluate it)", Filter)
}
