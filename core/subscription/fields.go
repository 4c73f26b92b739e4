package subscription

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/subplay/subplay/core/filter"
	"github.com/subplay/subplay/core/storage"
)

// Kind is the JSON type of a field.
type Kind string

const (
	KindString   Kind = "string"
	KindBool     Kind = "boolean"
	KindInt32    Kind = "int32"
	KindInt64    Kind = "int64"
	KindDuration Kind = "duration"
	KindBytes    Kind = "bytes" // base64 in JSON; bounds count decoded bytes
	KindMap      Kind = "map"
	KindObject   Kind = "object"
	KindArray    Kind = "array"
)

// Field is one row of the rule table: everything subplay knows about a
// property. Validation reads its bounds, the effective settings are filled
// from its default, and the page shows its help; nothing restates them.
type Field struct {
	Path string `json:"path"` // JSON pointer; "*" stands for any array index
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
	// Default is the value the service uses when the field is absent, in
	// REST form (JSON for maps, "{}" for an empty message); DefaultText says
	// it for people when the value alone does not (or when the default is
	// not a fixed value).
	Default     string `json:"default,omitempty"`
	DefaultText string `json:"defaultText,omitempty"`
	// Min and Max bound the value (REST form for durations). For strings
	// Max is a length in bytes; for maps a number of entries.
	Min  string   `json:"min,omitempty"`
	Max  string   `json:"max,omitempty"`
	Unit string   `json:"unit,omitempty"`
	Enum []string `json:"enum,omitempty"`
	// ZeroMeansDefault marks integer fields where 0 stands for "unset"
	// (proto3 scalars): 0 is valid and means the default.
	ZeroMeansDefault bool `json:"zeroMeansDefault,omitempty"`
	// Required when the enclosing object is present.
	Required   bool `json:"required,omitempty"`
	OutputOnly bool `json:"outputOnly,omitempty"`
	InputOnly  bool `json:"inputOnly,omitempty"`
	// Immutable fields cannot change in an update.
	Immutable bool `json:"immutable,omitempty"`
	// Delivery is the delivery type the field belongs to, if only one.
	Delivery DeliveryType `json:"delivery,omitempty"`
	Help     string       `json:"help"`
	Source   string       `json:"source"`

	// emptyDefault marks a string whose default is "" (Default cannot say
	// it). onlyWithParent: the default applies only when the enclosing
	// object is absent, which it then stands for (a present expiration
	// policy without ttl means "never"). oneof names the group of sibling
	// fields of which at most one is set: an object default applies only
	// when none of them is.
	emptyDefault   bool
	onlyWithParent bool
	oneof          string

	// Parsed once by newTable: def is the default as the model holds it
	// (int64, bool, string, Duration, map[string]string or struct{}).
	def        any
	minD, maxD *Duration
	minI, maxI *int64
}

// Sources named in the table (see reference/rules.md for the full keys).
const (
	srcProto = "pubsub.proto (googleapis)"
	srcSeeds = "subscription properties page"
	srcTF    = "Terraform google provider"
	srcGC    = "gcloud"
)

