package terraform

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/subscription"
)

// The writer needs no HCL library: it is plain text, so the page's first
// module (built with nohcl) can export Terraform too. The reader checks
// it: every written block reads back to the subscription it came from.

// Options shape a written resource.
type Options struct {
	// Resource is the resource's label; "" derives it from the
	// subscription's ID.
	Resource string
	// Import adds an import block (Terraform 1.5 and later) so that the
	// resource adopts the existing subscription instead of creating one.
	Import bool
}

// Written is a Terraform configuration written from a subscription.
type Written struct {
	Text     string
	Resource string // the label used
	// Notes say what the resource cannot carry or carries differently,
	// each at the field's JSON pointer.
	Notes []diag.Diagnostic
}

type writer struct {
	b     strings.Builder
	notes []diag.Diagnostic
}

func (w *writer) note(sev diag.Severity, path, msg string) {
	w.notes = append(w.notes, diag.Diagnostic{Severity: sev, Code: "terraform-not-expressible", Path: path, Message: msg})
}

// Write writes s as a google_pubsub_subscription resource.
func Write(s *subscription.Subscription, o Options) Written {
	w := &writer{}
	m := toMap(s)
	project, short, full := splitName(str(m["name"]), "subscriptions")
	if str(m["name"]) == "" {
		short = "SUBSCRIPTION"
		w.note(diag.Warning, "/name", "the subscription has no name; the resource says SUBSCRIPTION")
	} else if !full {
		w.note(diag.Warning, "/name", "the name is not of the form projects/PROJECT/subscriptions/ID; the resource writes it whole as name")
	}
	label := o.Resource
	if label == "" || !isIdent(label) {
		label = labelFor(short)
	}
	if o.Import {
		id := str(m["name"])
		if id == "" {
			id = "projects/PROJECT/subscriptions/" + short
		}
		w.b.WriteString("import {\n  to = " + ResourceType + "." + label + "\n  id = " + quote(id) + "\n}\n\n")
	}
	w.b.WriteString("resource " + quote(ResourceType) + " " + quote(label) + " {\n")
	var top []line
	if project != "" {
		top = append(top, line{key: "project", val: quote(project)})
	}
	top = append(top, line{key: "name", val: quote(short)})
	if t, ok := m["topic"]; ok {
		top = append(top, line{key: "topic", val: quote(str(t))})
		if _, _, full := splitName(str(t), "topics"); !full {
			w.note(diag.Warning, "/topic", "the topic is not of the form projects/PROJECT/topics/ID; the provider reads any other value as a topic ID in the subscription's project")
		}
	} else {
		w.note(diag.Warning, "/topic", "the subscription has no topic; the provider requires one, so the resource needs a topic line before Terraform accepts it")
	}
	delete(m, "name")
	delete(m, "topic")
	w.body(top, m, schema, "", "  ")
	w.b.WriteString("}\n")
	diag.Sort(w.notes)
	return Written{Text: w.b.String(), Resource: label, Notes: w.notes}
}

// line is one attribute or block of a body, written.
type line struct {
	key   string
	val   string // the value's text; "" for a block
	block string // a block's whole text (with its header), indented
}

// body writes the attributes and blocks of m (a REST object at path) by
// the table list, after the lines already in pre.
func (w *writer) body(pre []line, m map[string]any, list []*attr, path, indent string) {
	lines := pre
	for _, a := range list {
		if a.rest == "" || a.rest == "name" || a.rest == "topic" {
			continue
		}
		v, ok := m[a.rest]
		if !ok {
			continue
		}
		delete(m, a.rest)
		p := path + "/" + a.rest
		switch a.kind {
		case kString, kDuration:
			w.checkNormal(p, str(v))
			lines = append(lines, line{key: a.tf, val: w.stringValue(str(v), indent)})
		case kBool:
			b, _ := v.(bool)
			lines = append(lines, line{key: a.tf, val: strconv.FormatBool(b)})
		case kInt:
			lines = append(lines, line{key: a.tf, val: number(v)})
		case kMap:
			if mv, ok := v.(map[string]any); ok {
				for k, x := range mv {
					w.checkNormal(p+"/"+diag.PointerKey(k), k)
					w.checkNormal(p+"/"+diag.PointerKey(k), str(x))
				}
			}
			lines = append(lines, line{key: a.tf, val: w.mapValue(v, indent)})
		case kBlock:
			sub, _ := v.(map[string]any)
			if t := w.block(a, sub, p, indent); t != "" {
				lines = append(lines, line{block: t})
			}
		case kList:
			items, _ := v.([]any)
			for i, it := range items {
				sub, _ := it.(map[string]any)
				lines = append(lines, line{block: w.blockText(a, sub, p+"/"+strconv.Itoa(i), indent)})
			}
		}
	}
	w.leftOver(m, path)
	writeLines(&w.b, lines, indent)
}

