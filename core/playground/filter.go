package playground

import (
	"context"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/filter"
	"github.com/subplay/subplay/core/message"
)

// FilterRequest tests a filter against sample messages. The filter comes
// from "filter"; when that is absent, from the configuration named by
// "text"/"config" (then positions point into the configuration).
type FilterRequest struct {
	Filter *string `json:"filter,omitempty"`
	MessagesInput
	ConfigInput
}

// FilterResponse is the verdict on the filter and the fate of every
// message.
type FilterResponse struct {
	// Valid says whether the service would accept the filter.
	Valid bool `json:"valid"`
	// Diagnostics are about the filter, located in the filter text (or in
	// the configuration's text when the filter came from it).
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
	Canonical   string            `json:"canonical"`
	CEL         string            `json:"cel"`
	// Evaluated is false when the messages were not run through the
	// filter: it is invalid, or this build has no evaluator.
	Evaluated bool           `json:"evaluated"`
	Results   []FilterResult `json:"results"`
	// Delivered and Acked count the verdicts; Invalid counts the messages
	// that get none (outcomeInvalid). When Evaluated, Delivered + Acked +
	// Invalid = the number of messages.
	Delivered int `json:"delivered"`
	Acked     int `json:"acked"`
	Invalid   int `json:"invalid"`
	// MessageDiagnostics are problems of the messages text that belong to
	// no single message (its shape, its size).
	MessageDiagnostics []diag.Diagnostic `json:"messageDiagnostics,omitempty"`
}

// FilterResult is the fate of one message.
type FilterResult struct {
	Index int `json:"index"`
	// Outcome is "delivered", "acked" (the service acknowledges it on the
	// subscriber's behalf) or "invalid" (outcomeInvalid: the message has
	// errors of its own, the service would refuse to publish it, so no
	// filter ever sees it). Empty when the filter was not run on it.
	Outcome string `json:"outcome,omitempty"`
	// Match is true when the message is delivered, false when it is
	// acked; absent when the filter was not run on it (an invalid message,
	// an invalid filter, a build without the evaluator).
	Match  *bool  `json:"match,omitempty"`
	Reason string `json:"reason"`
	// Deciding lists the conditions that settled it, with where they sit.
	Deciding []DecidingCondition `json:"deciding,omitempty"`
	// Diagnostics are the message's own problems: undecodable fields and
	// limits the service enforces on publish.
	Diagnostics []diag.Diagnostic `json:"diagnostics,omitempty"`
}

// DecidingCondition is a condition of the filter that decided a message.
// Its position is in the same text as the filter's diagnostics.
type DecidingCondition struct {
	Condition string `json:"condition"` // canonical form
	Value     bool   `json:"value"`
	Why       string `json:"why"`
	Line      int    `json:"line,omitempty"`
	Column    int    `json:"column,omitempty"`
	EndLine   int    `json:"endLine,omitempty"`
	EndColumn int    `json:"endColumn,omitempty"`
}

// filterSource is the filter of a request and how to carry positions in
// it into the user's text.
type filterSource struct {
	text  string
	input string                    // diag.InputFilter, or diag.InputConfig when it came from one
	path  string                    // "/filter" when it came from a configuration
	span  func(diag.Span) diag.Span // filter bytes -> user's text
	src   *diag.Source              // the user's text; nil when there is none
}

func (s *filterSource) locate(ds []diag.Diagnostic) {
	for i := range ds {
		ds[i].Path, ds[i].Input = s.path, s.input
		if s.span != nil {
			ds[i].Span = s.span(ds[i].Span)
		}
	}
	if s.src != nil {
		s.src.Locate(ds)
	}
}

