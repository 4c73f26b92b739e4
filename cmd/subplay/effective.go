package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/playground"
	"github.com/subplay/subplay/core/subscription"
)

func init() {
	register("effective", command{"print a configuration with every default filled in", runEffective})
}

func runEffective(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("effective", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "yaml", "output format: yaml (defaults marked with comments) or json")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: subplay effective [--format json|yaml] FILE|-")
		fmt.Fprintln(stderr, "\nPrints what the subscription will really do: every default filled in.")
		fmt.Fprintln(stderr, "In YAML, values that come from a default say so in a comment.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if err := formatFlag(*format, "json", "yaml"); err != nil {
		fmt.Fprintln(stderr, "subplay effective:", err)
		return exitUsage
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	file := fs.Arg(0)
	text, err := readInput(file, stdin)
	if err != nil {
		fmt.Fprintln(stderr, "subplay effective:", err)
		return exitUsage
	}
	name := displayName(file)
	resp, err := playground.Effective(&playground.EffectiveRequest{ConfigInput: playground.ConfigInput{Text: &text, File: name, Format: formatOf(file)}})
	if err != nil {
		fmt.Fprintln(stderr, "subplay effective:", err)
		return exitUsage
	}
	if errs := onlyErrors(resp.Diagnostics); len(errs) > 0 {
		fmt.Fprint(stderr, diag.Render(diag.NewSource(name, text), errs))
	}
	if resp.Effective == nil {
		return exitFound
	}
	origins := resp.Origins
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(resp.Effective)
	} else {
		out, err := annotatedYAML(resp.Effective, origins)
		if err != nil {
			fmt.Fprintln(stderr, "subplay effective:", err)
			return exitUsage
		}
		stdout.Write(out)
	}
	if !resp.Valid {
		return exitFound
	}
	return exitOK
}

func onlyErrors(ds []diag.Diagnostic) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range ds {
		if d.Severity == diag.Error {
			out = append(out, d)
		}
	}
	return out
}

// annotatedYAML writes v as YAML in gcloud's style (keys sorted), with a
// comment on each value that comes from a default or is derived.
func annotatedYAML(v any, origins map[string]subscription.Origin) ([]byte, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var n yaml.Node
	if err := yaml.Unmarshal(j, &n); err != nil {
		return nil, err
	}
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, path)
			}
		case yaml.MappingNode:
			n.Style = 0 // block style, as gcloud prints
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
				walk(p.v, cp)
				// The comment goes where YAML prints it on the same line:
				// after a scalar or {}, or after the key of a block.
				at := p.v
				if p.v.Kind == yaml.MappingNode && len(p.v.Content) > 0 || p.v.Kind == yaml.SequenceNode {
					at = p.k
				}
				switch origins[cp] {
				case subscription.Default:
					at.LineComment = "default"
				case subscription.Derived:
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
				walk(c, fmt.Sprintf("%s/%d", path, i))
			}
		case yaml.ScalarNode:
			n.Style &^= yaml.DoubleQuotedStyle
		}
	}
	walk(&n, "")
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}
