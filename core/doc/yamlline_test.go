package doc

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/limits"
)

// TestYAMLLine checks yamlLine against the expression it replaces, and
// its answers.
func TestYAMLLine(t *testing.T) {
	re := regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	tests := []struct {
		name, text string
		line       int
		msg        string
		ok         bool
	}{
		{"usual", "yaml: line 3: mapping values are not allowed in this context", 3, "mapping values are not allowed in this context", true},
		{"empty message", "yaml: line 12: ", 12, "", true},
		{"message with colons", "yaml: line 1: did not find expected ':': here", 1, "did not find expected ':': here", true},
		{"no line", "yaml: control characters are not allowed", 0, "", false},
		{"no digits", "yaml: line : x", 0, "", false},
		{"not digits", "yaml: line x: y", 0, "", false},
		{"no space after colon", "yaml: line 3:x", 0, "", false},
		{"no colon", "yaml: line 3", 0, "", false},
		{"two lines", "yaml: line 3: a\nb", 0, "", false},
		{"ends in newline", "yaml: line 3: a\n", 0, "", false},
		{"carriage return", "yaml: line 3: a\rb", 3, "a\rb", true},
		{"invalid UTF-8", "yaml: line 3: \xff", 3, "\xff", true},
		{"non-ASCII digits", "yaml: line ٣: a", 0, "", false},
		{"leading text", "x yaml: line 3: a", 0, "", false},
		// strconv.Atoi saturates; the caller clamps the line to the text.
		{"huge line", "yaml: line 99999999999999999999999: a", math.MaxInt, "a", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, msg, ok := yamlLine(tt.text)
			if line != tt.line || msg != tt.msg || ok != tt.ok {
				t.Errorf("yamlLine(%q) = %d, %q, %v; want %d, %q, %v", tt.text, line, msg, ok, tt.line, tt.msg, tt.ok)
			}
			m := re.FindStringSubmatch(tt.text)
			if (m != nil) != ok || m != nil && m[2] != msg {
				t.Errorf("yamlLine(%q) = %d, %q, %v; the expression matched %q", tt.text, line, msg, ok, m)
			}
		})
	}
}

// A message of the YAML library that passes through names a piece of the
// input at most limits.QuotedInput characters long.
func TestBoundLibraryMessage(t *testing.T) {
	long := strings.Repeat("é", 500)
	cases := []struct{ in, want string }{
		{"no quotes here", "no quotes here"},
		{"anchor 'x' value contains itself", `anchor "x" value contains itself`},
		{"anchor '" + long + "' value", `anchor "` + strings.Repeat("é", limits.QuotedInput) + `"… value`},
		{"two 'a' and 'b'", `two "a" and "b"`},
		{"an unclosed 'quote", "an unclosed 'quote"},
	}
	for _, c := range cases {
		if got := boundLibraryMessage(c.in); got != c.want {
			t.Errorf("boundLibraryMessage(%.40q) = %.80q, want %.80q", c.in, got, c.want)
		}
	}
}
