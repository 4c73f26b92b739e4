//go:build !nohcl

package terraform

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
)

// arg is one argument of a module call (an attribute of the module
// block, or a key of a Terragrunt file's inputs).
type arg struct {
	expr hclsyntax.Expression
	name hcl.Range
}

// moduleLists are the arguments of Google's pubsub module that list
// subscriptions, each mapped by a google_pubsub_subscription resource of
// the module named like the list.
var moduleLists = []string{"push_subscriptions", "pull_subscriptions", "bigquery_subscriptions", "cloud_storage_subscriptions"}

// moduleCall reads a module block when its source is Google's pubsub
// module.
func (r *reader) moduleCall(b *hclsyntax.Block, all *All) {
	source := b.Body.Attributes["source"]
	if source == nil {
		return
	}
	args := map[string]arg{}
	for n, a := range b.Body.Attributes {
		args[n] = arg{expr: a.Expr, name: a.NameRange}
	}
	r.module("module."+b.Labels[0], source, b.Body.Attributes["version"], args, b.DefRange(), all)
}

// module maps each entry of the subscription lists of a call of Google's
// pubsub module the way that version of the module's main.tf does.
// prefix is the call's address; version, when not nil, its version
// constraint.
func (r *reader) module(prefix string, source, version *hclsyntax.Attribute, args map[string]arg, def hcl.Range, all *All) {
	src, ok := r.literal(source.Expr)
	if !ok || src.Type() != cty.String || src.IsNull() || !src.IsKnown() {
		return
	}
	constraint, fromRef, ok := pubsubModule(src.AsString())
	if !ok {
		return
	}
	constraintSpan := span(source.Expr.Range())
	if version != nil && !fromRef {
		if v, ok := r.literal(version.Expr); ok && v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
			constraint, constraintSpan = v.AsString(), span(version.Expr.Range())
		}
	}
	v, why := pickVersion(constraint)
	m := &moduleReader{r: r, v: v, prefix: prefix, args: args, def: def}
	note := func(res *Result) {
		if why != "" {
			res.Diagnostics = r.src.Finish(append(res.Diagnostics, diag.Diagnostic{Severity: diag.Info, Code: "terraform-module-version",
				Message: why + "; subplay maps the entries as " + v.String() + " does", Hint: "pin the module's version to have it mapped as that version does",
				Span: constraintSpan}))
		}
	}
	for _, list := range moduleLists {
		a, ok := args[list]
		if !ok {
			continue
		}
		items, from := r.tuple(a.expr)
		if items == nil {
			if from != nil {
				r.add(diag.Info, span(from.Range()), "", "terraform-unknown-value", list+" of "+prefix+" is not a list written in this file: subplay does not know its entries",
					"write the list in the module call, or in a local or a variable default of the same file, to have its entries checked")
			}
			continue
		}
		for i, it := range items {
			if res := m.entry(list, i, it); res != nil {
				note(res)
				all.Subscriptions = append(all.Subscriptions, res)
			}
		}
	}
}

// tuple returns the items of a list written in the text, following a
// reference to a local or a variable's default; items is nil when the
// expression is something else, from the expression then.
func (r *reader) tuple(e hclsyntax.Expression) (items []hclsyntax.Expression, from hclsyntax.Expression) {
	for hops := 0; hops < 8; hops++ {
		switch x := e.(type) {
		case *hclsyntax.TupleConsExpr:
			return x.Exprs, nil
		case *hclsyntax.ScopeTraversalExpr:
			t := x.Traversal
			if len(t) != 2 {
				return nil, e
			}
			at, ok := t[1].(hcl.TraverseAttr)
			if !ok {
				return nil, e
			}
			var def *hclsyntax.Attribute
			switch t.RootName() {
			case "local":
				def = r.local[at.Name]
			case "var":
				def = r.vars[at.Name]
			}
			if def == nil {
				return nil, e
			}
			e = def.Expr
		default:
			return nil, e
		}
	}
	return nil, e
}

