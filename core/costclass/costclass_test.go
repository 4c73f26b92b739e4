package costclass

import (
	"testing"
	"time"

	"github.com/subplay/subplay/core/limits"
)

// TestIsCostly: a large body is costly whatever its class cost; a small
// one is costly only once every recent call of its class was, so one
// stall does not make a cheap class costly and one cheap call in four
// keeps it cheap.
func TestIsCostly(t *testing.T) {
	const costly = 50 * time.Millisecond
	tests := []struct {
		name  string
		calls []time.Duration // costs of the class's calls, oldest first
		size  int
		want  bool
	}{
		{"unknown, small", nil, 500, false},
		{"unknown, large", nil, limits.HTTPLargeBody, true},
		{"one costly call", []time.Duration{costly}, 500, true},
		{"a stall among cheap calls", []time.Duration{time.Millisecond, 5 * costly, time.Millisecond}, 500, false},
		{"four costly calls after a cheap one", []time.Duration{time.Millisecond, costly, costly, costly, costly}, 500, true},
		{"one cheap call in the last four", []time.Duration{costly, costly, costly, time.Millisecond}, 500, false},
		{"cheap calls, large body", []time.Duration{time.Millisecond}, limits.HTTPLargeBody, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cc := New(costly)
			class := Of("validate", tc.size)
			for _, d := range tc.calls {
				cc.Add(class, d)
			}
			if got := cc.IsCostly(class, tc.size); got != tc.want {
				t.Errorf("IsCostly = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestClassesBySize: bodies within a power of two share a class.
func TestClassesBySize(t *testing.T) {
	if Of("filter", 300) != Of("filter", 500) || Of("filter", 500) == Of("filter", 600) || Of("filter", 500) == Of("names", 500) {
		t.Error("classes are the operation and the body size's bit length")
	}
}

// TestSetAndAll: what All yields, Set restores.
func TestSetAndAll(t *testing.T) {
	a := New(time.Second)
	a.Add(Of("schema", 2400), 3*time.Second)
	a.Add(Of("schema", 2400), 2*time.Second)
	b := New(time.Second)
	for class, c := range a.All() {
		b.Set(class, c)
	}
	got, ok := b.Get(Of("schema", 2400))
	if !ok || got.N != 2 || got.Cheapest() != 2*time.Second || b.Len() != 1 {
		t.Errorf("restored %+v (%v), want two calls, the cheapest 2s", got, ok)
	}
}
