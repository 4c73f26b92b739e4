// Package golden compares test output with files in testdata/ and
// rewrites them when the test binary runs with -update, and reads the
// contract corpus every entry runs (contract.go). Tests only: it lives
// under internal/ so that it is no part of core's API.
package golden

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ instead of comparing")

// Check compares got with the file at path, or writes it with -update.
// On a difference it reports the first line that differs.
func Check(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	compare(t, path, got, string(want))
}

// compare reports the first line where got and want differ.
func compare(t testing.TB, path, got, want string) {
	t.Helper()
	if got == want {
		return
	}
	t.Errorf("%s differs from the output; run go test -update if the change is right, and review the diff", path)
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(gl), len(wl)); i++ {
		g, w := "", ""
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Errorf("first difference at line %d:\n got %q\nwant %q", i+1, g, w)
			return
		}
	}
}