// rows is the rule table as written, in the order the page shows it. Help
// and DefaultText name numbers only through placeholders (see expand), so
// every default and bound is written once, in its own column.
var rows = []Field{
	{Path: "/name", Kind: KindString, Immutable: true,
		Help:   "Full resource name: projects/PROJECT/subscriptions/ID. The ID is " + idLength + " characters, starts with a letter and cannot start with goog.",
		Source: srcProto},
	{Path: "/topic", Kind: KindString, Required: true, Immutable: true,
		Help:   "The topic this subscription reads from, as projects/PROJECT/topics/ID. It cannot be changed later.",
		Source: srcProto},
	{Path: "/ackDeadlineSeconds", Kind: KindInt32, Default: "10", Min: "10", Max: "600", Unit: "seconds", ZeroMeansDefault: true,
		Help:   "How long a subscriber has to acknowledge a message before it is sent again. For push, also how long Pub/Sub waits for the endpoint to answer.",
		Source: srcProto + "; " + srcSeeds},
	{Path: "/retainAckedMessages", Kind: KindBool, Default: "false",
		Help:   "Keep acknowledged messages for the retention period too, so you can seek back and replay them. Costs storage.",
		Source: srcProto + "; " + srcSeeds},
	{Path: "/messageRetentionDuration", Kind: KindDuration, Default: "604800s", Min: "600s", Max: "2678400s",
		Help:   "How long unacknowledged messages (and acknowledged ones, if retained) are kept: {min} to {max}.",
		Source: srcProto + "; " + srcSeeds + " (D1)"},
	{Path: "/labels", Kind: KindMap, Max: "64", Unit: "labels",
		Help:   "Key/value labels for billing and organisation: lowercase keys of up to " + strconv.Itoa(labelMaxChars) + " characters starting with a letter.",
		Source: "Google Cloud label rules; " + srcGC},
	{Path: "/enableMessageOrdering", Kind: KindBool, Default: "false", Immutable: true,
		Help:   "Deliver messages that share an ordering key in the order Pub/Sub received them. Set only when the subscription is created.",
		Source: srcProto + "; " + srcSeeds},
	{Path: "/expirationPolicy", Kind: KindObject, DefaultText: "expires after {/expirationPolicy/ttl:default} without activity",
		Help:   "When an idle subscription is deleted. Present without ttl, the subscription never expires.",
		Source: srcProto + "; " + srcSeeds},
	{Path: "/expirationPolicy/ttl", Kind: KindDuration, Default: "2678400s", DefaultText: "{default} when the policy is absent; never when the policy is present without ttl", Min: "86400s",
		onlyWithParent: true,
		Help:           "Idle time after which the subscription is deleted: at least {min}, and at least the message retention duration.",
		Source:         srcProto + "; " + srcSeeds + " (D2)"},
	{Path: "/filter", Kind: KindString, emptyDefault: true, DefaultText: "no filter: every message is delivered", Max: strconv.Itoa(filter.MaxBytes), Unit: "bytes", Immutable: true,
		Help:   "Only messages whose attributes match are delivered; the rest are acknowledged automatically. Cannot be changed after creation.",
		Source: srcProto + "; " + srcSeeds + "; filtering page"},
	{Path: "/deadLetterPolicy", Kind: KindObject, DefaultText: "no dead-letter topic",
		Help:   "Forward messages that could not be delivered after some attempts to another topic instead of retrying forever.",
		Source: srcProto + "; " + srcSeeds},
	{Path: "/deadLetterPolicy/deadLetterTopic", Kind: KindString, Required: true,
		Help:   "The topic that receives undeliverable messages, as projects/PROJECT/topics/ID. The Pub/Sub service agent needs permission to publish to it.",
		Source: srcProto},
	{Path: "/deadLetterPolicy/maxDeliveryAttempts", Kind: KindInt32, Default: "5", Min: "5", Max: "100", Unit: "attempts", ZeroMeansDefault: true,
		Help:   "Delivery attempts before a message goes to the dead-letter topic: {min} to {max}.",
		Source: srcProto + "; " + srcSeeds},
	{Path: "/retryPolicy", Kind: KindObject, DefaultText: "retry at once: redeliver as soon as the ack deadline passes or a message is nacked",
		Help:   "Wait with exponential backoff between redeliveries instead of retrying at once.",
		Source: srcProto + "; " + srcSeeds},
	{Path: "/retryPolicy/minimumBackoff", Kind: KindDuration, Default: "10s", Min: "0s", Max: "600s",
		Help:   "The first, shortest wait before a redelivery: {min} to {max}.",
		Source: srcProto + "; " + srcSeeds},
	{Path: "/retryPolicy/maximumBackoff", Kind: KindDuration, Default: "600s", Min: "0s", Max: "600s",
		Help:   "The longest wait between redeliveries: {min} to {max}, and not below minimumBackoff.",
		Source: srcProto + "; " + srcSeeds},
	{Path: "/detached", Kind: KindBool, Default: "false",
		Help:   "A detached subscription is cut off from its topic: pulls fail and pushes stop. Set by the detach call.",
		Source: srcProto},
	{Path: "/enableExactlyOnceDelivery", Kind: KindBool, Default: "false", Delivery: Pull,
		Help:   "Guarantee that an acknowledged message is not redelivered. Pull subscriptions only.",
		Source: srcProto + "; " + srcSeeds + " (D9)"},
	{Path: "/messageTransforms", Kind: KindArray, Max: "5", Unit: "transforms",
		Help:   "Single message transforms applied in order before delivery: a JavaScript function, compression, or an AI inference call. At most {max} may be enabled.",
		Source: srcProto + "; SMT pages"},
	{Path: "/messageTransforms/*/javascriptUdf", Kind: KindObject,
		Help: "A JavaScript function that rewrites or drops each message.", Source: srcProto},
	{Path: "/messageTransforms/*/javascriptUdf/functionName", Kind: KindString, Required: true,
		Help: "The name of the function in code to call for each message; unique among the transforms.", Source: srcProto},
	{Path: "/messageTransforms/*/javascriptUdf/code", Kind: KindString, Required: true,
		Help: "JavaScript source that defines function <functionName>(message, metadata); return null to drop the message.", Source: srcProto + "; UDF overview"},
	{Path: "/messageTransforms/*/compression", Kind: KindObject,
		Help: "Compress or decompress message data.", Source: srcProto},
	{Path: "/messageTransforms/*/compression/compressionAlgorithm", Kind: KindString, Required: true, Enum: []string{"ZLIB", "ZSTD"},
		Help: "The compression algorithm.", Source: srcProto},
	{Path: "/messageTransforms/*/compression/compressionMode", Kind: KindString, Required: true, Enum: []string{"COMPRESS", "DECOMPRESS"},
		Help: "Whether to compress or to decompress.", Source: srcProto},
	{Path: "/messageTransforms/*/aiInference", Kind: KindObject,
		Help: "Send each message to a Vertex AI endpoint or model and deliver the answer.", Source: srcProto},
	{Path: "/messageTransforms/*/aiInference/endpoint", Kind: KindString, Required: true,
		Help: "projects/*/locations/*/endpoints/* or projects/*/locations/*/publishers/*/models/*.", Source: srcProto},
	{Path: "/messageTransforms/*/aiInference/unstructuredInference", Kind: KindObject,
		Help: "Free-form parameters passed to the model.", Source: srcProto},
	{Path: "/messageTransforms/*/aiInference/serviceAccountEmail", Kind: KindString, DefaultText: "the Pub/Sub service agent",
		Help: "The service account that calls the endpoint.", Source: srcProto},
	{Path: "/messageTransforms/*/disabled", Kind: KindBool, Default: "false",
		Help: "Skip this transform without removing it.", Source: srcProto},
	{Path: "/messageTransforms/*/enabled", Kind: KindBool,
		Help: "Deprecated: use disabled.", Source: srcProto},
	{Path: "/tags", Kind: KindMap, InputOnly: true, Immutable: true,
		Help: "Resource Manager tags bound at creation, e.g. \"123/environment\": \"production\". Not returned by reads.", Source: srcProto},

	// Push delivery.
	{Path: "/pushConfig", Kind: KindObject, Delivery: Push,
		Help: "Push delivery: Pub/Sub sends each message to an HTTPS endpoint. Without an endpoint, the subscription is a pull subscription.", Source: srcProto + "; " + srcSeeds},
	{Path: "/pushConfig/pushEndpoint", Kind: KindString, Delivery: Push,
		Help: "The public HTTPS URL Pub/Sub posts messages to. Its certificate must be valid.", Source: srcProto + "; " + srcSeeds},
	{Path: "/pushConfig/attributes", Kind: KindMap, Delivery: Push, Default: `{"x-goog-version":"v1"}`, DefaultText: "the version of the API that created the subscription",
		Enum: []string{"v1beta1", "v1", "v1beta2"}, // the values of x-goog-version, the one key
		Help: "Endpoint attributes. Only x-goog-version is supported ({enum}): it sets the format of pushed requests.", Source: srcProto},
	{Path: "/pushConfig/oidcToken", Kind: KindObject, Delivery: Push,
		Help: "Attach an OIDC token to each push request so the endpoint can authenticate Pub/Sub.", Source: srcProto + "; " + srcSeeds},
	{Path: "/pushConfig/oidcToken/serviceAccountEmail", Kind: KindString, Delivery: Push,
		Help: "The service account the token is issued for, in the subscription's own project. Whoever creates the subscription needs iam.serviceAccounts.actAs on it.", Source: srcProto + "; " + srcSeeds + " (D17)"},
	{Path: "/pushConfig/oidcToken/audience", Kind: KindString, Delivery: Push, DefaultText: "the push endpoint URL",
		Help: "The aud claim of the token: one string the endpoint checks, compared without regard to case.", Source: srcProto + "; " + srcSeeds + " (D17)"},
	{Path: "/pushConfig/pubsubWrapper", Kind: KindObject, Delivery: Push, Default: "{}", DefaultText: "used when neither wrapper is set", oneof: "wrapper",
		Help: "Send the message wrapped in a JSON envelope with its attributes and metadata.", Source: srcProto},
	{Path: "/pushConfig/noWrapper", Kind: KindObject, Delivery: Push, oneof: "wrapper",
		Help: "Send the message data as the raw HTTP body (payload unwrapping).", Source: srcProto + "; " + srcSeeds},
	{Path: "/pushConfig/noWrapper/writeMetadata", Kind: KindBool, Delivery: Push, Default: "false",
		Help: "With an unwrapped payload, send attributes and metadata as x-goog-pubsub-* HTTP headers.", Source: srcProto + "; " + srcSeeds},

	// BigQuery export.
	{Path: "/bigqueryConfig", Kind: KindObject, Delivery: BigQuery,
		Help: "Write each message as a row of a BigQuery table.", Source: srcProto + "; " + srcSeeds},
	{Path: "/bigqueryConfig/table", Kind: KindString, Required: true, Delivery: BigQuery,
		Help: "The table, as PROJECT.DATASET.TABLE (dots, not a colon).", Source: srcProto + " (D3)"},
	{Path: "/bigqueryConfig/useTopicSchema", Kind: KindBool, Default: "false", Delivery: BigQuery,
		Help: "Map the fields of the topic's schema to columns of the same name. Excludes useTableSchema.", Source: srcProto + "; " + srcSeeds},
	{Path: "/bigqueryConfig/useTableSchema", Kind: KindBool, Default: "false", Delivery: BigQuery,
		Help: "Map the fields of JSON messages to the table's columns of the same name. Excludes useTopicSchema.", Source: srcProto + "; " + srcSeeds},
	{Path: "/bigqueryConfig/writeMetadata", Kind: KindBool, Default: "false", Delivery: BigQuery,
		Help: "Also write subscription_name, message_id, publish_time and attributes columns.", Source: srcProto + "; " + srcSeeds},
	{Path: "/bigqueryConfig/dropUnknownFields", Kind: KindBool, Default: "false", Delivery: BigQuery,
		Help: "With a schema option, drop message fields the table has no column for instead of leaving those messages in the backlog.", Source: srcProto + "; " + srcSeeds},
	{Path: "/bigqueryConfig/serviceAccountEmail", Kind: KindString, Delivery: BigQuery, DefaultText: "the Pub/Sub service agent, service-PROJECT_NUMBER@gcp-sa-pubsub.iam.gserviceaccount.com",
		Help: "The account that writes to the table. Whoever sets it needs iam.serviceAccounts.actAs on it.", Source: srcProto + "; " + srcSeeds},
	{Path: "/bigqueryConfig/state", Kind: KindString, OutputOnly: true, Delivery: BigQuery, Enum: []string{"STATE_UNSPECIFIED", "ACTIVE", "PERMISSION_DENIED", "NOT_FOUND", "SCHEMA_MISMATCH", "IN_TRANSIT_LOCATION_RESTRICTION", "VERTEX_AI_LOCATION_RESTRICTION"},
		Help: "Whether the service can write to the table; set by Pub/Sub.", Source: srcProto},

	// Cloud Storage export.
	{Path: "/cloudStorageConfig", Kind: KindObject, Delivery: CloudStorage,
		Help: "Write batches of messages as objects in a Cloud Storage bucket.", Source: srcProto + "; " + srcSeeds},
	{Path: "/cloudStorageConfig/bucket", Kind: KindString, Required: true, Delivery: CloudStorage,
		Help: "The bucket name, without gs://. The bucket must exist and must not have Requester Pays enabled.", Source: srcProto + "; " + srcSeeds},
	{Path: "/cloudStorageConfig/filenamePrefix", Kind: KindString, Delivery: CloudStorage,
		Help: "Text at the start of every object name; a / in it makes folders.", Source: srcProto + "; " + srcSeeds},
	{Path: "/cloudStorageConfig/filenameSuffix", Kind: KindString, Delivery: CloudStorage,
		Help: "Text at the end of every object name, such as .txt. It cannot end with /.", Source: srcProto + "; " + srcSeeds},
	{Path: "/cloudStorageConfig/filenameDatetimeFormat", Kind: KindString, Delivery: CloudStorage, Default: storage.DefaultFormat,
		Help: "How the UTC creation time appears in object names, built from YYYY or YY, MM, DD, hh, mm, ss, optional T and Z or +00:00, and - _ : /.", Source: srcSeeds + " (D12)"},
	{Path: "/cloudStorageConfig/textConfig", Kind: KindObject, Delivery: CloudStorage, Default: "{}", DefaultText: "text output when avroConfig is absent", oneof: "output_format",
		Help: "Write message data as text, one message per line, without attributes or metadata.", Source: srcProto + "; " + srcSeeds},
	{Path: "/cloudStorageConfig/avroConfig", Kind: KindObject, Delivery: CloudStorage, oneof: "output_format",
		Help: "Write messages as Avro records.", Source: srcProto + "; " + srcSeeds},
	{Path: "/cloudStorageConfig/avroConfig/writeMetadata", Kind: KindBool, Default: "false", Delivery: CloudStorage,
		Help: "Add subscription_name, message_id, publish_time and attributes to each Avro record.", Source: srcProto + "; " + srcSeeds},
	{Path: "/cloudStorageConfig/avroConfig/useTopicSchema", Kind: KindBool, Default: "false", Delivery: CloudStorage,
		Help: "Write records in the topic's Avro schema instead of the generic message schema.", Source: srcProto + "; " + srcSeeds},
	{Path: "/cloudStorageConfig/maxDuration", Kind: KindDuration, Default: "300s", Min: "60s", Max: "600s", Delivery: CloudStorage,
		Help: "The longest a file stays open before a new one is started: {min} to {max}.", Source: srcProto + "; " + srcSeeds + "; " + srcGC},
	{Path: "/cloudStorageConfig/maxBytes", Kind: KindInt64, Min: "1000", Max: "10737418240", Unit: "bytes", Delivery: CloudStorage, DefaultText: "no size limit", ZeroMeansDefault: true,
		Help: "Start a new file once this many bytes are written: {min} to {max}. A single larger message still makes a larger file.", Source: srcProto + "; " + srcSeeds + " (D7, D14)"},
	{Path: "/cloudStorageConfig/maxMessages", Kind: KindInt64, Min: "1000", Unit: "messages", Delivery: CloudStorage, DefaultText: "no message limit", ZeroMeansDefault: true,
		Help: "Start a new file once this many messages are written: at least {min}.", Source: srcProto + "; " + srcSeeds + "; " + srcGC + " (D14)"},
	{Path: "/cloudStorageConfig/serviceAccountEmail", Kind: KindString, Delivery: CloudStorage, DefaultText: "the Pub/Sub service agent, service-PROJECT_NUMBER@gcp-sa-pubsub.iam.gserviceaccount.com",
		Help: "The account that writes to the bucket. Whoever sets it needs iam.serviceAccounts.actAs on it.", Source: srcProto + "; " + srcSeeds},
	{Path: "/cloudStorageConfig/state", Kind: KindString, OutputOnly: true, Delivery: CloudStorage, Enum: []string{"STATE_UNSPECIFIED", "ACTIVE", "PERMISSION_DENIED", "NOT_FOUND", "SCHEMA_MISMATCH", "IN_TRANSIT_LOCATION_RESTRICTION", "VERTEX_AI_LOCATION_RESTRICTION"},
		Help: "Whether the service can write to the bucket; set by Pub/Sub.", Source: srcProto},

	// Bigtable export: recognised so a pasted configuration reads cleanly.
	{Path: "/bigtableConfig", Kind: KindObject, Delivery: Bigtable,
		Help: "Write each message as a row of a Bigtable table.", Source: srcProto},
	{Path: "/bigtableConfig/table", Kind: KindString, Required: true, Delivery: Bigtable,
		Help: "projects/PROJECT/instances/INSTANCE/tables/TABLE.", Source: srcProto},
	{Path: "/bigtableConfig/appProfileId", Kind: KindString, Delivery: Bigtable, DefaultText: "the instance's default app profile",
		Help: "The app profile used for writes.", Source: srcProto},
	{Path: "/bigtableConfig/serviceAccountEmail", Kind: KindString, Delivery: Bigtable, DefaultText: "the Pub/Sub service agent",
		Help: "The account that writes to the table.", Source: srcProto},
	{Path: "/bigtableConfig/writeMetadata", Kind: KindBool, Default: "false", Delivery: Bigtable,
		Help: "Also write the message metadata.", Source: srcProto},
	{Path: "/bigtableConfig/columnFamilyMapping", Kind: KindObject, Delivery: Bigtable,
		DefaultText: "row key from the subscription name, a hash of the message ID and the message ID; data in the data column family",
		Help:        "Build row keys and columns from the fields of JSON messages.", Source: srcProto},
	{Path: "/bigtableConfig/columnFamilyMapping/rowKeySchema", Kind: KindObject, Delivery: Bigtable, oneof: "key_definition",
		Help: "Build the row key from the table's structured row key, reading the message fields of the same names.", Source: srcProto},
	{Path: "/bigtableConfig/columnFamilyMapping/delimitedKey", Kind: KindObject, Delivery: Bigtable, oneof: "key_definition",
		Help: "Build the row key by joining top-level message fields.", Source: srcProto},
	{Path: "/bigtableConfig/columnFamilyMapping/delimitedKey/keyFields", Kind: KindArray, Required: true, Delivery: Bigtable,
		Help: "The top-level message fields joined into the row key, in order.", Source: srcProto},
	{Path: "/bigtableConfig/columnFamilyMapping/delimitedKey/delimiter", Kind: KindBytes, Min: "1", Max: "50", Unit: "bytes", Delivery: Bigtable,
		Help: "The bytes between the key fields, base64-encoded; needed when there are several key fields.", Source: srcProto},
	{Path: "/bigtableConfig/state", Kind: KindString, OutputOnly: true, Delivery: Bigtable, Enum: []string{"STATE_UNSPECIFIED", "ACTIVE", "PERMISSION_DENIED", "NOT_FOUND", "SCHEMA_MISMATCH", "IN_TRANSIT_LOCATION_RESTRICTION", "VERTEX_AI_LOCATION_RESTRICTION", "APP_PROFILE_MISCONFIGURED"},
		Help: "Whether the service can write to the table; set by Pub/Sub.", Source: srcProto},

	// Output only.
	{Path: "/topicMessageRetentionDuration", Kind: KindDuration, OutputOnly: true,
		Help: "The topic's own retention, reported by the service.", Source: srcProto},
	{Path: "/state", Kind: KindString, OutputOnly: true, Enum: []string{"STATE_UNSPECIFIED", "ACTIVE", "RESOURCE_ERROR"},
		Help: "Whether the subscription can receive messages; set by Pub/Sub.", Source: srcProto},
	{Path: "/analyticsHubSubscriptionInfo", Kind: KindObject, OutputOnly: true,
		Help: "Set when the subscription was created through Analytics Hub.", Source: srcProto},
}

