//go:build !nocel

package playground

import (
	"strings"
	"testing"
)

func TestFilterEvaluates(t *testing.T) {
	r := filterCall(t, `{"filter": "attributes.name = \"com\" AND -attributes:\"lang\"", "messages": [
		{"attributes": {"lang": "en", "name": "com"}},
		{"attributes": {"name": "com", "timezone": "UTC"}},
		{"text": "no attributes"}
	]}`)
	if !r.Valid || !r.Evaluated {
		t.Fatalf("%+v", r)
	}
	if r.Canonical != `attributes.name = "com" AND NOT attributes:lang` {
		t.Errorf("canonical %q", r.Canonical)
	}
	if r.CEL != `has(attributes.name) && attributes.name == "com" && !has(attributes.lang)` {
		t.Errorf("cel %q", r.CEL)
	}
	if r.Delivered != 1 || r.Acked != 2 {
		t.Errorf("delivered %d acked %d", r.Delivered, r.Acked)
	}
	want := []struct {
		match  bool
		reason string
		cols   []int // column of each deciding condition in the filter
	}{
		{false, `NOT attributes:lang is false ("lang" is "en")`, []int{29}},
		{true, `attributes.name = "com" is true ("name" is "com"); NOT attributes:lang is true (no "lang" attribute)`, []int{1, 29}},
		{false, `attributes.name = "com" is false (no "name" attribute)`, []int{1}},
	}
	for i, w := range want {
		res := r.Results[i]
		var cols []int
		for _, d := range res.Deciding {
			cols = append(cols, d.Column)
		}
		if res.Match == nil || *res.Match != w.match || res.Reason != w.reason || !equalInts(cols, w.cols) {
			t.Errorf("message %d: %v %q %v\nwant %v %q %v", i, res.Outcome, res.Reason, cols, w.match, w.reason, w.cols)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestFilterDecidingInConfig(t *testing.T) {
	// The deciding condition is located like the diagnostics: in the
	// configuration's text.
	r := filterCall(t, `{"text": "topic: projects/p/topics/t\nfilter: attributes:a OR attributes:b\n", "messages": [{"attributes": {"b": "1"}}]}`)
	d := r.Results[0].Deciding
	if r.Results[0].Outcome != "delivered" || len(d) != 1 || d[0].Condition != "attributes:b" || d[0].Line != 2 || d[0].Column != 25 || d[0].EndColumn != 37 {
		t.Errorf("deciding %+v", d)
	}
}

func TestFilterEmptyDeliversAll(t *testing.T) {
	r := filterCall(t, `{"filter": "", "messages": [{"text": "a"}, {"attributes": {"k": "v"}}]}`)
	if !r.Valid || r.CEL != "true" || r.Delivered != 2 || !strings.Contains(r.Results[0].Reason, "no filter") {
		t.Errorf("%+v", r)
	}
}
