package storage

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// msg is a message at a number of seconds after seedTime.
type msg struct {
	at   float64
	size int64
}

// describe renders files as "messages bytes closedBy first-last/closed"
// lines, times in seconds after seedTime.
func describe(files []File) string {
	sec := func(t time.Time) string { return fmt.Sprint(t.Sub(seedTime).Seconds()) }
	var out []string
	for _, f := range files {
		s := fmt.Sprintf("#%d from %d: %d msgs %dB %s %s-%s/%s", f.Index, f.FirstIndex, f.Messages, f.Bytes, f.ClosedBy,
			sec(f.FirstMessage), sec(f.LastMessage), sec(f.Closed))
		if f.Oversized {
			s += " oversized"
		}
		out = append(out, s)
	}
	return strings.Join(out, "\n")
}

func run(lim Limits, out Output, msgs []msg) Result {
	b := NewBatcher(lim, out, 100)
	for _, m := range msgs {
		b.Add(seedTime.Add(time.Duration(m.at*float64(time.Second))), m.size)
	}
	return b.Result()
}

func TestBatcher(t *testing.T) {
	minute := time.Minute
	tests := []struct {
		name string
		lim  Limits
		out  Output
		msgs []msg
		want string
	}{
		{name: "no messages, no files", lim: Limits{MaxDuration: minute}, want: ""},
		{name: "one message, closed by duration", lim: Limits{MaxDuration: minute},
			msgs: []msg{{0, 5}},
			want: "#0 from 0: 1 msgs 5B maxDuration 0-0/60"},
		{name: "no default duration: zero closes every file at once", lim: Limits{},
			msgs: []msg{{0, 5}, {299, 5}},
			want: "#0 from 0: 1 msgs 5B maxDuration 0-0/0\n#1 from 1: 1 msgs 5B maxDuration 299-299/299"},
		{name: "negative duration is zero", lim: Limits{MaxDuration: -time.Hour},
			msgs: []msg{{0, 5}},
			want: "#0 from 0: 1 msgs 5B maxDuration 0-0/0"},
		{name: "duration: a message exactly at the limit opens the next file", lim: Limits{MaxDuration: minute},
			msgs: []msg{{0, 1}, {59.999, 1}, {60, 1}},
			want: "#0 from 0: 2 msgs 3B maxDuration 0-59.999/60\n#1 from 2: 1 msgs 1B maxDuration 60-60/120"},
		{name: "duration: the next file starts at its first message, not at the boundary", lim: Limits{MaxDuration: minute},
			msgs: []msg{{0, 1}, {90, 1}, {149, 1}, {150, 1}},
			want: "#0 from 0: 1 msgs 1B maxDuration 0-0/60\n#1 from 1: 2 msgs 3B maxDuration 90-149/150\n#2 from 3: 1 msgs 1B maxDuration 150-150/210"},
		{name: "messages: closed as soon as the count is reached", lim: Limits{MaxDuration: minute, MaxMessages: 2},
			msgs: []msg{{0, 1}, {1, 1}, {2, 1}, {3, 1}, {4, 1}},
			want: "#0 from 0: 2 msgs 3B maxMessages 0-1/1\n#1 from 2: 2 msgs 3B maxMessages 2-3/3\n#2 from 4: 1 msgs 1B maxDuration 4-4/64"},
		{name: "bytes: text counts the newlines between payloads", lim: Limits{MaxDuration: minute, MaxBytes: 10},
			msgs: []msg{{0, 3}, {1, 3}, {2, 3}},
			want: "#0 from 0: 2 msgs 7B maxBytes 0-1/2\n#1 from 2: 1 msgs 3B maxDuration 2-2/62"},
		{name: "bytes: exactly reaching the limit closes the file", lim: Limits{MaxDuration: minute, MaxBytes: 7},
			msgs: []msg{{0, 3}, {1, 3}, {2, 3}},
			want: "#0 from 0: 2 msgs 7B maxBytes 0-1/1\n#1 from 2: 1 msgs 3B maxDuration 2-2/62"},
		{name: "bytes: Avro counts payloads only", lim: Limits{MaxDuration: minute, MaxBytes: 9}, out: Avro,
			msgs: []msg{{0, 3}, {1, 3}, {2, 3}, {3, 1}},
			want: "#0 from 0: 3 msgs 9B maxBytes 0-2/2\n#1 from 3: 1 msgs 1B maxDuration 3-3/63"},
		{name: "bytes: a message larger than the limit gets a file of its own", lim: Limits{MaxDuration: minute, MaxBytes: 10},
			msgs: []msg{{0, 4}, {1, 50}, {2, 4}},
			want: "#0 from 0: 1 msgs 4B maxBytes 0-0/1\n#1 from 1: 1 msgs 50B maxBytes 1-1/1 oversized\n#2 from 2: 1 msgs 4B maxDuration 2-2/62"},
		{name: "bytes: a large first message", lim: Limits{MaxDuration: minute, MaxBytes: 10},
			msgs: []msg{{0, 11}},
			want: "#0 from 0: 1 msgs 11B maxBytes 0-0/0 oversized"},
		{name: "interplay: bytes before messages when both are reached", lim: Limits{MaxDuration: minute, MaxBytes: 3, MaxMessages: 2},
			msgs: []msg{{0, 1}, {0, 1}},
			want: "#0 from 0: 2 msgs 3B maxBytes 0-0/0"},
		{name: "interplay: duration first, then bytes, then messages", lim: Limits{MaxDuration: minute, MaxBytes: 100, MaxMessages: 3},
			msgs: []msg{{0, 10}, {70, 60}, {71, 60}, {72, 1}, {73, 1}, {74, 1}},
			want: "#0 from 0: 1 msgs 10B maxDuration 0-0/60\n#1 from 1: 1 msgs 60B maxBytes 70-70/71\n#2 from 2: 3 msgs 64B maxMessages 71-73/73\n#3 from 5: 1 msgs 1B maxDuration 74-74/134"},
		{name: "interplay: duration closes before bytes are checked", lim: Limits{MaxDuration: minute, MaxBytes: 10},
			msgs: []msg{{0, 8}, {61, 8}},
			want: "#0 from 0: 1 msgs 8B maxDuration 0-0/60\n#1 from 1: 1 msgs 8B maxDuration 61-61/121"},
		{name: "clock never runs backwards", lim: Limits{MaxDuration: minute},
			msgs: []msg{{10, 1}, {5, 1}, {80, 1}, {0, 1}},
			want: "#0 from 0: 2 msgs 3B maxDuration 10-10/70\n#1 from 2: 2 msgs 3B maxDuration 80-80/140"},
		{name: "empty payloads still count as messages", lim: Limits{MaxDuration: minute, MaxMessages: 2},
			msgs: []msg{{0, 0}, {0, 0}, {0, 0}},
			want: "#0 from 0: 2 msgs 1B maxMessages 0-0/0\n#1 from 2: 1 msgs 0B maxDuration 0-0/60"},
		{name: "negative sizes count as zero", lim: Limits{MaxDuration: minute}, out: Avro,
			msgs: []msg{{0, -5}},
			want: "#0 from 0: 1 msgs 0B maxDuration 0-0/60"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := tc.out
			if out == "" {
				out = Text
			}
			res := run(tc.lim, out, tc.msgs)
			if got := describe(res.Files); got != tc.want {
				t.Errorf("files:\n%s\nwant:\n%s", got, tc.want)
			}
			checkSummary(t, res, int64(len(tc.msgs)))
		})
	}
}

