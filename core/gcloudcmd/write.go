package gcloudcmd

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/subscription"
)

// Command is a gcloud command written from a subscription.
type Command struct {
	Text string
	// Files are the files the command names (the message transforms), by
	// the path the command uses.
	Files map[string]string
	// Notes say what the command cannot carry (fields gcloud has no flag
	// for, values its flags refuse); each has the field's path.
	Notes []diag.Diagnostic
}

// TransformsFile is the path written commands give the message
// transforms.
const TransformsFile = "message-transforms.json"

type writer struct {
	flags []string
	files map[string]string
	notes []diag.Diagnostic
}

func (w *writer) add(name, value string) { w.flags = append(w.flags, "--"+name+"="+shellQuote(value)) }

func (w *writer) bool(name string, v *bool) {
	if v == nil {
		return
	}
	if *v {
		w.flags = append(w.flags, "--"+name)
	} else {
		w.flags = append(w.flags, "--no-"+name)
	}
}

func (w *writer) note(sev diag.Severity, path, msg string) {
	w.notes = append(w.notes, diag.Diagnostic{Severity: sev, Code: "gcloud-not-expressible", Path: path, Message: msg})
}

// WriteCreate writes the gcloud command that creates s.
func WriteCreate(s *subscription.Subscription) Command {
	w := &writer{}
	project, short := splitName(deref(s.Name), "subscriptions")
	if short == "" {
		short = "SUBSCRIPTION"
		w.note(diag.Warning, "/name", "the subscription has no name; the command says SUBSCRIPTION")
	}
	if project != "" {
		w.add("project", project)
	}
	if s.Topic != nil {
		tp, t := splitName(*s.Topic, "topics")
		if tp == project && tp != "" {
			w.add("topic", t)
		} else {
			w.add("topic", *s.Topic)
		}
	}
	w.settings(s, true)
	return w.command("create", short)
}

// settings writes the flags of every field except name and topic.
func (w *writer) settings(s *subscription.Subscription, create bool) {
	if s.AckDeadlineSeconds != nil {
		w.add("ack-deadline", strconv.Itoa(int(*s.AckDeadlineSeconds)))
	}
	w.bool("retain-acked-messages", s.RetainAckedMessages)
	if s.MessageRetentionDuration != nil {
		w.add("message-retention-duration", s.MessageRetentionDuration.String())
	}
	if create && len(s.Labels) > 0 {
		w.labels("labels", "/labels", s.Labels)
	}
	if create {
		w.bool("enable-message-ordering", s.EnableMessageOrdering)
		if s.Filter != nil {
			w.add("message-filter", *s.Filter)
		}
	}
	w.bool("enable-exactly-once-delivery", s.EnableExactlyOnceDelivery)
	if e := s.ExpirationPolicy; e != nil {
		if e.TTL == nil || (*e.TTL == subscription.Duration{}) {
			w.add("expiration-period", "never")
		} else {
			w.add("expiration-period", e.TTL.String())
		}
	}
	w.deadLetter(s.DeadLetterPolicy)
	w.retry(s.RetryPolicy)
	w.push(s.PushConfig)
	w.bigquery(s.BigQueryConfig)
	w.storage(s.CloudStorageConfig)
	if s.BigtableConfig != nil {
		w.note(diag.Warning, "/bigtableConfig", "gcloud 528 has no flags for a Bigtable subscription; the command leaves bigtableConfig out")
	}
	if len(s.MessageTransforms) > 0 {
		b, err := json.MarshalIndent(s.MessageTransforms, "", "  ")
		if err == nil {
			w.files = map[string]string{TransformsFile: string(b) + "\n"}
			w.add("message-transforms-file", TransformsFile)
		}
	}
	if len(s.Tags) > 0 {
		w.note(diag.Warning, "/tags", "gcloud pubsub subscriptions create has no flag for tags; the command leaves them out")
	}
	if s.Detached != nil && *s.Detached {
		w.note(diag.Info, "/detached", "detached is set by gcloud pubsub subscriptions detach, not by create or update")
	}
}

