package playground

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/filter"
	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/stop"
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
	// Order says how the preview orders transforms and filter, and why.
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
}

// TransformResult is one message's way through the pipeline.
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

// transformOrder is the rule the preview follows. The docs say a
// subscription's SMTs apply before messages are delivered, and a filter
// decides delivery, but they do not say which of the two sees the message
// first; the preview runs the transforms first and filters what they
// produce, and gives the verdict on the message as published beside it so
// a reader sees when the order matters.
const transformOrder = "transforms run first, in order, then the filter on the transformed message; the docs do not say which comes first, so the verdict on the message as published is shown beside it"

// pipelineOrder is the same rule as the downstream previews (names,
// schema) follow it: they write only what comes through both, as the
// transforms left it.
const pipelineOrder = "transforms run first, in order, then the filter on the transformed message (the docs do not say which comes first); the preview writes only the messages that come through, as transformed"

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
	resp, _, err := runTransforms(ctx, cfg, configFilter(cfg), decoded, msgDs, now)
	return resp, err
}

// runTransforms runs the sample messages through the configuration's
// transforms and filter (flt, configFilter's answer, parsed once by the
// caller). Besides the response it returns, for each
// message whose outcome is "delivered" or "acked", the message the
// transforms produced, with the original's id, publish time and ordering
// key (transforms change only data and attributes).
func runTransforms(ctx context.Context, cfg *subscription.Config, flt *filter.Filter, decoded *message.Decoded, msgDs []diag.Diagnostic, now time.Time) (*TransformResponse, []message.Message, error) {
	var err error
	resp := &TransformResponse{Diagnostics: []diag.Diagnostic{}, Transforms: []TransformInfo{}, Results: []TransformResult{}, Order: transformOrder}
	if cfg.Sub == nil {
		resp.Diagnostics = cfg.Validate()
		resp.MessageDiagnostics = msgDs
		return resp, nil, nil
	}
	var udfs []transform.UDF
	var runIdx []int // Transforms index of each UDF
	for i, t := range cfg.Sub.MessageTransforms {
		info := TransformInfo{Index: i, Path: "/messageTransforms/" + strconv.Itoa(i), Enabled: t.Disabled == nil || !*t.Disabled}
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
		resp.Transforms = append(resp.Transforms, info)
	}
	if len(udfs) > 0 && !transform.Available {
		return nil, nil, needsUDF()
	}
	// The configuration's own findings about what this preview runs.
	resp.Diagnostics = append(resp.Diagnostics, cfg.FindingsUnder("/messageTransforms", "/filter")...)
	var prog *transform.Program
	if len(udfs) > 0 {
		if prog, err = transform.Compile(udfs, transform.Options{Now: now, Ctx: ctx}); err != nil {
			return nil, nil, needsUDF()
		}
		defer prog.Close()
		for k, ds := range prog.Diagnostics {
			resp.Diagnostics = append(resp.Diagnostics, locateCode(cfg, runIdx[k], ds)...)
		}
	}
	if flt != nil {
		resp.Filter = flt.String()
	}
	var msgs []message.Message
	if decoded != nil {
		msgs = decoded.Messages
	}
	var verdicts func(attrs []map[string]string) ([]filterVerdict, error)
	if flt != nil {
		if verdicts, err = transformFilter(flt); err != nil {
			return nil, nil, err
		}
		resp.FilterEvaluated = true
	}
	if resp.Results, resp.MessageDiagnostics, err = perMessage(ctx, decoded, msgDs, newTransformResult); err != nil {
		return nil, nil, err
	}
	finalMsgs := make([]message.Message, len(msgs))
	var finals []map[string]string
	var originals []map[string]string
	var through []int
	for i, m := range msgs {
		if err := stop.Check(ctx, i); err != nil {
			return nil, nil, err
		}
		r := &resp.Results[i]
		if r.Outcome == outcomeInvalid {
			resp.Invalid++
			continue
		}
		cur := m
		failed := false
		if prog != nil {
			for k, st := range prog.Run(m) {
				ts := TransformStep{Transform: runIdx[k], Outcome: string(st.Outcome), Diagnostics: locateCode(cfg, runIdx[k], st.Diagnostics)}
				for j := range ts.Diagnostics {
					ts.Diagnostics[j].MessageIndex = &r.Index
				}
				if st.Outcome == transform.NotRun && len(st.Diagnostics) == 0 {
					continue
				}
				if st.Message != nil {
					ts.Message = preview(st.Message)
					ts.Changes = changes(&cur, st.Message)
					cur = *st.Message
				}
				switch st.Outcome {
				case transform.Dropped:
					r.Outcome, r.By = "dropped", ptr(runIdx[k])
				case transform.Failed, transform.NotRun:
					r.Outcome, r.By, failed = "failed", ptr(runIdx[k]), true
				}
				r.Steps = append(r.Steps, ts)
			}
		}
		if r.Outcome != "" {
			if failed {
				resp.Failed++
			} else {
				resp.Dropped++
			}
			continue
		}
		cur.MessageID, cur.PublishTime, cur.OrderingKey = m.MessageID, m.PublishTime, m.OrderingKey
		finalMsgs[i] = cur
		r.Final = preview(&cur)
		r.Outcome = "delivered"
		finals = append(finals, cur.Attributes)
		originals = append(originals, m.Attributes)
		through = append(through, i)
	}
	if verdicts != nil && len(through) > 0 {
		after, err := verdicts(finals)
		if err != nil {
			return nil, nil, err
		}
		before, err := verdicts(originals)
		if err != nil {
			return nil, nil, err
		}
		for j, i := range through {
			r := &resp.Results[i]
			r.Match, r.MatchOriginal, r.Reason = ptr(after[j].match), ptr(before[j].match), after[j].reason
			if !after[j].match {
				r.Outcome = "acked"
			}
		}
	}
	for _, r := range resp.Results {
		switch r.Outcome {
		case "delivered":
			resp.Delivered++
		case "acked":
			resp.Acked++
		}
	}
	resp.Diagnostics = diag.Finish(resp.Diagnostics)
	return resp, finalMsgs, nil
}

