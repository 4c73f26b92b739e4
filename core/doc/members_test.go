package doc_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/limits"
)

// TestObjectMembers: an object with more members than limits.ObjectMembers
// is refused with one finding at the first key too many, in either format
// and layout, and one at the bound is read.
func TestObjectMembers(t *testing.T) {
	n := limits.ObjectMembers
	// keys writes k0..k(count-1) with sep between and a value after each.
	keys := func(count int, quote, colon, sep string) string {
		var b strings.Builder
		for i := 0; i < count; i++ {
			if i > 0 {
				b.WriteString(sep)
			}
			b.WriteString(quote + "k" + strconv.Itoa(i) + quote + colon + "1")
		}
		return b.String()
	}
	cases := []struct {
		name      string
		f         doc.Format
		in        string
		line, col int // of the refused key; 0: the text is read whole, -1: read without findings
	}{
		{"json one line", doc.JSON, `{"labels":{` + keys(n+5, `"`, ":", ",") + "}}", 1, len(`{"labels":{`+keys(n, `"`, ":", ",")+`,`) + 1},
		{"json one line, non-ASCII before", doc.JSON, `{"é":1,"labels":{` + keys(n+5, `"`, ":", ",") + "}}",
			1, len([]rune(`{"é":1,"labels":{`+keys(n, `"`, ":", ",")+`,`)) + 1},
		{"json a member per line", doc.JSON, "{\n" + keys(n+1, `"`, ": ", ",\n") + "\n}", n + 2, 1},
		{"json duplicates count", doc.JSON, `{"a":1` + strings.Repeat(`,"a":1`, n) + "}", 1, len(`{"a":1`+strings.Repeat(`,"a":1`, n-1)+`,`) + 1},
		{"json at the bound", doc.JSON, "{" + keys(n, `"`, ":", ",") + "}", 0, 0},
		{"yaml block mapping", doc.YAML, "labels:\n" + keys(n+3, "  ", ": ", "\n") + "\n", n + 2, 3},
		{"yaml flow mapping", doc.YAML, "labels: {" + keys(n+3, "", ": ", ", ") + "}\n", 1, len("labels: {"+keys(n, "", ": ", ", ")+", ") + 1},
		{"yaml at the bound", doc.YAML, keys(n, "", ": ", "\n") + "\n", 0, 0},
		// Lines that look like keys but are not members of one mapping.
		{"yaml block scalar", doc.YAML, "a: |\n" + keys(n+3, "  ", ": ", "\n") + "\n", -1, 0},
		{"yaml quoted scalar over lines", doc.YAML, "a: \"" + keys(n+3, "  ", ": ", "\n") + "\"\n", -1, 0},
		{"yaml sequence of one-key mappings", doc.YAML, keys(n+3, "- ", ": ", "\n") + "\n", -1, 0},
		{"yaml flow sequence of pairs", doc.YAML, "[" + keys(n+3, "", ": ", ", ") + "]\n", -1, 0},
		{"yaml mappings side by side", doc.YAML, "a:\n" + keys(n, "  ", ": ", "\n") + "\nb:\n" + keys(n, "  ", ": ", "\n") + "\n", -1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, ds := doc.Parse("t", c.in, c.f)
			if c.line < 0 {
				if len(ds) != 0 {
					t.Fatalf("%d findings (%.300v), want none", len(ds), ds)
				}
				return
			}
			if c.line == 0 {
				if len(ds) != 0 || d == nil || d.Root == nil || len(d.Root.Members) != n {
					t.Fatalf("%d findings, want none and the %d members read", len(ds), n)
				}
				return
			}
			if len(ds) != 1 || ds[0].Code != "too-large" || ds[0].Line != c.line || ds[0].Column != c.col {
				t.Fatalf("%d findings (%.300v), want one too-large at %d:%d", len(ds), ds, c.line, c.col)
			}
			if want := "k" + strconv.Itoa(n); c.name != "json duplicates count" && !strings.Contains(at(t, c.in, ds[0].Span), want) {
				t.Errorf("the finding points at %q, want the key %s", at(t, c.in, ds[0].Span), want)
			}
			if d != nil && d.Root != nil {
				t.Errorf("a refused text still has a tree")
			}
		})
	}
}
