package subscription

import (
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
)

// Validate returns every finding about the configuration: decoding
// problems and rule violations, located in the user's text, sorted, capped.
// It is computed once; callers get a copy.
func (c *Config) Validate() []diag.Diagnostic {
	c.once.Do(func() {
		ds := append([]diag.Diagnostic(nil), c.ds...)
		if c.Sub != nil {
			v := &validator{c: c, s: c.Sub, t: c.table()}
			v.run()
			ds = append(ds, v.ds...)
		}
		if judged := c.reading.Judged; judged != nil {
			ds = slices.DeleteFunc(ds, func(d diag.Diagnostic) bool { return !judged(d.Path) })
		}
		ds = append(ds, c.reading.Diagnostics...)
		c.validated = c.locateDropped(ds, c.dropped)
	})
	return append([]diag.Diagnostic(nil), c.validated...)
}

// Valid reports whether the configuration has no errors.
func (c *Config) Valid() bool {
	return c.Sub != nil && !diag.HasErrors(c.Validate())
}

// locate gives every diagnostic a span (from its path when it has none),
// then lines and columns, or strips positions when the input was not text.
func (c *Config) locate(ds []diag.Diagnostic) []diag.Diagnostic { return c.locateDropped(ds, 0) }

// locateDropped is locate for findings of which dropped more were only
// counted: the closing note counts them too.
func (c *Config) locateDropped(ds []diag.Diagnostic, dropped int) []diag.Diagnostic {
	for i := range ds {
		if !ds[i].Span.IsValid() && ds[i].Path != "" {
			ds[i].Span = c.spanFor(ds[i].Path)
		}
	}
	if c.Positioned {
		c.Doc.Source.Locate(ds)
	} else {
		for i := range ds {
			ds[i].Line, ds[i].Column, ds[i].EndLine, ds[i].EndColumn = 0, 0, 0, 0
		}
	}
	return diag.FinishDropped(diag.In(diag.InputConfig, ds), dropped)
}

// spanFor finds where a path is written: its value, or, for a field that
// is missing, the key of the nearest enclosing object that is there.
func (c *Config) spanFor(path string) diag.Span {
	if n := c.nodes[path]; n != nil {
		if k, ok := c.keys[path]; ok && (n.Kind == doc.Object || n.Kind == doc.Array) {
			return k // a whole object underlined says less than its key
		}
		return n.Span
	}
	for p := path; p != ""; {
		p = parentOf(p)
		if k, ok := c.keys[p]; ok {
			return k
		}
		if p == "" {
			break
		}
	}
	if root := c.nodes[""]; root != nil {
		return diag.Span{Start: root.Span.Start, End: root.Span.Start + 1}
	}
	return diag.Span{}
}

// known reports whether a field is either absent or was decoded: a field
// that is written but could not be read has been reported, and rules that
// compare it with others must not guess its value.
func (v *validator) known(path string, decoded bool) bool {
	return decoded || !v.c.Has(path)
}

type validator struct {
	c  *Config
	s  *Subscription
	t  *Table
	ds []diag.Diagnostic
}

func (v *validator) add(sev diag.Severity, path, code, msg, hint string) *diag.Diagnostic {
	v.ds = append(v.ds, diag.Diagnostic{Severity: sev, Code: code, Path: path, Message: msg, Hint: hint})
	return &v.ds[len(v.ds)-1]
}

func (v *validator) errorf(path, code, msg, hint string) *diag.Diagnostic {
	return v.add(diag.Error, path, code, msg, hint)
}

// inString positions d on bytes [start, end) of the string value at path.
func (v *validator) inString(d *diag.Diagnostic, path string, start, end int) {
	if n := v.c.nodes[path]; n != nil {
		d.Span = v.c.Doc.SourceSpan(n, diag.SpanOf(start, end))
	}
}

func (v *validator) run() {
	v.tableRules()
	v.names()
	v.delivery()
	v.push()
	v.retention()
	v.retry()
	v.deadLetter()
	v.bigQuery()
	v.cloudStorage()
	v.bigtable()
	v.filter()
	v.labels()
	v.transforms()
	v.serviceAccounts()
	v.notes()
}

// tableRules applies what the rule table says of every field present:
// bounds, enums, output-only and input-only fields, and required fields
// of every object that is present.
func (v *validator) tableRules() {
	for path, n := range v.c.nodes {
		f := v.t.At(path)
		if f == nil || v.c.bad[path] || (f.Kind == KindMap && f.Path != genericPath(path)) {
			continue
		}
		if f.OutputOnly {
			v.add(diag.Info, path, "output-only", label(path)+" is set by the service; it is ignored when you create or update a subscription",
				"it is fine to leave it in a file copied from describe")
		} else {
			v.bounds(f, path, n)
		}
		// Even an ignored enum must be a name the API knows: its JSON
		// reader rejects the request otherwise.
		if len(f.Enum) > 0 && n.Kind == doc.String && !slices.Contains(f.Enum, n.Value) {
			hint := "use one of " + strings.Join(f.Enum, ", ")
			for _, e := range f.Enum {
				if strings.EqualFold(e, n.Value) {
					hint = "enum values are uppercase: " + e
				}
			}
			v.errorf(path, "enum-value", label(path)+" cannot be "+diag.Quote(n.Value), hint)
		}
	}
	// Required fields, for every instance of their parent that is present.
	for _, f := range v.t.fields {
		if !f.Required {
			continue
		}
		for _, parent := range v.instances(parentOf(f.Path)) {
			p := parent + "/" + f.Name
			if !v.c.Has(p) {
				v.errorf(p, "missing-field", label(p)+" is required"+requiredWhy(f), requiredHint(f))
			} else if n := v.c.nodes[p]; n.Kind == doc.String && n.Value == "" && f.Path != "/topic" {
				v.errorf(p, "empty-field", label(p)+" is empty", requiredHint(f))
			}
		}
	}
	if !v.c.Has("/name") {
		v.add(diag.Warning, "/name", "missing-name", "the configuration has no name",
			"the REST create call takes it from the URL; add \"name\": \"projects/PROJECT/subscriptions/ID\" so it can be checked")
	}
}

