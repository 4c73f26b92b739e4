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
		// Evaluation: HCL evaluates with no bound of its own. Without the
		// estimate (core/terraform/cost.go) nested-for-1000 ran out of memory,
		// quadrupling-locals-12 took 17 s and 3 GB, exponent-value over a
		// minute; the estimate refuses each before HCL evaluates it. The
		// -under cases are the costliest shapes the bound lets through.
		tf("terraform-eval/nested-for-1000", func() string {
			return "locals {\n  l = [" + strings.Repeat("7,", 999) + "7]\n  x = [for a in local.l : [for b in local.l : [for c in local.l : a]]]\n}\n" +
				tfHead + "\"t\"\n  labels = { for v in local.x : \"k\" => \"v\" }\n}\n"
		}),
		tf("terraform-eval/quadrupling-locals-15", func() string {
			var b strings.Builder
			b.WriteString("locals {\n  l0 = \"" + strings.Repeat("x", 16) + "\"\n")
			for i := 1; i <= 15; i++ {
				p := "${local.l" + strconv.Itoa(i-1) + "}"
				b.WriteString("  l" + strconv.Itoa(i) + " = \"" + p + p + p + p + "\"\n")
			}
			b.WriteString("}\n" + tfHead + "\"t\"\n  filter = local.l15\n}\n")
			return b.String()
		}),
		tf("terraform-eval/template-loops-1000", func() string {
			return "locals {\n  l = [" + strings.Repeat("7,", 999) + "7]\n}\n" + tfHead +
				"\"t\"\n  filter = \"%{ for a in local.l }%{ for b in local.l }${a}${b}%{ endfor }%{ endfor }\"\n}\n"
		}),
		tf("terraform-eval/variable-default-grid", func() string {
			l := "[" + strings.Repeat("1,", 2_999) + "1]"
			return "variable \"g\" {\n  default = [for a in " + l + " : [for b in " + l + " : b]]\n}\n" + tfHead + "\"t\"\n  ack_deadline_seconds = var.g == [] ? 10 : 20\n}\n"
		}),
		tf("terraform-eval/splat-of-fors", func() string {
			return "locals {\n  l = [" + strings.Repeat("{n = [1, 2, 3]},", 2_000) + "{n = [1]}]\n  m = [for a in local.l : local.l[*].n]\n}\n" +
				tfHead + "\"t\"\n  labels = { for v in local.m : \"k\" => \"v\" }\n}\n"
		}),
		tf("terraform-eval/labels-for-under", func() string {
			l := make([]string, 120)
			for i := range l {
				l[i] = strconv.Itoa(i)
			}
			return tfHead + "\"t\"\n  labels = { for i in [" + strings.Join(l, ",") + "] : \"k${i}\" => \"v${i}\" }\n}\n"
		}),
		tf("terraform-eval/equal-under", func() string {
			l := "[" + strings.Repeat("1,", 49) + "1]"
			return "locals {\n  l = [for a in " + l + " : [for b in " + l + " : b]]\n}\n" + tfHead + "\"t\"\n  filter = local.l == local.l ? \"a\" : \"b\"\n}\n"
		}),
		tf("terraform-eval/shared-under", func() string {
			// Many attributes, each within the bound, share it.
			var b strings.Builder
			b.WriteString("locals {\n  l = [" + strings.Repeat("1,", 49) + "1]\n")
			for i := 0; i < 40; i++ {
				b.WriteString("  m" + strconv.Itoa(i) + " = [for a in local.l : [for c in local.l : c]]\n")
			}
			b.WriteString("}\n" + tfHead + "\"t\"\n  labels = {\n")
			for i := 0; i < 40; i++ {
				b.WriteString("    k" + strconv.Itoa(i) + " = local.m" + strconv.Itoa(i) + " == [] ? \"a\" : \"b\"\n")
			}
			b.WriteString("  }\n}\n")
			return b.String()
		}),
		tf("terraform-eval/topics-fan-out-15", func() string {
			// Each topic named by the next one's name four times: on main
			// each reference evaluated the topic again (10 topics: 12 s).
			var b strings.Builder
			for i := 0; i < 15; i++ {
				r := "${google_pubsub_topic.t" + strconv.Itoa(i+1) + ".name}"
				b.WriteString(`resource "google_pubsub_topic" "t` + strconv.Itoa(i) + `" {` + "\n  name = \"" + r + r + r + r + "\"\n}\n")
			}
			b.WriteString(`resource "google_pubsub_topic" "t15" {` + "\n  name = \"x\"\n}\n")
			return b.String() + tfHead + "google_pubsub_topic.t0.id\n}\n"
		}),
		tf("terraform-eval/numeric-labels", func() string {
			// Each number made a string with cty's 512 bits (30-60 us).
			var b strings.Builder
			b.WriteString(tfHead + "\"t\"\n  labels = {\n")
			for i := 0; b.Len() < 120_000; i++ {
				b.WriteString("k" + strconv.Itoa(i) + "=" + strconv.Itoa(i) + "\n")
			}
			b.WriteString("  }\n}\n")
			return b.String()
		}),
		tf("terraform-eval/provider-project-per-topic", func() string {
			// The provider's project, a long tuple, is read for every topic
			// the labels name.
			var b strings.Builder
			b.WriteString(`provider "google" {` + "\n  project = [" + strings.Repeat("1,", 15_000) + "1]\n}\n")
			for i := 0; i < 700; i++ {
				b.WriteString(`resource "google_pubsub_topic" "t` + strconv.Itoa(i) + `" { name = "x" }` + "\n")
			}
			b.WriteString(`resource "google_pubsub_subscription" "s" {` + "\n  name = \"s\"\n  topic = \"t\"\n  labels = {\n")
			for i := 0; i < 700; i++ {
				b.WriteString("    k" + strconv.Itoa(i) + " = google_pubsub_topic.t" + strconv.Itoa(i) + ".id\n")
			}
			b.WriteString("  }\n}\n")
			return b.String()
		}),
		tf("terraform-number/exponent-value", func() string { return tfHead + "\"t\"\n  ack_deadline_seconds = 1e99999999\n}\n" }),
		tf("terraform-number/exponent-template", func() string { return tfHead + "\"t\"\n  filter = \"${1e-9999999}\"\n}\n" }),
		tf("terraform-number/long-mantissa-in-loop", func() string {
			return "locals {\n  l = [" + strings.Repeat("7,", 99) + "7]\n  d = 1." + strings.Repeat("3", 100_000) + "\n}\n" + tfHead +
				"\"t\"\n  labels = { for i in local.l : \"k${i}\" => \"${local.d * local.d}\" }\n}\n"
		}),
		tf("terraform-number/products-of-1e400", func() string {
			return tfHead + "\"t\"\n  filter = \"${1e400" + strings.Repeat(" * 1e400", 60) + "}\"\n}\n"
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
		Case{Name: "terraform-convert/update-wide-labels", Op: "convert", Body: func() []byte {
			// Every form of an update: each of 9,999 labels removed, each of
			// 9,999 others added (gcloud's flags, Terraform's import).
			labels := func(prefix, value string) string {
				var b strings.Builder
				for i := 0; i < 9_999; i++ {
					if i > 0 {
						b.WriteByte(',')
					}
					b.WriteString(`"` + prefix + strconv.Itoa(i) + `":"` + value + `"`)
				}
				return b.String()
			}
			const head = `{"name":"projects/shop-prod/subscriptions/s","topic":"projects/shop-prod/topics/t","labels":{`
			return jsonRequest(`"config":`+head+labels("k", `v\"'$`+"`"+`\\`)+"}}", `"old":{"config":`+head+labels("j", "w")+"}}}", `"effective":true`)
		}},
	)
}
