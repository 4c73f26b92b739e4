package doc

import (
	"math"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/limits"
)

// staircase nests n block mappings, each key one space deeper.
func staircase(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat(" ", i) + "b:\n")
	}
	return b.String() + strings.Repeat(" ", n) + "c: 1\n"
}

// compact nests n mappings, each holding a sequence written at its key's
// indentation: 2n real levels that the scan counts as about n.
func compact(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat(" ", 2*i) + "- k:\n")
	}
	return b.String() + strings.Repeat(" ", 2*n) + "- x\n"
}

// TestYAMLTooDeep checks that the scan refuses what nests far too deep
// before the YAML library recurses, and lets every ordinary document
// through to the exact check of the walker.
func TestYAMLTooDeep(t *testing.T) {
	limit := limits.DocumentDepth * limits.YAMLScanDepthFactor
	cases := []struct {
		name    string
		in      string
		refused bool
		code    string // the parse's one finding, or "" for none
	}{
		{"flow mappings 5000 deep", "a: " + strings.Repeat("{b: ", 5000) + "1" + strings.Repeat("}", 5000) + "\n", true, "too-deep"},
		{"flow mappings 100000 deep", "a: " + strings.Repeat("{b: ", 100_000) + "1" + strings.Repeat("}", 100_000) + "\n", true, "too-deep"},
		{"flow sequences never closed", strings.Repeat("[", 1<<19), true, "too-deep"},
		{"flow sequences after a key", "a: " + strings.Repeat("[", 300) + strings.Repeat("]", 300), true, "too-deep"},
		{"anchored flow", "a: &x !!seq " + strings.Repeat("[", 300), true, "too-deep"},
		{"block staircase 1000 deep", staircase(1000), true, "too-deep"},
		{"dashes 5000 deep", strings.Repeat("- ", 5000) + "x\n", true, "too-deep"},
		{"compact sequences 200 deep", compact(200), true, "too-deep"},
		{"flow after an explicit key 5000 deep", "? " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n: 1\n", true, "too-deep"},
		{"dashes after an explicit key 5000 deep", "?" + strings.Repeat(" -", 5000) + " x\n: 1\n", true, "too-deep"},
		{"dashes after a lone CR 5000 deep", "\r" + strings.Repeat("- ", 5000) + "x", true, "too-deep"},
		{"dashes after a line separator 5000 deep", "\u2028" + strings.Repeat("- ", 5000) + "x", true, "too-deep"},
		{"staircase with CR line ends", strings.ReplaceAll(staircase(1000), "\n", "\r"), true, "too-deep"},
		{"staircase with CRLF line ends at the limit", strings.ReplaceAll(staircase(limits.DocumentDepth-1), "\n", "\r\n"), false, ""},
		{"explicit key and value", "? a\n: b\n", false, ""},
		{"block staircase at the limit", staircase(limits.DocumentDepth - 1), false, ""},
		{"block staircase past the limit, left to the walker", staircase(70), false, "too-deep"},
		{"compact sequences at the limit", compact(limits.DocumentDepth/2 - 1), false, ""},
		{"flow at the limit", strings.Repeat("[", 64) + strings.Repeat("]", 64), false, ""},
		{"brackets in quotes", "a: \"" + strings.Repeat("[", 300) + "\"\nb: '" + strings.Repeat("{", 300) + "'\n", false, ""},
		{"brackets in a plain scalar", "a: x" + strings.Repeat("[", 300) + "\n", false, ""},
		{"brackets in comments", "a: 1 # " + strings.Repeat("[", 300) + "\n", false, ""},
		{"brackets in a block scalar", "a: |\n  " + strings.Repeat("[", 300) + "\nb: 1\n", false, ""},
		{"indented block scalar", "a: >-\n" + indentLines(staircase(300), "  ") + "b: 1\n", false, ""},
		{"quoted scalar over lines", "a: \"x\n" + indentLines(staircase(300), "  ") + "\"\n", false, ""},
		{"documents reset the count", strings.Repeat(staircase(60)+"---\n", 3), false, "yaml-multiple-documents"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := yamlTooDeep(c.in, limit) >= 0; got != c.refused {
				t.Errorf("refused by the scan: %v, want %v", got, c.refused)
			}
			_, ds := Parse("t", c.in, YAML)
			var codes []string
			for _, d := range ds {
				codes = append(codes, d.Code)
				if d.Code == "too-deep" && d.Line == 0 {
					t.Errorf("too-deep without a position: %+v", d)
				}
			}
			if c.code == "" && len(codes) > 0 || c.code != "" && (len(codes) == 0 || codes[0] != c.code) {
				t.Errorf("findings %v, want [%s]", codes, c.code)
			}
		})
	}
}

func indentLines(s, by string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = by + l
		}
	}
	return strings.Join(lines, "")
}

// TestYAMLManyFlowEntries checks that the scan refuses a flow collection
// with more entries than a document may hold before yaml.v3 builds it, and
// counts only the commas that separate entries.
func TestYAMLManyFlowEntries(t *testing.T) {
	n := limits.YAMLNodes
	cases := []struct {
		name    string
		in      string
		refused bool
	}{
		{"one-line mapping past the bound", "{a: 1" + strings.Repeat(", a: 1", n+2) + "}\n", true},
		{"sequence past the bound", "a: [1" + strings.Repeat(",1", n+2) + "]\n", true},
		{"sequence under the bound", "a: [1" + strings.Repeat(",1", n/2) + "]\n", false},
		{"commas in a quoted scalar", "a: \"" + strings.Repeat(",", 2*n) + "\"\n", false},
		{"commas in a single-quoted flow scalar", "a: ['" + strings.Repeat(",", 2*n) + "']\n", false},
		{"commas in a block plain scalar", "a: " + strings.Repeat("x,", 2*n) + "\n", false},
		{"commas in a comment", "a: [1] # " + strings.Repeat(",", 2*n) + "\n", false},
		{"commas in a block scalar", "a: |\n  " + strings.Repeat(",", 2*n) + "\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// A mapping this wide passes limits.ObjectMembers first.
			_, many, wide := scanYAML(c.in, math.MaxInt, n, limits.ObjectMembers)
			if got := many >= 0 || wide >= 0; got != c.refused {
				t.Fatalf("refused by the scan: %v (at %d, %d), want %v", got, many, wide, c.refused)
			}
			if !c.refused {
				return
			}
			_, ds := Parse("t", c.in, YAML)
			if len(ds) != 1 || ds[0].Code != "too-large" || ds[0].Line != 1 || ds[0].Column < 2 {
				t.Errorf("findings %+v, want one positioned too-large", ds)
			}
		})
	}
}