func requiredWhy(f *Field) string {
	if parentOf(f.Path) == "" {
		return ""
	}
	return " when " + label(strings.ReplaceAll(parentOf(f.Path), "/*", "")) + " is set"
}

func requiredHint(f *Field) string {
	switch f.Path {
	case "/topic":
		return "add \"topic\": \"projects/PROJECT/topics/ID\""
	case "/bigqueryConfig/table":
		return "name the table as PROJECT.DATASET.TABLE"
	case "/cloudStorageConfig/bucket":
		return "name an existing bucket, without gs://"
	case "/deadLetterPolicy/deadLetterTopic":
		return "name the topic as projects/PROJECT/topics/ID, or remove deadLetterPolicy"
	}
	return ""
}

func genericPath(path string) string {
	if !hasIndex(path) {
		return path // the common case, without allocating
	}
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if p != "" && allDigits(p) {
			parts[i] = "*"
		}
	}
	return strings.Join(parts, "/")
}

// hasIndex reports whether a path has a segment of digits only.
func hasIndex(path string) bool {
	for start := 0; start <= len(path); {
		end := strings.IndexByte(path[start:], '/')
		if end < 0 {
			end = len(path)
		} else {
			end += start
		}
		if end > start && allDigits(path[start:end]) {
			return true
		}
		start = end + 1
	}
	return false
}

// instances expands a table path with "*" into the paths present in the
// input: "/messageTransforms/*/javascriptUdf" -> ".../0/javascriptUdf", ...
func (v *validator) instances(pattern string) []string {
	if pattern == "" {
		return []string{""}
	}
	if !strings.Contains(pattern, "*") {
		if v.c.Has(pattern) {
			return []string{pattern}
		}
		return nil
	}
	before, after, _ := strings.Cut(pattern, "/*")
	arr := v.c.nodes[before]
	if arr == nil || arr.Kind != doc.Array {
		return nil
	}
	var out []string
	for i := range arr.Items {
		p := before + "/" + strconv.Itoa(i) + after
		if v.c.Has(p) {
			out = append(out, p)
		}
	}
	return out
}

// bounds checks a value against the Min and Max of its row.
func (v *validator) bounds(f *Field, path string, n *doc.Node) {
	name := label(path)
	switch f.Kind {
	case KindInt32, KindInt64:
		x, class := intValue(n.Value, n.Kind == doc.Number)
		if class != whole {
			return // decoding reported it
		}
		if x == 0 && f.ZeroMeansDefault { // D14
			v.add(diag.Info, path, "zero-means-default", name+" is 0, which the API reads as unset: "+defaultWords(f)+" applies", "")
			return
		}
		rng := rangeText(f)
		if f.minI != nil && x < *f.minI {
			v.errorf(path, "value-too-small", name+" is "+strconv.FormatInt(x, 10)+"; the smallest allowed is "+f.Min+" "+f.Unit, rng)
		} else if f.maxI != nil && x > *f.maxI {
			v.errorf(path, "value-too-large", name+" is "+strconv.FormatInt(x, 10)+"; the largest allowed is "+f.Max+" "+f.Unit, rng)
		}
	case KindDuration:
		d, err := ParseDuration(n.Value)
		if err != nil {
			return
		}
		if d.Seconds < 0 || d.Nanos < 0 {
			v.errorf(path, "value-too-small", name+" cannot be negative", rangeText(f))
			return
		}
		if f.minD != nil && d.Cmp(*f.minD) < 0 {
			v.errorf(path, "value-too-small", name+" is "+d.Human()+"; the shortest allowed is "+f.minD.Human()+" ("+f.Min+")", rangeText(f))
		} else if f.maxD != nil && d.Cmp(*f.maxD) > 0 {
			v.errorf(path, "value-too-large", name+" is "+d.Human()+"; the longest allowed is "+f.maxD.Human()+" ("+f.Max+")", rangeText(f))
		}
	case KindString:
		if f.maxI != nil && int64(len(n.Value)) > *f.maxI {
			extra := ""
			if utf8.RuneCountInString(n.Value) != len(n.Value) {
				extra = " (" + strconv.Itoa(utf8.RuneCountInString(n.Value)) + " characters; non-ASCII characters take several bytes)"
			}
			d := v.errorf(path, "too-long", name+" is "+strconv.Itoa(len(n.Value))+" bytes"+extra+"; at most "+f.Max+" are allowed", "")
			v.inString(d, path, int(*f.maxI), len(n.Value))
		}
	case KindBytes:
		size := decodedLen(n.Value)
		switch {
		case size < 0:
			v.errorf(path, "bytes-format", name+" is not base64", "bytes are written in base64, e.g. \"Iw==\" for #")
		case f.minI != nil && int64(size) < *f.minI:
			v.errorf(path, "value-too-small", name+" is "+byteSize(int64(size))+"; the smallest allowed is "+byteSize(*f.minI), rangeText(f))
		case f.maxI != nil && int64(size) > *f.maxI:
			v.errorf(path, "value-too-large", name+" is "+byteSize(int64(size))+"; the largest allowed is "+byteSize(*f.maxI), rangeText(f))
		}
	case KindMap:
		if f.maxI != nil && int64(len(n.Members)) > *f.maxI {
			v.errorf(path, "too-many", name+" has "+strconv.Itoa(len(n.Members))+" entries; at most "+f.Max+" are allowed", "")
		}
	case KindArray:
		if f.maxI != nil && int64(len(n.Items)) > *f.maxI && f.Path != "/messageTransforms" { // transforms counts enabled ones
			v.errorf(path, "too-many", name+" has "+strconv.Itoa(len(n.Items))+" entries; at most "+f.Max+" are allowed", "")
		}
	}
}

