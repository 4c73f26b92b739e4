package filter

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestRenderedGolden keeps every error case as users see it (message,
// caret, hint) in one file, so a change in wording shows up in review.
func TestRenderedGolden(t *testing.T) {
	var b strings.Builder
	for _, tc := range errorCases {
		_, ds := Parse(tc.src)
		b.WriteString("## " + tc.name + "\n")
		b.WriteString(render(tc.src, ds))
		b.WriteString("\n")
	}
	for _, tc := range []struct{ name, src string }{
		{"note on !=", `attributes.name != "com"`},
		{"warning on an empty key", `attributes:"" OR attributes:a`},
	} {
		_, ds := Parse(tc.src)
		b.WriteString("## " + tc.name + "\n" + render(tc.src, ds) + "\n")
	}
	golden(t, filepath.Join("testdata", "errors.golden"), b.String())
}

func golden(t *testing.T, path, got string) {
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
	if got != string(want) {
		t.Errorf("%s differs from the output; run go test -update and review the diff", path)
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Errorf("first difference at line %d:\n got %q\nwant %q", i+1, gl[i], wl[i])
				break
			}
		}
	}
}
