package doc

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/subplay/subplay/core/limits"
)

// scanFuzzLimit is the scan's depth limit in FuzzYAMLScan: small, so that
// short inputs can pass it.
const scanFuzzLimit = 6

// FuzzYAMLScan checks the promise the parser's safety rests on: a text the
// depth scan lets through nests at most limits.YAMLScanDepthFactor times
// the scan's limit in yaml.v3's own tree, so the library never recurses
// far on a text the scan passed. It also checks that a refusal points
// inside the text.
func FuzzYAMLScan(f *testing.F) {
	for _, s := range yamlSeeds {
		f.Add(s)
	}
	for _, s := range []string{
		staircase(4), staircase(8), compact(3), compact(5), "a: " + strings.Repeat("{b: ", 8) + "1" + strings.Repeat("}", 8),
		// Explicit keys and values ("? ", ": ") once hid what follows them.
		"? " + strings.Repeat("[", 20) + strings.Repeat("]", 20) + "\n: 1\n", "?" + strings.Repeat(" -", 20) + " x\n: 1\n",
		"a:\n  :" + strings.Repeat(" -", 20) + " x\n", "? a\n: " + strings.Repeat("{a: ", 20) + "1" + strings.Repeat("}", 20) + "\n",
		"- ? - ? - [[[x]]]\n",
		// yaml.v3 ends a line at a lone CR and at NEL, LS and PS too.
		"\r- - - - - - - - - - - - - x", "\u2028- - - - - - - - - - - - -\n", "a:\r b:\r  c:\r   d:\r    e:\r     f:\r      g:\r       h: 1\r", "a: |\n  [[[[[[[[[[\nb: '[[[[[[[['\n", "a: !!seq &x [[[[[[[[]]]]]]]]\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1<<12 {
			return
		}
		deep, many, _ := scanYAML(text, scanFuzzLimit, limits.YAMLNodes, limits.ObjectMembers)
		if deep > len(text) || many > len(text) {
			t.Fatalf("refused at %d, %d in a text of %d bytes", deep, many, len(text))
		}
		if deep >= 0 || many >= 0 {
			return
		}
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(text), &n); err != nil {
			return
		}
		if d := collectionDepth(&n); d > limits.YAMLScanDepthFactor*scanFuzzLimit {
			t.Fatalf("the scan let through a text %d collections deep (limit %d, factor %d):\n%s", d, scanFuzzLimit, limits.YAMLScanDepthFactor, text)
		}
	})
}

// collectionDepth returns how deeply mappings and sequences nest in n,
// without following aliases (the walker bounds those by count).
func collectionDepth(n *yaml.Node) int {
	type at struct {
		n *yaml.Node
		d int
	}
	deepest := 0
	stack := []at{{n, 0}}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		d := x.d
		if x.n.Kind == yaml.MappingNode || x.n.Kind == yaml.SequenceNode {
			d++
			deepest = max(deepest, d)
		}
		for _, c := range x.n.Content {
			stack = append(stack, at{c, d})
		}
	}
	return deepest
}
