package playground

import (
	"strings"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/subscription"
)

// EffectiveRequest asks what a configuration will really do.
type EffectiveRequest struct {
	ConfigInput
	// YAML asks for the effective settings as annotated YAML too (see
	// EffectiveResponse.YAML). It is a request option rather than always
	// there because only the CLI's default output and the page's YAML view
	// show it, and it would otherwise double every response.
	YAML bool `json:"yaml,omitempty"`
}

// EffectiveResponse has the configuration with every default filled in, and
// one row per setting for display: its value, where the value comes from,
// and the field's bounds and help from the rule table.
type EffectiveResponse struct {
	Valid        bool                       `json:"valid"`
	DeliveryType subscription.DeliveryType  `json:"deliveryType,omitempty"`
	Effective    *subscription.Subscription `json:"effective,omitempty"`
	Settings     []Setting                  `json:"settings"`
	// Origins says, for every field with a value, whether it was set,
	// defaulted or derived (JSON pointer -> origin).
	Origins     map[string]subscription.Origin `json:"origins,omitempty"`
	Diagnostics []diag.Diagnostic              `json:"diagnostics"`
	// YAML is the effective configuration in gcloud's YAML style, each
	// defaulted value marked "# default" and each derived one "# derived";
	// only when the request asks for it.
	YAML string `json:"yaml,omitempty"`
}

// Setting is one row of the effective settings.
type Setting struct {
	Path   string              `json:"path"`
	Value  any                 `json:"value,omitempty"`
	Origin subscription.Origin `json:"origin,omitempty"` // absent: not set, and no default value
	Field  *subscription.Field `json:"field"`
}

// Effective computes the effective settings.
func Effective(req *EffectiveRequest) (*EffectiveResponse, error) {
	cfg, err := req.Load()
	if err != nil {
		return nil, err
	}
	ds := cfg.Validate()
	resp := &EffectiveResponse{Valid: cfg.Sub != nil && !diag.HasErrors(ds), Diagnostics: ds, Settings: []Setting{}}
	if ds == nil {
		resp.Diagnostics = []diag.Diagnostic{}
	}
	e := cfg.Effective()
	if e == nil {
		return resp, nil
	}
	resp.DeliveryType, resp.Effective, resp.Origins = e.DeliveryType, e.Subscription, e.Origins
	if req.YAML {
		if resp.YAML, err = e.AnnotatedYAML(); err != nil {
			return nil, &Error{Code: "internal", Message: "writing YAML: " + err.Error()}
		}
	}
	for _, f := range subscription.Fields() {
		if f.OutputOnly || (f.Delivery != "" && f.Delivery != e.DeliveryType) {
			continue
		}
		for _, p := range e.Expand(f.Path) {
			parent := p[:strings.LastIndexByte(p, '/')]
			if _, ok := e.Value(parent); parent != "" && !ok {
				continue // its enclosing object is not there
			}
			s := Setting{Path: p, Field: f, Origin: e.Origins[p]}
			if v, ok := e.Value(p); ok {
				s.Value = v
			}
			resp.Settings = append(resp.Settings, s)
		}
	}
	return resp, nil
}

// DescribeRequest takes no fields.
type DescribeRequest struct{}

// DescribeResponse is the rule table: every field with its default,
// bounds, unit, help text and source. The page's help comes from here.
type DescribeResponse struct {
	Fields        []*subscription.Field       `json:"fields"`
	DeliveryTypes []subscription.DeliveryType `json:"deliveryTypes"`
}

func init() {
	register("effective", "the configuration with every default filled in, and each setting's origin, bounds and help", Effective)
	register("describe", "every field of a subscription: default, bounds, unit, help and source", func(*DescribeRequest) (*DescribeResponse, error) {
		return &DescribeResponse{Fields: subscription.Fields(), DeliveryTypes: subscription.DeliveryTypes()}, nil
	})
}
