package pipeline

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/filter"
	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/stop"
	"github.com/subplay/subplay/core/subscription"
	"github.com/subplay/subplay/core/transform"
)

// Order is the rule the transform preview follows. The docs say a
// subscription's SMTs apply before messages are delivered, and a filter
// decides delivery, but they do not say which of the two sees the message
// first; the preview runs the transforms first and filters what they
// produce, and gives the verdict on the message as published beside it so
// a reader sees when the order matters.
const Order = "transforms run first, in order, then the filter on the transformed message; the docs do not say which comes first, so the verdict on the message as published is shown beside it"

// DownstreamOrder is the same rule as the downstream previews (names,
// schema) follow it: they write only what comes through both, as the
// transforms left it.
const DownstreamOrder = "transforms run first, in order, then the filter on the transformed message (the docs do not say which comes first); the preview writes only the messages that come through, as transformed"

// The outcomes of a sample message.
const (
	Delivered = "delivered"
	Dropped   = "dropped" // a UDF returned null
	// Failed: a UDF threw, returned a wrong shape or ran out of budget;
	// the service does not deliver it and routes it to the dead-letter
	// topic when one is set.
	Failed = "failed"
	// Acked: the filter does not match the transformed message, and the
	// service acknowledges it without delivering it.
	Acked = "acked"
	// Invalid: the message has errors of its own (undecodable fields, a
	// limit the service enforces on publish). The service refuses to
	// publish such a message, so no transform, filter, bucket or table
	// ever sees it: it gets no verdict and is never written.
	Invalid = "invalid"
)

// InvalidReason says why an Invalid message has no verdict, where a
// reason is shown beside the outcome.
const InvalidReason = "no verdict: the service would refuse to publish this message (see its errors)"

// ErrNoUDF and ErrNoFilter say that this build lacks what the pipeline
// must run: the JavaScript engine (built with noudf) or the filter
// evaluator (built with nocel). A preview without them would be a
// different answer, so there is none.
var (
	ErrNoUDF    = errors.New("pipeline: this build has no JavaScript engine to run UDFs")
	ErrNoFilter = errors.New("pipeline: this build cannot evaluate filters")
)

// Transform is one entry of messageTransforms.
type Transform struct {
	Index int
	Path  string // its JSON pointer
	// Kind is "javascriptUdf", "compression", "aiInference" or "" (none).
	Kind         string
	FunctionName string
	Enabled      bool
	// Runs says whether the preview runs it: enabled JavaScript UDFs run;
	// compression and AI inference are listed but not previewed.
	Runs bool
	// Note says why a transform does not run, when it does not.
	Note string
	// Console is what the UDF's top-level code logged, capped.
	Console []transform.ConsoleLine
}

// Step is the state of a message after one transform.
type Step struct {
	Transform int // index into Run.Transforms
	// Outcome is the transform's: "changed", "unchanged", "dropped",
	// "failed" or "not-run".
	Outcome string
	// Message is the message the transform returned, if any; Changes what
	// differs from the message before the step.
	Message *message.Message
	Changes []Change
	// Diagnostics are the call's findings, located in the configuration's
	// text inside the UDF's code.
	Diagnostics []diag.Diagnostic
	// Console is what the call logged, capped (transform.Step.Console).
	Console []transform.ConsoleLine
}

// Result is one message's way through the pipeline.
type Result struct {
	Index   int
	Outcome string
	Steps   []Step
	// By is the Transforms index of the UDF that dropped or failed it.
	By *int
	// Final is the message as delivered (or as the filter saw it): the
	// transformed data and attributes, with the original's id, publish
	// time and ordering key (transforms change only data and attributes).
	Final *message.Message
	// Match and Reason are the filter's verdict on the transformed
	// message, MatchOriginal the verdict on the message as published;
	// absent without a filter, or when the message did not come through.
	// An invalid message's Reason is InvalidReason.
	Match, MatchOriginal *bool
	Reason               string
	// Diagnostics are the message's own problems (decoding, service
	// limits).
	Diagnostics []diag.Diagnostic
}

