package subscription

import (
	"github.com/subplay/subplay/core/diag"
)

// immutable lists what an update cannot change (docs/decisions.md D5): the name and
// topic identify the subscription, and the filter and ordering are fixed at
// creation.
var immutable = []struct {
	path string
	get  func(*Subscription) string
	why  string
}{
	{"/name", func(s *Subscription) string { return deref(s.Name) }, "a subscription cannot be renamed; create a new one"},
	{"/topic", func(s *Subscription) string { return deref(s.Topic) }, "a subscription stays on its topic; create a new subscription on the other topic"},
	{"/filter", func(s *Subscription) string { return deref(s.Filter) }, "filters are fixed at creation; create a new subscription with the new filter"},
	{"/enableMessageOrdering", func(s *Subscription) string {
		if s.EnableMessageOrdering != nil && *s.EnableMessageOrdering {
			return "true"
		}
		return "false"
	}, "ordering is fixed at creation; create a new subscription"},
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// CheckUpdate reports the changes from old to c that an update would
// refuse. Findings point into c's text.
func (c *Config) CheckUpdate(old *Config) []diag.Diagnostic {
	if c.Sub == nil || old == nil || old.Sub == nil {
		return nil
	}
	var ds []diag.Diagnostic
	for _, f := range immutable {
		was, now := f.get(old.Sub), f.get(c.Sub)
		if was == now || c.reading.Judged != nil && !c.reading.Judged(f.path) {
			continue // or a value the text leaves unknown, or an update leaves as it stands
		}
		msg := label(f.path) + " changes from " + quoteOrNone(was) + " to " + quoteOrNone(now) + ", which an update cannot do"
		ds = append(ds, diag.Diagnostic{Severity: diag.Error, Code: "immutable-field", Path: f.path, Message: msg, Hint: f.why})
	}
	return c.locate(ds)
}

func quoteOrNone(s string) string {
	if s == "" {
		return "nothing"
	}
	return diag.Quote(s)
}
