//go:build !nocel

package pipeline

import (
	"github.com/subplay/subplay/core/filter"
	"github.com/subplay/subplay/core/filter/celfilter"
)

// filterVerdicts compiles the filter the pipeline applies to the messages
// the transforms produce.
func filterVerdicts(f *filter.Filter) (func([]map[string]string) ([]verdict, error), error) {
	prog, err := celfilter.Compile(f)
	if err != nil {
		return nil, err
	}
	return func(attrs []map[string]string) ([]verdict, error) {
		out := make([]verdict, len(attrs))
		for i, a := range attrs {
			r, err := prog.Explain(a)
			if err != nil {
				return nil, err
			}
			out[i] = verdict{match: r.Match, reason: r.Reason}
		}
		return out, nil
	}, nil
}
