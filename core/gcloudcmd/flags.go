package gcloudcmd

// The flags of `gcloud pubsub subscriptions create` and `update` in gcloud
// 528, in one table: the REST field each one sets, the kind of value it
// takes, and the bounds gcloud itself checks before sending anything.
// Bounds the API checks are the rule table's (core/subscription), not
// this table's: gcloud sends an ack deadline of 5 and the API refuses it.

// kind is how a flag's value is read.
type kind uint8

const (
	kString     kind = iota
	kBool            // store_true, with a --no- form
	kInt             // Python int(): sign allowed, no unit
	kDuration        // gcloud's duration: bare seconds, s/m/h/d/w, ISO 8601
	kExpiry          // a duration or "never"
	kRetention       // a duration; update also takes "default"
	kSize            // gcloud's binary size: KB = 1024 bytes, unit optional
	kLabels          // KEY=VALUE[,KEY=VALUE...]
	kTopic           // a topic name or projects/P/topics/T
	kProject         // the project of the topic flag named by for
	kFile            // a path to a JSON or YAML file, read from Request.Files
	kFormat          // text or avro (a list; the last one wins)
	kClear           // update only: clears the field at path
	kLabelsEdit      // update only: --update-labels, --remove-labels, --clear-labels
	kGlobal          // a gcloud-wide flag that changes nothing in the request
	kGlobalBool
)

// verb sets say which commands take a flag.
const (
	onCreate = 1 << iota
	onUpdate
	onBoth = onCreate | onUpdate
)

// flagSpec is one flag.
type flagSpec struct {
	name  string // without the leading --
	path  string // the REST field it sets (JSON pointer)
	kind  kind
	verbs uint8
	// lo and hi are the bounds gcloud checks client-side, in the value's
	// unit (seconds, bytes, count); set only when has says so.
	lo, hi    int64
	hasLo     bool
	hasHi     bool
	unit      string // default unit of a bare number (durations, sizes)
	loText    string // the bounds as gcloud's help writes them
	hiText    string
	needs     string // another flag this one is meaningless without
	forTopic  string // kProject: the kTopic flag it qualifies
	valueName string // kBool: the value written ("{}" for an empty message)
}

const (
	day  = 24 * 3600
	gib  = 1 << 30
	none = ""
)

