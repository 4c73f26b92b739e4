//go:build !nohcl

package terraform

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag/diagtest"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/subscription"
)

// FuzzWrite checks the convert writer end to end: whatever configuration
// the fuzzer decodes, the Terraform written from it (and from its
// effective settings) reads back to the same subscription, apart from what
// the writer's notes say it cannot carry, and the notes are well-formed.
func FuzzWrite(f *testing.F) {
	paths, _ := filepath.Glob("../subscription/testdata/examples/*")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b), strings.HasSuffix(p, ".yaml"))
	}
	for _, s := range []string{
		`{"name":"projects/p/subscriptions/s","topic":"projects/p/topics/t","labels":{"a\"${b}":"%{c}\n"}}`,
		`{"name":"s","filter":"attributes.a = \"${x}\"","pushConfig":{"pushEndpoint":"https://x/$${y}"}}`,
		`{"name":"projects/p/subscriptions/s","messageTransforms":[{"javascriptUdf":{"functionName":"f","code":"EOT\nfunction f(m) { return m }\n"}}]}`,
	} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, text string, asYAML bool) {
		format := doc.JSON
		if asYAML {
			format = doc.YAML
		}
		c := subscription.Decode("f", text, format)
		if c.Sub == nil {
			return
		}
		for _, s := range []*subscription.Subscription{c.Sub, effective(c)} {
			if s == nil {
				continue
			}
			w := Write(s, Options{Import: true})
			for _, n := range w.Notes {
				if p := diagtest.WordsProblem(n); p != "" {
					t.Fatalf("note at %s: %s", n.Path, p)
				}
			}
			roundTrip(t, "fuzz", s)
		}
	})
}

func effective(c *subscription.Config) *subscription.Subscription {
	if e := c.Effective(); e != nil {
		return e.Subscription
	}
	return nil
}
