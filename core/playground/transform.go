package playground

import (
	"context"
	"errors"
	"time"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/pipeline"
	"github.com/subplay/subplay/core/subscription"
	"github.com/subplay/subplay/core/transform"
)

// TransformRequest runs a subscription's single message transforms (its
// enabled JavaScript UDFs, in order) on sample messages, then its filter on
// what they produce.
type TransformRequest struct {
	ConfigInput
	MessagesInput
	// Time (RFC 3339) is what Date.now() and new Date() return inside a UDF
	// for a message without a publishTime (with one, they return it). When
	// empty, 1970-01-01T00:00:00Z: a UDF never sees the real clock, so one
	// request always gives one answer.
	Time string `json:"time,omitempty"`
}

// TransformResponse is the fate of every sample message through the
// transforms and the filter.
type TransformResponse struct {
	// Diagnostics are about the configuration: its own findings about
	// messageTransforms and the filter, and each UDF's code findings
	// (syntax, subplay's limits, a throw in its top-level code, a missing
	// function), located in the configuration's text inside the code
	// string (Path ".../javascriptUdf/code").
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
	// Transforms lists every entry of messageTransforms, in order.
	Transforms []TransformInfo `json:"transforms"`
	// Order says how the preview orders transforms and filter, and why
	// (pipeline.Order).
	Order string `json:"order"`
	// Filter is the subscription's filter in canonical form ("" for none).
	Filter string `json:"filter,omitempty"`
	// FilterEvaluated is false when the filter is invalid: then Delivered
	// counts every message that came through the transforms.
	FilterEvaluated bool              `json:"filterEvaluated"`
	Results         []TransformResult `json:"results"`
	// Delivered + Dropped + Failed + Acked + Invalid = the number of
	// messages.
	Delivered int `json:"delivered"`
	Dropped   int `json:"dropped"`
	Failed    int `json:"failed"`
	Acked     int `json:"acked"`
	Invalid   int `json:"invalid"`
	// MessageDiagnostics are problems of the messages text that belong to
	// no single message.
	MessageDiagnostics []diag.Diagnostic `json:"messageDiagnostics,omitempty"`
}

// TransformInfo is one entry of messageTransforms.
type TransformInfo struct {
	// Index is the entry's place in messageTransforms; Path its pointer.
	Index int    `json:"index"`
	Path  string `json:"path"`
	// Kind is "javascriptUdf", "compression", "aiInference" or "" (none).
	Kind         string `json:"kind"`
	FunctionName string `json:"functionName,omitempty"`
	// Enabled is false for disabled: true.
	Enabled bool `json:"enabled"`
	// Runs says whether the preview runs it: enabled JavaScript UDFs run;
	// compression and AI inference are listed but not previewed.
	Runs bool `json:"runs"`
	// Note says why a transform does not run, when it does not.
	Note string `json:"note,omitempty"`
	// Console is what the UDF's top-level code logged (console.log and
	// its kin), capped at limits.UDFConsoleLines lines.
	Console []transform.ConsoleLine `json:"console,omitempty"`
}

// TransformResult is one message's way through the pipeline
// (pipeline.Result).
type TransformResult struct {
	Index int `json:"index"`
	// Outcome is "delivered", "dropped" (a UDF returned null), "failed" (a
	// UDF threw, returned a wrong shape or ran out of budget: the service
	// does not deliver it and routes it to the dead-letter topic when one is
	// set), "acked" (the filter does not match the transformed message:
	// the service acknowledges it without delivering it) or "invalid"
	// (outcomeInvalid: the message has errors of its own, so nothing runs
	// on it).
	Outcome string `json:"outcome"`
	// Steps hold the message after each transform that ran (indexes into
	// Transforms by Transform).
	Steps []TransformStep `json:"steps"`
	// By is the Transforms index of the UDF that dropped or failed it.
	By *int `json:"by,omitempty"`
	// Final is the message as delivered (or as the filter saw it).
	Final *PreviewMessage `json:"final,omitempty"`
	// Match and Reason are the filter's verdict on the transformed message;
	// MatchOriginal the verdict on the message as published (they differ
	// when a transform changes an attribute the filter reads). Absent
	// without a filter, or when the message did not come through; an
	// invalid message's Reason says why it gets no verdict.
	Match         *bool  `json:"match,omitempty"`
	MatchOriginal *bool  `json:"matchOriginal,omitempty"`
	Reason        string `json:"reason,omitempty"`
	// Diagnostics are the message's own problems (decoding, service limits).
	Diagnostics []diag.Diagnostic `json:"diagnostics,omitempty"`
}

// TransformStep is the state of a message after one transform.
type TransformStep struct {
	Transform int `json:"transform"`
	// Outcome is "changed", "unchanged", "dropped", "failed" or "not-run".
	Outcome string          `json:"outcome"`
	Message *PreviewMessage `json:"message,omitempty"`
	// Changes lists what differs from the message before the step.
	Changes []Change `json:"changes,omitempty"`
	// Diagnostics are the call's findings; a throw is located in the
	// configuration's text inside the UDF's code.
	Diagnostics []diag.Diagnostic `json:"diagnostics,omitempty"`
	// Console is what the call logged on this message, capped at
	// limits.UDFConsoleLines lines of limits.UDFConsoleBytes bytes.
	Console []transform.ConsoleLine `json:"console,omitempty"`
}

