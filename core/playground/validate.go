package playground

import (
	"context"
	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/pipeline"
	"github.com/subplay/subplay/core/subscription"
)

// ValidateRequest asks whether a configuration is valid. With Old, it also
// checks that an update from Old to the configuration changes nothing the
// API keeps fixed.
type ValidateRequest struct {
	ConfigInput
	Old *ConfigInput `json:"old,omitempty"`
	// All reads the text as a file of a repository: every subscription it
	// holds is listed in the response's subscriptions, even a single one,
	// and a text that holds none is valid, with no finding (or only
	// findings about a text that looks meant to hold one but cannot be
	// read).
	All bool `json:"all,omitempty"`
}

// ValidateResponse is the verdict, every finding, and the effective settings.
type ValidateResponse struct {
	Valid        bool                       `json:"valid"`
	DeliveryType subscription.DeliveryType  `json:"deliveryType,omitempty"`
	Diagnostics  []diag.Diagnostic          `json:"diagnostics"`
	Counts       Counts                     `json:"counts"`
	Effective    *subscription.Subscription `json:"effective,omitempty"`
	// UpdateMask is, for a gcloud update command, the fields it changes,
	// dotted as the API's updateMask writes them.
	UpdateMask []string `json:"updateMask,omitempty"`
	// Subscriptions is there when the text holds several subscriptions
	// (every resource of a Terraform file, entry of Google's pubsub module,
	// command of a script, document of a YAML stream, element of a JSON
	// array): each with its own verdict, findings, effective settings and
	// source. Valid, Counts and Diagnostics above then cover all of them,
	// with the findings about the text as a whole; DeliveryType and
	// Effective are set only when the list holds one.
	Subscriptions []SubscriptionVerdict `json:"subscriptions,omitempty"`
}

// Counts tallies diagnostics by severity.
type Counts struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
}

func countsOf(ds []diag.Diagnostic) Counts {
	return Counts{diag.Count(ds, diag.Error), diag.Count(ds, diag.Warning), diag.Count(ds, diag.Info)}
}

// Validate checks a configuration.
func Validate(req *ValidateRequest) (*ValidateResponse, error) {
	return ValidateContext(context.Background(), req)
}

// ValidateContext is Validate whose UDFs' top-level code (the only part
// that can run long) stops, with ctx's error, once ctx is done.
func ValidateContext(ctx context.Context, req *ValidateRequest) (*ValidateResponse, error) {
	if resp, ok, err := several(ctx, req); ok {
		return resp, err
	}
	cfg, err := req.Load()
	if err != nil {
		return nil, err
	}
	ds := diag.Finish(append(cfg.Validate(), pipeline.UDFFindings(ctx, cfg)...))
	if req.Old != nil {
		old, err := req.Old.Load()
		if err != nil {
			return nil, &Error{Code: "bad-request", Message: "old: " + err.(*Error).Message}
		}
		if oldDs := old.Validate(); diag.HasErrors(oldDs) && old.Sub == nil {
			return nil, &Error{Code: "bad-request", Message: "old: the previous configuration cannot be read: " + oldDs[0].Message}
		}
		ds = diag.Finish(append(ds, updateFindings(cfg, old)...))
	}
	resp := &ValidateResponse{Valid: cfg.Sub != nil && !diag.HasErrors(ds), Diagnostics: ds, Counts: countsOf(ds), UpdateMask: cfg.UpdateMask()}
	if ds == nil {
		resp.Diagnostics = []diag.Diagnostic{}
	}
	if e := cfg.Effective(); e != nil {
		resp.DeliveryType = e.DeliveryType
		resp.Effective = e.Subscription
	}
	return resp, nil
}

func init() {
	registerContext("validate", "check a configuration: every finding with its position, and the effective settings", ValidateContext)
}
