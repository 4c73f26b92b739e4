//go:build nohcl

package playground

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTerraformNeedsModule: a build without the HCL library answers
// needs-module for Terraform text, detected or named, in every operation
// that reads a configuration; it still converts other input to Terraform.
func TestTerraformNeedsModule(t *testing.T) {
	tf, _ := json.Marshal("resource \"google_pubsub_subscription\" \"s\" {\n  name = \"orders\"\n}")
	for _, c := range []struct {
		op, body string
		needs    []string
	}{
		{"validate", `{"text": "resource \"google_pubsub_subscription\" \"s\" {\n}"}`, []string{NeedsHCL}},
		{"effective", `{"text": "x = 1", "format": "terraform"}`, []string{NeedsHCL}},
		{"convert", `{"text": ` + string(tf) + `}`, []string{NeedsHCL}},
		// A build without Avro either says it lacks both.
		{"schema", `{"text": ` + string(tf) + `}`, ifLacking([]string{NeedsHCL}, NeedsAvro)},
	} {
		t.Run(c.op, func(t *testing.T) { wantCode(t, c.op, c.body, CodeNeedsModule, c.needs...) })
	}
	out, ok := Call("convert", []byte(`{"config": {"name": "projects/shop-prod/subscriptions/orders", "topic": "projects/shop-prod/topics/orders"}, "to": "terraform"}`))
	if !ok || !strings.Contains(string(out), `resource \"google_pubsub_subscription\" \"orders\"`) {
		t.Errorf("convert to terraform in a nohcl build: %s", out)
	}
}
