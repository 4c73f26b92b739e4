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
		tf("terraform-depth/parens-200000", func() string {
			return tfHead + strings.Repeat("(", 200_000) + `"t"` + strings.Repeat(")", 200_000) + "\n}\n"
		}),
		tf("terraform-depth/blocks-60000", func() string {
			return tfHead + "\"t\"\n" + strings.Repeat("a {\n", 60_000) + strings.Repeat("}\n", 60_000) + "}\n"
		}),
		tf("terraform-depth/templates-100000", func() string {
			return tfHead + strings.Repeat(`"${`, 100_000) + "1" + strings.Repeat(`}"`, 100_000) + "\n}\n"
		}),
		tf("terraform-depth/unclosed-brackets", func() string { return tfHead + strings.Repeat("[", 500_000) }),
		tf("terraform-ops/unary-400000", func() string { return tfHead + strings.Repeat("!", 400_000) + "true\n}\n" }),
		tf("terraform-ops/binary-100000", func() string { return tfHead + "1" + strings.Repeat("+1", 100_000) + "\n}\n" }),
		tf("terraform-ops/conditional-50000", func() string {
			return tfHead + strings.Repeat("true ? 1 : ", 40_000) + "1\n}\n"
		}),
		tf("terraform-locals/chain-20000", func() string {
			var b strings.Builder
			b.WriteString("locals {\n")
			for i := 0; i < 20_000; i++ {
				b.WriteString("  l" + strconv.Itoa(i) + " = local.l" + strconv.Itoa(i+1) + "\n")
			}
			b.WriteString("  l20000 = \"t\"\n}\n" + tfHead + "local.l0\n}\n")
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
		tf("terraform-width/labels-25000", func() string {
			var b strings.Builder
			b.WriteString(tfHead + "\"t\"\n  labels = {\n")
			for i := 0; i < 25_000; i++ {
				b.WriteString("    K" + strconv.Itoa(i) + " = \"v\"\n")
			}
			b.WriteString("  }\n}\n")
			return b.String()
		}),
		tf("terraform-width/unknown-attributes-30000", func() string {
			return tfHead + "\"t\"\n" + repeatTo("  ack_deadlin = 1\n", 480_000) + "}\n"
		}),
		tf("terraform-width/resources-8000", func() string {
			var b strings.Builder
			for i := 0; i < 8_000; i++ {
				b.WriteString(`resource "google_pubsub_subscription" "s` + strconv.Itoa(i) + `" {` + "\n  name = \"x\"\n}\n")
			}
			return b.String()
		}),
		tf("terraform-size/over-limit", func() string { return tfHead + `"` + strings.Repeat("x", 600_000) + "\"\n}\n" }),
		tf("terraform-size/long-string", func() string { return tfHead + `"` + strings.Repeat("x", 500_000) + "\"\n}\n" }),
		Case{Name: "terraform-convert/wide-labels", Op: "convert", Body: func() []byte {
			var b strings.Builder
			b.WriteString(`{"name":"projects/shop-prod/subscriptions/s","topic":"projects/shop-prod/topics/t","labels":{`)
			for i := 0; i < 30_000; i++ {
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
