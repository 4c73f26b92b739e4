package hostile

import (
	"strconv"
	"strings"
)

// The Terraform reader's classes: nesting and operator chains the HCL
// parser and evaluator would recurse on, chains of locals, wide maps,
// many resources, and text past the size bound. A build without the HCL
// reader answers needs-module, which the checks accept.

const tfHead = `resource "google_pubsub_subscription" "s" {` + "\n" + `  project = "shop-prod"` + "\n" + `  name = "orders"` + "\n  topic = "

func init() {
	tf := func(name string, text func() string) Case {
		return Case{Name: name, Op: "validate", Body: func() []byte { return textRequest(text(), "terraform") }}
	}
	add(
		tf("terraform-depth/parens-50000", func() string {
			return tfHead + strings.Repeat("(", 50_000) + `"t"` + strings.Repeat(")", 50_000) + "\n}\n"
		}),
		tf("terraform-depth/blocks-20000", func() string {
			return tfHead + "\"t\"\n" + strings.Repeat("a {\n", 20_000) + strings.Repeat("}\n", 20_000) + "}\n"
		}),
		tf("terraform-depth/templates-20000", func() string {
			return tfHead + strings.Repeat(`"${`, 20_000) + "1" + strings.Repeat(`}"`, 20_000) + "\n}\n"
		}),
		tf("terraform-depth/unclosed-brackets", func() string { return tfHead + strings.Repeat("[", 120_000) }),
		tf("terraform-ops/unary-120000", func() string { return tfHead + strings.Repeat("!", 120_000) + "true\n}\n" }),
		tf("terraform-ops/binary-50000", func() string { return tfHead + "1" + strings.Repeat("+1", 50_000) + "\n}\n" }),
		tf("terraform-ops/conditional-10000", func() string {
			return tfHead + strings.Repeat("true ? 1 : ", 10_000) + "1\n}\n"
		}),
		tf("terraform-locals/chain-4000", func() string {
			var b strings.Builder
			b.WriteString("locals {\n")
			for i := 0; i < 4_000; i++ {
				b.WriteString("  l" + strconv.Itoa(i) + " = local.l" + strconv.Itoa(i+1) + "\n")
			}
			b.WriteString("  l4000 = \"t\"\n}\n" + tfHead + "local.l0\n}\n")
			return b.String()
		}),
		tf("terraform-locals/fan-out", func() string {
			// Each local refers twice to the next: exponential without the
			// cache of resolved locals.
			var b strings.Builder
			b.WriteString("locals {\n")
			for i := 0; i < 14; i++ {
				n := "local.l" + strconv.Itoa(i+1)
				b.WriteString("  l" + strconv.Itoa(i) + " = \"${" + n + "}${" + n + "}\"\n")
			}
			b.WriteString("  l14 = \"t\"\n}\n" + tfHead + "local.l0\n}\n")
			return b.String()
		}),
		tf("terraform-width/labels-6000", func() string {
			var b strings.Builder
			b.WriteString(tfHead + "\"t\"\n  labels = {\n")
			for i := 0; i < 6_000; i++ {
				b.WriteString("    K" + strconv.Itoa(i) + " = \"v\"\n")
			}
			b.WriteString("  }\n}\n")
			return b.String()
		}),
		tf("terraform-width/unknown-attributes-7000", func() string {
			return tfHead + "\"t\"\n" + repeatTo("  ack_deadlin = 1\n", 120_000) + "}\n"
		}),
		tf("terraform-width/resources-2000", func() string {
			var b strings.Builder
			for i := 0; i < 2_000; i++ {
				b.WriteString(`resource "google_pubsub_subscription" "s` + strconv.Itoa(i) + `" {` + "\n  name = \"x\"\n}\n")
			}
			return b.String()
		}),
		tf("terraform-size/over-limit", func() string { return tfHead + `"` + strings.Repeat("x", 200_000) + "\"\n}\n" }),
		tf("terraform-size/long-string", func() string { return tfHead + `"` + strings.Repeat("x", 120_000) + "\"\n}\n" }),
		Case{Name: "terraform-convert/wide-labels", Op: "convert", Body: func() []byte {
			var b strings.Builder
			b.WriteString(`{"name":"projects/shop-prod/subscriptions/s","topic":"projects/shop-prod/topics/t","labels":{`)
			for i := 0; i < 5_000; i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(`"k` + strconv.Itoa(i) + `":"${x}%{y}\"\\"`)
			}
			b.WriteString("}}")
			return jsonRequest(`"config":` + b.String())
		}},
	)
}