var flagTable = []flagSpec{
	{name: "topic", path: "/topic", kind: kTopic, verbs: onCreate},
	{name: "topic-project", kind: kProject, verbs: onCreate, forTopic: "topic"},
	{name: "ack-deadline", path: "/ackDeadlineSeconds", kind: kInt, verbs: onBoth},
	{name: "enable-exactly-once-delivery", path: "/enableExactlyOnceDelivery", kind: kBool, verbs: onBoth},
	{name: "enable-message-ordering", path: "/enableMessageOrdering", kind: kBool, verbs: onCreate},
	{name: "expiration-period", path: "/expirationPolicy/ttl", kind: kExpiry, verbs: onBoth, unit: "s", lo: 0, hasLo: true, loText: "0"},
	{name: "labels", path: "/labels", kind: kLabels, verbs: onCreate},
	{name: "message-filter", path: "/filter", kind: kString, verbs: onCreate},
	{name: "message-retention-duration", path: "/messageRetentionDuration", kind: kRetention, verbs: onBoth, unit: "s",
		lo: 600, hi: 31 * day, hasLo: true, hasHi: true, loText: "10m", hiText: "31d"},
	{name: "message-transforms-file", path: "/messageTransforms", kind: kFile, verbs: onBoth},
	{name: "retain-acked-messages", path: "/retainAckedMessages", kind: kBool, verbs: onBoth},

	{name: "bigquery-table", path: "/bigqueryConfig/table", kind: kString, verbs: onBoth},
	{name: "bigquery-service-account-email", path: "/bigqueryConfig/serviceAccountEmail", kind: kString, verbs: onBoth, needs: "bigquery-table"},
	{name: "use-topic-schema", path: "/bigqueryConfig/useTopicSchema", kind: kBool, verbs: onBoth, needs: "bigquery-table"},
	{name: "use-table-schema", path: "/bigqueryConfig/useTableSchema", kind: kBool, verbs: onBoth, needs: "bigquery-table"},
	{name: "write-metadata", path: "/bigqueryConfig/writeMetadata", kind: kBool, verbs: onBoth, needs: "bigquery-table"},
	{name: "drop-unknown-fields", path: "/bigqueryConfig/dropUnknownFields", kind: kBool, verbs: onBoth, needs: "bigquery-table"},

	{name: "cloud-storage-bucket", path: "/cloudStorageConfig/bucket", kind: kString, verbs: onBoth},
	{name: "cloud-storage-file-prefix", path: "/cloudStorageConfig/filenamePrefix", kind: kString, verbs: onBoth, needs: "cloud-storage-bucket"},
	{name: "cloud-storage-file-suffix", path: "/cloudStorageConfig/filenameSuffix", kind: kString, verbs: onBoth, needs: "cloud-storage-bucket"},
	{name: "cloud-storage-file-datetime-format", path: "/cloudStorageConfig/filenameDatetimeFormat", kind: kString, verbs: onBoth, needs: "cloud-storage-bucket"},
	{name: "cloud-storage-max-bytes", path: "/cloudStorageConfig/maxBytes", kind: kSize, verbs: onBoth, needs: "cloud-storage-bucket",
		unit: "KB", lo: 1000, hi: 10 * gib, hasLo: true, hasHi: true, loText: "1000B", hiText: "10GB"},
	{name: "cloud-storage-max-duration", path: "/cloudStorageConfig/maxDuration", kind: kDuration, verbs: onBoth, needs: "cloud-storage-bucket",
		unit: "s", lo: 60, hi: 600, hasLo: true, hasHi: true, loText: "1m", hiText: "10m"},
	{name: "cloud-storage-max-messages", path: "/cloudStorageConfig/maxMessages", kind: kInt, verbs: onBoth, needs: "cloud-storage-bucket",
		lo: 1000, hasLo: true, loText: "1000"},
	{name: "cloud-storage-output-format", kind: kFormat, verbs: onBoth, needs: "cloud-storage-bucket"},
	{name: "cloud-storage-use-topic-schema", path: "/cloudStorageConfig/avroConfig/useTopicSchema", kind: kBool, verbs: onBoth, needs: "cloud-storage-bucket"},
	{name: "cloud-storage-write-metadata", path: "/cloudStorageConfig/avroConfig/writeMetadata", kind: kBool, verbs: onBoth, needs: "cloud-storage-bucket"},
	{name: "cloud-storage-service-account-email", path: "/cloudStorageConfig/serviceAccountEmail", kind: kString, verbs: onBoth, needs: "cloud-storage-bucket"},

	{name: "dead-letter-topic", path: "/deadLetterPolicy/deadLetterTopic", kind: kTopic, verbs: onBoth},
	{name: "dead-letter-topic-project", kind: kProject, verbs: onBoth, forTopic: "dead-letter-topic"},
	{name: "max-delivery-attempts", path: "/deadLetterPolicy/maxDeliveryAttempts", kind: kInt, verbs: onBoth, needs: "dead-letter-topic",
		lo: 5, hi: 100, hasLo: true, hasHi: true, loText: "5", hiText: "100"},
	{name: "min-retry-delay", path: "/retryPolicy/minimumBackoff", kind: kDuration, verbs: onBoth,
		unit: "s", lo: 0, hi: 600, hasLo: true, hasHi: true, loText: "0s", hiText: "600s"},
	{name: "max-retry-delay", path: "/retryPolicy/maximumBackoff", kind: kDuration, verbs: onBoth,
		unit: "s", lo: 0, hi: 600, hasLo: true, hasHi: true, loText: "0s", hiText: "600s"},

	{name: "push-endpoint", path: "/pushConfig/pushEndpoint", kind: kString, verbs: onBoth},
	{name: "push-auth-service-account", path: "/pushConfig/oidcToken/serviceAccountEmail", kind: kString, verbs: onBoth},
	{name: "push-auth-token-audience", path: "/pushConfig/oidcToken/audience", kind: kString, verbs: onBoth},
	{name: "push-no-wrapper", path: "/pushConfig/noWrapper", kind: kBool, verbs: onBoth, needs: "push-endpoint"},
	{name: "push-no-wrapper-write-metadata", path: "/pushConfig/noWrapper/writeMetadata", kind: kBool, verbs: onBoth, needs: "push-no-wrapper"},

	{name: "clear-dead-letter-policy", path: "/deadLetterPolicy", kind: kClear, verbs: onUpdate},
	{name: "clear-retry-policy", path: "/retryPolicy", kind: kClear, verbs: onUpdate},
	{name: "clear-bigquery-config", path: "/bigqueryConfig", kind: kClear, verbs: onUpdate},
	{name: "clear-cloud-storage-config", path: "/cloudStorageConfig", kind: kClear, verbs: onUpdate},
	{name: "clear-push-no-wrapper-config", path: "/pushConfig/noWrapper", kind: kClear, verbs: onUpdate},
	{name: "clear-message-transforms", path: "/messageTransforms", kind: kClear, verbs: onUpdate},
	{name: "update-labels", path: "/labels", kind: kLabelsEdit, verbs: onUpdate},
	{name: "remove-labels", path: "/labels", kind: kLabelsEdit, verbs: onUpdate},
	{name: "clear-labels", path: "/labels", kind: kLabelsEdit, verbs: onUpdate},

	// gcloud-wide flags: accepted anywhere, nothing in the request.
	{name: "project", kind: kGlobal, verbs: onBoth},
	{name: "billing-project", kind: kGlobal, verbs: onBoth},
	{name: "account", kind: kGlobal, verbs: onBoth},
	{name: "configuration", kind: kGlobal, verbs: onBoth},
	{name: "format", kind: kGlobal, verbs: onBoth},
	{name: "verbosity", kind: kGlobal, verbs: onBoth},
	{name: "impersonate-service-account", kind: kGlobal, verbs: onBoth},
	{name: "trace-token", kind: kGlobal, verbs: onBoth},
	{name: "flatten", kind: kGlobal, verbs: onBoth},
	{name: "access-token-file", kind: kGlobal, verbs: onBoth},
	{name: "quiet", kind: kGlobalBool, verbs: onBoth},
	{name: "log-http", kind: kGlobalBool, verbs: onBoth},
	{name: "user-output-enabled", kind: kGlobalBool, verbs: onBoth},
	{name: "no-user-output-enabled", kind: kGlobalBool, verbs: onBoth},
	{name: "help", kind: kGlobalBool, verbs: onBoth},
}

var flagByName = func() map[string]*flagSpec {
	m := make(map[string]*flagSpec, len(flagTable))
	for i := range flagTable {
		m[flagTable[i].name] = &flagTable[i]
	}
	return m
}()

// takesValue reports whether the flag reads the next word (or "=value").
func (f *flagSpec) takesValue() bool {
	switch f.kind {
	case kBool, kClear, kGlobalBool:
		return false
	case kLabelsEdit:
		return f.name != "clear-labels"
	}
	return true
}
