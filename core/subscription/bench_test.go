package subscription_test

import (
	"os"
	"testing"

	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/subscription"
)

// benchInputs are typical configurations: what gcloud describe prints for a
// push subscription with an OIDC token, as JSON and as YAML.
var benchInputs = []struct{ name, file string }{
	{"json", "testdata/examples/push-oidc.json"},
	{"yaml", "testdata/examples/push-oidc.yaml"},
}

func readBench(b *testing.B, file string) string {
	b.Helper()
	text, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	return string(text)
}

// BenchmarkValidateEffective measures what one keystroke in the playground
// costs: decoding the text, every rule, and the effective settings.
func BenchmarkValidateEffective(b *testing.B) {
	for _, in := range benchInputs {
		text := readBench(b, in.file)
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c := subscription.Decode(in.file, text, "")
				if c.Sub == nil {
					b.Fatal("not decoded")
				}
				c.Validate()
				if c.Effective() == nil {
					b.Fatal("no effective settings")
				}
			}
		})
	}
}

// BenchmarkDecode measures decoding alone, to tell it apart from the rules.
func BenchmarkDecode(b *testing.B) {
	for _, in := range benchInputs {
		text := readBench(b, in.file)
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if subscription.Decode(in.file, text, doc.Format(in.name)).Sub == nil {
					b.Fatal("not decoded")
				}
			}
		})
	}
}
