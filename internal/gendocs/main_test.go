package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLimitsDocFresh fails when docs/limits.md is not what core/limits
// says today: a bound or its reason changed without `go generate
// ./core/limits`.
func TestLimitsDocFresh(t *testing.T) {
	root := filepath.Join("..", "..")
	want, err := limitsDoc(filepath.Join(root, "core", "limits"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, "docs", "limits.md"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatal("docs/limits.md is stale: run go generate ./core/limits")
	}
}

// TestLimitsDocNamesEveryBound checks the generator against the package
// it reads: each exported constant appears once, with its value.
func TestLimitsDocNamesEveryBound(t *testing.T) {
	doc, err := limitsDoc(filepath.Join("..", "..", "core", "limits"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, value string }{
		{"RequestBytes", "4,194,304 (4 MiB)"},
		{"DocumentDepth", "64"},
		{"Diagnostics", "200"},
		{"TerraformMaxBytes", "131,072 (128 KiB)"},
	} {
		entry := "**`" + c.name + "`** = " + c.value
		if n := strings.Count(string(doc), entry); n != 1 {
			t.Errorf("%q appears %d times, want once", entry, n)
		}
	}
}

func TestValue(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {999, "999"}, {1000, "1,000"}, {1024, "1,024 (1 KiB)"},
		{10_000_000, "10,000,000"}, {3 << 20, "3,145,728 (3 MiB)"},
	} {
		if got := group(c.n); !strings.HasPrefix(c.want, got) {
			t.Errorf("group(%d) = %q, want prefix of %q", c.n, got, c.want)
		}
	}
}