// checkSummary checks that the totals agree with the files.
func checkSummary(t *testing.T, res Result, messages int64) {
	t.Helper()
	s := res.Summary
	var msgs, bytes, by int64
	for _, f := range res.Files {
		msgs += f.Messages
		bytes += f.Bytes
	}
	for _, n := range s.ClosedBy {
		by += n
	}
	if s.Messages != messages || (!s.Truncated && (msgs != messages || bytes != s.Bytes || int64(len(res.Files)) != s.Files)) || by != s.Files {
		t.Errorf("summary %+v does not add up (files hold %d messages, %d bytes)", s, msgs, bytes)
	}
}

func TestBatcherKeep(t *testing.T) {
	b := NewBatcher(Limits{MaxDuration: time.Minute, MaxMessages: 1000}, Text, 2)
	for i := 0; i < 5000; i++ {
		b.Add(seedTime, 1)
	}
	res := b.Result()
	if len(res.Files) != 2 || res.Summary.Files != 5 || !res.Summary.Truncated {
		t.Errorf("kept %d files of %d, truncated %v; want 2 of 5, truncated", len(res.Files), res.Summary.Files, res.Summary.Truncated)
	}
	if res.Summary.ClosedBy[ByMessages] != 5 || res.Summary.Bytes != 5*1999 {
		t.Errorf("summary %+v", res.Summary)
	}
}