// Table is a rule table with its defaults and bounds parsed. Validation,
// the effective settings and the help all read one Table; the package's is
// Rules(), and tests build others from changed rows.
type Table struct {
	fields []*Field
	byPath map[string]*Field
}

var rules = mustTable(rows)

func mustTable(rs []Field) *Table {
	t, err := newTable(rs)
	if err != nil {
		panic("subscription: " + err.Error())
	}
	return t
}

// newTable copies the rows, parses their defaults and bounds, and expands
// the placeholders of their texts.
func newTable(rs []Field) (*Table, error) {
	t := &Table{fields: make([]*Field, len(rs)), byPath: make(map[string]*Field, len(rs))}
	for i := range rs {
		f := rs[i] // a copy: the rows stay as written
		f.Name = f.Path[strings.LastIndexByte(f.Path, '/')+1:]
		if _, dup := t.byPath[f.Path]; dup {
			return nil, errors.New("field listed twice: " + f.Path)
		}
		if err := f.parse(); err != nil {
			return nil, errors.New(f.Path + ": " + err.Error())
		}
		t.fields[i] = &f
		t.byPath[f.Path] = &f
	}
	for _, f := range t.fields {
		var err error
		if f.Help, err = t.expand(f, f.Help); err == nil {
			f.DefaultText, err = t.expand(f, f.DefaultText)
		}
		if err != nil {
			return nil, errors.New(f.Path + ": " + err.Error())
		}
	}
	return t, nil
}

