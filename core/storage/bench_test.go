package storage

import (
	"testing"
	"time"
)

func BenchmarkObjectName(b *testing.B) {
	l, ds := NewLayout("prod/", "_archive.json", ptr("YYYY-MM-DD/hh_mm_ssZ"))
	if l == nil {
		b.Fatal(findings(ds))
	}
	uuid := RandomUUID()
	buf := make([]byte, 0, l.MaxLen())
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		buf = l.AppendName(buf[:0], seedTime.Add(time.Duration(i)*time.Second), uuid)
	}
}

func BenchmarkName(b *testing.B) {
	l, _ := NewLayout("prod_", "_archive", nil)
	b.ReportAllocs()
	for b.Loop() {
		_ = l.Name(seedTime, "uN1QuE")
	}
}

func BenchmarkParseFormat(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		ParseFormat("YYYY-MM-DD/hh_mm_ssZ")
	}
}

func BenchmarkCheck(b *testing.B) {
	s := Settings{Bucket: ptr("my-archive"), FilenamePrefix: ptr("prod/"), FilenameSuffix: ptr(".json"), FilenameDatetimeFormat: ptr("YYYY-MM-DD/hh_mm_ssZ")}
	b.ReportAllocs()
	for b.Loop() {
		Check(s)
	}
}

// BenchmarkSimulate1M cuts a synthetic stream of 1,000,000 messages
// (1000 per second of 1 KB for 1000 seconds) into files by every limit.
func BenchmarkSimulate1M(b *testing.B) {
	s := Stream{Rate: 1000, Size: 1000, Duration: 1000 * time.Second}
	lim := Limits{MaxDuration: time.Minute, MaxBytes: 5_000_000, MaxMessages: 10_000}
	b.ReportAllocs()
	for b.Loop() {
		res := s.Simulate(seedTime, lim, Text, 1000)
		if res.Summary.Messages != 1_000_000 {
			b.Fatalf("%d messages", res.Summary.Messages)
		}
	}
}

// BenchmarkBatcher1M adds the same 1,000,000 messages one at a time, as
// sample messages with their own publish times are added: the path that
// is linear in the number of messages.
func BenchmarkBatcher1M(b *testing.B) {
	lim := Limits{MaxDuration: time.Minute, MaxBytes: 5_000_000, MaxMessages: 10_000}
	b.ReportAllocs()
	for b.Loop() {
		bt := NewBatcher(lim, Text, 1000)
		for i := range 1_000_000 {
			bt.Add(seedTime.Add(time.Duration(i)*time.Millisecond), 1000)
		}
		if res := bt.Result(); res.Summary.Messages != 1_000_000 {
			b.Fatalf("%d messages", res.Summary.Messages)
		}
	}
}
