package celfilter

import (
	"testing"

	"github.com/subplay/subplay/core/filter"
)

// threeClauses is the filter the budgets are stated for.
const threeClauses = `attributes.name = "com" AND hasPrefix(attributes.lang, "e") AND NOT attributes:debug`

var benchAttrs = map[string]string{"name": "com", "lang": "en", "timezone": "UTC", "region": "eu"}

// BenchmarkCompile measures building, checking and planning the CEL program
// of a parsed filter, after the environment exists (target: < 100 µs).
func BenchmarkCompile(b *testing.B) {
	f, _ := filter.Parse(threeClauses)
	if _, err := Compile(f); err != nil { // builds the shared environment
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseAndCompile is what a keystroke in the filter editor costs.
func BenchmarkParseAndCompile(b *testing.B) {
	compile(b, threeClauses)
	b.ReportAllocs()
	for b.Loop() {
		f, _ := filter.Parse(threeClauses)
		if _, err := Compile(f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMatch measures one evaluation (target: >= 1M per second, so
// < 1 µs per op).
func BenchmarkMatch(b *testing.B) {
	p := compile(b, threeClauses)
	b.ReportAllocs()
	for b.Loop() {
		ok, err := p.Match(benchAttrs)
		if err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
}

// BenchmarkExplain measures an evaluation that records every node's value
// and works out the reason, as the filter tester does per message.
func BenchmarkExplain(b *testing.B) {
	p := compile(b, threeClauses)
	b.ReportAllocs()
	for b.Loop() {
		r, err := p.Explain(benchAttrs)
		if err != nil || !r.Match {
			b.Fatal(r, err)
		}
	}
}
