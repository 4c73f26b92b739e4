package celfilter

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/google/cel-go/common/types"

	"github.com/subplay/subplay/core/filter"
)

// matchCEL is Match through cel-go's interpreter: the reference the direct
// matcher is held to.
func (p *Program) matchCEL(attrs map[string]string) (bool, error) {
	out, _, err := eval(p.prog, attrs)
	if err != nil {
		return false, fmt.Errorf("celfilter: evaluating: %w", err)
	}
	v, ok := out.(types.Bool)
	if !ok {
		return false, fmt.Errorf("celfilter: the program returned %v, not a bool", out)
	}
	return bool(v), nil
}

// agree fails t when the direct matcher and the CEL program disagree on a.
func agree(t *testing.T, p *Program, a map[string]string) bool {
	t.Helper()
	want, err := p.matchCEL(a)
	if err != nil {
		t.Fatalf("%q on %q: CEL: %v", p.Filter().Text, a, err)
	}
	got, err := p.Match(a)
	if err != nil || got != want {
		t.Fatalf("%q on %q: direct matcher says %v (%v), CEL %v", p.Filter().Text, a, got, err, want)
	}
	return got
}

func TestDirectMatch(t *testing.T) {
	cases := []struct {
		name, filter string
		attrs        map[string]string
		want         bool
	}{
		{"empty filter delivers all", ``, nil, true},
		{"has, present", `attributes:a`, map[string]string{"a": ""}, true},
		{"has, absent", `attributes:a`, map[string]string{"b": "a"}, false},
		{"equal", `attributes.a = "x"`, map[string]string{"a": "x"}, true},
		{"equal, absent", `attributes.a = ""`, nil, false},
		{"equal, empty value", `attributes.a = ""`, map[string]string{"a": ""}, true},
		{"not equal, absent is true (D10)", `attributes.a != "x"`, nil, true},
		{"not equal, same", `attributes.a != "x"`, map[string]string{"a": "x"}, false},
		{"prefix", `hasPrefix(attributes.a, "ab")`, map[string]string{"a": "abc"}, true},
		{"prefix, shorter value", `hasPrefix(attributes.a, "abc")`, map[string]string{"a": "ab"}, false},
		{"empty prefix, absent", `hasPrefix(attributes.a, "")`, nil, false},
		{"prefix on bytes, not runes", `hasPrefix(attributes.a, "\u00e9")`, map[string]string{"a": "\xc3\xa9x"}, true},
		{"not", `NOT attributes:a`, nil, true},
		{"minus", `-attributes:a`, map[string]string{"a": "1"}, false},
		{"and", `attributes:a AND attributes:b`, map[string]string{"a": "1"}, false},
		{"or", `attributes:a OR attributes:b`, map[string]string{"b": "1"}, true},
		{"reserved and quoted keys", `attributes:"null" AND attributes."with space" = "v" AND attributes."みんな" != "x"`,
			map[string]string{"null": "", "with space": "v"}, true},
		{"three clauses", threeClauses, benchAttrs, true},
		{"three clauses, debug set", threeClauses, map[string]string{"name": "com", "lang": "en", "debug": ""}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := agree(t, compile(t, c.filter), c.attrs); got != c.want {
				t.Errorf("%q on %v: %v, want %v", c.filter, c.attrs, got, c.want)
			}
		})
	}
}

// TestPropertyDirectAgreesWithCEL runs random filters (the generator of
// property_test.go) on random messages, with values that are prefixes of
// one another and keys both present and absent, through both evaluators.
func TestPropertyDirectAgreesWithCEL(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 3000
	if runtime.GOARCH == "wasm" {
		n = 300
	}
	for tested := 0; tested < n; {
		g := randGen(r, 5)
		var b strings.Builder
		g.write(r, &b, false)
		if b.Len() > filter.MaxBytes {
			continue
		}
		tested++
		p := compile(t, b.String())
		for range 16 {
			a := randAttrs(r)
			if got := agree(t, p, a); got != g.eval(a) {
				t.Fatalf("%s on %v: both evaluators say %v, the generated tree the opposite", b.String(), a, got)
			}
		}
	}
}

// FuzzDirectMatch checks the direct matcher against the CEL program on any
// filter the parser accepts, with messages built from the fuzzer's strings.
func FuzzDirectMatch(f *testing.F) {
	f.Add(threeClauses, "name", "com", "debug", "")
	f.Add(`attributes.a != "b" OR hasPrefix(attributes."x y", "é")`, "x y", "éa", "a", "b")
	f.Add(`NOT (attributes:a AND -attributes.b = "") OR attributes:"in"`, "b", "", "in", "\xff")
	f.Fuzz(func(t *testing.T, src, k1, v1, k2, v2 string) {
		fl, _ := filter.Parse(src)
		if fl == nil {
			return
		}
		p, err := Compile(fl)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		msgs := []map[string]string{nil, {k1: v1}, {k1: v1, k2: v2}, {k1: v2, k2: v1}, {k1: v1 + v2}}
		// Every key and value the filter names, so its conditions can hold.
		all := map[string]string{}
		filter.Walk(fl.Root, func(e filter.Expr) bool {
			switch e := e.(type) {
			case *filter.Has:
				all[e.Key.Name] = ""
			case *filter.Compare:
				all[e.Key.Name] = e.Value.Value
			case *filter.Prefix:
				all[e.Key.Name] = e.Prefix.Value + v1
			}
			return true
		})
		msgs = append(msgs, all)
		for _, a := range msgs {
			agree(t, p, a)
		}
	})
}

// BenchmarkMatchCEL is BenchmarkMatch through cel-go's interpreter, the
// path Match took before the direct matcher: the ratio of the two is the
// speed-up, measured in one run.
func BenchmarkMatchCEL(b *testing.B) {
	p := compile(b, threeClauses)
	b.ReportAllocs()
	for b.Loop() {
		ok, err := p.matchCEL(benchAttrs)
		if err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
}
