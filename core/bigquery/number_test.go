package bigquery

import (
	"regexp"
	"testing"
)

// TestReadableNumber compares readableNumber with the expression it
// replaces: on named cases, and on every string up to six bytes over the
// bytes the expression tells apart.
func TestReadableNumber(t *testing.T) {
	re := regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`)
	tests := []struct {
		name string
		s    string
		want bool
	}{
		{"integer", "123", true},
		{"signed decimal", "-1.50", true},
		{"trailing point", "1.", true},
		{"leading point", ".5", true},
		{"exponent", "+1.5E-10", true},
		{"point alone", ".", false},
		{"empty", "", false},
		{"empty exponent", "1e", false},
		{"two points", "1.2.3", false},
		{"space", " 1", false},
		{"newline", "1\n", false},
		{"non-ASCII digit", "٣", false},
		{"hex", "0x10", false},
		{"NaN", "NaN", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := readableNumber(tt.s); got != tt.want || got != re.MatchString(tt.s) {
				t.Errorf("readableNumber(%q) = %v, want %v (the expression: %v)", tt.s, got, tt.want, re.MatchString(tt.s))
			}
		})
	}
	const alphabet = "05.eE+-x"
	buf := make([]byte, 0, 6)
	var walk func()
	walk = func() {
		if got, want := readableNumber(string(buf)), re.MatchString(string(buf)); got != want {
			t.Errorf("readableNumber(%q) = %v, the expression %v", buf, got, want)
		}
		if len(buf) == cap(buf) || t.Failed() {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			buf = append(buf, alphabet[i])
			walk()
			buf = buf[:len(buf)-1]
		}
	}
	walk()
}
