package terraform

import "strings"

// topKeywords are the block types a Terraform file starts with.
var topKeywords = []string{"resource", "data", "variable", "locals", "provider", "terraform", "module", "output", "import", "moved", "removed", "check"}

// Detect reports whether text is Terraform rather than JSON, YAML or a
// gcloud command: its first word, after blank lines and comments (#, //
// and /* */), is a top-level block type followed by a space, a label or
// a brace. It reads only up to that word and needs no HCL library, so a
// build without one can still say what the text is.
func Detect(text string) bool {
	t := text
	for {
		t = strings.TrimLeft(t, " \t\r\n\ufeff")
		switch {
		case strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//"):
			_, rest, ok := strings.Cut(t, "\n")
			if !ok {
				return false
			}
			t = rest
			continue
		case strings.HasPrefix(t, "/*"):
			_, rest, ok := strings.Cut(t[2:], "*/")
			if !ok {
				return false
			}
			t = rest
			continue
		}
		break
	}
	for _, k := range topKeywords {
		if rest, ok := strings.CutPrefix(t, k); ok && rest != "" && strings.ContainsRune(" \t\"{", rune(rest[0])) {
			return true
		}
	}
	return false
}
