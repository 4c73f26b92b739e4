package doc

import (
	"os"
	"testing"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
)

// BenchmarkYAML compares the two YAML readers on the configuration the
// budgets are stated for: the fast reader, and yaml.v3 with the walk (the
// path every text took before the fast reader, and what it falls back to).
func BenchmarkYAML(b *testing.B) {
	text, err := os.ReadFile("../subscription/testdata/examples/push-oidc.yaml")
	if err != nil {
		b.Fatal(err)
	}
	src := diag.NewSource("push-oidc.yaml", string(text))
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := parseYAMLFast(src.Text, limits.DocumentDepth); !ok {
				b.Fatal("the fast reader gave up")
			}
		}
	})
	b.Run("yaml.v3", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if root, ds, _ := parseYAMLFull(src, limits.DocumentDepth, limits.ObjectMembers); root == nil || len(ds) > 0 {
				b.Fatal(ds)
			}
		}
	})
}