func (w *writer) labels(flag, path string, m map[string]string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		if strings.ContainsAny(k, ",=") || strings.Contains(m[k], ",") {
			w.note(diag.Warning, path+"/"+diag.PointerKey(k), "gcloud's --"+flag+" cannot carry a label with a comma in it (or an equals sign in its key); the command leaves it out")
			continue
		}
		parts = append(parts, k+"="+m[k])
	}
	if len(parts) > 0 {
		w.add(flag, strings.Join(parts, ","))
	}
}

func (w *writer) deadLetter(d *subscription.DeadLetterPolicy) {
	if d == nil {
		return
	}
	if d.DeadLetterTopic == nil {
		w.note(diag.Warning, "/deadLetterPolicy", "gcloud writes a dead-letter policy only with its topic; the command leaves it out")
		return
	}
	w.add("dead-letter-topic", *d.DeadLetterTopic)
	if d.MaxDeliveryAttempts != nil {
		w.add("max-delivery-attempts", strconv.Itoa(int(*d.MaxDeliveryAttempts)))
	}
}

func (w *writer) retry(r *subscription.RetryPolicy) {
	if r == nil {
		return
	}
	if r.MinimumBackoff == nil && r.MaximumBackoff == nil {
		w.note(diag.Warning, "/retryPolicy", "gcloud sends a retry policy only with a delay in it; the command leaves the empty policy out")
		return
	}
	if r.MinimumBackoff != nil {
		w.add("min-retry-delay", r.MinimumBackoff.String())
	}
	if r.MaximumBackoff != nil {
		w.add("max-retry-delay", r.MaximumBackoff.String())
	}
}

func (w *writer) push(p *subscription.PushConfig) {
	if p == nil {
		return
	}
	if p.PushEndpoint == nil || *p.PushEndpoint == "" {
		if p.OidcToken != nil || p.NoWrapper != nil || len(p.Attributes) > 0 {
			w.note(diag.Warning, "/pushConfig", "gcloud sends push settings only with an endpoint; the command leaves them out")
		}
		return
	}
	w.add("push-endpoint", *p.PushEndpoint)
	if t := p.OidcToken; t != nil {
		if t.ServiceAccountEmail != nil {
			w.add("push-auth-service-account", *t.ServiceAccountEmail)
			if t.Audience != nil {
				w.add("push-auth-token-audience", *t.Audience)
			}
		} else {
			w.note(diag.Warning, "/pushConfig/oidcToken", "gcloud sends an OIDC token only with its service account; the command leaves it out")
		}
	}
	if p.NoWrapper != nil {
		w.flags = append(w.flags, "--push-no-wrapper")
		if p.NoWrapper.WriteMetadata != nil && *p.NoWrapper.WriteMetadata {
			w.flags = append(w.flags, "--push-no-wrapper-write-metadata")
		}
	}
	if len(p.Attributes) > 0 {
		w.note(diag.Warning, "/pushConfig/attributes", "gcloud has no flag for push attributes; the command leaves them out")
	}
}

func (w *writer) bigquery(b *subscription.BigQueryConfig) {
	if b == nil {
		return
	}
	if b.Table == nil {
		w.note(diag.Warning, "/bigqueryConfig", "gcloud writes a BigQuery configuration only with its table; the command leaves it out")
		return
	}
	w.add("bigquery-table", *b.Table)
	w.bool("use-topic-schema", b.UseTopicSchema)
	w.bool("use-table-schema", b.UseTableSchema)
	w.bool("write-metadata", b.WriteMetadata)
	w.bool("drop-unknown-fields", b.DropUnknownFields)
	if b.ServiceAccountEmail != nil {
		w.add("bigquery-service-account-email", *b.ServiceAccountEmail)
	}
}

