//go:build !nohcl

package terraform

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestEstimateBoundsValues: for expressions of every kind the estimate is
// at least what evaluating them builds, measured by valueBound: the size,
// an element's size and the number of elements.
func TestEstimateBoundsValues(t *testing.T) {
	for _, src := range []string{
		`"text"`, `12345`, `1e300`, `true`, `null`, `-7`, `!false`, `(4)`,
		`[1, "two", [3, 4], {a = 5}]`,
		`{a = 1, "b" = [2, 3], c = {d = "e"}}`,
		`[for x in [1, 2, 3] : x * 2]`,
		`[for i, x in ["a", "bb", "ccc"] : "${i}:${x}" if x != "bb"]`,
		`{for x in ["a", "b", "a"] : x => x...}`,
		`{for k, v in {a = 1, b = 2} : "${k}${k}" => [v, v, v]}`,
		`[for a in [1, 2, 3] : [for b in [4, 5] : [for c in ["x", "y"] : "${a}${b}${c}"]]]`,
		`"${1e300 * 1e300 * 1e300}"`,
		`"${1 / 3}"`,
		`"%{ for x in ["a", "b", "c"] }<${x}>%{ endfor }"`,
		`"%{ if true }yes%{ else }no%{ endif }"`,
		`[{n = "a"}, {n = "bb"}][*].n`,
		`[[1, 2], [3, 4, 5]][1]`,
		`{a = [1, 2, 3]}.a`,
		`{a = [1, 2, 3]}["a"][2]`,
		`true ? [1, 2, 3] : ["x"]`,
		`false ? ["a"] : [for x in [1, 2] : "${x}${x}"]`,
		`[1, 2] == [1, 2]`,
		`"${[for x in ["a", "b"] : x][0]}${2 + 3}"`,
		`[for x in [[1, 2], [3]] : [for y in x : y]]`,
	} {
		e, diags := hclsyntax.ParseExpression([]byte(src), "t.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", src, diags)
		}
		v, diags := e.Value(nil)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", src, diags)
		}
		es := estimator{}
		b, got := es.estimate(e), valueBound(v)
		if b.size < got.size || b.elem < got.elem || b.n < got.n {
			t.Errorf("%s: estimate size %d, element %d, elements %d; the value has %d, %d, %d", src, b.size, b.elem, b.n, got.size, got.elem, got.n)
		}
		if b.size >= saturated || b.cost >= saturated {
			t.Errorf("%s: estimate saturated", src)
		}
	}
}