// defaultWords says what applies when f is unset: "the default of 10
// seconds", or the row's DefaultText.
func defaultWords(f *Field) string {
	if f.Default != "" {
		d, _ := f.human("default")
		return "the default of " + d
	}
	return f.DefaultText
}

// rangeText says the allowed range of a field for a hint.
func rangeText(f *Field) string {
	unit := " " + f.Unit
	lo, hi := f.Min, f.Max
	if f.Kind == KindDuration {
		unit = ""
		if f.minD != nil {
			lo = f.minD.Human() + " (" + f.Min + ")"
		}
		if f.maxD != nil {
			hi = f.maxD.Human() + " (" + f.Max + ")"
		}
	}
	var s string
	switch {
	case lo != "" && hi != "":
		s = "allowed: " + lo + " to " + hi + unit
	case lo != "":
		s = "allowed: at least " + lo + unit
	default:
		s = "allowed: at most " + hi + unit
	}
	if f.ZeroMeansDefault {
		s += ", or 0 for " + defaultWords(f)
	}
	return s
}

func (v *validator) names() {
	s := v.s
	if s.Name != nil {
		v.resourceName("/name", *s.Name, "subscriptions", "subscription")
	}
	if s.Topic != nil {
		switch *s.Topic {
		case "_deleted-topic_":
			v.add(diag.Warning, "/topic", "deleted-topic", "the topic of this subscription was deleted",
				"it keeps its backlog but receives nothing new; create a subscription on a live topic")
		case "":
			v.errorf("/topic", "empty-field", "topic is empty", "add the topic as projects/PROJECT/topics/ID")
		default:
			v.resourceName("/topic", *s.Topic, "topics", "topic")
		}
	}
}

func (v *validator) resourceName(path, s, collection, kind string) string {
	project, probs := checkResourceName(s, collection, kind)
	for _, p := range probs {
		d := v.errorf(path, "resource-name", p.Message, p.Hint)
		v.inString(d, path, p.Start, p.End)
	}
	return project
}

func projectOf(name string) string {
	parts := strings.Split(name, "/")
	if len(parts) >= 2 && parts[0] == "projects" {
		return parts[1]
	}
	return ""
}

// delivery enforces "at most one delivery type" and warns about push
// settings that an endpoint-less pushConfig makes meaningless.
func (v *validator) delivery() {
	s := v.s
	type kind struct {
		path string
		set  bool
	}
	push := s.PushConfig != nil && s.PushConfig.PushEndpoint != nil && *s.PushConfig.PushEndpoint != ""
	kinds := []kind{
		{"/pushConfig", push},
		{"/bigqueryConfig", s.BigQueryConfig != nil},
		{"/cloudStorageConfig", s.CloudStorageConfig != nil},
		{"/bigtableConfig", s.BigtableConfig != nil},
	}
	var set []string
	for _, k := range kinds {
		if k.set {
			set = append(set, k.path)
		}
	}
	for _, p := range set[min(1, len(set)):] {
		v.errorf(p, "one-delivery-type", "a subscription delivers one way, but "+label(set[0])+" and "+label(p)+" are both set",
			"keep one of "+strings.Join(labels(set), ", ")+"; without any it is a pull subscription")
	}
	if pc := s.PushConfig; pc != nil && !push {
		if pc.OidcToken != nil || pc.NoWrapper != nil || pc.PubsubWrapper != nil || len(pc.Attributes) > 0 {
			v.add(diag.Warning, "/pushConfig", "push-settings-without-endpoint",
				"pushConfig has settings but no pushEndpoint, so this is a pull subscription and they are ignored",
				"add pushEndpoint for push delivery, or remove the other push settings")
		}
	}
	if s.EnableExactlyOnceDelivery != nil && *s.EnableExactlyOnceDelivery {
		if dt := s.DeliveryType(); dt != Pull {
			v.errorf("/enableExactlyOnceDelivery", "exactly-once-pull-only",
				"exactly-once delivery works only for pull subscriptions, and this one is "+string(dt),
				"remove enableExactlyOnceDelivery, or make it a pull subscription")
		}
	}
}