func (w *writer) storage(c *subscription.CloudStorageConfig) {
	if c == nil {
		return
	}
	if c.Bucket == nil {
		w.note(diag.Warning, "/cloudStorageConfig", "gcloud writes a Cloud Storage configuration only with its bucket; the command leaves it out")
		return
	}
	w.add("cloud-storage-bucket", *c.Bucket)
	for _, f := range []struct {
		flag string
		v    *string
	}{{"cloud-storage-file-prefix", c.FilenamePrefix}, {"cloud-storage-file-suffix", c.FilenameSuffix},
		{"cloud-storage-file-datetime-format", c.FilenameDatetimeFormat}, {"cloud-storage-service-account-email", c.ServiceAccountEmail}} {
		if f.v != nil {
			w.add(f.flag, *f.v)
		}
	}
	if c.MaxBytes != nil {
		w.add("cloud-storage-max-bytes", strconv.FormatInt(int64(*c.MaxBytes), 10)+"B")
	}
	if c.MaxDuration != nil {
		w.add("cloud-storage-max-duration", c.MaxDuration.String())
	}
	if c.MaxMessages != nil {
		w.add("cloud-storage-max-messages", strconv.FormatInt(int64(*c.MaxMessages), 10))
	}
	if a := c.AvroConfig; a != nil {
		w.add("cloud-storage-output-format", "avro")
		if a.WriteMetadata != nil && *a.WriteMetadata {
			w.flags = append(w.flags, "--cloud-storage-write-metadata")
		}
		if a.UseTopicSchema != nil && *a.UseTopicSchema {
			w.flags = append(w.flags, "--cloud-storage-use-topic-schema")
		}
	}
}

// command joins the flags into a command, one flag a line.
func (w *writer) command(verb, name string) Command {
	var b strings.Builder
	b.WriteString("gcloud pubsub subscriptions " + verb + " " + shellQuote(name))
	for _, f := range w.flags {
		b.WriteString(" \\\n  " + f)
	}
	b.WriteByte('\n')
	return Command{Text: b.String(), Files: w.files, Notes: w.notes}
}

