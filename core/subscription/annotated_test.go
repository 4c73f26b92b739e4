package subscription

import (
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/subplay/subplay/core/doc"
)

// Characters that JSON leaves as they are but YAML does not allow
// unescaped reach the effective settings through a label: the YAML is
// written, and reads back to the same value.
func TestAnnotatedYAMLControlCharacters(t *testing.T) {
	for _, v := range []string{"a\x7fb", "a\u0080b", "a\u0085b", "a\u009fb", "a\ufffeb", "a\uffffb", "ünï\x7f"} {
		c := Decode("s.json", `{"name": "projects/p/subscriptions/s", "topic": "projects/p/topics/t", "labels": {"k": "`+jsonEscape(v)+`"}}`, doc.JSON)
		e := c.Effective()
		if e == nil {
			t.Fatalf("%q: no effective settings", v)
		}
		y, err := e.AnnotatedYAML()
		if err != nil {
			t.Fatalf("%q: %v", v, err)
		}
		var back struct {
			Labels map[string]string `yaml:"labels"`
		}
		if err := yaml.Unmarshal([]byte(y), &back); err != nil {
			t.Fatalf("%q: the YAML does not read back: %v\n%s", v, err, y)
		}
		if back.Labels["k"] != v {
			t.Errorf("label read back as %q, want %q", back.Labels["k"], v)
		}
	}
	if got := string(yamlSafe([]byte(`{"a":"x"}`))); got != `{"a":"x"}` {
		t.Errorf("yamlSafe changed plain JSON: %s", got)
	}
}

func jsonEscape(s string) string {
	out := ""
	for _, r := range s {
		if r == '"' || r == '\\' {
			out += `\`
		}
		out += string(r)
	}
	return out
}
