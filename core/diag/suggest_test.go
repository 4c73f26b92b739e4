package diag

import (
	"math"
	"strings"
	"testing"
)

func TestEditDistance(t *testing.T) {
	long := strings.Repeat("a", 65)
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"filter", "filter", 0},
		{"fitler", "filter", 1},
		{"filtr", "filter", 1},
		{"filterr", "filter", 1},
		{"fiLter", "filter", 1},
		{"topic", "labels", 6},
		{"", "abc", 3},
		{long, "a", math.MaxInt},
		{"a", long, math.MaxInt},
	}
	for _, tc := range tests {
		if got := EditDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