// keyOf is the name an object key is written with, "" when it is not a
// name or a literal string.
func (r *reader) keyOf(e hclsyntax.Expression) string {
	if kw := hcl.ExprAsKeyword(e); kw != "" {
		return kw
	}
	if k, ok := e.(*hclsyntax.ObjectConsKeyExpr); ok {
		e = k.Wrapped
	}
	if v, ok := r.literal(e); ok && v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
		return v.AsString()
	}
	return ""
}

// pubsubModule reports whether a module source is Google's pubsub module:
// the registry's terraform-google-modules/pubsub/google (also as
// Terragrunt's tfr:// form, with ?version=), or its GitHub repository
// (with ?ref=). constraint is the version a source carries; fromRef says
// the source pins it.
func pubsubModule(source string) (constraint string, fromRef, ok bool) {
	s := strings.TrimPrefix(source, "git::")
	s, query, _ := strings.Cut(s, "?")
	q, _ := url.ParseQuery(query)
	s = strings.TrimSuffix(strings.TrimSuffix(s, "/"), ".git")
	s = strings.TrimPrefix(s, "tfr://")
	for _, host := range []string{"https://", "ssh://", "git@", "registry.terraform.io/", "/"} {
		s = strings.TrimPrefix(s, host)
	}
	s = strings.Replace(s, "github.com:", "github.com/", 1)
	switch strings.ToLower(s) {
	case "terraform-google-modules/pubsub/google":
		if v := q.Get("version"); v != "" {
			return v, true, true
		}
		return "", false, true
	case "github.com/terraform-google-modules/terraform-google-pubsub":
		return q.Get("ref"), true, true
	}
	return "", false, false
}

// moduleVersion is a version of Google's pubsub module.
type moduleVersion struct{ major, minor, patch int }

func (v moduleVersion) String() string {
	return "v" + strconv.Itoa(v.major) + "." + strconv.Itoa(v.minor) + "." + strconv.Itoa(v.patch)
}

func (v moduleVersion) less(w moduleVersion) bool {
	if v.major != w.major {
		return v.major < w.major
	}
	if v.minor != w.minor {
		return v.minor < w.minor
	}
	return v.patch < w.patch
}

func (v moduleVersion) atLeast(major, minor, patch int) bool {
	return !v.less(moduleVersion{major, minor, patch})
}

// moduleVersions are the module's releases whose subscription resources
// subplay maps, oldest first (its tags; several share one main.tf).
var moduleVersions = parseVersions("0.1.0 0.2.0 1.0.0 1.1.0 1.2.0 1.2.1 1.3.0 1.4.0 1.5.0 1.6.0 1.7.0 1.8.0 1.9.0 2.0.0 3.0.0 3.1.0 3.2.0 " +
	"4.0.0 4.0.1 5.0.0 6.0.0 7.0.0 8.0.0 8.0.1 8.1.0 8.1.1 8.1.2 8.2.0 8.3.0 8.3.1 8.3.2 8.4.0 8.5.0 8.6.0")

func parseVersions(s string) []moduleVersion {
	var vs []moduleVersion
	for _, f := range strings.Fields(s) {
		v, _ := parseVersion(f)
		vs = append(vs, v)
	}
	return vs
}

// parseVersion reads "v1.2.3", "1.2" or "8"; missing parts are zero.
func parseVersion(s string) (moduleVersion, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	parts := strings.Split(s, ".")
	if len(parts) == 0 || len(parts) > 3 {
		return moduleVersion{}, false
	}
	var n [3]int
	for i, p := range parts {
		x, err := strconv.Atoi(p)
		if err != nil || x < 0 {
			return moduleVersion{}, false
		}
		n[i] = x
	}
	return moduleVersion{n[0], n[1], n[2]}, true
}

