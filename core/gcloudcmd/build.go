package gcloudcmd

import (
	"strconv"
	"strings"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/subscription"
)

// build turns the flags read into the request gcloud would send.
func (r *reader) build(verbWord *word) {
	r.checkFlags()
	r.resolveProject()
	r.root = &doc.Node{Kind: doc.Object, Span: diag.SpanOf(verbWord.start, verbWord.end)}
	r.buildName(verbWord)
	if r.verb == Create {
		r.buildTopic("topic", "/topic", verbWord)
	}
	for _, name := range r.order {
		o := r.occ[name]
		r.buildFlag(o)
	}
	r.buildPush()
	r.buildStorageFormat()
	if r.verb == Update {
		r.buildMask(verbWord)
	}
}

// checkFlags applies the rules gcloud checks among flags before sending
// anything: flags that need another, flags that exclude each other, and
// flags the verb does not take.
func (r *reader) checkFlags() {
	for _, name := range r.order {
		o := r.occ[name]
		s := o.spec
		if s.verbs&verbBit(r.verb) == 0 {
			r.errorf(o.flag, s.path, "gcloud-unknown-flag", "gcloud pubsub subscriptions "+string(r.verb)+" has no --"+s.name+" flag",
				notOnVerbHint(s))
			delete(r.occ, name)
			continue
		}
		if o.explicit != "" {
			r.errorf(o.flag, s.path, "gcloud-flag-takes-no-value", "--"+s.name+" is a switch and takes no value",
				"write --"+s.name+" for true and --no-"+s.name+" for false")
			delete(r.occ, name)
		}
	}
	r.order = slicesFilter(r.order, func(n string) bool { return r.occ[n] != nil })
	// Flags that need another one.
	for _, name := range r.order {
		o := r.occ[name]
		need := o.spec.needs
		if o.spec.kind == kProject {
			need = o.spec.forTopic
		}
		if need == "" || r.occ[need] != nil {
			continue
		}
		if name == "push-no-wrapper-write-metadata" && r.occ["push-endpoint"] == nil {
			need = "push-endpoint"
		}
		r.errorf(o.flag, o.spec.path, "gcloud-flag-needs-flag", "--"+name+" needs --"+need+" in the same command",
			"add --"+need+", or remove --"+name)
	}
	// Flags that exclude each other: the later one is reported.
	r.exclusive("use-table-schema", "use-topic-schema")
	r.groupExclusive(groupFlags("/bigqueryConfig"), groupFlags("/cloudStorageConfig", "cloud-storage-output-format"))
	if r.verb == Update {
		r.groupExclusive([]string{"clear-dead-letter-policy"}, []string{"dead-letter-topic", "dead-letter-topic-project", "max-delivery-attempts"})
		r.groupExclusive([]string{"clear-retry-policy"}, []string{"min-retry-delay", "max-retry-delay"})
		r.groupExclusive([]string{"clear-bigquery-config"}, groupFlags("/bigqueryConfig"))
		r.groupExclusive([]string{"clear-cloud-storage-config"}, groupFlags("/cloudStorageConfig", "cloud-storage-output-format"))
		r.groupExclusive([]string{"clear-push-no-wrapper-config"}, []string{"push-no-wrapper", "push-no-wrapper-write-metadata"})
		r.groupExclusive([]string{"clear-message-transforms"}, []string{"message-transforms-file"})
	}
}

func textAt(s string, sp diag.Span) string {
	a, b := sp.Start.Offset(), sp.End.Offset()
	if a < 0 || b > len(s) || a > b {
		return ""
	}
	return s[a:b]
}

func verbBit(v Verb) uint8 {
	if v == Update {
		return onUpdate
	}
	return onCreate
}

func notOnVerbHint(s *flagSpec) string {
	switch s.name {
	case "message-filter":
		return "a filter is fixed when the subscription is created; create a new subscription to change it"
	case "enable-message-ordering":
		return "ordering is fixed when the subscription is created; create a new subscription to change it"
	case "topic", "topic-project":
		return "a subscription stays on its topic; create a new subscription on the other topic"
	case "labels":
		return "use --update-labels, --remove-labels or --clear-labels"
	}
	if s.verbs == onUpdate {
		return "this flag is for update; create sets the field with its own flags"
	}
	return ""
}

