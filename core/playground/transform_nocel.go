//go:build nocel

package playground

import "github.com/subplay/subplay/core/filter"

// transformFilter: this build has no filter evaluator, and a preview
// without the filter's verdict would be a different answer.
func transformFilter(*filter.Filter) (func([]map[string]string) ([]filterVerdict, error), error) {
	return nil, needsModule("this build cannot run the configuration's filter on the transformed messages (built with nocel); a build with cel must answer this request", NeedsCEL)
}