func TestStream(t *testing.T) {
	tests := []struct {
		name   string
		s      Stream
		lim    Limits
		count  int64
		files  int64
		closed map[Limit]int64
	}{
		{"one a second for ten seconds", Stream{Rate: 1, Size: 10, Duration: 10 * time.Second}, Limits{MaxDuration: time.Minute},
			10, 1, map[Limit]int64{ByDuration: 1}},
		{"fractional rate", Stream{Rate: 0.3, Size: 10, Duration: 10 * time.Second}, Limits{MaxDuration: time.Minute},
			3, 1, map[Limit]int64{ByDuration: 1}},
		{"duration rolls every minute", Stream{Rate: 2, Size: 1, Duration: 10 * time.Minute}, Limits{MaxDuration: time.Minute},
			1200, 10, map[Limit]int64{ByDuration: 10}},
		{"messages roll first", Stream{Rate: 100, Size: 1, Duration: 100 * time.Second}, Limits{MaxDuration: time.Minute, MaxMessages: 1000},
			10000, 10, map[Limit]int64{ByMessages: 10}},
		{"bytes roll first", Stream{Rate: 10, Size: 99, Duration: 100 * time.Second}, Limits{MaxDuration: time.Minute, MaxBytes: 1000},
			1000, 100, map[Limit]int64{ByBytes: 99, ByDuration: 1}}, // the last file waits for a message that never comes
		{"oversized messages", Stream{Rate: 1, Size: 2000, Duration: 5 * time.Second}, Limits{MaxDuration: time.Minute, MaxBytes: 1000},
			5, 5, map[Limit]int64{ByBytes: 5}},
		{"zero rate", Stream{Rate: 0, Size: 1, Duration: time.Minute}, Limits{}, 0, 0, map[Limit]int64{}},
		{"zero duration", Stream{Rate: 5, Size: 1}, Limits{}, 0, 0, map[Limit]int64{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.s.Count(); got != tc.count {
				t.Errorf("Count() = %d, want %d", got, tc.count)
			}
			res := tc.s.Simulate(seedTime, tc.lim, Text, 1000)
			checkSummary(t, res, tc.count)
			if res.Summary.Files != tc.files {
				t.Errorf("%d files, want %d", res.Summary.Files, tc.files)
			}
			if fmt.Sprint(res.Summary.ClosedBy) != fmt.Sprint(tc.closed) {
				t.Errorf("closed by %v, want %v", res.Summary.ClosedBy, tc.closed)
			}
		})
	}
}

func TestStreamOversizedFlag(t *testing.T) {
	res := Stream{Rate: 1, Size: 2000, Duration: 3 * time.Second}.Simulate(seedTime, Limits{MaxDuration: time.Minute, MaxBytes: 1000}, Text, 10)
	if res.Summary.Oversized != 3 {
		t.Errorf("%d oversized files, want 3", res.Summary.Oversized)
	}
}

func TestUUIDs(t *testing.T) {
	u := NewUUIDs("uNiQuE")
	if got := u.At(0); got != "uNiQuE" {
		t.Errorf("At(0) = %q, want the seed", got)
	}
	seen := map[string]bool{}
	for i := 1; i < 1000; i++ {
		id := u.At(i)
		if !isUUID(id) || id[14] != '4' || strings.IndexByte("89ab", id[19]) < 0 {
			t.Fatalf("At(%d) = %q is not a version 4 UUID", i, id)
		}
		// No four bytes of a uuid may show up again in another (windows
		// that hold the version or variant byte left aside).
		hex := strings.ReplaceAll(id, "-", "")
		for _, at := range []int{0, 1, 2, 9, 10, 11, 12} {
			w := hex[2*at : 2*at+8]
			if seen[w] {
				t.Fatalf("At(%d) = %q repeats bytes %s", i, id, w)
			}
			seen[w] = true
		}
		if again := NewUUIDs("uNiQuE").At(i); again != id {
			t.Fatalf("At(%d) is not reproducible: %q then %q", i, id, again)
		}
	}
	if NewUUIDs("other").At(1) == u.At(1) {
		t.Error("different seeds derive the same uuid")
	}
	if NewUUIDs("").Seeded() || !u.Seeded() {
		t.Error("Seeded() is wrong")
	}
	a, b := NewUUIDs("").At(0), NewUUIDs("").At(0)
	if !isUUID(a) || a == b {
		t.Errorf("random uuids %q and %q", a, b)
	}
}