// loadFilter finds the filter of the request. When the configuration it
// names cannot be decoded, ds says why and fs is nil.
func loadFilter(req *FilterRequest) (fs *filterSource, ds []diag.Diagnostic, err error) {
	if req.Filter != nil {
		return &filterSource{text: *req.Filter, input: diag.InputFilter, src: diag.NewSource("filter", *req.Filter)}, nil, nil
	}
	if req.Text == nil && (len(req.Config) == 0 || string(req.Config) == "null") {
		return nil, nil, &Error{Code: "bad-request", Message: `the request names no filter: add "filter", or a configuration as "text" or "config"`}
	}
	cfg, err := req.ConfigInput.Load()
	if err != nil {
		return nil, nil, err
	}
	if cfg.Sub == nil {
		return nil, cfg.Validate(), nil
	}
	if node := cfg.Node("/filter"); node != nil && node.Kind != doc.String && node.Kind != doc.Null {
		// Not a string: there is no filter to read, only the configuration's
		// own finding about the field.
		for _, d := range cfg.Validate() {
			if d.Path == "/filter" && d.Severity == diag.Error {
				ds = append(ds, d)
			}
		}
		if len(ds) == 0 {
			ds = cfg.Locate([]diag.Diagnostic{{Severity: diag.Error, Code: "filter-not-a-string", Path: "/filter",
				Message: "the filter must be a string, not a " + node.Kind.String()}})
		}
		return nil, ds, nil
	}
	fs = &filterSource{path: "/filter", input: diag.InputConfig}
	if cfg.Sub.Filter != nil {
		fs.text = *cfg.Sub.Filter
	}
	if node := cfg.Node("/filter"); node != nil && cfg.Positioned {
		fs.span = func(s diag.Span) diag.Span { return cfg.Doc.SourceSpan(node, s) }
		fs.src = cfg.Doc.Source
	} else {
		fs.span = func(diag.Span) diag.Span { return diag.Span{} }
	}
	return fs, nil, nil
}

// testFilter runs the parts of the operation every build has: the filter
// is read, checked and printed, the messages decoded and checked. evaluate
// (nil in a build without an evaluator) runs the filter on the messages.
// Once ctx is done it stops with ctx's error.
func testFilter(ctx context.Context, req *FilterRequest, evaluate func(context.Context, *filter.Filter, *filterSource, []message.Message, *FilterResponse) error) (*FilterResponse, error) {
	resp := &FilterResponse{Diagnostics: []diag.Diagnostic{}, Results: []FilterResult{}}
	fs, cfgDs, err := loadFilter(req)
	if err != nil {
		return nil, err
	}
	decoded, msgDs, err := req.MessagesInput.LoadContext(ctx)
	if err != nil {
		return nil, err
	}
	resp.Results, resp.MessageDiagnostics, err = perMessage(ctx, decoded, msgDs, newFilterResult)
	if err != nil {
		return nil, err
	}
	for _, r := range resp.Results {
		if r.Outcome == outcomeInvalid {
			resp.Invalid++
		}
	}
	if fs == nil {
		resp.Diagnostics = cfgDs
		return resp, nil
	}
	f, ds := filter.Parse(fs.text)
	fs.locate(ds)
	resp.Diagnostics = diag.Finish(append(resp.Diagnostics, ds...))
	resp.Valid = f != nil
	if f != nil {
		resp.Canonical = f.String()
	}
	if f == nil {
		return resp, nil
	}
	if evaluate == nil {
		resp.Diagnostics = append(resp.Diagnostics, diag.Diagnostic{Severity: diag.Info, Code: "filter-evaluation-unavailable",
			Message: "this build checks filters but cannot run them on messages", Hint: "the full playground and the subplay CLI can"})
		return resp, nil
	}
	var msgs []message.Message
	if decoded != nil {
		msgs = decoded.Messages
	}
	if err := evaluate(ctx, f, fs, msgs, resp); err != nil {
		return nil, err
	}
	resp.Evaluated = true
	for _, r := range resp.Results {
		switch r.Outcome {
		case "delivered":
			resp.Delivered++
		case "acked":
			resp.Acked++
		}
	}
	return resp, nil
}

// newFilterResult is message i's result before the filter runs: an
// invalid message gets its outcome now, and the filter skips it.
func newFilterResult(i int, ds []diag.Diagnostic, invalid bool) FilterResult {
	r := FilterResult{Index: i, Diagnostics: ds}
	if invalid {
		r.Outcome, r.Reason = outcomeInvalid, invalidReason
	}
	return r
}
