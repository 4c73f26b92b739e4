package diag_test

import (
	"testing"

	"github.com/subplay/subplay/core/diag"
)

// TestLocateWidensToCharacters: a span whose ends fall inside a UTF-8
// character is located as the whole character, so a column never counts
// a character's leading bytes as columns of their own; bytes that are
// not UTF-8 are characters of their own and stay as they are.
func TestLocateWidensToCharacters(t *testing.T) {
	cases := []struct {
		name       string
		text       string
		start, end int
		// want is the located span and its columns (one line).
		wantStart, wantEnd int
		col, endCol        int
	}{
		{"on boundaries", "{é}", 1, 3, 1, 3, 2, 3},
		{"end inside a two-byte character", "{é}", 1, 2, 1, 3, 2, 3},
		{"start inside a three-byte character", "a€b", 2, 4, 1, 4, 2, 3},
		{"both ends inside a four-byte character", "x😀y", 2, 3, 1, 5, 2, 3},
		{"end inside the last character", "ab日", 2, 4, 2, 5, 3, 4},
		{"an invalid byte before a character", "\xff\u3000z", 0, 2, 0, 4, 1, 3},
		{"a truncated character stays bytes", "a\xe3\x80b", 2, 3, 2, 3, 3, 4},
		{"ASCII", "abc", 1, 2, 1, 2, 2, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ds := []diag.Diagnostic{{Span: diag.SpanOf(tc.start, tc.end)}}
			diag.NewSource("t", tc.text).Locate(ds)
			d := ds[0]
			if s, e := d.Span.Start.Offset(), d.Span.End.Offset(); s != tc.wantStart || e != tc.wantEnd || d.Column != tc.col || d.EndColumn != tc.endCol {
				t.Errorf("[%d, %d) located as [%d, %d) at columns %d-%d, want [%d, %d) at %d-%d",
					tc.start, tc.end, s, e, d.Column, d.EndColumn, tc.wantStart, tc.wantEnd, tc.col, tc.endCol)
			}
		})
	}
}