func (f *Field) parse() error {
	var err error
	switch f.Kind {
	case KindDuration:
		if f.minD, err = optDuration(f.Min); err == nil {
			f.maxD, err = optDuration(f.Max)
		}
	case KindInt32, KindInt64, KindString, KindBytes, KindMap, KindArray:
		if f.minI, err = optInt(f.Min); err == nil {
			f.maxI, err = optInt(f.Max)
		}
	}
	if err != nil || (f.Default == "" && !f.emptyDefault) {
		return err
	}
	switch f.Kind {
	case KindDuration:
		var d Duration
		d, err = ParseDuration(f.Default)
		f.def = d
	case KindInt32, KindInt64:
		var v int64
		v, err = strconv.ParseInt(f.Default, 10, 64)
		f.def = v
	case KindBool:
		var v bool
		v, err = strconv.ParseBool(f.Default)
		f.def = v
	case KindString:
		f.def = f.Default
	case KindMap:
		var m map[string]string
		err = json.Unmarshal([]byte(f.Default), &m)
		f.def = m
	case KindObject:
		if f.Default != "{}" {
			err = errors.New("an object default can only be {}")
		}
		f.def = struct{}{}
	default:
		err = errors.New("no default can be given for a " + string(f.Kind))
	}
	if err != nil {
		return errors.New("bad default " + strconv.Quote(f.Default) + ": " + err.Error())
	}
	return nil
}

