package pipeline

import (
	"context"
	"strings"
	"time"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/subscription"
)

// Written is what a downstream preview (Cloud Storage files, Avro
// records, BigQuery rows) writes after the pipeline.
type Written struct {
	// Run is the pipeline's answer.
	Run *Run
	// Transforms is how many JavaScript UDFs ran.
	Transforms int
	// Diagnostics are the UDFs' code findings (syntax, a throw in the
	// top-level code, a missing function), located in the configuration.
	Diagnostics []diag.Diagnostic
	// Messages are the messages that come through, as the transforms left
	// them; Origin[i] is the sample message Messages[i] comes from.
	Messages []message.Message
	Origin   []int
}

// Downstream runs the sample messages (decoded, with msgDs as for
// Messages) through the configuration's transforms and filter before a
// Cloud Storage or BigQuery preview, and returns what the preview writes.
//
// The previews write what the subscription delivers, so the filter
// applies whether or not there are transforms: a message the filter does
// not match is acknowledged by the service and never reaches the bucket or
// the table. The filter sees the transformed message (Order). A build
// without the filter evaluator or the JavaScript engine returns ErrNoFilter
// or ErrNoUDF rather than a preview of other messages.
//
// A sample message with errors of its own (Invalid) is never written: the
// service would refuse to publish it. So there is an answer whenever some
// sample message is invalid, even with nothing to run.
//
// Otherwise, with neither an enabled UDF nor a valid filter, or without
// sample messages, nothing selects or changes the messages: the answer is
// nil and the previews write the samples as published.
func Downstream(ctx context.Context, cfg *subscription.Config, decoded *message.Decoded, msgDs []diag.Diagnostic, clock time.Time) (*Written, error) {
	if decoded == nil || cfg == nil || cfg.Sub == nil {
		return nil, nil
	}
	flt := Filter(cfg)
	if len(EnabledUDFs(cfg)) == 0 && flt == nil && !anyInvalid(msgDs) {
		return nil, nil
	}
	run, err := Messages(ctx, cfg, flt, decoded, msgDs, clock)
	if err != nil {
		return nil, err
	}
	w := &Written{Run: run, Messages: []message.Message{}, Origin: []int{}}
	for _, t := range run.Transforms {
		if t.Runs {
			w.Transforms++
		}
	}
	for _, d := range run.Diagnostics {
		if strings.HasSuffix(d.Path, "/javascriptUdf/code") {
			w.Diagnostics = append(w.Diagnostics, d)
		}
	}
	for i, r := range run.Results {
		if r.Outcome == Delivered {
			w.Origin = append(w.Origin, i)
			w.Messages = append(w.Messages, *r.Final)
		}
	}
	return w, nil
}

// anyInvalid says whether some sample message has errors of its own. ds
// holds the decoding findings and the limits the service enforces on
// publish, each marked with its message.
func anyInvalid(ds []diag.Diagnostic) bool {
	for _, x := range ds {
		if x.MessageIndex != nil && x.Severity == diag.Error {
			return true
		}
	}
	return false
}

// UDFClock is what Date.now() returns inside a UDF for a message without
// a publish time: the request's time when it gives one (reqTime, parsed),
// else the epoch, never the real clock, so every operation gives one
// answer to one request (the transform operation's rule).
func UDFClock(reqTime string, parsed time.Time) time.Time {
	if reqTime != "" {
		return parsed
	}
	return time.Unix(0, 0).UTC()
}