func labels(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = label(p)
	}
	return out
}

func (v *validator) push() {
	pc := v.s.PushConfig
	if pc == nil {
		return
	}
	if pc.PushEndpoint != nil && *pc.PushEndpoint != "" {
		v.endpoint("/pushConfig/pushEndpoint", *pc.PushEndpoint)
	}
	if pc.PubsubWrapper != nil && pc.NoWrapper != nil {
		v.errorf("/pushConfig/noWrapper", "one-wrapper", "pubsubWrapper and noWrapper are both set; choose one",
			"noWrapper sends the raw data as the body; pubsubWrapper (the default) wraps it in JSON")
	}
	for k, val := range pc.Attributes {
		p := "/pushConfig/attributes/" + diag.PointerKey(k)
		if k != "x-goog-version" {
			v.add(diag.Warning, p, "push-attribute", "push attribute "+diag.Quote(k)+" is not supported; only x-goog-version is",
				"remove it")
			continue
		}
		if versions := v.t.At("/pushConfig/attributes").Enum; !slices.Contains(versions, val) {
			v.errorf(p, "push-version", "x-goog-version cannot be "+diag.Quote(val), "use one of "+strings.Join(versions, ", "))
		}
	}
	if t := pc.OidcToken; t != nil {
		if t.ServiceAccountEmail == nil || *t.ServiceAccountEmail == "" {
			v.add(diag.Warning, "/pushConfig/oidcToken", "oidc-without-account",
				"oidcToken names no serviceAccountEmail, so Pub/Sub has no account to issue a token for",
				"add serviceAccountEmail, the account the endpoint expects")
		}
	}
}

// endpoint checks a push endpoint URL.
func (v *validator) endpoint(path, raw string) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || !u.IsAbs() {
		v.errorf(path, "push-endpoint-url", "pushEndpoint is not an absolute URL", "write it as https://HOST/PATH")
		return
	}
	if u.Scheme != "https" {
		d := v.errorf(path, "push-endpoint-https", "push endpoints must use HTTPS, not "+diag.Quote(u.Scheme),
			"use https:// with a certificate signed by a public authority")
		v.inString(d, path, 0, len(u.Scheme))
		return
	}
	host := u.Hostname()
	if ip, err := netip.ParseAddr(host); (err == nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsUnspecified() || ip.IsLinkLocalUnicast())) ||
		host == "localhost" || strings.HasSuffix(host, ".localhost") || strings.HasSuffix(host, ".internal") || strings.HasSuffix(host, ".local") {
		d := v.add(diag.Warning, path, "push-endpoint-private", "Pub/Sub pushes from Google's network, so "+diag.Quote(host)+" cannot be reached",
			"use a public HTTPS endpoint")
		if i := strings.Index(raw, host); i >= 0 {
			v.inString(d, path, i, i+len(host))
		}
	}
	if u.User != nil {
		v.add(diag.Warning, path, "push-endpoint-credentials", "the push endpoint carries a user name or password in the URL",
			"authenticate with oidcToken instead: the URL is visible to anyone who can read the subscription")
	}
}

// retention checks the expiration policy against message retention (D2).
func (v *validator) retention() {
	s := v.s
	ret := v.t.defaultDuration("/messageRetentionDuration")
	if s.MessageRetentionDuration != nil {
		ret = *s.MessageRetentionDuration
	}
	if ep := s.ExpirationPolicy; ep != nil && ep.TTL != nil && v.known("/messageRetentionDuration", s.MessageRetentionDuration != nil) {
		if ep.TTL.Seconds > 0 && ep.TTL.Cmp(ret) < 0 {
			how := "the default retention of " + ret.Long()
			if s.MessageRetentionDuration != nil {
				how = "messageRetentionDuration (" + ret.Human() + ")"
			}
			v.errorf("/expirationPolicy/ttl", "ttl-below-retention",
				"expirationPolicy.ttl ("+ep.TTL.Human()+") is shorter than "+how+"; the ttl must be at least the retention",
				"raise ttl to "+ret.String()+" or more, or lower the retention")
		}
	}
	if s.RetainAckedMessages != nil && *s.RetainAckedMessages {
		v.add(diag.Info, "/retainAckedMessages", "retain-acked-cost",
			"acknowledged messages are kept for "+ret.Human()+", so you can seek back and replay them; their storage is billed", "")
	}
}