// pickVersion is the newest release a version constraint allows, as
// terraform init chooses it ("~> 8.1", ">= 5.0, < 8", "8.1.0", a git
// ref "v8.1.0"). why, when not "", says why the choice is a guess.
func pickVersion(constraint string) (v moduleVersion, why string) {
	newest := moduleVersions[len(moduleVersions)-1]
	if strings.TrimSpace(constraint) == "" {
		return newest, "the module call names no version, so terraform init takes the newest"
	}
	var tests []func(moduleVersion) bool
	for _, c := range strings.Split(constraint, ",") {
		c = strings.TrimSpace(c)
		op := ""
		for _, o := range []string{"~>", ">=", "<=", "!=", ">", "<", "="} {
			if strings.HasPrefix(c, o) {
				op, c = o, strings.TrimSpace(c[len(o):])
				break
			}
		}
		w, ok := parseVersion(c)
		if !ok {
			return newest, "the version " + diag.Quote(constraint) + " is not one subplay reads"
		}
		parts := len(strings.Split(strings.TrimPrefix(c, "v"), "."))
		switch op {
		case "", "=":
			tests = append(tests, func(x moduleVersion) bool { return x == w })
		case "!=":
			tests = append(tests, func(x moduleVersion) bool { return x != w })
		case ">":
			tests = append(tests, func(x moduleVersion) bool { return w.less(x) })
		case ">=":
			tests = append(tests, func(x moduleVersion) bool { return !x.less(w) })
		case "<":
			tests = append(tests, func(x moduleVersion) bool { return x.less(w) })
		case "<=":
			tests = append(tests, func(x moduleVersion) bool { return !w.less(x) })
		case "~>":
			// ~> 8.1 allows 8.x from 8.1; ~> 8.1.0 allows 8.1.x from 8.1.0.
			tests = append(tests, func(x moduleVersion) bool {
				if x.less(w) || x.major != w.major {
					return false
				}
				return parts < 3 || x.minor == w.minor
			})
		}
	}
	for i := len(moduleVersions) - 1; i >= 0; i-- {
		ok := true
		for _, t := range tests {
			ok = ok && t(moduleVersions[i])
		}
		if ok {
			return moduleVersions[i], ""
		}
	}
	return newest, "no release subplay knows meets the version " + diag.Quote(constraint)
}

// moduleReader maps the entries of one call of the module.
type moduleReader struct {
	r      *reader
	v      moduleVersion
	prefix string
	args   map[string]arg
	def    hcl.Range
}

// field is one key of an entry.
type field struct {
	key  string
	name hcl.Range
	expr hclsyntax.Expression
}