// Run is the fate of every sample message through the transforms and the
// filter.
type Run struct {
	// Diagnostics are about the configuration: its own findings about
	// messageTransforms and the filter, and each UDF's code findings,
	// located in its text, finished (sorted, capped).
	Diagnostics []diag.Diagnostic
	Transforms  []Transform
	// Filter is the filter in canonical form ("" for none);
	// FilterEvaluated is false when there is none or it is invalid.
	Filter          string
	FilterEvaluated bool
	Results         []Result
	// Delivered + Dropped + Failed + Acked + Invalid = the number of
	// messages.
	Delivered, Dropped, Failed, Acked, Invalid int
	// MessageDiagnostics are problems of the messages text that belong to
	// no single message.
	MessageDiagnostics []diag.Diagnostic
}

// Messages runs the sample messages (decoded, with msgDs, the decoding
// findings and the limits the service enforces on publish, each marked
// with its message) through cfg's transforms and the filter flt (Filter's
// answer, parsed once by the caller). now is what Date.now() returns
// inside a UDF for a message without a publish time. Once ctx is done it
// stops with ctx's error.
func Messages(ctx context.Context, cfg *subscription.Config, flt *filter.Filter, decoded *message.Decoded, msgDs []diag.Diagnostic, now time.Time) (*Run, error) {
	var err error
	run := &Run{Diagnostics: []diag.Diagnostic{}, Transforms: []Transform{}, Results: []Result{}}
	if cfg.Sub == nil {
		run.Diagnostics = cfg.Validate()
		run.MessageDiagnostics = msgDs
		return run, nil
	}
	var udfs []transform.UDF
	var runIdx []int // Transforms index of each UDF
	for i, t := range cfg.Sub.MessageTransforms {
		info := Transform{Index: i, Path: "/messageTransforms/" + strconv.Itoa(i), Enabled: t.Disabled == nil || !*t.Disabled}
		switch {
		case t.JavascriptUdf != nil:
			info.Kind = "javascriptUdf"
			if t.JavascriptUdf.FunctionName != nil {
				info.FunctionName = *t.JavascriptUdf.FunctionName
			}
		case t.Compression != nil:
			info.Kind, info.Note = "compression", "compression is not previewed: the data passes through unchanged here"
		case t.AiInference != nil:
			info.Kind, info.Note = "aiInference", "AI inference calls a model online and is not previewed: the data passes through unchanged here"
		}
		if !info.Enabled {
			info.Note = "disabled: the service skips it"
		}
		if info.Enabled && info.Kind == "javascriptUdf" {
			info.Runs = true
			u := transform.UDF{FunctionName: info.FunctionName}
			if t.JavascriptUdf.Code != nil {
				u.Code = *t.JavascriptUdf.Code
			}
			udfs = append(udfs, u)
			runIdx = append(runIdx, i)
		}
		run.Transforms = append(run.Transforms, info)
	}
	if len(udfs) > 0 && !transform.Available {
		return nil, ErrNoUDF
	}
	// The configuration's own findings about what this preview runs.
	run.Diagnostics = append(run.Diagnostics, cfg.FindingsUnder("/messageTransforms", "/filter")...)
	var prog *transform.Program
	if len(udfs) > 0 {
		if prog, err = transform.Compile(udfs, transform.Options{Now: now, Ctx: ctx}); err != nil {
			return nil, ErrNoUDF
		}
		defer prog.Close()
		for k, ds := range prog.Diagnostics {
			run.Diagnostics = append(run.Diagnostics, locateCode(cfg, runIdx[k], ds)...)
			run.Transforms[runIdx[k]].Console = prog.Console[k]
		}
	}
	if flt != nil {
		run.Filter = flt.String()
	}
	var msgs []message.Message
	if decoded != nil {
		msgs = decoded.Messages
	}
	var verdicts func(attrs []map[string]string) ([]verdict, error)
	if flt != nil {
		if verdicts, err = filterVerdicts(flt); err != nil {
			return nil, err
		}
		run.FilterEvaluated = true
	}
	per, rest, err := ByMessage(ctx, decoded, msgDs)
	if err != nil {
		return nil, err
	}
	run.MessageDiagnostics = rest
	run.Results = make([]Result, len(per))
	for i := range per {
		run.Results[i] = Result{Index: i, Diagnostics: per[i], Steps: []Step{}}
		if diag.HasErrors(per[i]) {
			run.Results[i].Outcome, run.Results[i].Reason = Invalid, InvalidReason
		}
	}
	var finals []map[string]string
	var originals []map[string]string
	var through []int
	for i, m := range msgs {
		if err := stop.Check(ctx, i); err != nil {
			return nil, err
		}
		r := &run.Results[i]
		if r.Outcome == Invalid {
			run.Invalid++
			continue
		}
		cur := m
		failed := false
		if prog != nil {
			for k, st := range prog.Run(m) {
				ts := Step{Transform: runIdx[k], Outcome: string(st.Outcome), Diagnostics: locateCode(cfg, runIdx[k], st.Diagnostics), Console: st.Console}
				for j := range ts.Diagnostics {
					ts.Diagnostics[j].MessageIndex = &r.Index
				}
				if st.Outcome == transform.NotRun && len(st.Diagnostics) == 0 {
					continue
				}
				if st.Message != nil {
					ts.Message = st.Message
					ts.Changes = changes(&cur, st.Message)
					cur = *st.Message
				}
				switch st.Outcome {
				case transform.Dropped:
					r.Outcome, r.By = Dropped, ptr(runIdx[k])
				case transform.Failed, transform.NotRun:
					r.Outcome, r.By, failed = Failed, ptr(runIdx[k]), true
				}
				r.Steps = append(r.Steps, ts)
			}
		}
		if r.Outcome != "" {
			if failed {
				run.Failed++
			} else {
				run.Dropped++
			}
			continue
		}
		cur.MessageID, cur.PublishTime, cur.OrderingKey = m.MessageID, m.PublishTime, m.OrderingKey
		final := cur
		r.Final = &final
		r.Outcome = Delivered
		finals = append(finals, cur.Attributes)
		originals = append(originals, m.Attributes)
		through = append(through, i)
	}
	if verdicts != nil && len(through) > 0 {
		after, err := verdicts(finals)
		if err != nil {
			return nil, err
		}
		before, err := verdicts(originals)
		if err != nil {
			return nil, err
		}
		for j, i := range through {
			r := &run.Results[i]
			r.Match, r.MatchOriginal, r.Reason = ptr(after[j].match), ptr(before[j].match), after[j].reason
			if !after[j].match {
				r.Outcome = Acked
			}
		}
	}
	for _, r := range run.Results {
		switch r.Outcome {
		case Delivered:
			run.Delivered++
		case Acked:
			run.Acked++
		}
	}
	run.Diagnostics = diag.Finish(run.Diagnostics)
	return run, nil
}