// retry checks the backoff pair, with the default each side takes when
// only the other is set.
func (v *validator) retry() {
	rp := v.s.RetryPolicy
	if rp == nil || !v.known("/retryPolicy/minimumBackoff", rp.MinimumBackoff != nil) ||
		!v.known("/retryPolicy/maximumBackoff", rp.MaximumBackoff != nil) {
		return
	}
	lo, hi := v.t.defaultDuration("/retryPolicy/minimumBackoff"), v.t.defaultDuration("/retryPolicy/maximumBackoff")
	defLo, defHi := lo, hi
	if rp.MinimumBackoff != nil {
		lo = *rp.MinimumBackoff
	}
	if rp.MaximumBackoff != nil {
		hi = *rp.MaximumBackoff
	}
	if lo.Cmp(hi) <= 0 || v.outOfBounds("/retryPolicy/minimumBackoff", lo) || v.outOfBounds("/retryPolicy/maximumBackoff", hi) {
		return // in order, or already reported as out of bounds
	}
	switch {
	case rp.MinimumBackoff == nil:
		v.errorf("/retryPolicy/maximumBackoff", "backoff-order",
			"maximumBackoff ("+hi.Human()+") is below the default minimumBackoff of "+defLo.Human(),
			"set minimumBackoff too, at most "+hi.String())
	case rp.MaximumBackoff == nil:
		v.errorf("/retryPolicy/minimumBackoff", "backoff-order",
			"minimumBackoff ("+lo.Human()+") is above the default maximumBackoff of "+defHi.Human(), "set maximumBackoff too, at least "+lo.String())
	default:
		v.errorf("/retryPolicy/minimumBackoff", "backoff-order",
			"minimumBackoff ("+lo.Human()+") is longer than maximumBackoff ("+hi.Human()+")",
			"the backoff grows from the minimum to the maximum; swap them")
	}
}

// outOfBounds reports whether d breaks the bounds of the row at path, which
// bounds has reported.
func (v *validator) outOfBounds(path string, d Duration) bool {
	f := v.t.At(path)
	return (f.minD != nil && d.Cmp(*f.minD) < 0) || (f.maxD != nil && d.Cmp(*f.maxD) > 0)
}

func (v *validator) deadLetter() {
	dl := v.s.DeadLetterPolicy
	if dl == nil || dl.DeadLetterTopic == nil || *dl.DeadLetterTopic == "" {
		return // missing-field or empty-field has said so
	}
	t := *dl.DeadLetterTopic
	path := "/deadLetterPolicy/deadLetterTopic"
	project, probs := checkResourceName(t, "topics", "dead-letter topic")
	for _, p := range probs {
		d := v.errorf(path, "resource-name", p.Message, p.Hint)
		v.inString(d, path, p.Start, p.End)
	}
	if len(probs) > 0 {
		return
	}
	if v.s.Topic != nil && *v.s.Topic == t {
		v.add(diag.Warning, path, "dead-letter-same-topic",
			"the dead-letter topic is the subscription's own topic, so failed messages come straight back to it",
			"use a separate topic for undeliverable messages")
	}
	subProject := ""
	if v.s.Name != nil {
		subProject = projectOf(*v.s.Name)
	}
	if subProject != "" && project != subProject {
		v.add(diag.Info, path, "dead-letter-other-project",
			"the dead-letter topic is in project "+project+", not "+subProject+"; the grants below are made on that topic, in that project", "")
	}
	v.add(diag.Info, path, "dead-letter-iam",
		"the Pub/Sub service agent (service-PROJECT_NUMBER@gcp-sa-pubsub.iam.gserviceaccount.com) needs roles/pubsub.publisher on the dead-letter topic and roles/pubsub.subscriber on this subscription",
		"without them, failed messages are not forwarded and stay in the backlog")
}

// isDatasetID reports whether s uses only the characters of a dataset ID.
func isDatasetID(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return s != ""
}

func (v *validator) bigQuery() {
	bq := v.s.BigQueryConfig
	if bq == nil {
		return
	}
	if bq.Table != nil && *bq.Table != "" {
		v.tableRef("/bigqueryConfig/table", *bq.Table)
	}
	topic := bq.UseTopicSchema != nil && *bq.UseTopicSchema
	table := bq.UseTableSchema != nil && *bq.UseTableSchema
	if topic && table {
		v.errorf("/bigqueryConfig/useTableSchema", "bigquery-schema-choice",
			"useTopicSchema and useTableSchema cannot both be true", "keep the one that matches how columns should be found")
	}
	if bq.DropUnknownFields != nil && *bq.DropUnknownFields && !topic && !table {
		v.add(diag.Warning, "/bigqueryConfig/dropUnknownFields", "drop-unknown-without-schema",
			"dropUnknownFields does nothing without useTopicSchema or useTableSchema",
			"set one of them, or remove dropUnknownFields")
	}
	switch {
	case !topic && !table:
		v.add(diag.Info, "/bigqueryConfig", "bigquery-data-column",
			"without a schema option, each message is written whole to a column named data, which the table must have as BYTES, STRING or JSON", "")
	case table:
		v.add(diag.Info, "/bigqueryConfig/useTableSchema", "bigquery-json-messages",
			"with useTableSchema, messages must be JSON objects whose fields match the table's columns", "")
	}
	if bq.WriteMetadata != nil && *bq.WriteMetadata {
		v.add(diag.Info, "/bigqueryConfig/writeMetadata", "bigquery-metadata-columns",
			"the table needs columns subscription_name (STRING), message_id (STRING), publish_time (TIMESTAMP) and attributes (STRING or JSON)", "")
	}
}

