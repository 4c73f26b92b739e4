package playground

import (
	"context"
	"time"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/pipeline"
	"github.com/subplay/subplay/core/subscription"
)

// Pipeline says what happened to the sample messages (core/pipeline) before a downstream
// preview (Cloud Storage files, Avro records, BigQuery rows) wrote them:
// the subscription's transforms ran on them, then its filter, and the
// preview writes only what came through, as the transforms left it.
type Pipeline struct {
	// Order is the rule the preview follows (pipeline.DownstreamOrder).
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
// a Cloud Storage or BigQuery preview (pipeline.Downstream says when), and
// returns the Pipeline the answer shows, the messages the preview writes
// and the sample message each comes from; a nil Pipeline when nothing
// selects or changes the messages.
func downstream(ctx context.Context, cfg *subscription.Config, decoded *message.Decoded, msgDs []diag.Diagnostic, clock time.Time) (*Pipeline, []message.Message, []int, error) {
	w, err := pipeline.Downstream(ctx, cfg, decoded, msgDs, clock)
	if err != nil {
		return nil, nil, nil, pipelineError(err)
	}
	if w == nil {
		return nil, nil, nil, nil
	}
	run := w.Run
	p := &Pipeline{Order: pipeline.DownstreamOrder, Transforms: w.Transforms, Filter: run.Filter, Messages: make([]PipelineMessage, len(run.Results)),
		Written: w.Origin, Delivered: run.Delivered, Dropped: run.Dropped, Failed: run.Failed, Acked: run.Acked, Invalid: run.Invalid,
		Diagnostics: w.Diagnostics}
	for i, r := range run.Results {
		pm := PipelineMessage{Index: i, Outcome: r.Outcome, By: r.By}
		for _, st := range r.Steps {
			if st.Outcome == "changed" {
				pm.Changed = true
			}
			if r.Outcome == pipeline.Failed {
				pm.Diagnostics = append(pm.Diagnostics, st.Diagnostics...)
			}
		}
		p.Messages[i] = pm
	}
	return p, w.Messages, w.Origin, nil
}
