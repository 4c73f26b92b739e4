//go:build !nohcl

package terraform

import (
	"sort"
	"strconv"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/limits"
)

// ReadAll reads every subscription a Terraform text holds: each
// google_pubsub_subscription resource, each entry of a call of Google's
// pubsub module, and each entry of the inputs a Terragrunt file gives that
// module. The text is parsed once; each subscription gets its own
// findings, positioned in the text. A text that holds none gives an empty
// All: no finding.
func ReadAll(req Request) *All {
	r := newReader(req)
	all := &All{}
	switch {
	case len(req.Text) > limits.TerraformMaxBytes:
		r.errorf(diag.Span{}, "", "input-too-large", "the Terraform text is longer than "+strconv.Itoa(limits.TerraformMaxBytes>>10)+" KiB, the most subplay reads",
			"split the file, or check the resources one by one")
	case r.scan():
		subs, modules := r.parseFile()
		if subs == nil {
			break
		}
		for _, b := range subs {
			r.start(b.Labels[1])
			r.resource(b)
			all.Subscriptions = append(all.Subscriptions, r.finish(ResourceType+"."+b.Labels[1], span(b.DefRange())))
		}
		for _, b := range modules {
			r.moduleCall(b, all)
		}
		r.terragrunt(all)
		sort.SliceStable(all.Subscriptions, func(i, j int) bool { return all.Subscriptions[i].At.Start < all.Subscriptions[j].At.Start })
	}
	all.Diagnostics = r.src.Finish(append(r.fileDs, r.ds...))
	return all
}

// start resets what the reader keeps about one subscription; what it
// keeps about the file (variables, locals, topics, providers, evaluated
// values and the evaluation bound) stays, so each is evaluated once.
func (r *reader) start(label string) {
	r.fileDs = append(r.fileDs, r.ds...)
	r.ds, r.root, r.provider = nil, nil, ""
	r.unknown = map[string]bool{}
	r.req.Resource = label
}

// finish turns what the reader read since start into a Result, and
// leaves the reader's findings empty for what the file says next.
func (r *reader) finish(address string, at diag.Span) *Result {
	res := &Result{Resource: r.req.Resource, Address: address, At: at}
	res.Doc = &doc.Doc{Source: r.src, Format: Format, Root: r.root}
	for p := range r.unknown {
		res.Unknown = append(res.Unknown, p)
	}
	sort.Strings(res.Unknown)
	res.Diagnostics = r.src.Finish(r.ds)
	r.ds, r.root = nil, nil
	return res
}

// terragrunt reads a Terragrunt file's inputs as the arguments of a call
// of Google's pubsub module, when its terraform block's source names that
// module.
func (r *reader) terragrunt(all *All) {
	inputs := r.file.Attributes["inputs"]
	if inputs == nil {
		return
	}
	var source *hclsyntax.Attribute
	for _, b := range r.file.Blocks {
		if b.Type == "terraform" && len(b.Labels) == 0 {
			source = b.Body.Attributes["source"]
		}
	}
	if source == nil {
		return
	}
	obj, ok := inputs.Expr.(*hclsyntax.ObjectConsExpr)
	if !ok {
		return
	}
	args := map[string]arg{}
	for _, it := range obj.Items {
		if k := r.keyOf(it.KeyExpr); k != "" {
			args[k] = arg{expr: it.ValueExpr, name: it.KeyExpr.Range()}
		}
	}
	r.module("terragrunt", source, nil, args, inputs.NameRange, all)
}
