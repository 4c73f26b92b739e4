package diag

import (
	"strings"
	"testing"
)

func TestSourceFinish(t *testing.T) {
	line := strings.Repeat("x", 1000)
	// findings on one long line, written in reverse order of position
	many := func(n int) []Diagnostic {
		var ds []Diagnostic
		for i := n - 1; i >= 0; i-- {
			ds = append(ds, Diagnostic{Severity: Error, Code: "c", Message: "m", Span: SpanOf(i, i+1)})
		}
		return ds
	}
	tests := []struct {
		name      string
		ds        []Diagnostic
		wantLen   int
		wantNote  bool
		lastColOK int // the column of the last located finding
	}{
		{"a few are all kept", many(3), 3, false, 3},
		{"past the cap, the first by position are kept and a note counts the rest", many(MaxDiagnostics + 50), MaxDiagnostics + 1, true, MaxDiagnostics},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NewSource("f", line).Finish(tt.ds)
			if len(got) != tt.wantLen {
				t.Fatalf("%d findings, want %d", len(got), tt.wantLen)
			}
			located := got
			if tt.wantNote {
				if last := got[len(got)-1]; last.Code != "too-many-diagnostics" || last.Line != 0 {
					t.Errorf("last finding %+v, want the unlocated too-many-diagnostics note", last)
				}
				located = got[:len(got)-1]
			}
			for i, d := range located {
				if d.Line != 1 || d.Column != i+1 {
					t.Fatalf("finding %d at %d:%d, want 1:%d (located and in order)", i, d.Line, d.Column, i+1)
				}
			}
			if c := located[len(located)-1].Column; c != tt.lastColOK {
				t.Errorf("last located column %d, want %d", c, tt.lastColOK)
			}
		})
	}
}