// tableRef checks PROJECT.DATASET.TABLE (D3).
func (v *validator) tableRef(path, ref string) {
	bad := func(msg, hint string, start, end int) {
		d := v.errorf(path, "bigquery-table", msg, hint)
		v.inString(d, path, start, end)
	}
	if i := strings.IndexByte(ref, ':'); i >= 0 {
		bad("the table is written with a colon; Pub/Sub expects PROJECT.DATASET.TABLE",
			"write "+strings.Replace(ref, ":", ".", 1), i, i+1)
		return
	}
	parts := strings.SplitN(ref, ".", 3)
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		bad("the table must be PROJECT.DATASET.TABLE", "", 0, len(ref))
		return
	}
	for _, p := range checkProjectID(parts[0]) {
		bad(p.Message, p.Hint, p.Start, p.End)
	}
	dsStart := len(parts[0]) + 1
	if len(parts[1]) > 1024 {
		bad("the dataset ID is longer than 1024 characters", "", dsStart, dsStart+len(parts[1]))
	} else if !isDatasetID(parts[1]) {
		bad("the dataset ID "+diag.Quote(parts[1])+" may use only letters, digits and underscores", "", dsStart, dsStart+len(parts[1]))
	}
	tStart := dsStart + len(parts[1]) + 1
	if n := utf8.RuneCountInString(parts[2]); n > 1024 {
		bad("the table ID is longer than 1024 characters", "", tStart, len(ref))
	}
	for i, r := range parts[2] {
		if !(unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.Pc, unicode.Pd, unicode.Zs)) {
			bad("the table ID contains "+strconv.QuoteRune(r)+"; table IDs use letters, marks, digits, connectors, dashes and spaces",
				"", tStart+i, tStart+i+utf8.RuneLen(r))
			break
		}
	}
}

func (v *validator) cloudStorage() {
	cs := v.s.CloudStorageConfig
	if cs == nil {
		return
	}
	if cs.TextConfig != nil && cs.AvroConfig != nil {
		v.errorf("/cloudStorageConfig/avroConfig", "one-output-format", "textConfig and avroConfig are both set; files are either text or Avro",
			"keep one; without either, files are text")
	}
	v.storageNames()
	v.add(diag.Info, "/cloudStorageConfig/bucket", "bucket-prerequisites",
		"the bucket must exist before the subscription is created and must not have Requester Pays enabled; the writing account needs roles/storage.objectCreator and roles/storage.legacyBucketReader on it", "")
}

func (v *validator) bigtable() {
	bt := v.s.BigtableConfig
	if bt == nil {
		return
	}
	if m := bt.ColumnFamilyMapping; m != nil && m.RowKeySchema != nil && m.DelimitedKey != nil {
		v.errorf("/bigtableConfig/columnFamilyMapping/delimitedKey", "one-key-definition",
			"rowKeySchema and delimitedKey are both set; the row key is built one way", "keep one of them")
	}
	if bt.Table == nil || *bt.Table == "" {
		return
	}
	parts := strings.Split(*bt.Table, "/")
	if len(parts) != 6 || parts[0] != "projects" || parts[2] != "instances" || parts[4] != "tables" || parts[1] == "" || parts[3] == "" || parts[5] == "" {
		v.errorf("/bigtableConfig/table", "bigtable-table", "the table must be projects/PROJECT/instances/INSTANCE/tables/TABLE", "")
	}
}

func (v *validator) filter() {
	f := v.s.Filter
	if f == nil {
		return
	}
	if *f == "" {
		v.add(diag.Info, "/filter", "empty-filter", "the filter is empty, so every message is delivered", "")
		return
	}
	v.filterGrammar(*f)
}

// Label rules: a key is a lowercase or caseless letter, then more of
// those, digits, "_" and "-"; a value is made of the latter; each at most
// labelMaxChars characters and labelMaxBytes bytes.
// Written out rather than as a regexp: compiling \p{Ll} and \p{Lo} costs
// megabytes at start-up, which every WebAssembly instance would pay.
func isLabelKey(k string) bool {
	r, _ := utf8.DecodeRuneInString(k)
	return k != "" && (unicode.Is(unicode.Ll, r) || unicode.Is(unicode.Lo, r)) && isLabelValue(k) && utf8.RuneCountInString(k) <= labelMaxChars
}

func isLabelValue(v string) bool {
	n := 0
	for _, r := range v {
		n++
		if !(unicode.Is(unicode.Ll, r) || unicode.Is(unicode.Lo, r) || unicode.IsNumber(r) || r == '_' || r == '-') || r == utf8.RuneError {
			return false
		}
	}
	return n <= labelMaxChars
}

// labelWords says the label bounds in a hint.
var labelWords = "at most " + strconv.Itoa(labelMaxChars) + " characters"

func (v *validator) labels() {
	for k, val := range v.s.Labels {
		p := "/labels/" + diag.PointerKey(k)
		if !isLabelKey(k) || len(k) > labelMaxBytes {
			d := v.errorf(p, "label-key", "label key "+diag.Quote(k)+" breaks the label rules",
				"keys start with a lowercase letter and use lowercase letters, digits, _ and -, "+labelWords+lowerHint(k))
			if ks, ok := v.c.keys[p]; ok {
				d.Span = ks
			}
		}
		if !isLabelValue(val) || len(val) > labelMaxBytes {
			v.errorf(p, "label-value", "label value "+diag.Quote(val)+" breaks the label rules",
				"values use lowercase letters, digits, _ and -, "+labelWords+", and may be empty"+lowerHint(val))
		}
	}
}

