package storage

import (
	"context"
	"math"
	"time"

	"github.com/subplay/subplay/core/stop"
)

// Limit names the batching setting that closed a file.
type Limit string

const (
	ByDuration Limit = "maxDuration"
	ByBytes    Limit = "maxBytes"
	ByMessages Limit = "maxMessages"
)

// Limits are the effective batching settings of a subscription.
type Limits struct {
	// MaxDuration is the effective maxDuration: callers pass it filled in
	// (core/subscription's rule table holds its default). Zero or less
	// closes every file at its first message.
	MaxDuration time.Duration
	MaxBytes    int64 // 0 means no limit
	MaxMessages int64 // 0 means no limit
}

// Output is the file format a subscription writes.
type Output string

const (
	Text Output = "text"
	Avro Output = "avro"
)

// separator is how many bytes a file holds between two messages: a text
// file separates payloads with "\n"; Avro records are counted by payload.
func (o Output) separator() int64 {
	if o == Avro {
		return 0
	}
	return 1
}

// File is one object the simulation writes.
type File struct {
	Index int    `json:"index"`
	Name  string `json:"name,omitempty"`
	// FirstMessage is when the file was created (its name carries this
	// time) and LastMessage when its last message arrived.
	FirstMessage time.Time `json:"firstMessage"`
	LastMessage  time.Time `json:"lastMessage"`
	// Closed is when the file was finalised.
	Closed   time.Time `json:"closed"`
	Messages int64     `json:"messages"`
	// Bytes is the size of a text file (payloads and the newlines between
	// them) or the payload bytes of an Avro file.
	Bytes    int64 `json:"bytes"`
	ClosedBy Limit `json:"closedBy"`
	// Oversized marks a file holding one message larger than maxBytes.
	Oversized bool `json:"oversized,omitempty"`
	// FirstIndex is the position in the stream of the file's first
	// message; the file holds the Messages messages from there on.
	FirstIndex int64 `json:"firstIndex"`
}

// Summary totals a whole simulation, including files not kept.
type Summary struct {
	Files    int64           `json:"files"`
	Messages int64           `json:"messages"`
	Bytes    int64           `json:"bytes"`
	ClosedBy map[Limit]int64 `json:"closedBy"`
	// Oversized counts files with one message larger than maxBytes.
	Oversized int64 `json:"oversized"`
	// Truncated says that Files holds only the first files.
	Truncated bool `json:"truncated"`
}

// Result is what a simulation produced.
type Result struct {
	Files   []File  `json:"files"`
	Summary Summary `json:"summary"`
}

// Batcher simulates how a Cloud Storage subscription cuts a stream of
// messages into files. It models one writer, fed messages in delivery
// order:
//
//   - A file is created by the first message that finds no file open, at
//     that message's time; the file's name carries that time. (The
//     service names a file after the time it creates it; delivery delay
//     is not modelled.)
//   - maxDuration: a file is finalised maxDuration after it was created.
//     A message arriving at or after that moment goes to a new file.
//   - maxBytes: a message that would take a non-empty file past maxBytes
//     finalises the file and starts the next one, so files never exceed
//     maxBytes, except that a message larger than maxBytes on its own is
//     written alone to a file that then exceeds it (the service documents
//     this). A file that reaches maxBytes exactly is finalised at once.
//   - maxMessages: a file is finalised as soon as it holds maxMessages
//     messages.
//   - When two limits are reached by one message, maxBytes is reported.
//   - A message whose time is earlier than the one before it is taken to
//     arrive with it: the clock never runs backwards.
//   - The last file is finalised by maxDuration.
//
// The service may also start files early and write several files at once;
// a single writer is the model its documented limits describe.
type Batcher struct {
	lim  Limits
	sep  int64
	keep int
	res  Result
	// Times are nanoseconds after base (the first message's time): plain
	// integers keep the per-message cost low, under WebAssembly too.
	base    time.Time
	hasBase bool
	open    bool
	cur     File
	start   int64 // when the open file was created
	last    int64 // its last message
	clock   int64
	n       int64
}

// NewBatcher returns a Batcher for the effective limits and output format
// that keeps the first keep files in full (the rest are only counted).
func NewBatcher(lim Limits, out Output, keep int) *Batcher {
	lim.MaxDuration = max(lim.MaxDuration, 0) // negative would saturate the close time
	return &Batcher{lim: lim, sep: out.separator(), keep: keep,
		res: Result{Summary: Summary{ClosedBy: map[Limit]int64{}}}}
}

// Add feeds one message of size bytes that arrived at t. Times more than
// about 292 years apart saturate.
func (b *Batcher) Add(t time.Time, size int64) {
	if !b.hasBase {
		b.base, b.hasBase = t, true
	}
	b.add(int64(t.Sub(b.base)), size)
}

func (b *Batcher) add(t, size int64) {
	if size < 0 {
		size = 0
	}
	if t < b.clock {
		t = b.clock
	}
	b.clock = t
	maxDur := int64(b.lim.MaxDuration)
	if b.open && t-b.start >= maxDur {
		b.close(add(b.start, maxDur), ByDuration)
	}
	if b.open && b.lim.MaxBytes > 0 && add(b.cur.Bytes, add(b.sep, size)) > b.lim.MaxBytes {
		b.close(t, ByBytes)
	}
	if !b.open {
		b.open = true
		b.cur = File{Index: int(b.res.Summary.Files), FirstIndex: b.n}
		b.start = t
		b.res.Summary.Files++
	} else {
		b.cur.Bytes = add(b.cur.Bytes, b.sep)
	}
	b.cur.Messages++
	b.cur.Bytes = add(b.cur.Bytes, size)
	b.last = t
	b.n++
	b.res.Summary.Messages++
	switch {
	case b.lim.MaxBytes > 0 && b.cur.Bytes >= b.lim.MaxBytes:
		b.close(t, ByBytes)
	case b.lim.MaxMessages > 0 && b.cur.Messages >= b.lim.MaxMessages:
		b.close(t, ByMessages)
	}
}

