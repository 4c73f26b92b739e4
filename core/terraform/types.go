package terraform

import (
	"strings"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
)

// Format names the Terraform form of a configuration in doc.Doc.
const Format doc.Format = "terraform"

// Request is Terraform text to read.
type Request struct {
	Name string // the text's name in findings (a file name), may be ""
	Text string
	// Resource selects the google_pubsub_subscription resource by its
	// label; "" reads the first one in the text (an info finding names
	// the others).
	Resource string
}

// Result is what the text means.
type Result struct {
	// Doc holds the subscription in its REST JSON shape, its spans in the
	// Terraform text. Doc.Root is nil when no resource could be read.
	Doc *doc.Doc
	// Resource is the label of the resource read; Resources lists every
	// google_pubsub_subscription label in the text, in order.
	Resource  string
	Resources []string
	// Unknown lists the JSON pointers whose value the text does not give
	// (a variable without default, a reference to another resource, a
	// function call, the provider's project): findings at or under them
	// would judge a value nobody wrote.
	Unknown []string
	// Diagnostics are the reader's own findings, located and sorted.
	Diagnostics []diag.Diagnostic
	// Address names the subscription as Terraform does
	// (google_pubsub_subscription.orders, or
	// module.pubsub.google_pubsub_subscription.pull_subscriptions["orders"]
	// for an entry of Google's pubsub module); set by ReadAll.
	Address string
	// At is where the subscription is written: the resource's block
	// header, or the module entry.
	At diag.Span
}

// All is every subscription a Terraform text holds, each read on its own
// (ReadAll).
type All struct {
	Subscriptions []*Result
	// Diagnostics are about the text as a whole (its size, its syntax, a
	// module call whose entries cannot be read), located and sorted.
	Diagnostics []diag.Diagnostic
}

// Known reports whether a finding at path is about a value the text
// gives.
func (r *Result) Known(path string) bool {
	for _, u := range r.Unknown {
		if path == u || strings.HasPrefix(path, u+"/") || u == "" {
			return false
		}
	}
	return true
}