// verdict is the filter's answer for one message.
type verdict struct {
	match  bool
	reason string
}

func ptr[T any](v T) *T { return &v }

// ByMessage splits findings about sample messages by the message they
// point at, each message's own list finished with its service-limit
// checks (d.Check); rest is what belongs to no message. With no messages
// (d nil) every finding is in rest. Once ctx is done it stops with ctx's
// error.
func ByMessage(ctx context.Context, d *message.Decoded, ds []diag.Diagnostic) (per [][]diag.Diagnostic, rest []diag.Diagnostic, err error) {
	if d == nil {
		return nil, ds, nil
	}
	per = make([][]diag.Diagnostic, len(d.Messages))
	for _, x := range ds {
		if i := x.MessageIndex; i != nil && *i < len(per) {
			per[*i] = append(per[*i], x)
			continue
		}
		rest = append(rest, x)
	}
	for i := range per {
		if err := stop.Check(ctx, i); err != nil {
			return nil, nil, err
		}
		per[i] = diag.Finish(append(per[i], d.Check(i)...))
	}
	return per, rest, nil
}

// Filter returns the configuration's filter when it has one that parses,
// else nil: an invalid one is the configuration's finding and selects
// nothing. A request parses it once, here, and hands it down.
func Filter(cfg *subscription.Config) *filter.Filter {
	if cfg == nil || cfg.Sub == nil || cfg.Sub.Filter == nil || *cfg.Sub.Filter == "" {
		return nil
	}
	f, ds := filter.Parse(*cfg.Sub.Filter)
	if f == nil || diag.HasErrors(ds) {
		return nil
	}
	return f
}
