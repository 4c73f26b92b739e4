//go:build !nohcl

package terraform

import (
	"testing"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/diag/diagtest"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/subscription"
)

// FuzzRead: no panic, every finding and node inside the input, findings
// capped, and whatever is read writes back to Terraform that reads again
// without a syntax error.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"", "resource", `resource "google_pubsub_subscription" "s" {}`,
		"variable \"v\" {\n  default = \"x\"\n}\nlocals {\n  a = var.v\n  b = \"${local.a}-${local.a}\"\n}\nresource \"google_pubsub_subscription\" \"s\" {\n  name = local.b\n  topic = google_pubsub_topic.t.id\n}\nresource \"google_pubsub_topic\" \"t\" {\n  name = \"t\"\n}\n",
		"resource \"google_pubsub_subscription\" \"s\" {\n  project = \"p\"\n  name = \"s\"\n  topic = \"t\"\n  labels = { a = 1, \"b\" = true, (var.k) = \"x\" }\n  expiration_policy { ttl = \"\" }\n  push_config {\n    push_endpoint = \"https://x\"\n    no_wrapper { write_metadata = null }\n  }\n  message_transforms {\n    javascript_udf {\n      function_name = \"f\"\n      code = <<-EOT\n        function f(m) { return m; }\n      EOT\n    }\n  }\n}\n",
		"resource \"google_pubsub_subscription\" \"s\" {\n  name = [for x in [1,2]: x]\n  topic = {a = 1}\n  ack_deadline_seconds = 1.5\n  dynamic \"retry_policy\" {\n    for_each = [1]\n    content {}\n  }\n}\n",
		"locals {\n  a = local.a\n}\nresource \"google_pubsub_subscription\" \"s\" {\n  filter = local.a\n}\n",
		"resource \"google_pubsub_subscription\" \"s\" {\n  name = \"${\"${\"${1}\"}\"}\"\n  topic = !!!true ? -1 : 1\n}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		res := Read(Request{Text: text})
		diagtest.Check(t, text, res.Diagnostics)
		if len(res.Diagnostics) > diag.MaxDiagnostics+1 {
			t.Fatalf("%d findings", len(res.Diagnostics))
		}
		if res.Doc.Root == nil {
			return
		}
		stack := []*nodeSpan{{res.Doc.Root}}
		for len(stack) > 0 {
			n := stack[len(stack)-1].n
			stack = stack[:len(stack)-1]
			if n.Span.IsValid() && n.Span.End.Offset() > len(text) {
				t.Fatalf("node span %v outside the input of %d bytes", n.Span, len(text))
			}
			for _, it := range n.Items {
				stack = append(stack, &nodeSpan{it})
			}
			for _, m := range n.Members {
				stack = append(stack, &nodeSpan{m.Value})
			}
		}
		c := subscription.FromDoc(res.Doc, subscription.Reading{Diagnostics: res.Diagnostics, Judged: res.Known})
		c.Validate()
		if c.Sub == nil {
			return
		}
		again := Read(Request{Text: Write(c.Sub, Options{Import: true}).Text})
		for _, d := range again.Diagnostics {
			if d.Code == "terraform-syntax" {
				t.Fatalf("the written resource does not parse: %s", d.Message)
			}
		}
	})
}

type nodeSpan struct{ n *doc.Node }