// entry maps entry i of list. It follows the module's main.tf for m.v:
// what the entry gives reaches the subscription only where main.tf reads
// it, with main.tf's own defaults; what main.tf drops is a finding, since
// Terraform says nothing.
func (m *moduleReader) entry(list string, i int, e hclsyntax.Expression) *Result {
	r, v := m.r, m.v
	obj, ok := e.(*hclsyntax.ObjectConsExpr)
	if !ok {
		r.add(diag.Info, span(e.Range()), "", "terraform-unknown-value", "entry "+strconv.Itoa(i)+" of "+list+" is not an object written in this file: subplay does not know it",
			"write the entry as { name = ..., ... } to have it checked")
		return nil
	}
	kind := strings.TrimSuffix(list, "_subscriptions")
	switch {
	case kind == "bigquery" && !v.atLeast(5, 0, 0):
		m.ignoredList(list, "5.0.0", i)
		return nil
	case kind == "cloud_storage" && !v.atLeast(6, 0, 0):
		m.ignoredList(list, "6.0.0", i)
		return nil
	}
	r.start(list)
	r.root = &doc.Node{Kind: doc.Object, Span: span(e.Range())}
	fields := map[string]*field{}
	var order []*field
	for _, it := range obj.Items {
		k := r.keyOf(it.KeyExpr)
		if k == "" {
			continue
		}
		f := &field{key: k, name: it.KeyExpr.Range(), expr: it.ValueExpr}
		fields[k] = f
		order = append(order, f)
	}
	used := map[string]bool{}
	get := func(k string) *field { used[k] = true; return fields[k] }
	name := ""
	at := span(e.Range())
	if f := get("name"); f != nil {
		if nv, ok := r.literal(f.expr); ok && nv.Type() == cty.String && nv.IsKnown() && !nv.IsNull() {
			name = nv.AsString()
		}
	}
	address := m.prefix + "." + ResourceType + "." + list
	if v.atLeast(2, 0, 0) {
		address += "[" + strconv.Quote(name) + "]"
	} else {
		address += "[" + strconv.Itoa(i) + "]"
	}
	if m.prefix == "terragrunt" {
		address = "inputs." + list + "[" + strconv.Itoa(i) + "]"
	}

	// name, topic and project: the entry's name, the call's topic and
	// project_id, made full by the provider.
	project, projWhy := "", "the module's project_id is not given"
	if a, ok := m.args["project_id"]; ok {
		if pv, why := r.resolve(a.expr, 0); why == "" {
			if s, ok := stringOf(pv); ok {
				project = s
			} else {
				projWhy = "project_id is not a string"
			}
		} else {
			projWhy = "project_id " + strings.TrimLeft(why, "!~")
		}
	} else {
		r.errorf(span(m.def), "/name", "terraform-missing-attribute", "the module requires project_id", `add project_id = "PROJECT"`)
	}
	if f := get("name"); f != nil {
		r.fullNameOf(f.expr, f.name, "name", "/name", "subscriptions", project, projWhy)
	} else {
		r.errorf(at, "/name", "terraform-missing-attribute", "each entry of "+list+" needs a name", `add name = "SUBSCRIPTION_ID"`)
	}
	if a, ok := m.args["topic"]; ok {
		r.fullNameOf(a.expr, a.name, "topic", "/topic", "topics", project, projWhy)
	} else {
		r.errorf(span(m.def), "/topic", "terraform-missing-attribute", "the module requires topic", `add topic = "TOPIC_ID"`)
	}
	if a, ok := m.args["subscription_labels"]; ok && v.atLeast(1, 8, 0) {
		m.set("/labels", kMap, "subscription_labels", a.expr, a.name)
	}

	m.put(get("ack_deadline_seconds"), "/ackDeadlineSeconds", kInt)
	if v.atLeast(1, 3, 0) {
		m.put(get("message_retention_duration"), "/messageRetentionDuration", kDuration)
	}
	if v.atLeast(1, 9, 0) {
		m.put(get("retain_acked_messages"), "/retainAckedMessages", kBool)
	}
	if v.atLeast(1, 7, 0) {
		m.put(get("filter"), "/filter", kString)
		// From 4.0.1 until 7.0.0 the push resource lost this argument.
		if kind != "push" || !v.atLeast(4, 0, 1) || v.atLeast(7, 0, 0) {
			m.put(get("enable_message_ordering"), "/enableMessageOrdering", kBool)
		}
	}
	if kind == "pull" {
		switch {
		case v == moduleVersion{4, 0, 0}:
			// 4.0.0 read it from the call, for every pull subscription.
			if a, ok := m.args["enable_exactly_once_delivery"]; ok {
				m.set("/enableExactlyOnceDelivery", kBool, "enable_exactly_once_delivery", a.expr, a.name)
			}
		case v.atLeast(4, 0, 1):
			m.put(get("enable_exactly_once_delivery"), "/enableExactlyOnceDelivery", kBool)
		}
	}
	if v.atLeast(1, 4, 0) {
		if f := get("expiration_policy"); f != nil && !m.isNull(f) {
			if s, ok := m.str(f); ok && s == "" {
				// "" is the provider's "never": a policy without ttl.
				m.node("/expirationPolicy", f.name, &doc.Node{Kind: doc.Object, Span: span(f.expr.Range())})
			} else {
				m.put(f, "/expirationPolicy/ttl", kDuration)
			}
		}
	}
	if v.atLeast(1, 5, 0) {
		m.deadLetter(kind, get("dead_letter_topic"), get("max_delivery_attempts"))
	}
	minb := fields["minimum_backoff"]
	if v.atLeast(1, 6, 0) {
		m.retry(kind, get("maximum_backoff"), get("minimum_backoff"))
	}
	switch kind {
	case "push":
		m.push(get, minb)
	case "bigquery":
		if f := get("table"); f != nil {
			m.put(f, "/bigqueryConfig/table", kString)
		} else {
			r.errorf(at, "/bigqueryConfig/table", "terraform-missing-attribute", "each entry of "+list+" needs a table", `add table = "PROJECT.DATASET.TABLE"`)
		}
		m.put(get("use_topic_schema"), "/bigqueryConfig/useTopicSchema", kBool)
		m.put(get("write_metadata"), "/bigqueryConfig/writeMetadata", kBool)
		m.put(get("drop_unknown_fields"), "/bigqueryConfig/dropUnknownFields", kBool)
		if v.atLeast(7, 0, 0) {
			m.put(get("use_table_schema"), "/bigqueryConfig/useTableSchema", kBool)
		}
	case "cloud_storage":
		m.cloudStorage(get, at, list)
	}
	for _, f := range order {
		if !used[f.key] {
			r.add(diag.Warning, span(f.name), "", "terraform-module-ignored",
				"the module "+v.String()+" does not read "+shown(f.key)+" in "+list+": it has no effect",
				"set it with a google_pubsub_subscription resource of your own, or use a version of the module that reads it")
		}
	}
	return r.finish(address, at)
}