// add saturates instead of wrapping: hostile sizes must not make totals
// negative.
func add(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

func (b *Batcher) close(at int64, by Limit) {
	f := &b.cur
	f.ClosedBy = by
	f.Oversized = b.lim.MaxBytes > 0 && f.Bytes > b.lim.MaxBytes
	s := &b.res.Summary
	s.Bytes = add(s.Bytes, f.Bytes)
	s.ClosedBy[by]++
	if f.Oversized {
		s.Oversized++
	}
	if len(b.res.Files) < b.keep {
		f.FirstMessage = b.base.Add(time.Duration(b.start))
		f.LastMessage = b.base.Add(time.Duration(b.last))
		f.Closed = b.base.Add(time.Duration(at))
		b.res.Files = append(b.res.Files, *f)
	} else {
		s.Truncated = true
	}
	b.open = false
}

// Result finalises the open file, if any, and returns what was written.
// The Batcher must not be used afterwards.
func (b *Batcher) Result() Result {
	if b.open {
		b.close(add(b.start, int64(b.lim.MaxDuration)), ByDuration)
	}
	return b.res
}

// Stream is a synthetic message stream: Rate messages per second, evenly
// spaced from the start, each Size bytes, for Duration.
type Stream struct {
	Rate     float64
	Size     int64
	Duration time.Duration
}

// Count is how many messages the stream holds: those at offsets i/Rate
// that fall before Duration.
func (s Stream) Count() int64 {
	if s.Rate <= 0 || s.Duration <= 0 || math.IsNaN(s.Rate) || math.IsInf(s.Rate, 0) {
		return 0
	}
	n := math.Ceil(s.Rate*s.Duration.Seconds() - 1e-9)
	if n > math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(n)
}

// Simulate runs the stream from start through a Batcher. Runs of
// messages that only grow the open file are added in one step (see
// skip), so it costs time per file rather than per message, and memory
// only for the kept files: the playground runs it on every edit.
func (s Stream) Simulate(start time.Time, lim Limits, out Output, keep int) Result {
	r, _ := s.SimulateContext(context.Background(), start, lim, out, keep)
	return r
}

// SimulateContext is Simulate for a caller that may stop waiting: once ctx
// is done it returns ctx's error and no result.
func (s Stream) SimulateContext(ctx context.Context, start time.Time, lim Limits, out Output, keep int) (Result, error) {
	b := NewBatcher(lim, out, keep)
	b.base, b.hasBase = start, true
	n := s.Count()
	interval := 1e9 / s.Rate
	at := func(i int64) int64 { return int64(float64(i) * interval) }
	// step counts the loop's turns, one per file or less: the message
	// index jumps and would rarely land on a multiple of stop.Every.
	for i, step := int64(0), int64(0); i < n; step++ {
		if err := stop.Check(ctx, step); err != nil {
			return Result{}, err
		}
		b.add(at(i), s.Size)
		i = b.skip(i+1, n, at, s.Size)
	}
	return b.Result(), nil
}

// skip adds, in one step, the messages from index i on (of n, message j
// arriving at at(j), at(j) never decreasing) that add goes through without
// closing a file: each only adds its size and a separator to the open
// file. It returns the index of the first message it left for add. The
// result is the same as adding them one by one.
func (b *Batcher) skip(i, n int64, at func(int64) int64, size int64) int64 {
	if !b.open || i >= n {
		return i
	}
	size = max(size, 0)
	step := b.sep + size
	q := n - i
	if b.lim.MaxBytes > 0 && step > 0 {
		// The file stays under maxBytes after q more messages.
		q = min(q, (b.lim.MaxBytes-b.cur.Bytes-1)/step)
	}
	if b.lim.MaxMessages > 0 {
		q = min(q, b.lim.MaxMessages-b.cur.Messages-1)
	}
	if step > 0 {
		q = min(q, (math.MaxInt64-b.cur.Bytes)/step) // no saturation to mimic
	}
	// The first message at or after start+maxDuration closes the file.
	end := add(b.start, int64(b.lim.MaxDuration))
	if q > 0 && at(i+q-1) >= end {
		lo, hi := i, i+q-1 // at(hi) >= end; find the first such index
		for lo < hi {
			mid := lo + (hi-lo)/2
			if at(mid) >= end {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		q = lo - i
	}
	if q <= 0 {
		return i
	}
	b.cur.Messages += q
	b.cur.Bytes += q * step
	b.n += q
	b.res.Summary.Messages += q
	b.last = at(i + q - 1)
	b.clock = b.last
	return i + q
}

// NameFiles fills in the name of every file: created at its first
// message's time, with the uuid u gives for its index.
func (l *Layout) NameFiles(files []File, u UUIDs) {
	for i := range files {
		files[i].Name = l.Name(files[i].FirstMessage, u.At(files[i].Index))
	}
}
