package subscription

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

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
	if err := yaml.Unmarshal(j, &n); err != nil {
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