// ignoredList says, once, that a list the module's version does not have
// is dropped whole: a finding about the file, since its entries make no
// subscription.
func (m *moduleReader) ignoredList(list, since string, i int) {
	if i > 0 {
		return
	}
	m.r.add(diag.Warning, span(m.args[list].name), "", "terraform-module-ignored",
		"the module "+m.v.String()+" has no "+list+" (it came in v"+since+"): these entries create nothing",
		"use a version of the module from v"+since)
}

func (m *moduleReader) push(get func(string) *field, minb *field) {
	r, v := m.r, m.v
	if f := get("push_endpoint"); f != nil && !m.isNull(f) {
		m.put(f, "/pushConfig/pushEndpoint", kString)
	} else {
		r.errorf(r.root.Span, "/pushConfig/pushEndpoint", "terraform-missing-attribute", "a push entry needs push_endpoint", `add push_endpoint = "https://..."`)
	}
	if !v.atLeast(8, 0, 0) {
		if f := get("x-goog-version"); f != nil {
			m.put(f, "/pushConfig/attributes/x-goog-version", kString)
		}
	} else if minb != nil && !m.isNull(minb) {
		// From 8.0.0 the module writes x-goog-version from a test of
		// minimum_backoff: when it is set, the attribute's value is the
		// text "x-goog-version", a version the API does not have.
		m.node("/pushConfig/attributes/x-goog-version", minb.name, &doc.Node{Kind: doc.String, Value: "x-goog-version", Span: span(minb.name)})
		r.add(diag.Warning, span(minb.name), "/pushConfig/attributes/x-goog-version", "terraform-module-quirk",
			"with minimum_backoff set, the module "+v.String()+" writes the push attribute x-goog-version = \"x-goog-version\" instead of \"v1\"",
			"leave minimum_backoff out of push entries, or use a google_pubsub_subscription resource of your own")
	}
	if v.atLeast(1, 4, 0) {
		email, aud := get("oidc_service_account_email"), get("audience")
		if email != nil && !m.isNull(email) && !m.empty(email) {
			m.put(email, "/pushConfig/oidcToken/serviceAccountEmail", kString)
			if aud != nil && !m.empty(aud) {
				m.put(aud, "/pushConfig/oidcToken/audience", kString)
			}
		}
	}
	if v.atLeast(8, 1, 2) {
		if f := get("no_wrapper"); f != nil {
			if b, ok := m.r.literal(f.expr); ok && b.Type() == cty.Bool && b.IsKnown() && !b.IsNull() && b.True() {
				m.node("/pushConfig/noWrapper", f.name, &doc.Node{Kind: doc.Object, Span: span(f.expr.Range())})
				if w := get("write_metadata"); w != nil {
					m.put(w, "/pushConfig/noWrapper/writeMetadata", kBool)
				}
			}
		}
	}
}

