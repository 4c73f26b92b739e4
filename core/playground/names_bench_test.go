package playground

import (
	"encoding/json"
	"strconv"
	"testing"
)

// BenchmarkNamesCount previews names alone at growing counts, up to
// MaxPreviewNames, with the longest prefix and suffix the service allows
// in the layout. The cost must be linear in count: ns/name and
// allocs/name stay flat from 10 to the limit (the configuration is read
// once per call, so small counts carry that fixed cost).
//
//	go test -run '^$' -bench NamesCount -benchmem ./core/playground/
func BenchmarkNamesCount(b *testing.B) {
	long := make([]byte, 200)
	for i := range long {
		long[i] = 'p'
	}
	config := "name: projects/p/subscriptions/s\ntopic: projects/p/topics/t\ncloudStorageConfig:\n  bucket: my-archive\n" +
		"  filenamePrefix: " + string(long) + "\n  filenameSuffix: " + string(long) + "\n  filenameDatetimeFormat: YYYY-MM-DD/hh_mm_ssZ\n"
	for _, n := range []int{10, 100, MaxPreviewNames} {
		body, err := json.Marshal(map[string]any{"text": config, "format": "yaml", "time": "2024-05-01T12:00:00Z", "uuid": "u", "count": n})
		if err != nil {
			b.Fatal(err)
		}
		b.Run("count="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if out, ok := Call("names", body); !ok {
					b.Fatalf("names failed: %s", out)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/name")
		})
	}
}
