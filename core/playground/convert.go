package playground

import (
	"encoding/json"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/gcloudcmd"
	"github.com/subplay/subplay/core/subscription"
	"github.com/subplay/subplay/core/terraform"
)

// The forms convert writes.
const (
	FormJSON      = "json"      // the REST resource, as the API and describe --format=json print it
	FormYAML      = "yaml"      // describe --format=yaml's style: block YAML, keys sorted
	FormGcloud    = "gcloud"    // a gcloud pubsub subscriptions create (or update) command
	FormTerraform = "terraform" // a google_pubsub_subscription resource
)

// ConvertForms lists the forms in the order convert writes them.
var ConvertForms = []string{FormJSON, FormYAML, FormGcloud, FormTerraform}

// ConvertRequest asks for a configuration in other forms.
type ConvertRequest struct {
	ConfigInput
	// To is the form to write ("json", "yaml", "gcloud", "terraform");
	// empty writes every form, in that order.
	To string `json:"to,omitempty"`
	// Effective writes the configuration with every default filled in
	// rather than as given.
	Effective bool `json:"effective,omitempty"`
	// Old is the existing subscription. With it, gcloud is an update
	// command (only the flags of the fields that change) and terraform
	// adds an import block for the existing subscription.
	Old *ConfigInput `json:"old,omitempty"`
	// Import adds the import block to terraform without an Old.
	Import bool `json:"import,omitempty"`
	// Resource is the Terraform resource label; empty keeps a Terraform
	// input's own label, or derives one from the subscription ID.
	Resource string `json:"resource,omitempty"`
}

// ConvertResponse has the configuration in each form asked for, and the
// findings about the input.
type ConvertResponse struct {
	Valid       bool              `json:"valid"`
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
	Outputs     []ConvertOutput   `json:"outputs"`
}

// ConvertOutput is the configuration written in one form.
type ConvertOutput struct {
	Format string `json:"format"`
	Text   string `json:"text"`
	// Files are files the text names (gcloud's --message-transforms-file),
	// by the path it uses.
	Files map[string]string `json:"files,omitempty"`
	// Notes say what this form cannot express or expresses otherwise,
	// each with the field's path (code gcloud-not-expressible or
	// terraform-not-expressible).
	Notes []diag.Diagnostic `json:"notes"`
}

// updateFindings checks an update from old to cfg. For Terraform, a
// change the API refuses is a replacement Terraform plans instead.
func updateFindings(cfg, old *subscription.Config) []diag.Diagnostic {
	ds := cfg.CheckUpdate(old)
	if cfg.Doc != nil && cfg.Doc.Format == terraform.Format {
		ds = terraform.Replacements(ds)
	}
	return ds
}

// Convert writes a configuration in other forms.
func Convert(req *ConvertRequest) (*ConvertResponse, error) {
	forms := ConvertForms
	if req.To != "" {
		if !validForm(req.To) {
			return nil, &Error{Code: "bad-request", Message: `"to" must be "json", "yaml", "gcloud", "terraform" or empty, not ` + quote(req.To)}
		}
		forms = []string{req.To}
	}
	cfg, err := req.Load()
	if err != nil {
		return nil, err
	}
	ds := diag.In(diag.InputConfig, cfg.Validate())
	resp := &ConvertResponse{Valid: cfg.Sub != nil && !diag.HasErrors(ds), Diagnostics: ds, Outputs: []ConvertOutput{}}
	if ds == nil {
		resp.Diagnostics = []diag.Diagnostic{}
	}
	var old *subscription.Config
	if req.Old != nil {
		if old, err = req.Old.Load(); err != nil {
			return nil, &Error{Code: "bad-request", Message: "old: " + err.(*Error).Message}
		}
		if old.Sub == nil || old.UpdateMask() != nil {
			return nil, &Error{Code: "bad-request", Message: "old: the existing configuration must be a whole subscription (JSON, YAML, a create command or Terraform)"}
		}
	}
	sub := cfg.Sub
	if sub == nil {
		return resp, nil
	}
	if cfg.UpdateMask() != nil {
		resp.Diagnostics = append(resp.Diagnostics, diag.Diagnostic{Severity: diag.Error, Code: "convert-partial", Input: diag.InputConfig,
			Message: "an update command holds only the fields it changes, not a whole subscription to convert",
			Hint:    "convert the whole configuration, and give the existing one as old for an update command"})
		resp.Valid = false
		return resp, nil
	}
	if req.Effective {
		if e := cfg.Effective(); e != nil {
			sub = e.Subscription
		}
	}
	var oldSub *subscription.Subscription
	if old != nil {
		oldSub = old.Sub
		if e := old.Effective(); req.Effective && e != nil {
			oldSub = e.Subscription
		}
	}
	for _, f := range forms {
		out, err := convertTo(f, sub, oldSub, req, cfg)
		if err != nil {
			return nil, err
		}
		if f == FormTerraform && old != nil {
			// The resource adopts the existing subscription; a change of a
			// ForceNew attribute then replaces it.
			out.Notes = append(out.Notes, terraform.Replacements(cfg.CheckUpdate(old))...)
		}
		for _, u := range req.unknown {
			out.Notes = append(out.Notes, diag.Diagnostic{Severity: diag.Warning, Code: "convert-unknown", Path: u,
				Message: "the input does not give this value (a variable, a reference or a placeholder), so the output leaves it out"})
		}
		out.Notes = diag.In(diag.InputConfig, out.Notes)
		if out.Notes == nil {
			out.Notes = []diag.Diagnostic{}
		}
		resp.Outputs = append(resp.Outputs, out)
	}
	return resp, nil
}

func validForm(f string) bool {
	for _, g := range ConvertForms {
		if f == g {
			return true
		}
	}
	return false
}

func convertTo(form string, sub, old *subscription.Subscription, req *ConvertRequest, cfg *subscription.Config) (ConvertOutput, error) {
	out := ConvertOutput{Format: form}
	switch form {
	case FormJSON:
		b, err := json.MarshalIndent(sub, "", "  ")
		if err != nil {
			return out, &Error{Code: "internal", Message: "writing JSON: " + err.Error()}
		}
		out.Text = string(b) + "\n"
	case FormYAML:
		e := &subscription.Effective{Subscription: sub}
		if req.Effective {
			if eff := cfg.Effective(); eff != nil {
				e = eff
			}
		}
		y, err := e.AnnotatedYAML()
		if err != nil {
			return out, &Error{Code: "internal", Message: "writing YAML: " + err.Error()}
		}
		out.Text = y
	case FormGcloud:
		var c gcloudcmd.Command
		if old != nil {
			c = gcloudcmd.WriteUpdate(old, sub)
		} else {
			c = gcloudcmd.WriteCreate(sub)
		}
		out.Text, out.Files, out.Notes = c.Text, c.Files, c.Notes
	case FormTerraform:
		label := req.Resource
		if label == "" {
			label = req.label
		}
		w := terraform.Write(sub, terraform.Options{Resource: label, Import: req.Import || old != nil})
		out.Text, out.Notes = w.Text, w.Notes
	}
	return out, nil
}

func init() {
	register("convert", "the configuration in other forms: REST JSON, describe-style YAML, a gcloud command, a Terraform resource", Convert)
}
