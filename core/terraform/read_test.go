//go:build !nohcl

package terraform

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/subscription"
)

const project = `provider "google" {
  project = "shop-prod"
}
`

// TestRead: each case is Terraform text, the REST subscription it means
// (compact JSON, "" to skip), and the findings (reader's and rules'), as
// "line:col severity code" in order.
func TestRead(t *testing.T) {
	cases := []struct {
		name, text, want string
		diags            []string
		unknown          []string
	}{
		{name: "minimal with project attribute",
			text: `resource "google_pubsub_subscription" "s" {
  project = "shop-prod"
  name    = "orders"
  topic   = "orders"
}`,
			want:  `{"name":"projects/shop-prod/subscriptions/orders","topic":"projects/shop-prod/topics/orders"}`,
			diags: []string{"1:1 info terraform-default-expiration"}},
		{name: "topic reference and provider project",
			text: project + `resource "google_pubsub_topic" "orders" {
  name = "orders"
}
resource "google_pubsub_subscription" "s" {
  name  = "orders-worker"
  topic = google_pubsub_topic.orders.id
  expiration_policy {
    ttl = ""
  }
}`,
			want:  `{"name":"projects/shop-prod/subscriptions/orders-worker","topic":"projects/shop-prod/topics/orders","expirationPolicy":{}}`,
			diags: []string{"10:3 info never-expires"}},
		{name: "topic name reference in another project",
			text: `resource "google_pubsub_topic" "orders" {
  project = "other-proj"
  name    = "orders"
}
resource "google_pubsub_subscription" "s" {
  project = "shop-prod"
  name    = "sub1"
  topic   = google_pubsub_topic.orders.id
  expiration_policy { ttl = "604800s" }
}`,
			want: `{"name":"projects/shop-prod/subscriptions/sub1","topic":"projects/other-proj/topics/orders","expirationPolicy":{"ttl":"604800s"}}`},
		{name: "no project anywhere: names unknown, their IDs still checked",
			text: `resource "google_pubsub_subscription" "s" {
  name  = "1bad"
  topic = "orders"
  expiration_policy { ttl = "" }
}`,
			want:    `{"expirationPolicy":{}}`,
			diags:   []string{"2:11 info terraform-unknown-value", "2:12 error resource-name", "3:11 info terraform-unknown-value", "4:3 info never-expires"},
			unknown: []string{"/name", "/topic"}},
		{name: "variables, locals and an unknown variable",
			text: project + `variable "ack" {
  default = 30
}
variable "env" {}
locals {
  days = 2
  retention = "${local.days * 86400}s"
}
resource "google_pubsub_subscription" "s" {
  name                       = "orders"
  topic                      = "projects/shop-prod/topics/orders"
  ack_deadline_seconds       = var.ack
  message_retention_duration = local.retention
  labels = {
    env  = var.env
    team = "checkout"
  }
  expiration_policy { ttl = "" }
}`,
			want:    `{"ackDeadlineSeconds":30,"messageRetentionDuration":"172800s","labels":{"team":"checkout"},"name":"projects/shop-prod/subscriptions/orders","topic":"projects/shop-prod/topics/orders","expirationPolicy":{}}`,
			diags:   []string{"18:12 info terraform-unknown-value", "21:3 info never-expires"},
			unknown: []string{"/labels/env"}},
		{name: "function calls and other resources are unknown",
			text: project + `resource "google_pubsub_subscription" "s" {
  name   = "orders"
  topic  = "projects/shop-prod/topics/orders"
  filter = format("attributes.k = %q", "v")
  push_config {
    push_endpoint = google_cloud_run_service.app.status[0].url
  }
  expiration_policy { ttl = "" }
}`,
			want:    `{"name":"projects/shop-prod/subscriptions/orders","topic":"projects/shop-prod/topics/orders","pushConfig":{},"expirationPolicy":{}}`,
			diags:   []string{"7:12 info terraform-unknown-value", "9:21 info terraform-unknown-value", "11:3 info never-expires"},
			unknown: []string{"/filter", "/pushConfig/pushEndpoint"}},
		{name: "literal errors positioned at the value",
			text: project + `resource "google_pubsub_subscription" "s" {
  name                 = "orders"
  topic                = "projects/shop-prod/topics/orders"
  ack_deadline_seconds = 5
  retain_acked_messages = "yes"
  expiration_policy {
    ttl = "7d"
  }
}`,
			diags: []string{"7:26 error value-too-small", "8:27 error terraform-bad-value", "9:3 info never-expires", "10:11 error duration-format"}},
		{name: "unknown attribute and block, did you mean",
			text: project + `resource "google_pubsub_subscription" "s" {
  name  = "orders"
  topic = "projects/shop-prod/topics/orders"
  ack_deadline = 20
  retry_policy {
    maximum_backof = "60s"
  }
  expiration {}
  expiration_policy { ttl = "" }
}`,
			diags: []string{"7:3 error terraform-unknown-attribute", "9:5 error terraform-unknown-attribute", "11:3 error terraform-unknown-block", "12:3 info never-expires"}},
		{name: "null ttl is the wrapper bug",
			text: project + `resource "google_pubsub_subscription" "s" {
  name  = "orders"
  topic = "projects/shop-prod/topics/orders"
  expiration_policy {
    ttl = null
  }
}`,
			diags: []string{"7:3 info never-expires", "8:11 error terraform-null"}},
		{name: "empty expiration block misses ttl",
			text: project + `resource "google_pubsub_subscription" "s" {
  name  = "orders"
  topic = "projects/shop-prod/topics/orders"
  expiration_policy {}
}`,
			diags: []string{"7:3 error terraform-missing-attribute", "7:3 info never-expires"}},
		{name: "block written as attribute, repeated block, block label",
			text: project + `resource "google_pubsub_subscription" "s" {
  name  = "orders"
  topic = "projects/shop-prod/topics/orders"
  expiration_policy = { ttl = "" }
  retry_policy {}
  retry_policy {}
  dead_letter_policy "x" {}
}`,
			diags: []string{"4:1 info terraform-default-expiration", "7:3 error terraform-not-an-attribute", "9:3 error terraform-repeated-block", "10:3 error missing-field", "10:22 error terraform-block-label"}},
		{name: "several resources: the first, with a note",
			text: project + `resource "google_pubsub_subscription" "a" {
  name  = "a-sub"
  topic = "projects/shop-prod/topics/orders"
  expiration_policy { ttl = "" }
}
resource "google_pubsub_subscription" "b" {
  name  = "b-sub"
  topic = "projects/shop-prod/topics/orders"
}`,
			want:  `{"name":"projects/shop-prod/subscriptions/a-sub","topic":"projects/shop-prod/topics/orders","expirationPolicy":{}}`,
			diags: []string{"7:3 info never-expires", "9:1 info terraform-more-resources"}},
		{name: "dynamic block is unknown",
			text: project + `variable "ttl" {
  default = null
}
resource "google_pubsub_subscription" "s" {
  name  = "orders"
  topic = "projects/shop-prod/topics/orders"
  dynamic "expiration_policy" {
    for_each = var.ttl == null ? [] : [var.ttl]
    content {
      ttl = expiration_policy.value
    }
  }
}`,
			want:    `{"name":"projects/shop-prod/subscriptions/orders","topic":"projects/shop-prod/topics/orders"}`,
			diags:   []string{"10:3 info terraform-unknown-value"},
			unknown: []string{"/expirationPolicy"}},
		{name: "push, no wrapper, heredoc code, transforms",
			text: project + `resource "google_pubsub_subscription" "s" {
  name  = "orders"
  topic = "projects/shop-prod/topics/orders"
  push_config {
    push_endpoint = "https://example.com/push"
    no_wrapper {
      write_metadata = true
    }
  }
  message_transforms {
    javascript_udf {
      function_name = "f"
      code          = <<EOT
function f(m) { return m; }
EOT
    }
  }
  message_transforms {
    disabled = true
    javascript_udf {
      function_name = "g"
      code          = "function g(m) { return null; }"
    }
  }
  expiration_policy { ttl = "" }
}`,
			want:  `{"name":"projects/shop-prod/subscriptions/orders","topic":"projects/shop-prod/topics/orders","pushConfig":{"pushEndpoint":"https://example.com/push","noWrapper":{"writeMetadata":true}},"expirationPolicy":{},"messageTransforms":[{"javascriptUdf":{"functionName":"f","code":"function f(m) { return m; }\n"}},{"javascriptUdf":{"functionName":"g","code":"function g(m) { return null; }"}` + `,"disabled":true}]}`,
			diags: []string{"28:3 info never-expires"}},
		{name: "syntax error",
			text:  "resource \"google_pubsub_subscription\" \"s\" {\n  name = \"x\n}\n",
			diags: []string{"2:12 error terraform-syntax", "2:12 error terraform-syntax", "3:2 error terraform-syntax"}},
		{name: "no subscription resource",
			text:  `resource "google_pubsub_topic" "t" { name = "t" }`,
			diags: []string{"error terraform-no-subscription"}},
		{name: "a local that refers to itself",
			text: project + `locals {
  a = local.b
  b = local.a
}
resource "google_pubsub_subscription" "s" {
  name   = "orders"
  topic  = "projects/shop-prod/topics/orders"
  filter = local.a
  expiration_policy { ttl = "" }
}`,
			diags: []string{"11:12 error terraform-bad-value", "12:3 info never-expires"}},
		{name: "for expressions, splats, conditionals and template loops are evaluated",
			text: project + `locals {
  teams = ["checkout", "billing"]
  base  = { env = "prod", tier = "1" }
  subs  = [{ name = "a" }, { name = "b" }]
}
resource "google_pubsub_subscription" "s" {
  name                 = "orders"
  topic                = "projects/shop-prod/topics/orders"
  labels               = { for s in local.subs[*].name : s => local.base.env }
  filter               = "attributes.team = \"%{ for t in local.teams }${t}%{ endfor }\""
  ack_deadline_seconds = local.base.tier == "1" ? 20 : 30
  expiration_policy { ttl = "" }
}`,
			want:  `{"name":"projects/shop-prod/subscriptions/orders","topic":"projects/shop-prod/topics/orders","labels":{"a":"prod","b":"prod"},"filter":"attributes.team = \"checkoutbilling\"","ackDeadlineSeconds":20,"expirationPolicy":{}}`,
			diags: []string{"15:3 info never-expires"}},
		// Each of these ran for seconds to minutes, or out of memory,
		// without the estimate: the rest of the
		// resource is still read.
		{name: "expressions that would build too much are not evaluated",
			text: project + `variable "grid" {
  default = [for a in [` + strings.Repeat("1,", 300) + `1] : [for b in [` + strings.Repeat("1,", 300) + `1] : b]]
}
locals {
  l = [` + strings.Repeat("7,", 999) + `7]
  cube = [for a in local.l : [for b in local.l : [for c in local.l : a]]]
  q0 = "xxxxxxxxxxxxxxxx"
  q1 = "${local.q0}${local.q0}${local.q0}${local.q0}"
  q2 = "${local.q1}${local.q1}${local.q1}${local.q1}"
  q3 = "${local.q2}${local.q2}${local.q2}${local.q2}"
  q4 = "${local.q3}${local.q3}${local.q3}${local.q3}"
  q5 = "${local.q4}${local.q4}${local.q4}${local.q4}"
  q6 = "${local.q5}${local.q5}${local.q5}${local.q5}"
  q7 = "${local.q6}${local.q6}${local.q6}${local.q6}"
  q8 = "${local.q7}${local.q7}${local.q7}${local.q7}"
  q9 = "${local.q8}${local.q8}${local.q8}${local.q8}"
  q10 = "${local.q9}${local.q9}${local.q9}${local.q9}"
}
resource "google_pubsub_subscription" "s" {
  name                 = "orders"
  topic                = "projects/shop-prod/topics/orders"
  labels               = { for v in local.cube : "k" => "v" }
  filter               = local.q10
  ack_deadline_seconds = var.grid == [] ? 10 : 20
  enable_message_ordering = [for a in local.l : [for b in local.l : a]] == [] ? true : false
  expiration_policy { ttl = "" }
}`,
			want: `{"name":"projects/shop-prod/subscriptions/orders","topic":"projects/shop-prod/topics/orders","expirationPolicy":{}}`,
			diags: []string{"25:26 warning terraform-too-costly", "26:26 warning terraform-too-costly", "27:26 warning terraform-too-costly",
				"28:29 warning terraform-too-costly", "29:3 info never-expires"},
			unknown: []string{"/ackDeadlineSeconds", "/enableMessageOrdering", "/filter", "/labels"}},
		{name: "a topic that refers to itself, and topics whose names multiply",
			text: project + `resource "google_pubsub_topic" "self" {
  name = "${google_pubsub_topic.self.name}-x"
}
` + topicFan(15) + `resource "google_pubsub_subscription" "s" {
  name   = "orders"
  topic  = google_pubsub_topic.self.id
  filter = "attributes.t = \"${google_pubsub_topic.t0.name}\""
  expiration_policy { ttl = "" }
}`,
			diags:   []string{"55:1 error missing-field", "57:12 error terraform-bad-value", "58:12 warning terraform-too-costly", "59:3 info never-expires"},
			unknown: []string{"/filter"}},
		{name: "a number past 1e400 is refused before anything is evaluated",
			text: project + `resource "google_pubsub_subscription" "s" {
  name                 = "orders"
  topic                = "projects/shop-prod/topics/orders"
  ack_deadline_seconds = 1e99999999
  filter               = "${0.1e-400}"
}`,
			diags: []string{"7:26 error terraform-bad-value"}},
		{name: "numbers up to 1e400 are read",
			text: project + `resource "google_pubsub_subscription" "s" {
  name                 = "orders"
  topic                = "projects/shop-prod/topics/orders"
  ack_deadline_seconds = 1e400
  filter               = "attributes.n = \"${1e-399 * 1e399}\""
  expiration_policy { ttl = "" }
}`,
			want:  `{"name":"projects/shop-prod/subscriptions/orders","topic":"projects/shop-prod/topics/orders","filter":"attributes.n = \"1\"","expirationPolicy":{}}`,
			diags: []string{"7:26 error number-overflow", "9:3 info never-expires"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := Read(Request{Name: "main.tf", Text: c.text})
			cfg := subscription.FromDoc(res.Doc, subscription.Reading{Diagnostics: res.Diagnostics, Judged: res.Known})
			var got []string
			for _, d := range cfg.Validate() {
				if d.Severity == "info" && !strings.HasPrefix(d.Code, "terraform-") && d.Code != "never-expires" {
					continue // the rules' other notes are theirs to test
				}
				pos := ""
				if d.Line > 0 {
					pos = fmt.Sprintf("%d:%d ", d.Line, d.Column)
				}
				got = append(got, pos+string(d.Severity)+" "+d.Code)
			}
			if strings.Join(got, "\n") != strings.Join(c.diags, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s\nall: %+v", strings.Join(got, "\n"), strings.Join(c.diags, "\n"), cfg.Validate())
			}
			if c.want != "" {
				var w, g any
				if err := json.Unmarshal([]byte(c.want), &w); err != nil {
					t.Fatal(err)
				}
				b, _ := json.Marshal(cfg.Sub)
				json.Unmarshal(b, &g)
				wb, _ := json.Marshal(w)
				gb, _ := json.Marshal(g)
				if string(wb) != string(gb) {
					t.Errorf("read\n%s\nwant\n%s", gb, wb)
				}
			}
			if strings.Join(res.Unknown, ",") != strings.Join(c.unknown, ",") {
				t.Errorf("unknown %v, want %v", res.Unknown, c.unknown)
			}
		})
	}
}

// topicFan is n topics, each named by the next one's name four times (on
// main, evaluated again at each reference: 10 such topics took 12 s), and
// the last one named "x".
func topicFan(n int) string {
	var b strings.Builder
	for i := range n {
		r := fmt.Sprintf("${google_pubsub_topic.t%d.name}", i+1)
		fmt.Fprintf(&b, "resource \"google_pubsub_topic\" \"t%d\" {\n  name = \"%s\"\n}\n", i, strings.Repeat(r, 4))
	}
	fmt.Fprintf(&b, "resource \"google_pubsub_topic\" \"t%d\" {\n  name = \"x\"\n}\n", n)
	return b.String()
}
