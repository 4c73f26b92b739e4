package storage

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// simulateOneByOne is Simulate without skip: every message through add.
func simulateOneByOne(s Stream, start time.Time, lim Limits, out Output, keep int) Result {
	b := NewBatcher(lim, out, keep)
	b.base, b.hasBase = start, true
	n := s.Count()
	interval := 1e9 / s.Rate
	for i := int64(0); i < n; i++ {
		b.add(int64(float64(i)*interval), s.Size)
	}
	return b.Result()
}

// TestSimulateSkipsExactly checks that adding runs of messages in one step
// gives the same files, times and counts as adding them one by one, on
// streams and limits chosen to put every limit, and ties between them, at
// and around the run boundaries.
func TestSimulateSkipsExactly(t *testing.T) {
	type tc struct {
		name string
		s    Stream
		lim  Limits
		out  Output
		keep int
	}
	tests := []tc{
		{"duration only", Stream{Rate: 100, Size: 1024, Duration: 900 * time.Second}, Limits{MaxDuration: 300 * time.Second}, Text, 1000},
		{"bytes exactly full", Stream{Rate: 10, Size: 99, Duration: 100 * time.Second}, Limits{MaxDuration: time.Minute, MaxBytes: 1000}, Text, 1000},
		{"bytes exactly full, avro", Stream{Rate: 10, Size: 100, Duration: 100 * time.Second}, Limits{MaxDuration: time.Minute, MaxBytes: 1000}, Avro, 1000},
		{"messages", Stream{Rate: 100, Size: 1, Duration: 100 * time.Second}, Limits{MaxDuration: time.Minute, MaxMessages: 1000}, Text, 1000},
		{"one message a file", Stream{Rate: 3, Size: 1, Duration: 30 * time.Second}, Limits{MaxMessages: 1}, Text, 1000},
		{"oversized", Stream{Rate: 1, Size: 2000, Duration: 5 * time.Second}, Limits{MaxBytes: 1000}, Text, 1000},
		{"empty messages", Stream{Rate: 50, Size: 0, Duration: 20 * time.Second}, Limits{MaxDuration: 3 * time.Second, MaxBytes: 10}, Avro, 1000},
		{"negative size", Stream{Rate: 50, Size: -5, Duration: 20 * time.Second}, Limits{MaxDuration: 3 * time.Second, MaxBytes: 10}, Text, 1000},
		{"fractional interval", Stream{Rate: 3, Size: 7, Duration: 100 * time.Second}, Limits{MaxDuration: time.Second + 1, MaxBytes: 50, MaxMessages: 4}, Text, 1000},
		{"duration a multiple of the interval", Stream{Rate: 4, Size: 1, Duration: 100 * time.Second}, Limits{MaxDuration: 2 * time.Second}, Text, 1000},
		{"default duration, few kept", Stream{Rate: 1000, Size: 10, Duration: 1000 * time.Second}, Limits{}, Text, 2},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		lim := Limits{MaxDuration: time.Duration(r.Int64N(int64(5 * time.Second)))}
		if r.IntN(2) == 0 {
			lim.MaxBytes = r.Int64N(300)
		}
		if r.IntN(2) == 0 {
			lim.MaxMessages = r.Int64N(40)
		}
		out := Text
		if r.IntN(2) == 0 {
			out = Avro
		}
		tests = append(tests, tc{
			name: "random " + string(rune('a'+i%26)),
			s:    Stream{Rate: 0.5 + r.Float64()*200, Size: r.Int64N(40) - 2, Duration: time.Duration(r.Int64N(int64(20 * time.Second)))},
			lim:  lim, out: out, keep: 1 + r.IntN(50),
		})
	}
	for _, tt := range tests {
		got := tt.s.Simulate(seedTime, tt.lim, tt.out, tt.keep)
		want := simulateOneByOne(tt.s, seedTime, tt.lim, tt.out, tt.keep)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s (%+v, %+v, %s, keep %d):\n got  %+v\n want %+v", tt.name, tt.s, tt.lim, tt.out, tt.keep, got.Summary, want.Summary)
		}
	}
}
