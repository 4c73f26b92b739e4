package main

import (
	"testing"
	"time"

	"github.com/subplay/subplay/core/playground/hostile"
)

// TestSlowBeside: an ordinary request over the line counts once for each
// hostile case that overlapped it, however many of its requests did; one
// under the line and a case that overlapped none count nothing.
func TestSlowBeside(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(fromMs, toMs int, c int) span {
		return span{start: t0.Add(time.Duration(fromMs) * time.Millisecond), end: t0.Add(time.Duration(toMs) * time.Millisecond), c: c}
	}
	cases := []hostile.Case{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	ordinary := []span{
		at(0, 100, -1),   // slow: a twice, b once
		at(200, 300, -1), // slow: b
		at(400, 405, -1), // fast, beside c
	}
	host := []span{at(10, 20, 0), at(50, 150, 0), at(90, 250, 1), at(401, 402, 2)}
	n, got := slowBeside(ordinary, host, cases, 50)
	if n != 2 {
		t.Fatalf("slow requests %d, want 2", n)
	}
	want := []beside{{Case: "b", Slow: 2, Requests: 1, LongestMs: 160}, {Case: "a", Slow: 1, Requests: 2, LongestMs: 100}}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if n, got := slowBeside(ordinary, host, cases, 0); n != 0 || got != nil {
		t.Errorf("no line: got %d %+v", n, got)
	}
}