func lowerHint(s string) string {
	if l := strings.ToLower(s); l != s && isLabelValue(l) {
		return ": try " + strconv.Quote(l)
	}
	return ""
}

func (v *validator) transforms() {
	seen := map[string]string{}
	enabled := 0
	limit := v.t.At("/messageTransforms").maxI
	for i, t := range v.s.MessageTransforms {
		// Only disabled: true turns a transform off. The deprecated enabled
		// is a proto3 bool without presence, so enabled: false reads the same
		// as an absent enabled and does not disable anything.
		if t.Disabled == nil || !*t.Disabled {
			if enabled++; limit != nil && int64(enabled) == *limit+1 {
				v.errorf("/messageTransforms/"+strconv.Itoa(i), "too-many-transforms",
					"this is enabled transform number "+strconv.Itoa(enabled)+"; at most "+strconv.FormatInt(*limit, 10)+" may be enabled",
					"remove transforms or set disabled: true on some; disabled ones do not count")
			}
		}
		p := "/messageTransforms/" + strconv.Itoa(i)
		n := 0
		for _, set := range []bool{t.JavascriptUdf != nil, t.Compression != nil, t.AiInference != nil} {
			if set {
				n++
			}
		}
		switch {
		case n == 0:
			v.errorf(p, "transform-kind", "this transform names no kind", "set one of javascriptUdf, compression or aiInference")
		case n > 1:
			v.errorf(p, "transform-kind", "a transform is one kind only, but this one sets several", "split it into one transform per kind")
		}
		if t.Enabled != nil {
			v.add(diag.Warning, p+"/enabled", "deprecated-field", "enabled is deprecated, and enabled: false does not turn the transform off", "use disabled: true to turn a transform off")
		}
		if u := t.JavascriptUdf; u != nil && u.FunctionName != nil && *u.FunctionName != "" {
			name := *u.FunctionName
			np := p + "/javascriptUdf/functionName"
			if first, dup := seen[name]; dup {
				v.errorf(np, "udf-name-unique", "the function name "+diag.Quote(name)+" is already used by "+label(first),
					"give each JavaScript transform its own function name")
			} else {
				seen[name] = np
			}
			if !isJSIdent(name) {
				v.errorf(np, "udf-name", diag.Quote(name)+" is not a JavaScript function name", "")
			} else if u.Code != nil && *u.Code != "" && !definesFunction(*u.Code, name) {
				v.errorf(p+"/javascriptUdf/code", "udf-code", "the code does not define function "+name+"(message, metadata)",
					"write: function "+name+"(message, metadata) { return message; }")
			}
		}
		if ai := t.AiInference; ai != nil && ai.Endpoint != nil && *ai.Endpoint != "" && !isAIEndpoint(*ai.Endpoint) {
			v.errorf(p+"/aiInference/endpoint", "ai-endpoint",
				"the endpoint must be projects/P/locations/L/endpoints/E or projects/P/locations/L/publishers/PUB/models/M", "")
		}
	}
}

// isJSIdent reports whether s is a plain JavaScript identifier.
func isJSIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || (i > 0 && c >= '0' && c <= '9')) {
			return false
		}
	}
	return s != ""
}

// isAIEndpoint reports whether s is projects/P/locations/L/endpoints/E or
// projects/P/locations/L/publishers/PUB/models/M.
func isAIEndpoint(s string) bool {
	p := strings.Split(s, "/")
	for _, seg := range p {
		if seg == "" {
			return false
		}
	}
	base := len(p) >= 4 && p[0] == "projects" && p[2] == "locations"
	return base && (len(p) == 6 && p[4] == "endpoints" || len(p) == 8 && p[4] == "publishers" && p[6] == "models")
}

// definesFunction looks for a definition of name in JavaScript source: a
// function declaration ("function name("), or a function or arrow function
// bound to the name ("name = function", "name = (", "name = async x =>").
// A scan rather than a regexp built from the name: one pass over the code
// per occurrence of the name, nothing compiled per call.
func definesFunction(code, name string) bool {
	for i := 0; ; {
		j := strings.Index(code[i:], name)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(name)
		i = end
		if start > 0 && isIdentByte(code[start-1]) || end < len(code) && isIdentByte(code[end]) {
			continue // part of a longer identifier
		}
		before := strings.TrimRight(code[:start], " \t\r\n")
		if kw, ok := strings.CutSuffix(before, "function"); ok && len(before) < start && (kw == "" || !isIdentByte(kw[len(kw)-1])) {
			if rest := skipSpace(code[end:]); strings.HasPrefix(rest, "(") {
				return true
			}
		}
		rest := skipSpace(code[end:])
		if !strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, "==") || strings.HasPrefix(rest, "=>") {
			continue
		}
		rest = skipSpace(rest[1:])
		if r, ok := strings.CutPrefix(rest, "async"); ok && r != "" && !isIdentByte(r[0]) {
			rest = skipSpace(r)
		}
		if r, ok := strings.CutPrefix(rest, "function"); ok && (r == "" || !isIdentByte(r[0])) {
			return true
		}
		if strings.HasPrefix(rest, "(") {
			return true
		}
		k := 0
		for k < len(rest) && isIdentByte(rest[k]) {
			k++
		}
		if k > 0 && strings.HasPrefix(skipSpace(rest[k:]), "=>") {
			return true
		}
	}
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$'
}

