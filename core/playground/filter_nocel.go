//go:build nocel

package playground

import "context"

// Filter checks a filter and prints it back. This build leaves cel-go out
// (the lean WebAssembly build for embeds), so the messages are decoded and
// checked but not run through the filter; the response says so.
func Filter(req *FilterRequest) (*FilterResponse, error) {
	return FilterContext(context.Background(), req)
}

// FilterContext is Filter that stops, with ctx's error, once ctx is done.
func FilterContext(ctx context.Context, req *FilterRequest) (*FilterResponse, error) {
	return testFilter(ctx, req, nil)
}

func init() {
	registerContext("filter", "check a subscription filter and show its canonical form (this build does not evaluate it)", FilterContext)
}
