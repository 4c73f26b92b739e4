//go:build browser

package sitetest

import "testing"

// TestFullBuildIsTheSumOfItsParts checks that the full build, which links
// both cel-go and hamba/avro, costs about what the two cost apart: the
// reflect2 patch of scripts/build-wasm is what keeps the linker from
// keeping every exported method (about 9 MB more). Raw sizes, so a quick
// build serves as well as a release one.
func TestFullBuildIsTheSumOfItsParts(t *testing.T) {
	m := readSiteManifest(t)
	size := func(name string) float64 {
		w, ok := m.Wasm[name]
		if !ok {
			t.Fatalf("the build has no %s module", name)
		}
		return float64(w.Size)
	}
	parts := size("cel") + size("avro") - size("min")
	if full := size("full"); full > 1.1*parts {
		t.Errorf("the full module is %.1f MB, more than 1.1 times its parts (cel + avro - min = %.1f MB): is the reflect2 patch of scripts/build-wasm still applied?", full/1e6, parts/1e6)
	}
}