func (m *moduleReader) cloudStorage(get func(string) *field, at diag.Span, list string) {
	r, v := m.r, m.v
	if f := get("bucket"); f != nil {
		m.put(f, "/cloudStorageConfig/bucket", kString)
	} else {
		r.errorf(at, "/cloudStorageConfig/bucket", "terraform-missing-attribute", "each entry of "+list+" needs a bucket", `add bucket = "BUCKET"`)
	}
	m.put(get("filename_prefix"), "/cloudStorageConfig/filenamePrefix", kString)
	m.put(get("filename_suffix"), "/cloudStorageConfig/filenameSuffix", kString)
	m.put(get("max_duration"), "/cloudStorageConfig/maxDuration", kDuration)
	m.put(get("max_bytes"), "/cloudStorageConfig/maxBytes", kInt)
	if v.atLeast(7, 0, 0) {
		m.put(get("filename_datetime_format"), "/cloudStorageConfig/filenameDatetimeFormat", kString)
	}
	if v.atLeast(8, 0, 0) {
		m.put(get("max_messages"), "/cloudStorageConfig/maxMessages", kInt)
	}
	f := get("output_format")
	if f == nil {
		return
	}
	if s, ok := m.str(f); ok && s == "avro" {
		m.node("/cloudStorageConfig/avroConfig", f.name, &doc.Node{Kind: doc.Object, Span: span(f.expr.Range())})
		m.put(get("write_metadata"), "/cloudStorageConfig/avroConfig/writeMetadata", kBool)
		if v.atLeast(8, 0, 0) {
			m.put(get("use_topic_schema"), "/cloudStorageConfig/avroConfig/useTopicSchema", kBool)
		}
	} else if ok {
		r.add(diag.Info, span(f.expr.Range()), "/cloudStorageConfig", "terraform-module-quirk",
			"the module writes Avro only for output_format = \"avro\"; any other value writes text files", "")
	}
}

// deadLetter maps dead_letter_topic and max_delivery_attempts: the module
// writes a policy only when the topic is given, and then fills in its own
// count of attempts.
func (m *moduleReader) deadLetter(kind string, topic, attempts *field) {
	r, v := m.r, m.v
	given := topic != nil && !m.isNull(topic) && (v.atLeast(8, 0, 0) || !m.empty(topic))
	if !given {
		if attempts != nil {
			r.add(diag.Warning, span(attempts.name), "/deadLetterPolicy", "terraform-module-dropped",
				"the module writes a dead-letter policy only when dead_letter_topic is set, so max_delivery_attempts is dropped", "add dead_letter_topic, or leave max_delivery_attempts out")
		}
		return
	}
	m.put(topic, "/deadLetterPolicy/deadLetterTopic", kString)
	if attempts != nil {
		m.put(attempts, "/deadLetterPolicy/maxDeliveryAttempts", kInt)
		return
	}
	if kind == "push" && v.atLeast(8, 0, 0) {
		// main.tf falls back to "" here, which is no number.
		r.errorf(span(topic.name), "/deadLetterPolicy/maxDeliveryAttempts", "terraform-module-default",
			"without max_delivery_attempts the module "+v.String()+" writes max_delivery_attempts = \"\" for a push entry, which Terraform refuses: a number is required",
			"add max_delivery_attempts (5 to 100)")
		r.unknown["/deadLetterPolicy/maxDeliveryAttempts"] = true
		return
	}
	m.node("/deadLetterPolicy/maxDeliveryAttempts", topic.name, &doc.Node{Kind: doc.Number, Value: "5", Span: span(topic.name)})
	r.add(diag.Info, span(topic.name), "/deadLetterPolicy/maxDeliveryAttempts", "terraform-module-default",
		"the module sets max_delivery_attempts to 5 when the entry does not", "")
}

