package terraform

import "testing"

// TestDetect: Terraform is told apart from JSON, YAML and gcloud by its
// first word.
func TestDetect(t *testing.T) {
	for text, want := range map[string]bool{
		`resource "google_pubsub_subscription" "s" {}`: true,
		"# comment\n\nvariable \"x\" {}":               true,
		"/* c */ locals {\n}":                          true,
		"// c\nterraform {\n}":                         true,
		"resource: x":                                  false,
		`{"name": "x"}`:                                false,
		"gcloud pubsub subscriptions create s":         false,
		"name: projects/p/subscriptions/s":             false,
		"resource":                                     false,
		"/* unterminated":                              false,
	} {
		if got := Detect(text); got != want {
			t.Errorf("Detect(%q) = %v, want %v", text, got, want)
		}
	}
}
