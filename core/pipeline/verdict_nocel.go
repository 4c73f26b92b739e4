//go:build nocel

package pipeline

import "github.com/subplay/subplay/core/filter"

// filterVerdicts: this build has no filter evaluator, and a preview
// without the filter's verdict would be a different answer.
func filterVerdicts(*filter.Filter) (func([]map[string]string) ([]verdict, error), error) {
	return nil, ErrNoFilter
}
