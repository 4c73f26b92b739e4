package filter

import "testing"

func BenchmarkParse(b *testing.B) {
	const src = `attributes.name = "com" AND hasPrefix(attributes.lang, "e") AND NOT attributes:debug`
	b.ReportAllocs()
	for b.Loop() {
		if f, _ := Parse(src); f == nil {
			b.Fatal("rejected")
		}
	}
}

func BenchmarkParseLongest(b *testing.B) {
	src := `attributes:"iana.org/language_tag" AND (attributes.name = "net" OR attributes.name = "org" OR hasPrefix(attributes.name, "co")) AND NOT (attributes."x\u00e9" != "\u307F\u3093\u306A" OR -attributes:debug) AND attributes.is-even = "false"`
	b.ReportAllocs()
	for b.Loop() {
		if f, _ := Parse(src); f == nil {
			b.Fatal("rejected")
		}
	}
}