func isUUID(s string) bool {
	if len(s) != UUIDLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return false
			}
		}
	}
	return true
}

func TestNameFiles(t *testing.T) {
	l, _ := NewLayout("prod_", "_archive", ptr("YYYY-MM-DD/hh_mm_ssZ"))
	res := run(Limits{MaxDuration: time.Minute, MaxMessages: 1000}, Text, []msg{{0, 1}, {61, 1}})
	l.NameFiles(res.Files, NewUUIDs("uNiQuE"))
	if got, want := res.Files[0].Name, "prod_2023-09-25/04_10_00Z_uNiQuE_archive"; got != want {
		t.Errorf("file 0 = %q, want %q", got, want)
	}
	if got, want := res.Files[1].Name, "prod_2023-09-25/04_11_01Z_"+NewUUIDs("uNiQuE").At(1)+"_archive"; got != want {
		t.Errorf("file 1 = %q, want %q", got, want)
	}
}

func TestAppendText(t *testing.T) {
	tests := []struct {
		name     string
		payloads []string
		want     string
	}{
		{"none", nil, ""},
		{"one", []string{"a"}, "a"},
		{"three, no final newline", []string{"a", "bc", "d"}, "a\nbc\nd"},
		{"empty payloads", []string{"", ""}, "\n"},
		{"payload with a newline", []string{"a\nb", "c"}, "a\nb\nc"},
		{"binary kept as is", []string{"\x00\xff"}, "\x00\xff"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ps [][]byte
			for _, p := range tc.payloads {
				ps = append(ps, []byte(p))
			}
			if got := string(AppendText(nil, ps)); got != tc.want {
				t.Errorf("AppendText = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestTextBytesMatchContents(t *testing.T) {
	// The simulated size of a text file is the size of its contents.
	sizes := []int64{3, 0, 7, 1}
	var payloads [][]byte
	var msgs []msg
	for i, n := range sizes {
		payloads = append(payloads, []byte(strings.Repeat("x", int(n))))
		msgs = append(msgs, msg{float64(i), n})
	}
	res := run(Limits{MaxDuration: time.Minute}, Text, msgs)
	if got, want := res.Files[0].Bytes, int64(len(AppendText(nil, payloads))); got != want {
		t.Errorf("file is %d bytes, contents %d", got, want)
	}
}

func TestAvroSummary(t *testing.T) {
	tests := []struct {
		meta, topic bool
		want        string
	}{
		{false, false, "com.google.pubsub.PubsubMessage"},
		{true, false, "com.google.pubsub.PubsubMessageWithMetadata"},
		{false, true, AvroTopicRecord},
		{true, true, AvroTopicRecord},
	}
	for _, tc := range tests {
		s := SummarizeAvro(File{Index: 2, Messages: 3, Bytes: 9}, tc.meta, tc.topic)
		if s.Schema != tc.want || s.Records != 3 || s.PayloadBytes != 9 || s.Index != 2 || s.Metadata != tc.meta {
			t.Errorf("SummarizeAvro(meta %v, topic %v) = %+v, want schema %q", tc.meta, tc.topic, s, tc.want)
		}
	}
}

func TestBatcherExtremeTimes(t *testing.T) {
	// Times centuries apart saturate rather than wrap: files stay in order.
	b := NewBatcher(Limits{MaxDuration: time.Minute}, Text, 10)
	b.Add(time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), 1)
	b.Add(time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), 1)
	b.Add(time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), 1)
	res := b.Result()
	if res.Summary.Files != 2 || res.Summary.Messages != 3 {
		t.Fatalf("summary %+v", res.Summary)
	}
	if !res.Files[1].FirstMessage.After(res.Files[0].FirstMessage) || res.Files[1].Closed.Before(res.Files[1].FirstMessage) {
		t.Errorf("files out of order: %s", describe(res.Files))
	}
}
