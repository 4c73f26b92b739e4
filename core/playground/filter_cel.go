//go:build !nocel

package playground

import (
	"context"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/filter"
	"github.com/subplay/subplay/core/filter/celfilter"
	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/stop"
)

// Filter checks a filter and runs it on sample messages with cel-go.
func Filter(req *FilterRequest) (*FilterResponse, error) {
	return FilterContext(context.Background(), req)
}

// FilterContext is Filter that stops, with ctx's error, once ctx is done.
func FilterContext(ctx context.Context, req *FilterRequest) (*FilterResponse, error) {
	return testFilter(ctx, req, evaluate)
}

func evaluate(ctx context.Context, f *filter.Filter, fs *filterSource, msgs []message.Message, resp *FilterResponse) error {
	prog, err := celfilter.Compile(f)
	if err != nil {
		return &Error{Code: "internal", Message: err.Error()}
	}
	if resp.CEL, err = prog.CEL(); err != nil {
		return &Error{Code: "internal", Message: err.Error()}
	}
	for i := range msgs {
		if err := stop.Check(ctx, i); err != nil {
			return err
		}
		out := &resp.Results[i]
		if out.Outcome == outcomeInvalid {
			continue
		}
		r, err := prog.Explain(msgs[i].Attributes)
		if err != nil {
			return &Error{Code: "internal", Message: err.Error()}
		}
		out.Outcome, out.Match, out.Reason = verdict(r.Match), ptr(r.Match), r.Reason
		for _, d := range r.Deciding {
			c := []diag.Diagnostic{{Span: d.Expr.Span().Diag()}}
			fs.locate(c)
			out.Deciding = append(out.Deciding, DecidingCondition{Condition: d.Text, Value: d.Value, Why: d.Why,
				Line: c[0].Line, Column: c[0].Column, EndLine: c[0].EndLine, EndColumn: c[0].EndColumn})
		}
	}
	return nil
}

func init() {
	registerContext("filter", "check a subscription filter, show its canonical and CEL forms, and say which sample messages it delivers and why", FilterContext)
}
