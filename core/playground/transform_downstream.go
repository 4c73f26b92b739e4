package playground

import (
	"context"
	"strings"
	"time"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/filter"
	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/subscription"
)

// Pipeline says what happened to the sample messages before a downstream
// preview (Cloud Storage files, Avro records, BigQuery rows) wrote them:
// the subscription's transforms ran on them, then its filter, and the
// preview writes only what came through, as the transforms left it.
type Pipeline struct {
	// Order is the rule the preview follows (pipelineOrder).
	Order string `json:"order"`
	// Transforms is how many JavaScript UDFs ran; Filter is the filter
	// applied, in canonical form ("" when there is none or it is invalid).
	Transforms int    `json:"transforms"`
	Filter     string `json:"filter,omitempty"`
	// Messages holds one entry per sample message, in order.
	Messages []PipelineMessage `json:"messages"`
	// Written lists the sample messages the preview writes, in order:
	// position i of the written stream is sample message Written[i] (a
	// file's firstIndex and messages count positions in it).
	Written []int `json:"written"`
	// Delivered + Dropped + Failed + Acked + Invalid = the number of
	// messages.
	Delivered int `json:"delivered"`
	Dropped   int `json:"dropped"`
	Failed    int `json:"failed"`
	Acked     int `json:"acked"`
	Invalid   int `json:"invalid"`
	// Diagnostics are the UDFs' code findings (syntax, a throw in the
	// top-level code, a missing function), located in the configuration.
	Diagnostics []diag.Diagnostic `json:"diagnostics,omitempty"`
}

// PipelineMessage is one sample message's fate before the preview.
type PipelineMessage struct {
	Index int `json:"index"`
	// Outcome is "delivered", "dropped", "failed", "acked" or "invalid"
	// (the message has errors of its own: the service would refuse to
	// publish it, so it is never written), as in the transform operation.
	Outcome string `json:"outcome"`
	// By is the messageTransforms index of the UDF that dropped or failed
	// the message.
	By *int `json:"by,omitempty"`
	// Changed says a transform changed its data or attributes: the preview
	// writes the changed message.
	Changed bool `json:"changed,omitempty"`
	// Diagnostics say why a transform failed it, located in the UDF's code.
	Diagnostics []diag.Diagnostic `json:"diagnostics,omitempty"`
}

// downstream runs the sample messages (decoded, with msgDs from
// checkMessages) through the configuration's transforms and filter before
// a Cloud Storage or BigQuery preview, and returns what the preview
// writes: the messages that come through, as the transforms left them,
// and the sample message each comes from.
//
// The previews write what the subscription delivers, so the filter
// applies whether or not there are transforms: a message the filter does
// not match is acknowledged by the service and never reaches the bucket or
// the table. The filter sees the transformed message (transformOrder). A
// build without the filter evaluator (nocel) or the JavaScript engine
// (noudf) answers needs-module rather than a preview of other messages.
//
// A sample message with errors of its own (outcomeInvalid) is never
// written: the service would refuse to publish it. So the Pipeline is
// there whenever some sample message is invalid, even with nothing to run.
//
// Otherwise, with neither an enabled UDF nor a valid filter, or without
// sample messages, nothing selects or changes the messages: the Pipeline
// is nil and the previews write the samples as published.
func downstream(ctx context.Context, cfg *subscription.Config, decoded *message.Decoded, msgDs []diag.Diagnostic, clock time.Time) (*Pipeline, []message.Message, []int, error) {
	if decoded == nil || cfg == nil || cfg.Sub == nil {
		return nil, nil, nil, nil
	}
	flt := configFilter(cfg)
	if len(enabledUDFs(cfg)) == 0 && flt == nil && !anyInvalid(msgDs) {
		return nil, nil, nil, nil
	}
	tr, finals, err := runTransforms(ctx, cfg, flt, decoded, msgDs, clock)
	if err != nil {
		return nil, nil, nil, err
	}
	p := &Pipeline{Order: pipelineOrder, Filter: tr.Filter, Messages: make([]PipelineMessage, len(tr.Results)), Written: []int{},
		Delivered: tr.Delivered, Dropped: tr.Dropped, Failed: tr.Failed, Acked: tr.Acked, Invalid: tr.Invalid}
	for _, t := range tr.Transforms {
		if t.Runs {
			p.Transforms++
		}
	}
	for _, d := range tr.Diagnostics {
		if strings.HasSuffix(d.Path, "/javascriptUdf/code") {
			p.Diagnostics = append(p.Diagnostics, d)
		}
	}
	through := []message.Message{}
	for i, r := range tr.Results {
		pm := PipelineMessage{Index: i, Outcome: r.Outcome, By: r.By}
		for _, st := range r.Steps {
			if st.Outcome == "changed" {
				pm.Changed = true
			}
			if r.Outcome == "failed" {
				pm.Diagnostics = append(pm.Diagnostics, st.Diagnostics...)
			}
		}
		p.Messages[i] = pm
		if r.Outcome == "delivered" {
			p.Written = append(p.Written, i)
			through = append(through, finals[i])
		}
	}
	return p, through, p.Written, nil
}

// configFilter returns the configuration's filter when it has one that
// parses, else nil: an invalid one is the configuration's finding and
// selects nothing. It is parsed once per request, here, and handed down.
func configFilter(cfg *subscription.Config) *filter.Filter {
	if cfg == nil || cfg.Sub == nil || cfg.Sub.Filter == nil || *cfg.Sub.Filter == "" {
		return nil
	}
	return parsedFilter(*cfg.Sub.Filter)
}

// anyInvalid says whether some sample message has errors of its own. ds
// is what checkMessages returns: the decoding findings and the limits the
// service enforces on publish, each marked with its message.
func anyInvalid(ds []diag.Diagnostic) bool {
	for _, x := range ds {
		if x.MessageIndex != nil && x.Severity == diag.Error {
			return true
		}
	}
	return false
}

// udfClock is what Date.now() returns inside a UDF for a message without
// a publish time: the request's time when it gives one, else the epoch,
// never the real clock, so every operation gives one answer to one
// request (the transform operation's rule).
func udfClock(reqTime string, parsed time.Time) time.Time {
	if reqTime != "" {
		return parsed
	}
	return time.Unix(0, 0).UTC()
}