// TestEstimateKnowsEverySyntax: every expression node HCL makes of a text
// using all of its syntax has an estimate of its own; a node the estimate
// does not know (from another version of HCL) is refused as saturated,
// which this test would show.
func TestEstimateKnowsEverySyntax(t *testing.T) {
	text := `variable "v" {
  default = { a = [1, 2] }
}
locals {
  l = {for k, x in var.v : x => k...}
  m = { for k, x in var.v : k => x if x != null }
  s = "${local.l[0]}-%{ for x in var.v.a }${x}%{ endfor }-%{ if true }y%{ endif }"
  h = <<EOT
  ${upper("x")} ${-1 + 2 * 3 / 4 % 5} ${!true || false && true} ${1 < 2 ? "a" : "b"}
EOT
  p = (var.v.a)[*]
  q = var.v.a.*
  r = [1, 2][0]
  o = { (local.s) = 1, b = 2 }
  t = [null, true]
  w = "${local.r}"
  i = [1, 2][local.r]
}
`
	f, diags := hclsyntax.ParseConfig([]byte(text), "t.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	seen := map[string]bool{}
	es := estimator{roots: map[string]bound{"var.v": {size: 512, elem: 256, n: 2}}}
	hclsyntax.VisitAll(f.Body.(*hclsyntax.Body), func(n hclsyntax.Node) hcl.Diagnostics {
		e, ok := n.(hclsyntax.Expression)
		if !ok {
			return nil
		}
		name := strings.TrimPrefix(strings.TrimPrefix(typeName(e), "*"), "hclsyntax.")
		seen[name] = true
		if b := es.estimate(e); b.size >= saturated || b.cost >= saturated {
			t.Errorf("%s at %s: saturated", name, e.Range())
		}
		return nil
	})
	for _, want := range []string{"LiteralValueExpr", "TemplateExpr", "TemplateWrapExpr", "TemplateJoinExpr", "ScopeTraversalExpr",
		"RelativeTraversalExpr", "IndexExpr", "SplatExpr", "AnonSymbolExpr", "TupleConsExpr", "ObjectConsExpr", "ObjectConsKeyExpr",
		"ForExpr", "ConditionalExpr", "BinaryOpExpr", "UnaryOpExpr", "FunctionCallExpr", "ParenthesesExpr"} {
		if !seen[want] {
			t.Errorf("the text has no %s", want)
		}
	}
}

// TestEvaluationBoundIsShared: evaluations each within the bound are
// refused once together they pass it, so a text cannot buy the bound
// again with each attribute.
func TestEvaluationBoundIsShared(t *testing.T) {
	var b strings.Builder
	b.WriteString("locals {\n  l = [" + strings.Repeat("1,", 49) + "1]\n")
	// Each local is a tuple of 2,500 numbers, and each label costs about
	// 1.5 MiB of the 4 (the local's evaluation and the comparison).
	for i := range 6 {
		b.WriteString("  m" + string(rune('0'+i)) + " = [for a in local.l : [for c in local.l : c]]\n")
	}
	b.WriteString("}\n" + `resource "google_pubsub_subscription" "s" {
  project = "shop-prod"
  name    = "orders"
  topic   = "orders"
  labels  = {
`)
	for i := range 6 {
		b.WriteString("    k" + string(rune('0'+i)) + ` = local.m` + string(rune('0'+i)) + ` == [] ? "a" : "b"` + "\n")
	}
	b.WriteString("  }\n}\n")
	res := Read(Request{Text: b.String()})
	refused := 0
	for _, d := range res.Diagnostics {
		if d.Code == "terraform-too-costly" {
			refused++
		}
	}
	var labels int
	for _, m := range res.Doc.Root.Members {
		if m.Key == "labels" {
			labels = len(m.Value.Members)
		}
	}
	if refused == 0 || labels == 0 || refused+labels != 6 {
		t.Errorf("%d labels evaluated, %d refused; want some of each, 6 in all; findings %v", labels, refused, res.Diagnostics)
	}
}

func typeName(e hclsyntax.Expression) string { return fmt.Sprintf("%T", e) }

// TestConversionsCharged: a number converted to an attribute's string is
// charged when converted (cty writes it with 512 bits: 11,500 numeric
// labels took 0.34 s natively). A label map of 64 numbers is read whole;
// one of 2,000 is read until the bound is spent, each label past it a
// warning at its value.
func TestConversionsCharged(t *testing.T) {
	for _, tc := range []struct {
		n         int
		allRead   bool
		refusedAt string
	}{{64, true, ""}, {2000, false, "k1999"}} {
		var b strings.Builder
		b.WriteString(`resource "google_pubsub_subscription" "s" {
  project = "shop-prod"
  name    = "orders"
  topic   = "orders"
  labels  = {
`)
		for i := range tc.n {
			fmt.Fprintf(&b, "    k%d = %d\n", i, i)
		}
		b.WriteString("  }\n}\n")
		res := Read(Request{Text: b.String()})
		var labels, refused int
		for _, m := range res.Doc.Root.Members {
			if m.Key == "labels" {
				labels = len(m.Value.Members)
			}
		}
		// The answer keeps the first 200 findings; every refused label is
		// unknown.
		refused = len(res.Unknown)
		warned := false
		for _, d := range res.Diagnostics {
			warned = warned || d.Code == "terraform-too-costly"
		}
		if tc.allRead && (labels != tc.n || refused != 0 || warned) {
			t.Errorf("%d labels: %d read, %d refused", tc.n, labels, refused)
		}
		if !tc.allRead && (labels < 64 || refused == 0 || !warned || labels+refused != tc.n || !slices.Contains(res.Unknown, "/labels/"+tc.refusedAt)) {
			t.Errorf("%d labels: %d read, %d refused (warned %v)", tc.n, labels, refused, warned)
		}
	}
}
