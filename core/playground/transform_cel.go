//go:build !nocel

package playground

import (
	"github.com/subplay/subplay/core/filter"
	"github.com/subplay/subplay/core/filter/celfilter"
)

// transformFilter compiles the filter the transform preview applies to
// the messages the transforms produce.
func transformFilter(f *filter.Filter) (func([]map[string]string) ([]filterVerdict, error), error) {
	prog, err := celfilter.Compile(f)
	if err != nil {
		return nil, &Error{Code: "internal", Message: err.Error()}
	}
	return func(attrs []map[string]string) ([]filterVerdict, error) {
		out := make([]filterVerdict, len(attrs))
		for i, a := range attrs {
			r, err := prog.Explain(a)
			if err != nil {
				return nil, &Error{Code: "internal", Message: err.Error()}
			}
			out[i] = filterVerdict{match: r.Match, reason: r.Reason}
		}
		return out, nil
	}, nil
}