// retry maps maximum_backoff and minimum_backoff: the module writes a
// retry policy only when maximum_backoff is set.
func (m *moduleReader) retry(kind string, maxb, minb *field) {
	r, v := m.r, m.v
	given := maxb != nil && !m.isNull(maxb) && (v.atLeast(8, 0, 0) || !m.empty(maxb))
	if !given {
		if minb != nil && !m.isNull(minb) {
			r.add(diag.Warning, span(minb.name), "/retryPolicy", "terraform-module-dropped",
				"the module writes a retry policy only when maximum_backoff is set, so minimum_backoff is dropped: the subscription retries at once",
				"add maximum_backoff (up to 600s) beside it")
		}
		return
	}
	m.put(maxb, "/retryPolicy/maximumBackoff", kDuration)
	if minb != nil && !m.isNull(minb) && !m.empty(minb) {
		m.put(minb, "/retryPolicy/minimumBackoff", kDuration)
		return
	}
	if v.atLeast(8, 0, 0) && (kind == "push" || kind == "pull") {
		// main.tf falls back to "5": no unit, so no duration the API reads.
		m.node("/retryPolicy/minimumBackoff", maxb.name, &doc.Node{Kind: doc.String, Value: "5", Span: span(maxb.name)})
		r.add(diag.Info, span(maxb.name), "/retryPolicy/minimumBackoff", "terraform-module-default",
			"without minimum_backoff the module "+v.String()+" writes minimum_backoff = \"5\" for a "+kind+" entry", `add minimum_backoff, such as "10s"`)
	}
}

// put maps an entry's field, when given, to path as kind.
func (m *moduleReader) put(f *field, path string, k kind) {
	if f == nil {
		return
	}
	m.set(path, k, f.key, f.expr, f.name)
}

// set evaluates e and puts its value at path, as the provider reads a
// value of kind k.
func (m *moduleReader) set(path string, k kind, name string, e hclsyntax.Expression, nameRange hcl.Range) {
	r := m.r
	a := &attr{tf: name, rest: path, kind: k}
	var n *doc.Node
	if o, ok := e.(*hclsyntax.ObjectConsExpr); ok && k == kMap {
		n = r.mapItems(a, o, path)
	} else {
		val, ok := r.eval(e, path, name)
		if !ok || val.IsNull() {
			return
		}
		n = r.toNode(a, val, span(e.Range()), path, e)
	}
	if n != nil {
		m.node(path, nameRange, n)
	}
}

// node puts n at path in the subscription, making the objects on the way.
func (m *moduleReader) node(path string, nameRange hcl.Range, n *doc.Node) {
	obj := m.r.root
	segs := strings.Split(path[1:], "/")
	for _, s := range segs[:len(segs)-1] {
		next := obj.Get(s)
		if next == nil {
			next = &doc.Node{Kind: doc.Object, Span: n.Span}
			obj.Members = append(obj.Members, doc.Member{Key: s, KeySpan: span(nameRange), Value: next})
		}
		obj = next
	}
	last := segs[len(segs)-1]
	for i := range obj.Members {
		if obj.Members[i].Key == last {
			obj.Members[i].Value = n
			return
		}
	}
	obj.Members = append(obj.Members, doc.Member{Key: last, KeySpan: span(nameRange), Value: n})
}

// isNull reports whether a field is written null.
func (m *moduleReader) isNull(f *field) bool {
	v, ok := m.r.literal(f.expr)
	return ok && v.IsNull()
}

// empty reports whether a field is the empty string, which the module's
// lookups before 8.0.0 read as "not given".
func (m *moduleReader) empty(f *field) bool {
	s, ok := m.str(f)
	return ok && s == ""
}

// str is a field's value when it is a literal string.
func (m *moduleReader) str(f *field) (string, bool) {
	v, ok := m.r.literal(f.expr)
	if !ok {
		return "", false
	}
	return stringOf(v)
}

func stringOf(v cty.Value) (string, bool) {
	if v.Type() != cty.String || !v.IsKnown() || v.IsNull() {
		return "", false
	}
	return v.AsString(), true
}