// block writes one nested block, with the provider's quirks.
func (w *writer) block(a *attr, m map[string]any, path, indent string) string {
	switch a.rest {
	case "expirationPolicy":
		if _, ok := m["ttl"]; !ok {
			// The provider sends ttl = "" as a policy without a ttl:
			// never expire. Leaving the block out would mean 31 days.
			m["ttl"] = ""
		}
	case "pushConfig":
		if str(m["pushEndpoint"]) == "" {
			delete(m, "pushEndpoint")
			if len(m) > 0 {
				w.note(diag.Warning, path, "the provider writes push_config only with push_endpoint; the resource leaves the push settings out")
			} else {
				w.note(diag.Info, path, "a pushConfig without endpoint means pull, which the resource says by having no push_config block")
			}
			return ""
		}
		if _, ok := m["pubsubWrapper"]; ok {
			delete(m, "pubsubWrapper")
			w.note(diag.Info, path+"/pubsubWrapper", "the provider has no attribute for pubsubWrapper; it is what push delivers when no_wrapper is absent")
		}
		if nw, ok := m["noWrapper"].(map[string]any); ok {
			if _, ok := nw["writeMetadata"]; !ok {
				nw["writeMetadata"] = false
				w.note(diag.Info, path+"/noWrapper/writeMetadata", "the provider requires no_wrapper.write_metadata; the resource writes false, what the API assumes when it is absent")
			}
		}
	case "cloudStorageConfig":
		if _, ok := m["textConfig"]; ok {
			delete(m, "textConfig")
			w.note(diag.Info, path+"/textConfig", "the provider has no text_config block; text is what it writes when avro_config is absent")
		}
	}
	return w.blockText(a, m, path, indent)
}

func (w *writer) blockText(a *attr, m map[string]any, path, indent string) string {
	for _, c := range a.children {
		if _, ok := m[c.rest]; c.required && !ok {
			w.note(diag.Warning, path+"/"+c.rest, "the provider requires "+c.tf+" in "+a.tf+" and the configuration has none, so Terraform refuses the resource until it is added")
		}
	}
	sub := &writer{}
	sub.body(nil, m, a.children, path, indent+"  ")
	w.notes = append(w.notes, sub.notes...)
	if sub.b.Len() == 0 {
		return indent + a.tf + " {}\n"
	}
	return indent + a.tf + " {\n" + sub.b.String() + indent + "}\n"
}

// checkNormal notes a string Terraform would change on reading it.
func (w *writer) checkNormal(path, s string) {
	if !normalized(s) {
		w.note(diag.Warning, path, "Terraform turns strings into Unicode normal form C, so this value reaches the API with some characters changed")
	}
}

// leftOver notes every field of m the table has no attribute for.
func (w *writer) leftOver(m map[string]any, path string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := path + "/" + diag.PointerKey(k)
		if path == "" && outputOnly[k] {
			w.note(diag.Info, p, k+" is output only: the service reports it, a Terraform resource cannot set it")
			continue
		}
		w.note(diag.Warning, p, "the google provider's "+ResourceType+" has no attribute for "+k+"; the resource leaves it out")
	}
}