func optDuration(s string) (*Duration, error) {
	if s == "" {
		return nil, nil
	}
	d, err := ParseDuration(s)
	if err != nil {
		return nil, errors.New("bad duration bound " + strconv.Quote(s))
	}
	return &d, nil
}

func optInt(s string) (*int64, error) {
	if s == "" {
		return nil, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil, errors.New("bad bound " + strconv.Quote(s))
	}
	return &v, nil
}

// expand fills the placeholders of a help text: {default}, {min}, {max}
// and {enum} of the row itself, or {PATH:default} (likewise min, max) of another row,
// each written for people ("7 days", "10 GiB").
func (t *Table) expand(f *Field, s string) (string, error) {
	var b strings.Builder
	for {
		open := strings.IndexByte(s, '{')
		if open < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		end := strings.IndexByte(s[open:], '}')
		if end < 0 {
			return "", errors.New("unclosed placeholder in " + strconv.Quote(s))
		}
		b.WriteString(s[:open])
		name := s[open+1 : open+end]
		row := f
		if path, what, ok := strings.Cut(name, ":"); ok {
			if row = t.byPath[path]; row == nil {
				return "", errors.New("placeholder names no field: " + name)
			}
			name = what
		}
		v, err := row.human(name)
		if err != nil {
			return "", err
		}
		b.WriteString(v)
		s = s[open+end+1:]
	}
}

