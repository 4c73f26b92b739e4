package pipeline

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/subscription"
	"github.com/subplay/subplay/core/transform"
)

// Lacks returns ErrNoUDF when cfg has an enabled JavaScript UDF and this
// build has no engine to run it (noudf), whatever the operation: a
// preview or validation that left the UDFs out would be a different
// answer.
func Lacks(cfg *subscription.Config) error {
	if !transform.Available && len(EnabledUDFs(cfg)) > 0 {
		return ErrNoUDF
	}
	return nil
}

// EnabledUDFs returns the messageTransforms indexes of the enabled
// JavaScript UDFs, in order.
func EnabledUDFs(cfg *subscription.Config) []int {
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

// UDFFindings compiles the enabled UDFs of a configuration and returns
// their code's findings (syntax, subplay's limits, a throw in the
// top-level code, a missing function), located in its text, for
// validation. A UDF without a name or code is left to the configuration's
// own required-field findings, and a missing function the configuration's
// rules already report is not reported twice.
func UDFFindings(ctx context.Context, cfg *subscription.Config) []diag.Diagnostic {
	idx := EnabledUDFs(cfg)
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