// parsedFilter returns the filter, or nil when it has errors (they are
// the configuration's findings).
func parsedFilter(text string) *filter.Filter {
	f, ds := filter.Parse(text)
	if f == nil || diag.HasErrors(ds) {
		return nil
	}
	return f
}

// filterVerdict is the filter's answer for one message.
type filterVerdict struct {
	match  bool
	reason string
}

func needsUDF() error {
	return needsModule("this build has no JavaScript engine to run the configuration's UDFs (built with noudf); a build with udf must answer this request", NeedsUDF)
}

func ptr[T any](v T) *T { return &v }

// locateCode carries findings positioned in a UDF's code into the
// configuration's text, the way the filter's positions are carried.
func locateCode(cfg *subscription.Config, t int, ds []diag.Diagnostic) []diag.Diagnostic {
	if len(ds) == 0 {
		return nil
	}
	path := "/messageTransforms/" + strconv.Itoa(t) + "/javascriptUdf/code"
	node := cfg.Node(path)
	out := make([]diag.Diagnostic, len(ds))
	for i, d := range ds {
		d.Input, d.Path = diag.InputConfig, path
		if node != nil && cfg.Positioned {
			if d.Span.IsValid() {
				d.Span = cfg.Doc.SourceSpan(node, d.Span)
			} else {
				d.Span = node.Span
			}
		} else {
			d.Span = diag.Span{}
		}
		out[i] = d
	}
	if cfg.Positioned {
		cfg.Doc.Source.Locate(out)
	}
	return out
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

// changes lists what differs from a to b, attributes in key order.
func changes(a, b *message.Message) []Change {
	var out []Change
	str := func(s string) *string { return &s }
	if string(a.Data) != string(b.Data) {
		out = append(out, Change{Field: "data", Kind: "changed"})
	}
	keys := slices.Sorted(maps.Keys(a.Attributes))
	for k := range b.Attributes {
		if _, ok := a.Attributes[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		va, ina := a.Attributes[k]
		vb, inb := b.Attributes[k]
		switch {
		case ina && !inb:
			out = append(out, Change{Field: "attributes." + k, Kind: "removed", Before: str(va)})
		case !ina && inb:
			out = append(out, Change{Field: "attributes." + k, Kind: "added", After: str(vb)})
		case va != vb:
			out = append(out, Change{Field: "attributes." + k, Kind: "changed", Before: str(va), After: str(vb)})
		}
	}
	return out
}

// newTransformResult is message i's result before anything runs on it:
// an invalid message gets its outcome now, and nothing runs on it.
func newTransformResult(i int, ds []diag.Diagnostic, invalid bool) TransformResult {
	r := TransformResult{Index: i, Diagnostics: ds, Steps: []TransformStep{}}
	if invalid {
		r.Outcome, r.Reason = outcomeInvalid, invalidReason
	}
	return r
}

func init() {
	registerContext("transform", "run the subscription's JavaScript transforms (UDFs) on sample messages: each message after each transform, which transform dropped or failed it, and the filter's verdict on what they produce", TransformContext)
}

// withEngines refuses a configuration this build cannot fully answer for:
// one with an enabled JavaScript UDF in a build without the engine (noudf),
// whatever the operation, so the page's loader asks the next module.
func withEngines(cfg *subscription.Config) (*subscription.Config, error) {
	if !transform.Available && len(enabledUDFs(cfg)) > 0 {
		return nil, needsUDF()
	}
	return cfg, nil
}

// enabledUDFs returns the messageTransforms indexes of the enabled
// JavaScript UDFs, in order.
func enabledUDFs(cfg *subscription.Config) []int {
	if cfg == nil || cfg.Sub == nil {
		return nil
	}
	var out []int
	for i, t := range cfg.Sub.MessageTransforms {
		if t.JavascriptUdf != nil && (t.Disabled == nil || !*t.Disabled) {
			out = append(out, i)
		}
	}
	return out
}

// udfFindings compiles the enabled UDFs of a configuration and returns
// their code's findings (syntax, subplay's limits, a throw in the
// top-level code, a missing function), located in its text, for validate.
// A UDF without a name or code is left to the configuration's own
// required-field findings, and a missing function the configuration's
// rules already report is not reported twice.
func udfFindings(ctx context.Context, cfg *subscription.Config) []diag.Diagnostic {
	idx := enabledUDFs(cfg)
	if len(idx) == 0 || !transform.Available {
		return nil
	}
	var udfs []transform.UDF
	var at []int
	for _, i := range idx {
		u := cfg.Sub.MessageTransforms[i].JavascriptUdf
		if u.FunctionName == nil || u.Code == nil || *u.FunctionName == "" || *u.Code == "" {
			continue
		}
		udfs = append(udfs, transform.UDF{FunctionName: *u.FunctionName, Code: *u.Code})
		at = append(at, i)
	}
	prog, err := transform.Compile(udfs, transform.Options{Now: time.Unix(0, 0).UTC(), Ctx: ctx, CheckOnly: true})
	if err != nil {
		return nil
	}
	defer prog.Close()
	reported := map[string]bool{}
	for _, d := range cfg.FindingsUnder("/messageTransforms") {
		reported[d.Path] = true
	}
	var out []diag.Diagnostic
	for k, ds := range prog.Diagnostics {
		for _, d := range locateCode(cfg, at[k], ds) {
			if d.Code == "udf-function-missing" && (reported[d.Path] || reported[strings.TrimSuffix(d.Path, "code")+"functionName"]) {
				continue
			}
			out = append(out, d)
		}
	}
	return out
}