func skipSpace(s string) string { return strings.TrimLeft(s, " \t\r\n") }

func (v *validator) serviceAccounts() {
	paths := []string{"/pushConfig/oidcToken/serviceAccountEmail", "/bigqueryConfig/serviceAccountEmail",
		"/cloudStorageConfig/serviceAccountEmail", "/bigtableConfig/serviceAccountEmail"}
	for i := range v.s.MessageTransforms {
		paths = append(paths, "/messageTransforms/"+strconv.Itoa(i)+"/aiInference/serviceAccountEmail")
	}
	for _, p := range paths {
		n := v.c.nodes[p]
		if n == nil || n.Kind != doc.String || n.Value == "" {
			continue
		}
		if msg, hint, warn := checkEmail(n.Value); msg != "" {
			sev := diag.Error
			if warn {
				sev = diag.Warning
			}
			v.add(sev, p, "service-account-email", msg, hint)
			continue
		}
		v.add(diag.Info, p, "service-account-actas",
			"whoever creates or updates the subscription needs iam.serviceAccounts.actAs on "+n.Value, "")
		if p == "/pushConfig/oidcToken/serviceAccountEmail" {
			v.pushAccountProject(p, n.Value)
			v.add(diag.Info, p, "push-token-creator",
				"the Pub/Sub service agent needs iam.serviceAccounts.getOpenIdToken (roles/iam.serviceAccountTokenCreator) on this account to mint tokens", "")
		}
	}
}

// pushAccountProject checks that the push token's account belongs to the
// subscription's project (D17). Only the forms that name a project ID are
// checked: a user-managed account, NAME@PROJECT.iam.gserviceaccount.com,
// and the App Engine default, PROJECT@appspot.gserviceaccount.com. Service
// agents (gcp-sa-*) and the Compute default (NUMBER-compute@...) name no
// project ID, and a subscription named by project number or by a
// domain-scoped project gives none to compare with: those pass.
func (v *validator) pushAccountProject(path, email string) {
	if v.s.Name == nil {
		return
	}
	sub := projectOf(*v.s.Name)
	if sub == "" || allDigits(sub) || strings.Contains(sub, ":") {
		return
	}
	at := strings.LastIndexByte(email, '@')
	local, domain := email[:at], email[at+1:]
	var acct string
	switch {
	case strings.HasSuffix(domain, ".iam.gserviceaccount.com"):
		acct = strings.TrimSuffix(domain, ".iam.gserviceaccount.com")
		if strings.HasPrefix(acct, "gcp-sa-") {
			return
		}
	case domain == "appspot.gserviceaccount.com":
		acct = local
	default:
		return
	}
	if acct != sub {
		d := v.errorf(path, "push-account-project",
			"the push service account belongs to project "+diag.Quote(acct)+", but the subscription is in "+diag.Quote(sub),
			"use a service account of project "+diag.Quote(sub)+", or create the subscription in "+diag.Quote(acct))
		start := at + 1
		if domain == "appspot.gserviceaccount.com" {
			start = 0
		}
		v.inString(d, path, start, start+len(acct))
	}
}

// notes adds the consequences worth knowing that belong to no single rule.
func (v *validator) notes() {
	s := v.s
	if pc := s.PushConfig; pc != nil && pc.PushEndpoint != nil && *pc.PushEndpoint != "" {
		if pc.OidcToken != nil && pc.OidcToken.Audience == nil {
			v.add(diag.Info, "/pushConfig/oidcToken", "audience-default", "the token's audience defaults to the push endpoint URL", "")
		}
		if pc.OidcToken == nil {
			v.add(diag.Info, "/pushConfig", "push-unauthenticated", "push requests carry no token, so the endpoint cannot tell they come from Pub/Sub",
				"add oidcToken with a service account to authenticate them")
		}
		if s.AckDeadlineSeconds != nil {
			v.add(diag.Info, "/ackDeadlineSeconds", "push-timeout", "for push, the ack deadline is also how long Pub/Sub waits for the endpoint to answer", "")
		}
	}
	if s.Detached != nil && *s.Detached {
		v.add(diag.Warning, "/detached", "detached", "the subscription is detached: pulls fail and pushes stop",
			"create a new subscription to receive messages again")
	}
	if s.EnableMessageOrdering != nil && *s.EnableMessageOrdering {
		v.add(diag.Info, "/enableMessageOrdering", "ordering-keys",
			"only messages published with an ordering key, in the same region, are delivered in order; acknowledgements of later messages wait for earlier ones", "")
	}
	if ep := s.ExpirationPolicy; ep != nil && ep.TTL == nil {
		v.add(diag.Info, "/expirationPolicy", "never-expires", "expirationPolicy has no ttl, so the subscription never expires", "")
	}
	if rp := s.RetryPolicy; rp != nil && s.PushConfig != nil && s.DeliveryType() == Push {
		v.add(diag.Info, "/retryPolicy", "push-retry", "for push, a redelivery waits for the push timeout when that is longer than the backoff", "")
	}
}