// PreviewMessage is a message as a transform returned it.
type PreviewMessage struct {
	// Data is the payload in base64, as in the API; Text is the same
	// payload as text when it is UTF-8.
	Data       []byte            `json:"data"`
	Text       *string           `json:"text,omitempty"`
	Attributes map[string]string `json:"attributes,omitempty"`
}

// Change is one difference a step made: Field is "data" or
// "attributes.KEY"; Kind is "added", "removed" or "changed".
type Change struct {
	Field  string  `json:"field"`
	Kind   string  `json:"kind"`
	Before *string `json:"before,omitempty"`
	After  *string `json:"after,omitempty"`
}

// Transform runs the request.
func Transform(req *TransformRequest) (*TransformResponse, error) {
	return TransformContext(context.Background(), req)
}

// TransformContext is Transform that stops, with ctx's error, once ctx is
// done.
func TransformContext(ctx context.Context, req *TransformRequest) (*TransformResponse, error) {
	cfg, err := req.ConfigInput.Load()
	if err != nil {
		return nil, err
	}
	decoded, msgDs, err := req.MessagesInput.LoadContext(ctx)
	if err != nil {
		return nil, err
	}
	now := time.Unix(0, 0).UTC()
	if req.Time != "" {
		if now, err = time.Parse(time.RFC3339Nano, req.Time); err != nil {
			return nil, &Error{Code: "bad-request", Message: `"time" must be RFC 3339, such as 2026-01-02T15:04:05Z, not ` + quote(req.Time)}
		}
	}
	run, err := pipeline.Messages(ctx, cfg, pipeline.Filter(cfg), decoded, msgDs, now)
	if err != nil {
		return nil, pipelineError(err)
	}
	return transformResponse(run), nil
}

// transformResponse shapes the pipeline's run as the contract's response.
func transformResponse(run *pipeline.Run) *TransformResponse {
	resp := &TransformResponse{
		Diagnostics: run.Diagnostics, Transforms: make([]TransformInfo, len(run.Transforms)), Order: pipeline.Order,
		Filter: run.Filter, FilterEvaluated: run.FilterEvaluated, Results: make([]TransformResult, len(run.Results)),
		Delivered: run.Delivered, Dropped: run.Dropped, Failed: run.Failed, Acked: run.Acked, Invalid: run.Invalid,
		MessageDiagnostics: run.MessageDiagnostics,
	}
	for i, t := range run.Transforms {
		resp.Transforms[i] = TransformInfo{Index: t.Index, Path: t.Path, Kind: t.Kind, FunctionName: t.FunctionName, Enabled: t.Enabled, Runs: t.Runs, Note: t.Note, Console: t.Console}
	}
	for i, r := range run.Results {
		tr := TransformResult{Index: r.Index, Outcome: r.Outcome, Steps: make([]TransformStep, len(r.Steps)), By: r.By,
			Match: r.Match, MatchOriginal: r.MatchOriginal, Reason: r.Reason, Diagnostics: r.Diagnostics}
		if r.Final != nil {
			tr.Final = preview(r.Final)
		}
		for j, st := range r.Steps {
			ts := TransformStep{Transform: st.Transform, Outcome: st.Outcome, Diagnostics: st.Diagnostics, Console: st.Console}
			if st.Message != nil {
				ts.Message = preview(st.Message)
			}
			for _, c := range st.Changes {
				ts.Changes = append(ts.Changes, Change{Field: c.Field, Kind: c.Kind, Before: c.Before, After: c.After})
			}
			tr.Steps[j] = ts
		}
		resp.Results[i] = tr
	}
	return resp
}

// pipelineError is the contract's error for what the pipeline could not
// do: a build that lacks a part answers needs-module, naming it; a
// cancelled call keeps its context's error; anything else is internal.
func pipelineError(err error) error {
	var e *Error
	switch {
	case errors.Is(err, pipeline.ErrNoUDF):
		return needsUDF()
	case errors.Is(err, pipeline.ErrNoFilter):
		return needsModule("this build cannot run the configuration's filter on the transformed messages (built with nocel); a build with cel must answer this request", NeedsCEL)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded), errors.As(err, &e):
		return err
	}
	return &Error{Code: "internal", Message: err.Error()}
}

func needsUDF() error {
	return needsModule("this build has no JavaScript engine to run the configuration's UDFs (built with noudf); a build with udf must answer this request", NeedsUDF)
}

func preview(m *message.Message) *PreviewMessage {
	p := &PreviewMessage{Data: m.Data, Attributes: m.Attributes}
	if p.Data == nil {
		p.Data = []byte{}
	}
	if utf8.Valid(m.Data) {
		s := string(m.Data)
		p.Text = &s
	}
	return p
}

func init() {
	registerContext("transform", "run the subscription's JavaScript transforms (UDFs) on sample messages: each message after each transform, which transform dropped or failed it, and the filter's verdict on what they produce", TransformContext)
}

// withEngines refuses a configuration this build cannot fully answer for:
// one with an enabled JavaScript UDF in a build without the engine (noudf),
// whatever the operation, so the page's loader asks the next module.
func withEngines(cfg *subscription.Config) (*subscription.Config, error) {
	if err := pipeline.Lacks(cfg); err != nil {
		return nil, pipelineError(err)
	}
	return cfg, nil
}

func ptr[T any](v T) *T { return &v }
