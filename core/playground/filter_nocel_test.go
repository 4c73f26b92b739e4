//go:build nocel

package playground

import "testing"

func TestFilterWithoutEvaluator(t *testing.T) {
	r := filterCall(t, `{"filter": "-attributes:a", "messages": [{"attributes": {"a": "1"}}]}`)
	if !r.Valid || r.Evaluated || r.Canonical != "NOT attributes:a" || r.CEL != "" || len(r.Results) != 1 || r.Results[0].Reason != "" {
		t.Fatalf("%+v", r)
	}
	last := r.Diagnostics[len(r.Diagnostics)-1]
	if last.Code != "filter-evaluation-unavailable" {
		t.Errorf("want a note that this build does not evaluate, got %+v", r.Diagnostics)
	}
}
