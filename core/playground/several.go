package playground

import (
	"context"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/gcloudcmd"
	"github.com/subplay/subplay/core/pipeline"
	"github.com/subplay/subplay/core/split"
	"github.com/subplay/subplay/core/subscription"
	"github.com/subplay/subplay/core/terraform"
)

// SubscriptionVerdict is the verdict on one subscription of a text that
// holds several: what a ValidateResponse says of one, and where it is.
type SubscriptionVerdict struct {
	Source       split.Source               `json:"source"`
	Valid        bool                       `json:"valid"`
	DeliveryType subscription.DeliveryType  `json:"deliveryType,omitempty"`
	Diagnostics  []diag.Diagnostic          `json:"diagnostics"`
	Counts       Counts                     `json:"counts"`
	Effective    *subscription.Subscription `json:"effective,omitempty"`
	UpdateMask   []string                   `json:"updateMask,omitempty"`
}

// several answers a validate request whose text holds several
// subscriptions (or one that only a reading of the whole text finds: an
// entry of a module call, an element of an array, a document after the
// first); ok is false when the request is for the single reading: one
// subscription, a Terraform resource named, an update check against old,
// a configuration given as an object, or a build without a reader the
// text needs (which Load then reports).
func several(ctx context.Context, req *ValidateRequest) (resp *ValidateResponse, ok bool, err error) {
	in := &req.ConfigInput
	if req.Old != nil || in.Text == nil || in.TerraformResource != "" || (len(in.Config) > 0 && string(in.Config) != "null") {
		return nil, false, nil
	}
	f := doc.Format(in.Format)
	switch {
	case f != "" && f != doc.JSON && f != doc.YAML && f != gcloudcmd.Format && f != terraform.Format:
		return nil, false, nil
	case f == "" && gcloudcmd.Detect(*in.Text):
		f = gcloudcmd.Format
	case f == "" && terraform.Detect(*in.Text):
		f = terraform.Format
	}
	if f == terraform.Format && !terraform.Supported {
		return nil, false, nil
	}
	if req.All && in.Format == "" && f == "" {
		f = doc.Detect(*in.Text)
	}
	name := in.File
	if name == "" {
		name = "config." + string(doc.Detect(*in.Text))
		if f != "" {
			name = "config." + string(f)
		}
	}
	found := split.Text(name, *in.Text, f)
	switch {
	case req.All:
	case len(found.Units) == 0:
		return nil, false, nil
	case len(found.Units) == 1:
		if k := found.Units[0].Source; k.Kind != split.ModuleEntry && k.Kind != split.Element && !(k.Kind == split.Document && k.Name != "" && k.Name != "document 1") {
			return nil, false, nil
		}
	}
	resp = &ValidateResponse{Valid: !diag.HasErrors(found.Diagnostics), Counts: countsOf(found.Diagnostics)}
	all := append([]diag.Diagnostic(nil), found.Diagnostics...)
	for i := range found.Units {
		u := &found.Units[i]
		cfg, err := withEngines(u.Config())
		if err != nil {
			return nil, true, err
		}
		ds := diag.Finish(append(cfg.Validate(), pipeline.UDFFindings(ctx, cfg)...))
		v := SubscriptionVerdict{Source: u.Source, Valid: cfg.Sub != nil && !diag.HasErrors(ds), Diagnostics: ds, Counts: countsOf(ds), UpdateMask: cfg.UpdateMask()}
		if ds == nil {
			v.Diagnostics = []diag.Diagnostic{}
		}
		if e := cfg.Effective(); e != nil {
			v.DeliveryType = e.DeliveryType
			v.Effective = e.Subscription
		}
		resp.Valid = resp.Valid && v.Valid
		resp.Counts.Errors += v.Counts.Errors
		resp.Counts.Warnings += v.Counts.Warnings
		resp.Counts.Infos += v.Counts.Infos
		all = append(all, ds...)
		resp.Subscriptions = append(resp.Subscriptions, v)
	}
	resp.Diagnostics = diag.Finish(all)
	if resp.Diagnostics == nil {
		resp.Diagnostics = []diag.Diagnostic{}
	}
	if len(resp.Subscriptions) == 1 {
		// One subscription: the single shape says it all; the list names
		// where it is.
		v := resp.Subscriptions[0]
		resp.DeliveryType, resp.Effective, resp.UpdateMask = v.DeliveryType, v.Effective, v.UpdateMask
	}
	return resp, true, nil
}
