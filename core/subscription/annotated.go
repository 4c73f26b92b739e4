package subscription

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/subplay/subplay/core/diag"
)

// AnnotatedYAML writes the effective settings as YAML in gcloud's style
// (block style, keys sorted), with "# default" on each value that comes
// from a default and "# derived" on each derived one, so a reader sees at
// a glance what the configuration set and what the service fills in.
func (e *Effective) AnnotatedYAML() (string, error) {
	j, err := json.Marshal(e.Subscription)
	if err != nil {
		return "", err
	}
	var n yaml.Node
	if err := yaml.Unmarshal(yamlSafe(j), &n); err != nil {
		return "", err
	}
	e.annotate(&n, "")
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return "", err
	}
	return b.String(), nil
}

// yamlSafe escapes, in JSON text, the characters JSON leaves as they are
// but YAML does not allow unescaped (DEL, the C1 controls, U+FFFE and
// U+FFFF) or reads otherwise (NEL, a line break to YAML, folded into a
// space inside a quoted string). JSON's syntax is ASCII, so such a character is always in a
// string, where \uXXXX means the same in both. A label value with a DEL
// in it made the YAML reader refuse the effective settings (FuzzCall).
func yamlSafe(j []byte) []byte {
	var b []byte
	for i := 0; i < len(j); {
		r, n := utf8.DecodeRune(j[i:])
		if r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0xfffe || r == 0xffff {
			if b == nil {
				b = append(make([]byte, 0, len(j)+16), j[:i]...)
			}
			b = fmt.Appendf(b, "\\u%04x", r)
		} else if b != nil {
			b = append(b, j[i:i+n]...)
		}
		i += n
	}
	if b == nil {
		return j
	}
	return b
}

// annotate walks the node of path. The depth is that of the model, not of
// user input: the effective settings hold only the fields we know.
func (e *Effective) annotate(n *yaml.Node, path string) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			e.annotate(c, path)
		}
	case yaml.MappingNode:
		n.Style = 0
		type pair struct{ k, v *yaml.Node }
		pairs := make([]pair, 0, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			pairs = append(pairs, pair{n.Content[i], n.Content[i+1]})
		}
		sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].k.Value < pairs[j].k.Value })
		n.Content = n.Content[:0]
		for _, p := range pairs {
			cp := path + "/" + diag.PointerKey(p.k.Value)
			p.k.Style = 0
			e.annotate(p.v, cp)
			// The comment goes where YAML prints it on the same line:
			// after a scalar or {}, or after the key of a block.
			at := p.v
			if p.v.Kind == yaml.MappingNode && len(p.v.Content) > 0 || p.v.Kind == yaml.SequenceNode {
				at = p.k
			}
			switch e.Origins[cp] {
			case Default:
				at.LineComment = "default"
			case Derived:
				at.LineComment = "derived"
			}
			n.Content = append(n.Content, p.k, p.v)
		}
		if len(pairs) == 0 {
			n.Style = yaml.FlowStyle
		}
	case yaml.SequenceNode:
		n.Style = 0
		for i, c := range n.Content {
			e.annotate(c, path+"/"+strconv.Itoa(i))
		}
	case yaml.ScalarNode:
		n.Style &^= yaml.DoubleQuotedStyle
	}
}
