package doc

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
)

// fastAgrees checks the fast reader against the yaml.v3 walk on text: when
// the fast reader takes text, the walk must find nothing and build the
// same tree, spans and styles included. It reports whether the fast reader
// took it.
func fastAgrees(t *testing.T, text string) bool {
	t.Helper()
	fast, ok := parseYAMLFast(text, limits.DocumentDepth)
	if !ok {
		return false
	}
	full, ds, _ := parseYAMLFull(diag.NewSource("t.yaml", text), limits.DocumentDepth, limits.ObjectMembers)
	if len(ds) > 0 {
		t.Fatalf("the fast reader took %q, which yaml.v3 refuses: %+v", text, ds)
	}
	if !reflect.DeepEqual(fast, full) {
		t.Fatalf("the fast reader and yaml.v3 disagree on %q:\nfast: %s\nfull: %s", text, dumpNode(fast), dumpNode(full))
	}
	return true
}

// dumpNode writes a tree with its spans and styles, for failure messages.
func dumpNode(n *Node) string {
	var b strings.Builder
	var walk func(n *Node, in string)
	walk = func(n *Node, in string) {
		if n == nil {
			b.WriteString(in + "nil\n")
			return
		}
		b.WriteString(in + n.Kind.String() + " " + itoa(n.Span.Start.Offset()) + "-" + itoa(n.Span.End.Offset()) +
			" style " + itoa(int(n.style)) + " " + quote(n.Value))
		if n.Items != nil {
			b.WriteString(" items " + itoa(len(n.Items)))
		}
		b.WriteString("\n")
		for _, m := range n.Members {
			b.WriteString(in + "  key " + quote(m.Key) + " " + itoa(m.KeySpan.Start.Offset()) + "-" + itoa(m.KeySpan.End.Offset()) + "\n")
			walk(m.Value, in+"    ")
		}
		for _, x := range n.Items {
			walk(x, in+"  - ")
		}
	}
	walk(n, "")
	return b.String()
}

// repoYAML returns the YAML files the repository's tests read.
func repoYAML(t testing.TB) map[string]string {
	out := map[string]string{}
	for _, glob := range []string{"../subscription/testdata/examples/*.yaml", "../../cmd/subplay/testdata/*.yaml"} {
		files, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out[f] = string(b)
		}
	}
	if len(out) < 5 {
		t.Fatalf("found %d YAML files, expected the examples", len(out))
	}
	return out
}

func TestYAMLFastTakesTheExamples(t *testing.T) {
	for name, text := range repoYAML(t) {
		if !fastAgrees(t, text) && strings.Contains(name, "examples") {
			// What gcloud prints is what the fast reader is for.
			t.Errorf("%s: the fast reader gave up on an example configuration", name)
		}
	}
}

func TestYAMLFast(t *testing.T) {
	cases := []struct {
		name, in string
		taken    bool
	}{
		{"flat", "a: 1\nb: x\n", true},
		{"nested", "a:\n  b:\n    c: d\n  e: f\ng: h", true},
		{"comments and blank lines", "# c\n\na: 1 # c\n  # c\n\nb: 'x' # c\n#", true},
		{"scalars", "a: ~\nb: True\nc: FALSE\nd: 0\ne: 123\nf: 600s\ng: 3.5s\nh: http://x/y?z=1#f\ni: a#b\nj: <<\nk: \"q: r\"\nl: ''\nm: y\nn: null\n", true},
		{"empty flow", "a: {}\nb: []\nc: [] # c\n", true},
		{"sequences", "a:\n- x\n- y\nb:\n  - 1\n  -   c: d\n      e: f\n  -\n    g: h\n", true},
		{"sequence at the root", "- a\n- b: c\n", true},
		{"key with spaces", "a b : c\n", true},
		{"indented root", "  a: 1\n  b: 2\n", true},
		{"empty value", "a:\nb: 1\n", false},
		{"empty item", "- \n- a\n", false},
		{"multi-line plain", "a: b\n  c\n", false},
		{"block scalar", "a: |\n  x\n", false},
		{"anchor", "a: &x 1\nb: *x\n", false},
		{"tag", "a: !!str 1\n", false},
		{"flow content", "a: [1]\n", false},
		{"escape", "a: \"x\\ny\"\n", false},
		{"single quote escape", "a: 'it''s'\n", false},
		{"duplicate", "a: 1\na: 2\n", false},
		{"merge", "<<: {}\n", false},
		{"float", "a: 1.5\n", false},
		{"octal", "a: 0123\n", false},
		{"timestamp", "a: 2024-01-01\n", false},
		{"negative", "a: -1\n", false},
		{"tab", "a:\t1\n", false},
		{"crlf", "a: 1\r\n", false},
		{"non-ASCII", "a: é\n", false},
		{"two documents", "a: 1\n---\nb: 2\n", false},
		{"document start", "---\na: 1\n", false},
		{"scalar root", "a\n", false},
		{"mapping in a value", "a: b: c\n", false},
		{"bad indentation", "a:\n    b: 1\n  c: 2\n", false},
		{"trailing text after a quote", "a: 'x' y\n", false},
		{"only comments", "# a\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := fastAgrees(t, c.in); got != c.taken {
				t.Errorf("fast reader took it: %v, want %v", got, c.taken)
			}
		})
	}
}

