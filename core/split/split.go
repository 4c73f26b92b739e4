// Package split finds every subscription a text holds: each
// google_pubsub_subscription resource and each entry of Google's pubsub
// module in Terraform, each subscription command of a script, each
// document of a multi-document YAML and each element of a JSON array (as
// gcloud pubsub subscriptions list prints them). Each comes back as a
// document of its own whose positions point into the whole text, so every
// finding about it lands on the user's own line and column.
//
// The text is read once whatever it holds: splitting is linear in its
// length.
package split

import (
	"strconv"
	"strings"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/gcloudcmd"
	"github.com/subplay/subplay/core/subscription"
	"github.com/subplay/subplay/core/terraform"
)

// Kinds of source.
const (
	Resource    = "terraform-resource" // a google_pubsub_subscription resource
	ModuleEntry = "terraform-module"   // an entry of a call of Google's pubsub module (or of Terragrunt's inputs for it)
	Command     = "gcloud-command"     // a gcloud pubsub subscriptions create or update
	Document    = "document"           // a JSON or YAML document (one of a multi-document YAML)
	Element     = "element"            // an element of a JSON or YAML array
)

// Source says where in a file a subscription is written.
type Source struct {
	File string `json:"file,omitempty"`
	// Kind is one of the kinds above.
	Kind string `json:"kind"`
	// Name is the resource's or module entry's Terraform address, the
	// command's words up to its verb, or the document's or element's index
	// ("document 2", "[3]"), 1-based for documents as editors count them.
	Name   string `json:"name,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
}

// Unit is one subscription of a text.
type Unit struct {
	Source  Source
	Doc     *doc.Doc
	Reading subscription.Reading
}

// Config decodes the unit's subscription with the rules.
func (u *Unit) Config() *subscription.Config { return subscription.FromDoc(u.Doc, u.Reading) }

// Result is what a text holds.
type Result struct {
	Units []Unit
	// Diagnostics are about the text as a whole rather than one of its
	// subscriptions (a syntax error that stops the reading, a module list
	// an old version of the module does not have), located and sorted.
	Diagnostics []diag.Diagnostic
	// NeedsHCL is true when the text is Terraform and this build has no
	// Terraform reader.
	NeedsHCL bool
}

// Text finds the subscriptions of text, named name, in format f ("json",
// "yaml", "gcloud", "terraform", or "" to detect it). A text that holds no
// subscription gives no unit and no finding; one that cannot be read gives
// its findings only when it looks meant to hold one (it mentions a topic),
// so that the other files of a repository stay quiet.
func Text(name, text string, f doc.Format) *Result {
	switch {
	case f != "":
	case gcloudcmd.Detect(text):
		f = gcloudcmd.Format
	case terraform.Detect(text):
		f = terraform.Format
	default:
		f = doc.Detect(text)
	}
	switch f {
	case gcloudcmd.Format:
		return commands(name, text)
	case terraform.Format:
		return hcl(name, text)
	case doc.YAML:
		return yamlDocs(name, text)
	}
	return documents(name, text, doc.JSON, 0, nil)
}

func commands(name, text string) *Result {
	out := &Result{}
	for _, r := range gcloudcmd.ReadAll(gcloudcmd.Request{Name: name, Text: text}) {
		if r.Doc.Root == nil && r.Verb == "" {
			out.Diagnostics = append(out.Diagnostics, r.Diagnostics...)
			continue
		}
		line, col := r.Doc.Source.LineCol(r.At.Start.Offset())
		words := strings.Join(strings.Fields(text[r.At.Start.Offset():r.At.End.Offset()]), " ")
		if n := r.Doc.Root.Get("name"); n != nil {
			words += " " + n.Value[strings.LastIndexByte(n.Value, '/')+1:]
		}
		out.Units = append(out.Units, Unit{
			Source:  Source{File: name, Kind: Command, Name: diag.Clip(words), Line: line, Column: col},
			Doc:     r.Doc,
			Reading: subscription.Reading{Diagnostics: r.Diagnostics, Judged: r.Judges, Changes: r.Verb == gcloudcmd.Update, UpdateMask: r.UpdateMask},
		})
	}
	return out
}

func hcl(name, text string) *Result {
	if !terraform.Supported {
		return &Result{NeedsHCL: true}
	}
	all := terraform.ReadAll(terraform.Request{Name: name, Text: text})
	out := &Result{Diagnostics: all.Diagnostics}
	for _, r := range all.Subscriptions {
		line, col := r.Doc.Source.LineCol(r.At.Start.Offset())
		kind := Resource
		if !strings.HasPrefix(r.Address, terraform.ResourceType+".") {
			kind = ModuleEntry
		}
		out.Units = append(out.Units, Unit{
			Source:  Source{File: name, Kind: kind, Name: r.Address, Line: line, Column: col},
			Doc:     r.Doc,
			Reading: subscription.Reading{Diagnostics: r.Diagnostics, Judged: r.Known},
		})
	}
	return out
}

// yamlDocs splits a YAML text at its document markers and reads each
// document on its own, its positions moved to where it stands in text.
func yamlDocs(name, text string) *Result {
	starts := documentStarts(text)
	if len(starts) == 1 {
		return documents(name, text, doc.YAML, 0, nil)
	}
	src := diag.NewSource(name, text)
	out := &Result{}
	shaped := false
	var all []Unit
	var ds []diag.Diagnostic
	for i, start := range starts {
		end := len(text)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		chunk := text[start:end]
		if blank(chunk) {
			continue
		}
		r := documents(name, chunk, doc.YAML, start, src)
		for k := range r.Units {
			r.Units[k].Source.Kind = Document
			r.Units[k].Source.Name = "document " + strconv.Itoa(i+1)
			if looksLikeSubscription(r.Units[k].Doc.Root) {
				shaped = true
			}
		}
		all = append(all, r.Units...)
		ds = append(ds, r.Diagnostics...)
	}
	if shaped {
		out.Units = all
	}
	if shaped || strings.Contains(text, "topic") {
		out.Diagnostics = src.Finish(ds)
	}
	return out
}

// documentStarts returns the offsets where each YAML document of text
// starts: 0, and each line that is a document marker ("---" alone or
// followed by a space; "..." ends one, so the next line starts another).
// A marker cannot stand at column 0 inside a value, so this needs no
// parsing.
func documentStarts(text string) []int {
	starts := []int{0}
	for off := 0; off < len(text); {
		end := strings.IndexByte(text[off:], '\n')
		next := len(text)
		if end >= 0 {
			next = off + end + 1
		}
		line := strings.TrimRight(text[off:next], "\r\n")
		marker := func(m string) bool {
			return line == m || strings.HasPrefix(line, m+" ") || strings.HasPrefix(line, m+"\t")
		}
		switch {
		case marker("---") && off > 0:
			starts = append(starts, off)
		case marker("...") && next < len(text):
			starts = append(starts, next)
		}
		off = next
	}
	// "...\n---" makes two starts for one document.
	out := starts[:1]
	for _, s := range starts[1:] {
		if blank(text[out[len(out)-1]:s]) && len(out) > 1 {
			out[len(out)-1] = s
			continue
		}
		out = append(out, s)
	}
	return out
}

// blank reports whether a YAML chunk holds nothing but comments, blank
// lines and document markers.
func blank(s string) bool {
	for _, line := range strings.Split(s, "\n") {
		t := strings.TrimSpace(line)
		if t != "" && !strings.HasPrefix(t, "#") && t != "---" && t != "..." && !strings.HasPrefix(t, "--- #") {
			return false
		}
	}
	return true
}

// documents reads one JSON or YAML document, which starts at offset base
// of the whole text (whose Source is src; nil when the document is the
// whole text): an object is one subscription, an array one per element.
func documents(name, text string, f doc.Format, base int, src *diag.Source) *Result {
	d, ds := doc.Parse(name, text, f)
	if src != nil {
		shift(d.Root, base)
		for i := range ds {
			if ds[i].Span.IsValid() {
				ds[i].Span = diag.SpanOf(ds[i].Span.Start.Offset()+base, ds[i].Span.End.Offset()+base)
			}
			ds[i].Line, ds[i].Column, ds[i].EndLine, ds[i].EndColumn = 0, 0, 0, 0
		}
		d.Source = src
		ds = src.Finish(ds)
	}
	out := &Result{}
	whole := d.Source
	switch {
	case d.Root == nil:
		if strings.Contains(text, "topic") {
			out.Diagnostics = ds
		}
	case d.Root.Kind == doc.Array:
		shaped := false
		for _, it := range d.Root.Items {
			shaped = shaped || looksLikeSubscription(it)
		}
		if !shaped {
			break
		}
		for i, it := range d.Root.Items {
			if it.Kind != doc.Object {
				continue
			}
			line, col := whole.LineCol(it.Span.Start.Offset())
			var own []diag.Diagnostic
			if i == 0 {
				own = ds
			}
			out.Units = append(out.Units, Unit{
				Source:  Source{File: name, Kind: Element, Name: "[" + strconv.Itoa(i) + "]", Line: line, Column: col},
				Doc:     &doc.Doc{Source: whole, Format: d.Format, Root: it},
				Reading: subscription.Reading{Diagnostics: own},
			})
		}
	case looksLikeSubscription(d.Root):
		line, col := whole.LineCol(d.Root.Span.Start.Offset())
		out.Units = append(out.Units, Unit{
			Source:  Source{File: name, Kind: Document, Line: line, Column: col},
			Doc:     d,
			Reading: subscription.Reading{Diagnostics: ds},
		})
	}
	return out
}

// shift moves every span of a tree by base bytes.
func shift(n *doc.Node, base int) {
	if n == nil || base == 0 {
		return
	}
	n.Span = shiftSpan(n.Span, base)
	for _, it := range n.Items {
		shift(it, base)
	}
	for i := range n.Members {
		n.Members[i].KeySpan = shiftSpan(n.Members[i].KeySpan, base)
		shift(n.Members[i].Value, base)
	}
}

func shiftSpan(s diag.Span, base int) diag.Span {
	if !s.IsValid() {
		return s
	}
	return diag.SpanOf(s.Start.Offset()+base, s.End.Offset()+base)
}

// looksLikeSubscription reports whether a JSON or YAML value is meant as
// a subscription: an object with a topic, a name in the subscriptions
// collection, or one wrapped as {"subscription": {...}}. Other documents
// of a repository (package.json, a Kubernetes manifest) are not read.
func looksLikeSubscription(n *doc.Node) bool {
	if n == nil || n.Kind != doc.Object {
		return false
	}
	if in := n.Get("subscription"); in != nil && in.Kind == doc.Object {
		return true
	}
	if n.Get("topic") != nil {
		return true
	}
	if nm := n.Get("name"); nm != nil && nm.Kind == doc.String && strings.Contains(nm.Value, "/subscriptions/") {
		return true
	}
	return false
}