// human writes the default, min or max of f for people.
func (f *Field) human(which string) (string, error) {
	raw := map[string]string{"default": f.Default, "min": f.Min, "max": f.Max, "enum": strings.Join(f.Enum, ", ")}[which]
	if raw == "" {
		return "", errors.New(f.Path + " has no " + which + " for a placeholder")
	}
	switch {
	case f.Kind == KindDuration:
		d, _ := ParseDuration(raw)
		return d.Long(), nil
	case f.Unit == "bytes":
		n, _ := strconv.ParseInt(raw, 10, 64)
		return byteSize(n), nil
	}
	return raw, nil
}

// byteSize writes a byte count in the largest unit that divides it: 1 KB
// is 1000 bytes, 1 KiB 1024 (the Cloud Storage limits use both).
func byteSize(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1e9, "GB"}, {1 << 20, "MiB"}, {1e6, "MB"}, {1 << 10, "KiB"}, {1e3, "KB"}} {
		if n >= u.size && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + " " + u.name
		}
	}
	if n == 1 {
		return "1 byte"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// decodedLen is the length of a base64 value as the JSON mapping of bytes
// reads it (standard or URL alphabet, padded or not), or -1.
func decodedLen(s string) int {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return len(b)
		}
	}
	return -1
}

// defaultDuration returns the parsed default of a duration row.
func (t *Table) defaultDuration(path string) Duration { return t.byPath[path].def.(Duration) }

func (t *Table) defaultString(path string) string { return t.byPath[path].def.(string) }

// Rules returns the package's rule table.
func Rules() *Table { return rules }

// Fields returns the rows of t, in display order. Callers must not modify them.
func (t *Table) Fields() []*Field { return t.fields }

// At returns the row for a JSON pointer (array indexes and map keys are
// matched), or nil.
func (t *Table) At(path string) *Field {
	if f, ok := t.byPath[path]; ok {
		return f
	}
	// Replace array indexes by "*", then try dropping a trailing map key.
	g := genericPath(path)
	if f, ok := t.byPath[g]; ok {
		return f
	}
	if f, ok := t.byPath[parentOf(g)]; ok && f.Kind == KindMap {
		return f
	}
	return nil
}

// Fields returns the rule table, in display order. Callers must not modify it.
func Fields() []*Field { return rules.fields }

// FieldAt returns the row of the rule table for a JSON pointer, or nil.
func FieldAt(path string) *Field { return rules.At(path) }

// label is how a path reads in a message: "cloudStorageConfig.maxDuration".
func label(path string) string {
	s := strings.TrimPrefix(path, "/")
	return strings.ReplaceAll(s, "/", ".")
}