// writeLines writes a body, aligning the equals signs of consecutive
// one-line attributes as terraform fmt does.
func writeLines(b *strings.Builder, lines []line, indent string) {
	for i := 0; i < len(lines); {
		if lines[i].block != "" {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(lines[i].block)
			i++
			continue
		}
		j, width := i, 0
		for j < len(lines) && lines[j].block == "" {
			width = max(width, len(lines[j].key))
			j++
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		for ; i < j; i++ {
			b.WriteString(indent + lines[i].key + strings.Repeat(" ", width-len(lines[i].key)) + " = " + lines[i].val + "\n")
		}
	}
}

// stringValue writes s as a quoted string, or as a heredoc when it is
// several whole lines (JavaScript code).
func (w *writer) stringValue(s, indent string) string {
	if h, ok := heredoc(s); ok {
		return h
	}
	return quote(s)
}

func (w *writer) mapValue(v any, indent string) string {
	m, _ := v.(map[string]any)
	if len(m) == 0 {
		return "{}"
	}
	keys := make([]string, 0, len(m))
	width := 0
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	ks := make([]string, len(keys))
	for i, k := range keys {
		ks[i] = mapKey(k)
		width = max(width, len(ks[i]))
	}
	var b strings.Builder
	b.WriteString("{\n")
	for i, k := range keys {
		b.WriteString(indent + "  " + ks[i] + strings.Repeat(" ", width-len(ks[i])) + " = " + quote(str(m[k])) + "\n")
	}
	b.WriteString(indent + "}")
	return b.String()
}

// mapKey writes an object key: bare when HCL reads it as that string,
// quoted otherwise (true, false and null are literals, for starts a for
// expression).
func mapKey(k string) string {
	switch k {
	case "true", "false", "null", "for":
		return quote(k)
	}
	if isIdent(k) {
		return k
	}
	return quote(k)
}

// quote writes s as an HCL quoted template that evaluates to s: the
// template sequences ${ and %{ are doubled ($${ and %%{), quotes and
// backslashes escaped, control characters written as escapes, and
// invalid UTF-8 replaced with U+FFFD (HCL reads UTF-8 only).
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b.WriteString("\uFFFD")
			} else {
				b.WriteString(s[i : i+size])
			}
			i += size
			continue
		}
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c == 0x7f:
			b.WriteString(`\u00` + strconv.FormatUint(uint64(c)>>4, 16) + strconv.FormatUint(uint64(c)&15, 16))
		case (c == '$' || c == '%') && i+1 < len(s) && s[i+1] == '{':
			b.WriteByte(c)
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
		i++
	}
	b.WriteByte('"')
	return b.String()
}

// heredoc writes s as <<EOT ... EOT when s is whole lines of printable
// text: the common shape of a JavaScript UDF. Template sequences are
// doubled as in a quoted string; backslashes are literal there.
func heredoc(s string) (string, bool) {
	if !strings.HasSuffix(s, "\n") || strings.Count(s, "\n") < 2 || !utf8.ValidString(s) {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			return "", false
		}
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	delim := "EOT"
	for n := 1; ; n++ {
		clash := false
		for _, l := range lines {
			if strings.TrimSpace(l) == delim {
				clash = true
				break
			}
		}
		if !clash {
			break
		}
		delim = "EOT" + strconv.Itoa(n)
	}
	var b strings.Builder
	b.WriteString("<<" + delim + "\n")
	for _, l := range lines {
		l = strings.ReplaceAll(strings.ReplaceAll(l, "${", "$${"), "%{", "%%{")
		b.WriteString(l + "\n")
	}
	b.WriteString(delim)
	return b.String(), true
}

func number(v any) string {
	switch v := v.(type) {
	case json.Number:
		return v.String()
	case string:
		return v
	}
	return "0"
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// isIdent reports whether s is an HCL identifier: a letter or underscore,
// then letters, digits, underscores and dashes.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case i > 0 && (r == '-' || r >= '0' && r <= '9'):
		default:
			return false
		}
	}
	return true
}

// labelFor derives a resource label from a subscription ID: its letters,
// digits, dashes and underscores, starting with a letter.
func labelFor(id string) string {
	var b strings.Builder
	for _, r := range id {
		switch {
		case r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
		if b.Len() >= 64 {
			break
		}
	}
	l := b.String()
	if l == "" || !isIdent(l) {
		l = "subscription_" + l
	}
	return l
}

// splitName splits projects/P/COLLECTION/ID into P and ID; full is false
// (and id the whole name) for a name of another form.
func splitName(name, collection string) (project, id string, full bool) {
	rest, ok := strings.CutPrefix(name, "projects/")
	if !ok {
		return "", name, false
	}
	p, id, ok := strings.Cut(rest, "/"+collection+"/")
	if !ok || p == "" || id == "" || strings.Contains(p, "/") || strings.Contains(id, "/") {
		return "", name, false
	}
	return p, id, true
}

// toMap turns s into its REST JSON as generic values (numbers kept as
// written), which the writer walks by the table.
func toMap(s *subscription.Subscription) map[string]any {
	b, err := json.Marshal(s)
	m := map[string]any{}
	if err != nil {
		return m
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	_ = dec.Decode(&m)
	return m
}