// WriteUpdate writes the gcloud command that turns old into new: only
// the flags of the fields that change. Changes an update cannot make
// (name, topic, filter, ordering) are notes with severity error.
func WriteUpdate(old, new *subscription.Subscription) Command {
	w := &writer{}
	project, short := splitName(deref(new.Name), "subscriptions")
	if project != "" {
		w.add("project", project)
	}
	if deref(old.Name) != deref(new.Name) || deref(old.Topic) != deref(new.Topic) || deref(old.Filter) != deref(new.Filter) ||
		boolOf(old.EnableMessageOrdering) != boolOf(new.EnableMessageOrdering) {
		w.note(diag.Error, "", "an update cannot change the name, topic, filter or message ordering; create a new subscription instead")
	}
	diff := &subscription.Subscription{}
	same := func(a, b any) bool {
		x, _ := json.Marshal(a)
		y, _ := json.Marshal(b)
		return string(x) == string(y)
	}
	if !same(old.AckDeadlineSeconds, new.AckDeadlineSeconds) {
		if new.AckDeadlineSeconds == nil {
			w.add("ack-deadline", "10")
			w.note(diag.Info, "/ackDeadlineSeconds", "gcloud cannot unset the ack deadline; the command sets it to 10 seconds, the default")
		}
		diff.AckDeadlineSeconds = new.AckDeadlineSeconds
	}
	if !same(old.RetainAckedMessages, new.RetainAckedMessages) {
		diff.RetainAckedMessages = orFalse(new.RetainAckedMessages)
	}
	if !same(old.EnableExactlyOnceDelivery, new.EnableExactlyOnceDelivery) {
		diff.EnableExactlyOnceDelivery = orFalse(new.EnableExactlyOnceDelivery)
	}
	if !same(old.MessageRetentionDuration, new.MessageRetentionDuration) {
		if new.MessageRetentionDuration == nil {
			w.add("message-retention-duration", "default")
		}
		diff.MessageRetentionDuration = new.MessageRetentionDuration
	}
	if !same(old.ExpirationPolicy, new.ExpirationPolicy) {
		diff.ExpirationPolicy = new.ExpirationPolicy
		if new.ExpirationPolicy == nil {
			w.note(diag.Warning, "/expirationPolicy", "gcloud cannot unset the expiration policy; the command leaves it as it is")
		}
	}
	clear := func(changed bool, isNil bool, flag string) bool {
		if changed && isNil {
			w.flags = append(w.flags, "--"+flag)
		}
		return changed && !isNil
	}
	if clear(!same(old.DeadLetterPolicy, new.DeadLetterPolicy), new.DeadLetterPolicy == nil, "clear-dead-letter-policy") {
		diff.DeadLetterPolicy = new.DeadLetterPolicy
	}
	if clear(!same(old.RetryPolicy, new.RetryPolicy), new.RetryPolicy == nil, "clear-retry-policy") {
		diff.RetryPolicy = new.RetryPolicy
	}
	if !same(old.PushConfig, new.PushConfig) {
		if new.PushConfig == nil || new.PushConfig.PushEndpoint == nil || *new.PushConfig.PushEndpoint == "" {
			w.note(diag.Warning, "/pushConfig", "gcloud pubsub subscriptions update cannot turn push off; use gcloud pubsub subscriptions modify-push-config --push-endpoint=\"\"")
		} else {
			diff.PushConfig = new.PushConfig
		}
	}
	if clear(!same(old.BigQueryConfig, new.BigQueryConfig), new.BigQueryConfig == nil, "clear-bigquery-config") {
		diff.BigQueryConfig = new.BigQueryConfig
	}
	if clear(!same(old.CloudStorageConfig, new.CloudStorageConfig), new.CloudStorageConfig == nil, "clear-cloud-storage-config") {
		diff.CloudStorageConfig = new.CloudStorageConfig
	}
	if clear(!same(old.MessageTransforms, new.MessageTransforms), len(new.MessageTransforms) == 0, "clear-message-transforms") {
		diff.MessageTransforms = new.MessageTransforms
	}
	if !same(old.Labels, new.Labels) {
		w.updateLabels(old.Labels, new.Labels)
	}
	w.settings(diff, false)
	if len(w.flags) == 0 || len(w.flags) == 1 && project != "" {
		w.note(diag.Info, "", "nothing changes: the command has no flag to update")
	}
	return w.command("update", short)
}

func (w *writer) updateLabels(old, new map[string]string) {
	if len(new) == 0 {
		w.flags = append(w.flags, "--clear-labels")
		return
	}
	changed := map[string]string{}
	var removed []string
	for k, v := range new {
		if ov, ok := old[k]; !ok || ov != v {
			changed[k] = v
		}
	}
	for k := range old {
		if _, ok := new[k]; !ok {
			removed = append(removed, k)
		}
	}
	if len(changed) > 0 {
		w.labels("update-labels", "/labels", changed)
	}
	if len(removed) > 0 {
		sort.Strings(removed)
		w.add("remove-labels", strings.Join(removed, ","))
	}
}

func orFalse(b *bool) *bool {
	if b == nil {
		f := false
		return &f
	}
	return b
}

func boolOf(b *bool) bool { return b != nil && *b }

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// splitName splits projects/P/COLLECTION/ID into P and ID; a name of
// another form is returned whole as the ID.
func splitName(name, collection string) (project, id string) {
	rest, ok := strings.CutPrefix(name, "projects/")
	if !ok {
		return "", name
	}
	p, id, ok := strings.Cut(rest, "/"+collection+"/")
	if !ok || strings.Contains(p, "/") {
		return "", name
	}
	return p, id
}

// shellQuote quotes s for bash when it needs it: single quotes, with a
// single quote inside written as '\”.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@=,+%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