func groupFlags(prefix string, extra ...string) []string {
	out := extra
	for i := range flagTable {
		if strings.HasPrefix(flagTable[i].path, prefix+"/") {
			out = append(out, flagTable[i].name)
		}
	}
	return out
}

func slicesFilter(s []string, keep func(string) bool) []string {
	out := s[:0]
	for _, x := range s {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

func (r *reader) exclusive(a, b string) {
	r.groupExclusive([]string{a}, []string{b})
}

// groupExclusive reports a flag of the first group when a flag of the
// second is there too: gcloud names the first group of its mutually
// exclusive ones.
func (r *reader) groupExclusive(ga, gb []string) {
	first := func(g []string) *occurrence {
		var best *occurrence
		for _, n := range g {
			if o := r.occ[n]; o != nil && (best == nil || o.flag.Start < best.flag.Start) {
				best = o
			}
		}
		return best
	}
	a, b := first(ga), first(gb)
	if a == nil || b == nil {
		return
	}
	r.errorf(a.flag, a.spec.path, "gcloud-conflicting-flags", "--"+a.spec.name+" cannot be used with --"+b.spec.name,
		"keep the flags of one of them")
}

// resolveProject finds the project short names belong to.
func (r *reader) resolveProject() {
	if o := r.occ["project"]; o != nil {
		if r.isUnknown(o.val, o.valFrom, "--project", "") {
			// The command names its project, but not its value: names
			// built from it are unknown, never the configuration's.
			r.projUnknown = o
			return
		}
		r.project = o.value()
		return
	}
	r.project = r.req.Project
}

// isUnknown reports whether a value is a shell expansion or a placeholder;
// it then says so (once per flag) and marks path unknown.
func (r *reader) isUnknown(w *word, from int, what, path string) bool {
	v := w.text[from:]
	sp := w.span(from, len(w.text))
	switch {
	case expands(w, v):
		verb := " is "
		if v != w.expansion {
			verb = " holds " // projects/$PROJECT/topics/t
		}
		hint := "write the value itself to have it checked too"
		if off, ok := r.sets[varName(w.expansion)]; ok {
			hint = "the text sets it on line " + itoa(lineOf(r.src, diag.SpanOf(off, off))) + ", but subplay reads the text and does not run the shell: " + hint
		}
		r.add(diag.Info, sp, path, "gcloud-unknown-value", what+verb+diag.Quote(w.expansion)+", which the shell fills in: subplay does not know its value",
			hint)
	case placeholder(v):
		r.add(diag.Info, sp, path, "gcloud-placeholder", what+" is "+diag.Quote(v)+", which looks like a placeholder to replace",
			"write the real value to have it checked too")
	default:
		return false
	}
	if path != "" {
		r.unknown[path] = true
	}
	return true
}

// expands reports whether v, the text of w from some offset, holds the
// shell expansion w has.
func expands(w *word, v string) bool { return w.expansion != "" && strings.Contains(v, w.expansion) }

// varName is the variable of a plain expansion ($NAME, ${NAME}), or "".
func varName(exp string) string {
	name := strings.TrimPrefix(exp, "$")
	if inner, ok := strings.CutPrefix(name, "{"); ok {
		name = strings.TrimSuffix(inner, "}")
	}
	if name == "" || nameLen(name) != len(name) {
		return ""
	}
	return name
}

// placeholder reports whether v holds a part written the way docs write
// what to replace: PROJECT_ID, <topic>, [TOPIC], {bucket}.
func placeholder(v string) bool {
	parts := strings.FieldsFunc(v, func(c rune) bool { return strings.ContainsRune("/.:@,=", c) })
	for _, p := range parts {
		if len(p) >= 3 && (p[0] == '<' && p[len(p)-1] == '>' || p[0] == '[' && p[len(p)-1] == ']' || p[0] == '{' && p[len(p)-1] == '}') {
			return true
		}
		if len(p) >= 3 && strings.Contains(p, "_") && p[0] >= 'A' && p[0] <= 'Z' && strings.Trim(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == "" {
			return true
		}
	}
	return false
}

// set puts n at path, creating the objects on the way; key is the span
// of the flag that set it.
func (r *reader) set(path string, n *doc.Node, key diag.Span) {
	cur := r.root
	segs := strings.Split(path[1:], "/")
	for i, seg := range segs {
		last := i == len(segs)-1
		var found *doc.Member
		for j := range cur.Members {
			if cur.Members[j].Key == seg {
				found = &cur.Members[j]
			}
		}
		if last {
			if found != nil {
				found.Value, found.KeySpan = n, key
			} else {
				cur.Members = append(cur.Members, doc.Member{Key: seg, KeySpan: key, Value: n})
			}
			return
		}
		if found == nil || found.Value.Kind != doc.Object {
			obj := &doc.Node{Kind: doc.Object, Span: key}
			if found != nil {
				found.Value = obj
			} else {
				cur.Members = append(cur.Members, doc.Member{Key: seg, KeySpan: key, Value: obj})
			}
			cur = obj
			continue
		}
		cur = found.Value
	}
}

func (r *reader) get(path string) *doc.Node {
	n := r.root
	for _, seg := range strings.Split(path[1:], "/") {
		n = n.Get(seg)
	}
	return n
}

func str(v string, sp diag.Span) *doc.Node { return &doc.Node{Kind: doc.String, Value: v, Span: sp} }

func (r *reader) buildName(verbWord *word) {
	if len(r.names) == 0 {
		r.errorf(diag.SpanOf(verbWord.start, verbWord.end), "/name", "gcloud-missing-name",
			"the command names no subscription", "write the subscription's name after "+string(r.verb))
		return
	}
	w := r.names[0]
	for _, extra := range r.names[1:] {
		r.add(diag.Warning, diag.SpanOf(extra.start, extra.end), "", "gcloud-several-subscriptions",
			"gcloud applies the command to each subscription named; subplay checks the first", "check each subscription on its own")
	}
	r.resource(w, 0, "/name", "subscriptions", "the subscription name", r.project, r.projUnknown)
}

// resource writes projects/P/COLLECTION/ID at path from a short or full
// name in w. project is "" when unknown: projUnknown is then the flag that
// names it without a value subplay knows, or nil when no flag names it.
func (r *reader) resource(w *word, from int, path, collection, what, project string, projUnknown *occurrence) {
	v := w.text[from:]
	sp := w.span(from, len(w.text))
	if r.isUnknown(w, from, what, path) {
		return
	}
	if strings.HasPrefix(v, "projects/") {
		r.set(path, str(v, sp), sp)
		return
	}
	if strings.Contains(v, "/") {
		r.errorf(sp, path, "gcloud-bad-value", what+" "+diag.Quote(v)+" is neither a short name nor projects/PROJECT/"+collection+"/NAME",
			"write the short name, or the full projects/PROJECT/"+collection+"/NAME")
		return
	}
	if project == "" {
		r.checkID(w, from, path, collection)
	}
	if project == "" && projUnknown != nil {
		if !r.unknown[path] {
			r.unknown[path] = true
			r.add(diag.Info, sp, path, "gcloud-unknown-value", what+" is in the project --"+projUnknown.spec.name+" gives as "+diag.Quote(projUnknown.value())+", which subplay does not know",
				"write the project itself to have the full name checked")
		}
		return
	}
	if project == "" {
		if !r.unknown[path] {
			r.unknown[path] = true
			r.add(diag.Info, sp, path, "gcloud-default-project", what+" belongs to the project of your gcloud configuration, which the command does not name",
				"add --project=PROJECT to have the full name checked")
		}
		return
	}
	r.set(path, str("projects/"+project+"/"+collection+"/"+v, sp), sp)
}

// checkID checks the short name in w from from, whose project is unknown:
// the full name is unknown, its ID is not, and one the API refuses is an
// error in any project.
func (r *reader) checkID(w *word, from int, path, collection string) {
	kind := strings.TrimSuffix(collection, "s")
	if path == "/deadLetterPolicy/deadLetterTopic" {
		kind = "dead-letter topic" // as the full name's check says it
	}
	for _, p := range subscription.CheckID(w.text[from:], kind) {
		r.errorf(w.span(from+p.Start, from+p.End), path, "resource-name", p.Message, p.Hint)
	}
}

func (r *reader) buildTopic(flag, path string, verbWord *word) {
	o := r.occ[flag]
	if o == nil {
		if flag == "topic" {
			r.errorf(diag.SpanOf(verbWord.start, verbWord.end), path, "gcloud-missing-topic", "gcloud needs --topic to create a subscription",
				"add --topic=TOPIC")
		}
		return
	}
	project, projUnknown := r.project, r.projUnknown
	if po := r.occ[flag+"-project"]; po != nil {
		if r.isUnknown(po.val, po.valFrom, "--"+flag+"-project", path) {
			if v := o.value(); v != "" && !strings.Contains(v, "/") && !expands(o.val, v) && !placeholder(v) {
				r.checkID(o.val, o.valFrom, path, "topics")
			}
			return
		}
		project, projUnknown = po.value(), nil
	}
	if o.value() == "" {
		r.errorf(o.valueSpan(), path, "gcloud-bad-value", "--"+flag+" is empty", "write the topic's name")
		return
	}
	r.resource(o.val, o.valFrom, path, "topics", "--"+flag, project, projUnknown)
}

// buildFlag sets the field of one flag.
func (r *reader) buildFlag(o *occurrence) {
	s := o.spec
	name := "--" + s.name
	switch s.kind {
	case kGlobal, kGlobalBool, kProject, kFormat:
		return
	case kTopic:
		if s.name == "dead-letter-topic" {
			r.buildTopic(s.name, s.path, nil)
		}
		return
	case kBool:
		v := "true"
		if o.negated {
			v = "false"
		}
		if s.name == "push-no-wrapper" {
			return // buildPush
		}
		r.set(s.path, &doc.Node{Kind: doc.Bool, Value: v, Span: o.flag}, o.flag)
		return
	case kClear:
		return // buildMask
	case kLabelsEdit:
		if s.name == "clear-labels" && r.occ["update-labels"] == nil && r.occ["remove-labels"] == nil {
			r.set(s.path, &doc.Node{Kind: doc.Object, Span: o.flag}, o.flag)
			return
		}
		if !r.unknown[s.path] {
			r.unknown[s.path] = true
			r.add(diag.Info, o.flag, s.path, "gcloud-labels-from-server", name+" changes the labels the subscription has now, which the command does not show",
				"subplay checks the labels written here; the result depends on the current ones")
		}
		return
	}
	if s.kind == kLabels {
		r.buildLabels(o)
		return
	}
	if r.isUnknown(o.val, o.valFrom, name, s.path) {
		return
	}
	v, sp := o.value(), o.valueSpan()
	switch s.kind {
	case kString:
		if s.name == "message-filter" && v == "" {
			r.errorf(sp, s.path, "gcloud-empty-filter", "--message-filter is empty, which gcloud refuses",
				"write a filter, or leave the flag out to deliver every message")
			return
		}
		r.set(s.path, str(v, sp), o.flag)
	case kInt:
		n, ok := parseInt(v)
		if !ok {
			r.errorf(sp, s.path, "gcloud-bad-value", name+" takes a whole number, not "+diag.Quote(v), intHint(s))
			return
		}
		if !r.inBounds(o, float64(n), v) {
			return
		}
		node := &doc.Node{Kind: doc.Number, Value: strconv.FormatInt(n, 10), Span: sp}
		if int64Field[s.path] {
			node = str(node.Value, sp)
		}
		r.set(s.path, node, o.flag)
	case kDuration, kExpiry, kRetention:
		if s.kind == kExpiry && v == "never" {
			r.set("/expirationPolicy", &doc.Node{Kind: doc.Object, Span: sp}, o.flag)
			return
		}
		if s.kind == kRetention && v == "default" && r.verb == Update {
			r.resetToDefault[s.path] = true
			return
		}
		secs, msg := parseDuration(v, s.unit)
		if msg != "" {
			hint := "write a duration such as 600s, 10m, 2h or 7d"
			if s.kind == kExpiry {
				hint += ", or never"
			}
			r.errorf(sp, s.path, "gcloud-bad-value", name+" is not a duration gcloud reads: "+msg, hint)
			return
		}
		if !r.inBounds(o, secs, v) {
			return
		}
		r.set(s.path, str(formatSeconds(secs), sp), o.flag)
	case kSize:
		n, msg := parseSize(v, s.unit)
		if msg != "" {
			r.errorf(sp, s.path, "gcloud-bad-value", name+" is not a size gcloud reads: "+msg, "write a size such as 1000B, 64KB or 10MB (KB is 1024 bytes to gcloud)")
			return
		}
		if !r.inBounds(o, float64(n), v) {
			return
		}
		r.set(s.path, str(strconv.FormatInt(n, 10), sp), o.flag)
	case kFile:
		r.buildFile(o)
	}
}

// int64Field lists the fields the API types as int64, which the JSON
// mapping writes as strings.
var int64Field = map[string]bool{"/cloudStorageConfig/maxBytes": true, "/cloudStorageConfig/maxMessages": true}

func intHint(s *flagSpec) string {
	if s.hasLo && s.hasHi {
		return "write a number from " + s.loText + " to " + s.hiText
	}
	if s.name == "ack-deadline" {
		return "write the number of seconds, without a unit"
	}
	return "write a number"
}

// inBounds checks gcloud's own client-side bounds.
func (r *reader) inBounds(o *occurrence, v float64, text string) bool {
	s := o.spec
	switch {
	case s.hasLo && v < float64(s.lo):
		r.errorf(o.valueSpan(), s.path, "gcloud-value-out-of-range", "--"+s.name+" is "+diag.Quote(text)+", below "+s.loText+", the least gcloud accepts",
			boundsHint(s))
		return false
	case s.hasHi && v > float64(s.hi):
		r.errorf(o.valueSpan(), s.path, "gcloud-value-out-of-range", "--"+s.name+" is "+diag.Quote(text)+", above "+s.hiText+", the most gcloud accepts",
			boundsHint(s))
		return false
	}
	return true
}

func boundsHint(s *flagSpec) string {
	if s.hasHi {
		return "write a value from " + s.loText + " to " + s.hiText
	}
	return "write " + s.loText + " or more"
}

// buildLabels reads KEY=VALUE[,KEY=VALUE...]; gcloud merges the labels
// of every --labels flag, a later value replacing an earlier one.
func (r *reader) buildLabels(last *occurrence) {
	var chain []*occurrence
	for o := last; o != nil; o = o.prev {
		chain = append(chain, o)
	}
	obj := &doc.Node{Kind: doc.Object, Span: chain[len(chain)-1].valueSpan()}
	at := map[string]int{} // a key's member in obj: a flag may hold thousands
	for i := len(chain) - 1; i >= 0; i-- {
		if r.isUnknown(chain[i].val, chain[i].valFrom, "--labels", "/labels") {
			return
		}
		if !r.labelPairs(chain[i], obj, at) {
			return
		}
	}
	r.set("/labels", obj, chain[len(chain)-1].flag)
}

// labelPairs adds the labels of one flag to obj (at holds each key's
// index in obj.Members); false after an error.
func (r *reader) labelPairs(o *occurrence, obj *doc.Node, at map[string]int) bool {
	w, from := o.val, o.valFrom
	v := w.text[from:]
	start := 0
	for start <= len(v) {
		end := strings.IndexByte(v[start:], ',')
		if end < 0 {
			end = len(v)
		} else {
			end += start
		}
		pair := v[start:end]
		a, b := from+start, from+end
		if pair == "" && len(v) == 0 {
			break
		}
		key, val, ok := strings.Cut(pair, "=")
		if !ok {
			r.errorf(w.span(a, b), "/labels", "gcloud-bad-value", "--labels entry "+diag.Quote(pair)+" has no value",
				"write KEY=VALUE; an empty value is KEY=")
			return false
		}
		kEnd := a + len(key)
		if !labelText(key, true) {
			r.errorf(w.span(a, kEnd), "/labels", "gcloud-bad-label", "label key "+diag.Quote(key)+" is not one gcloud accepts",
				"start with a lowercase letter; use lowercase letters, digits, - and _ only, at most 63 characters")
			return false
		}
		if !labelText(val, false) {
			r.errorf(w.span(kEnd+1, b), "/labels", "gcloud-bad-label", "label value "+diag.Quote(val)+" is not one gcloud accepts",
				"use lowercase letters, digits, - and _ only, at most 63 characters")
			return false
		}
		node := str(val, w.span(kEnd+1, b))
		if i, ok := at[key]; ok {
			obj.Members[i].Value = node
		} else {
			at[key] = len(obj.Members)
			obj.Members = append(obj.Members, doc.Member{Key: key, KeySpan: w.span(a, kEnd), Value: node})
		}
		start = end + 1
	}
	return true
}

// buildFile reads the message transforms file the flag names.
func (r *reader) buildFile(o *occurrence) {
	s := o.spec
	path, sp := o.value(), o.valueSpan()
	text, ok := r.req.Files[path]
	if !ok || len(r.req.Files) > limits.GcloudMaxFiles {
		r.unknown[s.path] = true
		r.add(diag.Info, sp, s.path, "gcloud-file-not-given", "--"+s.name+" names "+diag.Quote(path)+", which was not given with the command",
			"add the file beside the command to have the transforms checked")
		return
	}
	if len(text) > limits.GcloudMaxFileBytes {
		r.errorf(sp, s.path, "input-too-large", diag.Quote(path)+" is larger than "+itoa(limits.GcloudMaxFileBytes>>10)+" KiB, the most subplay reads", "")
		return
	}
	if strings.TrimSpace(text) == "" {
		r.errorf(sp, s.path, "gcloud-bad-file", diag.Quote(path)+" is empty, which gcloud refuses", "write a list of message transforms in it")
		return
	}
	d, ds := doc.Parse(path, text, "")
	if diag.HasErrors(ds) || d.Root == nil {
		msg := "it is not JSON or YAML"
		for _, x := range ds {
			if x.Severity == diag.Error {
				msg = x.Message + " (line " + itoa(x.Line) + ")"
				break
			}
		}
		r.errorf(sp, s.path, "gcloud-bad-file", diag.Quote(path)+" cannot be read: "+msg, "fix the file")
		return
	}
	if d.Root.Kind != doc.Array {
		r.errorf(sp, s.path, "gcloud-bad-file", diag.Quote(path)+" holds "+d.Root.Kind.String()+", but gcloud wants a list of message transforms",
			"write the transforms as a list, each item a javascriptUdf with code and functionName")
		return
	}
	// Findings inside the file point at the flag that names it: the file
	// is not the text the user is looking at.
	rebase(d.Root, sp)
	r.set(s.path, d.Root, o.flag)
}

// rebase gives every node of a tree the span sp. The decoder bounded the
// tree's depth, so the recursion is bounded too.
func rebase(n *doc.Node, sp diag.Span) {
	n.Span = sp
	for _, it := range n.Items {
		rebase(it, sp)
	}
	for i := range n.Members {
		n.Members[i].KeySpan = sp
		rebase(n.Members[i].Value, sp)
	}
}

// buildPush assembles the push configuration the way gcloud does: only
// with an endpoint; an OIDC token only with a service account.
func (r *reader) buildPush() {
	ep, sa, aud := r.occ["push-endpoint"], r.occ["push-auth-service-account"], r.occ["push-auth-token-audience"]
	nw, nwMeta := r.occ["push-no-wrapper"], r.occ["push-no-wrapper-write-metadata"]
	if ep == nil {
		for _, o := range []*occurrence{sa, aud} {
			if o != nil {
				r.add(diag.Warning, o.flag, o.spec.path, "gcloud-ignored-flag", "--"+o.spec.name+" does nothing without --push-endpoint: gcloud sends no push configuration",
					"add --push-endpoint, or remove --"+o.spec.name)
			}
		}
		if nw != nil {
			r.errorf(nw.flag, nw.spec.path, "gcloud-flag-needs-flag", "--push-no-wrapper needs --push-endpoint in the same command",
				"add --push-endpoint, or remove --push-no-wrapper")
		}
		r.dropPath("/pushConfig")
		return
	}
	if sa == nil {
		r.dropPath("/pushConfig/oidcToken")
		if aud != nil {
			r.add(diag.Warning, aud.flag, aud.spec.path, "gcloud-ignored-flag", "--push-auth-token-audience does nothing without --push-auth-service-account: gcloud sends no token settings",
				"add --push-auth-service-account, or remove --push-auth-token-audience")
		}
	}
	if nw != nil && !nw.negated {
		meta := "false"
		sp := nw.flag
		if nwMeta != nil && !nwMeta.negated {
			meta, sp = "true", nwMeta.flag
		}
		obj := &doc.Node{Kind: doc.Object, Span: nw.flag, Members: []doc.Member{{Key: "writeMetadata", KeySpan: sp,
			Value: &doc.Node{Kind: doc.Bool, Value: meta, Span: sp}}}}
		r.set("/pushConfig/noWrapper", obj, nw.flag)
	} else {
		r.dropPath("/pushConfig/noWrapper")
	}
}

// dropPath removes the field at path, if set.
func (r *reader) dropPath(path string) {
	i := strings.LastIndexByte(path, '/')
	parent := r.root
	if i > 0 {
		parent = r.get(path[:i])
	}
	if parent == nil {
		return
	}
	key := path[i+1:]
	for j := range parent.Members {
		if parent.Members[j].Key == key {
			parent.Members = append(parent.Members[:j], parent.Members[j+1:]...)
			return
		}
	}
}

// buildStorageFormat writes the Cloud Storage output format: text unless
// --cloud-storage-output-format says avro; the Avro flags only with avro.
func (r *reader) buildStorageFormat() {
	bucket := r.get("/cloudStorageConfig")
	if bucket == nil {
		return
	}
	format, sp := "text", bucket.Span
	if o := r.occ["cloud-storage-output-format"]; o != nil {
		if r.isUnknown(o.val, o.valFrom, "--cloud-storage-output-format", "/cloudStorageConfig") {
			return
		}
		format, sp = "", o.valueSpan()
		for _, f := range strings.Split(o.value(), ",") {
			f = strings.ToLower(f)
			if f != "text" && f != "avro" {
				r.errorf(sp, "/cloudStorageConfig", "gcloud-bad-value", "--cloud-storage-output-format is "+diag.Quote(o.value())+", not text or avro",
					"write text or avro")
				return
			}
			if format == "" {
				format = f
			}
		}
	}
	avro := r.get("/cloudStorageConfig/avroConfig")
	if format == "text" {
		if avro != nil {
			for _, n := range []string{"cloud-storage-write-metadata", "cloud-storage-use-topic-schema"} {
				if o := r.occ[n]; o != nil {
					r.add(diag.Warning, o.flag, o.spec.path, "gcloud-ignored-flag", "--"+n+" does nothing with the text output format: gcloud leaves it out",
						"add --cloud-storage-output-format=avro, or remove --"+n)
				}
			}
			r.dropPath("/cloudStorageConfig/avroConfig")
		}
		r.set("/cloudStorageConfig/textConfig", &doc.Node{Kind: doc.Object, Span: sp}, sp)
		return
	}
	if avro == nil {
		r.set("/cloudStorageConfig/avroConfig", &doc.Node{Kind: doc.Object, Span: sp}, sp)
		avro = r.get("/cloudStorageConfig/avroConfig")
	}
	// gcloud always sends writeMetadata with avro, and useTopicSchema only
	// when true.
	if avro.Get("writeMetadata") == nil {
		avro.Members = append(avro.Members, doc.Member{Key: "writeMetadata", KeySpan: sp, Value: &doc.Node{Kind: doc.Bool, Value: "false", Span: sp}})
	}
	if u := avro.Get("useTopicSchema"); u != nil && u.Value == "false" {
		r.dropPath("/cloudStorageConfig/avroConfig/useTopicSchema")
	}
}

// maskOrder is the order in which gcloud lists the fields of an update.
var maskOrder = []string{"ackDeadlineSeconds", "pushConfig", "retainAckedMessages", "enableExactlyOnceDelivery",
	"messageRetentionDuration", "labels", "expirationPolicy", "deadLetterPolicy", "retryPolicy", "bigqueryConfig",
	"cloudStorageConfig", "pushConfig.noWrapper", "messageTransforms"}

// buildMask lists what an update changes: the fields set, plus those a
// --clear-... flag or "default" sets back.
func (r *reader) buildMask(verbWord *word) {
	cleared := map[string]bool{}
	for p := range r.resetToDefault {
		cleared[strings.ReplaceAll(p[1:], "/", ".")] = true
	}
	for _, name := range r.order {
		if o := r.occ[name]; o.spec.kind == kClear {
			cleared[strings.ReplaceAll(o.spec.path[1:], "/", ".")] = true
		}
	}
	for _, f := range maskOrder {
		switch {
		case f == "pushConfig.noWrapper":
			if cleared[f] && r.root.Get("pushConfig") == nil {
				r.mask = append(r.mask, f)
			}
		case r.root.Get(f) != nil || cleared[f] || r.unknown["/"+f]:
			r.mask = append(r.mask, f)
		}
	}
	if len(r.mask) == 0 {
		r.errorf(diag.SpanOf(verbWord.start, verbWord.end), "", "gcloud-nothing-to-update", "the update changes nothing: it sets no field",
			"add the flags of the fields to change, such as --ack-deadline=60")
	}
}
