package playground

import (
	"context"
	"encoding/json"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/gcloudcmd"
	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/subscription"
	"github.com/subplay/subplay/core/terraform"
)

// ConfigInput names a subscription configuration in a request, either as
// the user's own text (diagnostics then carry lines and columns into it)
// or as a JSON object (diagnostics carry paths only). Operations embed it.
type ConfigInput struct {
	// Text is the configuration as typed: JSON, YAML, a gcloud pubsub
	// subscriptions create or update command, or Terraform text holding a
	// google_pubsub_subscription resource.
	Text *string `json:"text,omitempty"`
	// Format is "json", "yaml", "gcloud", "terraform" or empty to detect
	// it from Text.
	Format string `json:"format,omitempty"`
	// TerraformResource selects, in Terraform text with several
	// google_pubsub_subscription resources, the one to read by its label;
	// empty reads the first.
	TerraformResource string `json:"terraformResource,omitempty"`
	// File is the name shown when diagnostics are rendered as text.
	File string `json:"file,omitempty"`
	// Config is the configuration as a JSON object, in REST shape.
	Config json.RawMessage `json:"config,omitempty"`

	// label is the Terraform resource label read, and unknown the paths
	// whose value the text does not give (variables, references,
	// placeholders), set by Load.
	label   string
	unknown []string
}

// Load decodes the configuration. It fails only when the request names no
// configuration, or two, or an unknown format: problems with the
// configuration itself are diagnostics.
func (in *ConfigInput) Load() (*subscription.Config, error) {
	hasConfig := len(in.Config) > 0 && string(in.Config) != "null"
	switch {
	case in.Text != nil && hasConfig:
		return nil, &Error{Code: "bad-request", Message: `give the configuration as "text" or as "config", not both`}
	case in.Text != nil:
		f := doc.Format(in.Format)
		if f != "" && f != doc.JSON && f != doc.YAML && f != gcloudcmd.Format && f != terraform.Format {
			return nil, &Error{Code: "bad-request", Message: `"format" must be "json", "yaml", "gcloud", "terraform" or empty, not ` + quote(in.Format)}
		}
		switch {
		case f != "":
		case gcloudcmd.Detect(*in.Text):
			f = gcloudcmd.Format
		case terraform.Detect(*in.Text):
			f = terraform.Format
		}
		name := in.File
		if name == "" {
			name = "config." + string(doc.Detect(*in.Text))
			if f != "" {
				name = "config." + string(f)
			}
		}
		if f == gcloudcmd.Format {
			res := gcloudcmd.Read(gcloudcmd.Request{Name: name, Text: *in.Text})
			in.unknown = res.Unknown
			return withEngines(subscription.FromDoc(res.Doc, subscription.Reading{Diagnostics: res.Diagnostics, Judged: res.Judges, Changes: res.Verb == gcloudcmd.Update, UpdateMask: res.UpdateMask}))
		}
		if f == terraform.Format {
			return in.loadTerraform(name)
		}
		return withEngines(subscription.Decode(name, *in.Text, f))
	case hasConfig:
		return withEngines(subscription.DecodeObject(in.Config))
	}
	return nil, &Error{Code: "bad-request", Message: `the request names no configuration: add "text" (JSON, YAML, a gcloud command or Terraform) or "config" (an object)`}
}

// loadTerraform reads Terraform text, or says that this build cannot.
func (in *ConfigInput) loadTerraform(name string) (*subscription.Config, error) {
	if !terraform.Supported {
		return nil, needsModule("this build has no Terraform reader (built with nohcl); a build with hcl must answer this request", NeedsHCL)
	}
	res := terraform.Read(terraform.Request{Name: name, Text: *in.Text, Resource: in.TerraformResource})
	in.label, in.unknown = res.Resource, res.Unknown
	return withEngines(subscription.FromDoc(res.Doc, subscription.Reading{Diagnostics: res.Diagnostics, Judged: res.Known}))
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

// MessagesInput carries sample messages in a request: REST PubsubMessages
// as a JSON array ("messages", data in base64, or "text"/"json" for a
// plain payload), or the user's own JSON or YAML text ("messagesText"), so
// that message diagnostics point into it. Operations embed it.
type MessagesInput struct {
	Messages       json.RawMessage `json:"messages,omitempty"`
	MessagesText   *string         `json:"messagesText,omitempty"`
	MessagesFormat string          `json:"messagesFormat,omitempty"` // "json", "yaml" or empty to detect
}

// Has reports whether the request carries messages.
func (in *MessagesInput) Has() bool {
	return (len(in.Messages) > 0 && string(in.Messages) != "null") || in.MessagesText != nil
}

// Load decodes the messages; nil when there are none. Problems with the
// messages are diagnostics; only a request naming them twice, or in an
// unknown format, is an error.
func (in *MessagesInput) Load() (*message.Decoded, []diag.Diagnostic, error) {
	return in.LoadContext(context.Background())
}

// LoadContext is Load that stops, with ctx's error, once ctx is done.
func (in *MessagesInput) LoadContext(ctx context.Context) (*message.Decoded, []diag.Diagnostic, error) {
	hasArray := len(in.Messages) > 0 && string(in.Messages) != "null"
	switch {
	case hasArray && in.MessagesText != nil:
		return nil, nil, &Error{Code: "bad-request", Message: `give the messages as "messages" or as "messagesText", not both`}
	case hasArray:
		return message.ParseContext(ctx, "messages", string(in.Messages), doc.JSON)
	case in.MessagesText != nil:
		f := doc.Format(in.MessagesFormat)
		if f != "" && f != doc.JSON && f != doc.YAML {
			return nil, nil, &Error{Code: "bad-request", Message: `"messagesFormat" must be "json", "yaml" or empty, not ` + quote(in.MessagesFormat)}
		}
		return message.ParseContext(ctx, "messages", *in.MessagesText, f)
	}
	return nil, nil, nil
}
