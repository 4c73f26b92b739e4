package gcloudcmd

import "testing"

// TestParseSize checks gcloud's binary sizes, read in integers: whole bytes
// only, and no overflow however large the number.
func TestParseSize(t *testing.T) {
	cases := []struct {
		in, unit string
		want     int64
		ok       bool
	}{
		{"10MB", "KB", 10 << 20, true},
		{"64KiB", "KB", 64 << 10, true},
		{"1.5KB", "KB", 1536, true},
		{"1000", "B", 1000, true},
		{"1000", "KB", 1000 << 10, true},
		{"1.50000KB", "KB", 1536, true},
		{"0.0009765625KB", "KB", 1, true},
		{"0.5B", "B", 0, false},
		{"1.0001KB", "KB", 0, false},
		{"9223372036854775807B", "B", 9223372036854775807, true},
		{"9223372036854775808B", "B", 0, false},
		{"99999999999GB", "KB", 0, false},
		{"1.00000000000000000001KB", "KB", 0, false},
	}
	for _, c := range cases {
		got, msg := parseSize(c.in, c.unit)
		if (msg == "") != c.ok || got != c.want {
			t.Errorf("parseSize(%q, %q) = %d, %q; want %d, ok %v", c.in, c.unit, got, msg, c.want, c.ok)
		}
	}
}