func TestYAMLFastDepth(t *testing.T) {
	for _, depth := range []int{limits.DocumentDepth - 1, limits.DocumentDepth, limits.DocumentDepth + 1, 10 * limits.DocumentDepth} {
		var b strings.Builder
		for i := range depth {
			b.WriteString(strings.Repeat(" ", i) + "a:\n")
		}
		b.WriteString(strings.Repeat(" ", depth) + "b: 1\n")
		text := b.String() // depth+1 mappings
		if got, want := fastAgrees(t, text), depth+1 <= limits.DocumentDepth; got != want {
			t.Errorf("depth %d: taken %v, want %v", depth+1, got, want)
		}
		if _, ds := Parse("t.yaml", text, YAML); (len(ds) > 0) == (depth+1 <= limits.DocumentDepth) {
			t.Errorf("depth %d: findings %v", depth+1, ds)
		}
	}
}

// genYAML writes a random document in and around the fast reader's subset:
// mappings and sequences at random indentation, indentless and compact
// sequences, every scalar form the fast reader resolves and some it does
// not, comments and blank lines.
func genYAML(r *rand.Rand, b *strings.Builder, depth, col int, inSeq bool) {
	scalars := []string{"x", "a b", "1", "0", "42", "007", "-3", "1.5", "600s", "3.5s", "2024-01-01", "true", "False", "NULL", "~", "y",
		"http://h/p?q=1", "a#b", "'q'", `"d"`, `"a: b"`, "''", `""`, "{}", "[]", "[a]", "<<", ".5", "+1", "2678400s", "0s", "1.s", "1234-x", "12345"}
	ind := strings.Repeat(" ", col)
	comment := func() {
		switch r.IntN(10) {
		case 0:
			b.WriteString(" # c")
		case 1:
			b.WriteString("  ")
		}
	}
	extra := func() {
		switch r.IntN(12) {
		case 0:
			b.WriteString("\n")
		case 1:
			b.WriteString(strings.Repeat(" ", r.IntN(col+3)) + "# note\n")
		}
	}
	value := func(keyCol int) {
		if depth <= 0 || r.IntN(2) == 0 {
			b.WriteString(" " + scalars[r.IntN(len(scalars))])
			comment()
			b.WriteString("\n")
			return
		}
		comment()
		b.WriteString("\n")
		if r.IntN(4) == 0 { // a sequence indented like its key
			genSeq(r, b, depth-1, keyCol)
			return
		}
		genYAML(r, b, depth-1, keyCol+1+r.IntN(3), false)
	}
	if r.IntN(3) == 0 && !inSeq {
		genSeq(r, b, depth, col)
		return
	}
	n := 1 + r.IntN(4)
	keys := []string{"a", "b", "ackDeadlineSeconds", "x-y", "k k", "true", "c"}
	for i := range n {
		if i > 0 || !inSeq {
			b.WriteString(ind)
		}
		b.WriteString(keys[r.IntN(len(keys))] + ":")
		value(col)
		extra()
	}
}

func genSeq(r *rand.Rand, b *strings.Builder, depth, col int) {
	ind := strings.Repeat(" ", col)
	for range 1 + r.IntN(3) {
		b.WriteString(ind + "-")
		switch {
		case depth > 0 && r.IntN(3) == 0: // a compact mapping
			pad := 1 + r.IntN(2)
			b.WriteString(strings.Repeat(" ", pad))
			genYAML(r, b, depth-1, col+1+pad, true)
		case depth > 0 && r.IntN(4) == 0:
			b.WriteString("\n")
			genYAML(r, b, depth-1, col+1+r.IntN(2), false)
		default:
			b.WriteString(" " + []string{"v", "1", "'s'", "a: b", "{}", "~", "10s"}[r.IntN(7)] + "\n")
		}
	}
}

// mutate damages text a little: what a person typing leaves behind.
func mutate(r *rand.Rand, text string) string {
	if text == "" {
		return text
	}
	const pieces = " :-#'\"\n{}[]\t&*|>"
	for range 1 + r.IntN(3) {
		i := r.IntN(len(text))
		switch r.IntN(3) {
		case 0:
			text = text[:i] + text[i+1:]
		case 1:
			text = text[:i] + string(pieces[r.IntN(len(pieces))]) + text[i:]
		default:
			text = text[:i] + " " + text[i:]
		}
		if text == "" {
			break
		}
	}
	return text
}

// TestPropertyYAMLFastAgrees runs the fast reader and the yaml.v3 walk on
// random documents and on damaged copies of them, and checks that the fast
// reader takes a good share of the clean ones (else this tests nothing).
func TestPropertyYAMLFastAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	n := 4000
	if testing.Short() {
		n = 500
	}
	taken := 0
	for range n {
		var b strings.Builder
		genYAML(r, &b, 3, r.IntN(2), false)
		text := b.String()
		if fastAgrees(t, text) {
			taken++
		}
		for range 4 {
			fastAgrees(t, mutate(r, text))
		}
	}
	if taken < n/5 {
		t.Errorf("the fast reader took %d of %d generated documents", taken, n)
	}
	t.Logf("the fast reader took %d of %d generated documents", taken, n)
}

func FuzzYAMLFast(f *testing.F) {
	for _, text := range repoYAML(f) {
		f.Add(text)
	}
	for _, s := range yamlSeeds {
		f.Add(s)
	}
	r := rand.New(rand.NewPCG(7, 8))
	for range 20 {
		var b strings.Builder
		genYAML(r, &b, 3, 0, false)
		f.Add(b.String())
	}
	f.Fuzz(func(t *testing.T, text string) {
		fastAgrees(t, text)
	})
}
