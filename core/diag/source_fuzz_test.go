package diag_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
)

// naiveLineCol is the definition LineCol must keep: count the code points
// from the start of the line.
func naiveLineCol(text string, offset int) (int, int) {
	offset = min(max(offset, 0), len(text))
	start := strings.LastIndexByte(text[:offset], '\n') + 1
	return strings.Count(text[:offset], "\n") + 1, utf8.RuneCountInString(text[start:offset]) + 1
}

// naiveOffset is the definition Offset must keep: decode code points from
// the start of the line, stopping at its end (before a "\r\n").
func naiveOffset(text string, line, col int) int {
	start := 0
	for l := 1; l < line; l++ {
		start += strings.IndexByte(text[start:], '\n') + 1
	}
	end := len(text)
	if i := strings.IndexByte(text[start:], '\n'); i >= 0 {
		end = start + i
	}
	if end > start && text[end-1] == '\r' {
		end--
	}
	off := start
	for c := 1; c < col && off < end; c++ {
		_, n := utf8.DecodeRuneInString(text[off:end])
		off += n
	}
	return off
}

// longLines are texts whose lines pass the checkpoint spacing, with runes
// of every width and bytes that are not UTF-8 across the checkpoints.
var longLines = []string{
	strings.Repeat("a", 2000),
	strings.Repeat("é", 700) + "\n" + strings.Repeat("😀x", 300),
	strings.Repeat("ab\xffc\xe2\x82", 200) + "\r\n" + strings.Repeat("日本", 400),
	strings.Repeat("\xf0\x9f", 500) + strings.Repeat("z", 300),
}

// TestColumnsOnLongLines checks the checkpoints against counting from the
// start of each line, at every offset, and Offset as LineCol's inverse.
func TestColumnsOnLongLines(t *testing.T) {
	for i, text := range longLines {
		checkColumns(t, i, text, 1)
	}
}

// checkColumns checks every step-th offset of text.
func checkColumns(t *testing.T, name any, text string, step int) {
	t.Helper()
	src := diag.NewSource("t", text)
	for off := 0; off <= len(text); off += step {
		l, c := src.LineCol(off)
		nl, nc := naiveLineCol(text, off)
		if l != nl || c != nc {
			t.Fatalf("%v: offset %d at %d:%d, want %d:%d", name, off, l, c, nl, nc)
		}
		if o, no := src.Offset(l, c), naiveOffset(text, l, c); o != no {
			t.Fatalf("%v: Offset(%d, %d) = %d, want %d", name, l, c, o, no)
		}
	}
}

// checkOnRunes checks what Locate does to spans between every step-th
// offset against decoding the text from its start: the result holds the
// span, both ends are character boundaries (a byte that is not UTF-8 is a
// character of its own), and each end moved less than one character.
func checkOnRunes(t *testing.T, text string, step int) {
	t.Helper()
	boundary := make([]bool, len(text)+1)
	for off := 0; off < len(text); {
		boundary[off] = true
		_, n := utf8.DecodeRuneInString(text[off:])
		off += n
	}
	boundary[len(text)] = true
	src := diag.NewSource("t", text)
	for a := 0; a <= len(text); a += step {
		b := min(len(text), a+step)
		ds := []diag.Diagnostic{{Span: diag.SpanOf(a, b)}}
		src.Locate(ds)
		s, e := ds[0].Span.Start.Offset(), ds[0].Span.End.Offset()
		if s > a || e < b || a-s >= utf8.UTFMax || e-b >= utf8.UTFMax || !boundary[s] || !boundary[e] {
			t.Fatalf("[%d, %d) located as [%d, %d)", a, b, s, e)
		}
		if l, c := src.LineCol(s); l != ds[0].Line || c != ds[0].Column {
			t.Fatalf("[%d, %d): located at %d:%d, its start is at %d:%d", a, b, ds[0].Line, ds[0].Column, l, c)
		}
	}
}

// FuzzSource checks that locating stays what it was defined as (code
// points from the start of the line) however the text is made.
func FuzzSource(f *testing.F) {
	for _, s := range longLines {
		f.Add(s)
	}
	f.Add("a\nb\r\nc")
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1<<14 {
			return // every offset is checked: keep a run short
		}
		// The naive definitions count from the start: a few hundred
		// offsets per input keep the fuzzer fast.
		checkColumns(t, "fuzz", text, max(1, len(text)/200))
		checkOnRunes(t, text, max(1, len(text)/50))
	})
}

// BenchmarkLocateOneLine locates a finding every 16 bytes of a megabyte on
// one line, in a text that is not ASCII: linear, not quadratic.
func BenchmarkLocateOneLine(b *testing.B) {
	text := strings.Repeat(`{"é":1},`, 1<<17)
	ds := make([]diag.Diagnostic, 0, len(text)/16)
	for off := 0; off+16 < len(text); off += 16 {
		ds = append(ds, diag.Diagnostic{Span: diag.SpanOf(off, off+4)})
	}
	for b.Loop() {
		for i := range ds {
			ds[i].Line = 0
		}
		diag.NewSource("t", text).Locate(ds)
	}
}
