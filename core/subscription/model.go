package subscription

// The Subscription resource in its REST v1 JSON shape. Every field is a
// pointer (or a nil-able map or slice) so that "not set" and "set to the
// zero value" stay apart: the effective settings report which is which.
// Encoding follows the proto3 JSON mapping: durations as "600s", int64
// values as strings.

// Subscription is a Pub/Sub subscription.
type Subscription struct {
	Name                          *string                       `json:"name,omitempty"`
	Topic                         *string                       `json:"topic,omitempty"`
	PushConfig                    *PushConfig                   `json:"pushConfig,omitempty"`
	BigQueryConfig                *BigQueryConfig               `json:"bigqueryConfig,omitempty"`
	CloudStorageConfig            *CloudStorageConfig           `json:"cloudStorageConfig,omitempty"`
	BigtableConfig                *BigtableConfig               `json:"bigtableConfig,omitempty"`
	AckDeadlineSeconds            *Int32                        `json:"ackDeadlineSeconds,omitempty"`
	RetainAckedMessages           *bool                         `json:"retainAckedMessages,omitempty"`
	MessageRetentionDuration      *Duration                     `json:"messageRetentionDuration,omitempty"`
	Labels                        map[string]string             `json:"labels,omitempty"`
	EnableMessageOrdering         *bool                         `json:"enableMessageOrdering,omitempty"`
	ExpirationPolicy              *ExpirationPolicy             `json:"expirationPolicy,omitempty"`
	Filter                        *string                       `json:"filter,omitempty"`
	DeadLetterPolicy              *DeadLetterPolicy             `json:"deadLetterPolicy,omitempty"`
	RetryPolicy                   *RetryPolicy                  `json:"retryPolicy,omitempty"`
	Detached                      *bool                         `json:"detached,omitempty"`
	EnableExactlyOnceDelivery     *bool                         `json:"enableExactlyOnceDelivery,omitempty"`
	TopicMessageRetentionDuration *Duration                     `json:"topicMessageRetentionDuration,omitempty"`
	State                         *string                       `json:"state,omitempty"`
	AnalyticsHubSubscriptionInfo  *AnalyticsHubSubscriptionInfo `json:"analyticsHubSubscriptionInfo,omitempty"`
	MessageTransforms             []MessageTransform            `json:"messageTransforms,omitempty"`
	Tags                          map[string]string             `json:"tags,omitempty"`
}

// PushConfig configures push delivery.
type PushConfig struct {
	PushEndpoint  *string           `json:"pushEndpoint,omitempty"`
	Attributes    map[string]string `json:"attributes,omitempty"`
	OidcToken     *OidcToken        `json:"oidcToken,omitempty"`
	PubsubWrapper *PubsubWrapper    `json:"pubsubWrapper,omitempty"`
	NoWrapper     *NoWrapper        `json:"noWrapper,omitempty"`
}

// OidcToken makes push requests carry an OIDC token.
type OidcToken struct {
	ServiceAccountEmail *string `json:"serviceAccountEmail,omitempty"`
	Audience            *string `json:"audience,omitempty"`
}

// PubsubWrapper delivers the message wrapped in a JSON envelope. It has no fields.
type PubsubWrapper struct{}

// NoWrapper delivers the message data as the raw HTTP body.
type NoWrapper struct {
	WriteMetadata *bool `json:"writeMetadata,omitempty"`
}

// BigQueryConfig writes messages to a BigQuery table.
type BigQueryConfig struct {
	Table               *string `json:"table,omitempty"`
	UseTopicSchema      *bool   `json:"useTopicSchema,omitempty"`
	WriteMetadata       *bool   `json:"writeMetadata,omitempty"`
	DropUnknownFields   *bool   `json:"dropUnknownFields,omitempty"`
	State               *string `json:"state,omitempty"`
	UseTableSchema      *bool   `json:"useTableSchema,omitempty"`
	ServiceAccountEmail *string `json:"serviceAccountEmail,omitempty"`
}

// CloudStorageConfig writes batches of messages as Cloud Storage objects.
type CloudStorageConfig struct {
	Bucket                 *string     `json:"bucket,omitempty"`
	FilenamePrefix         *string     `json:"filenamePrefix,omitempty"`
	FilenameSuffix         *string     `json:"filenameSuffix,omitempty"`
	FilenameDatetimeFormat *string     `json:"filenameDatetimeFormat,omitempty"`
	TextConfig             *TextConfig `json:"textConfig,omitempty"`
	AvroConfig             *AvroConfig `json:"avroConfig,omitempty"`
	MaxDuration            *Duration   `json:"maxDuration,omitempty"`
	MaxBytes               *Int64      `json:"maxBytes,omitempty"`
	MaxMessages            *Int64      `json:"maxMessages,omitempty"`
	State                  *string     `json:"state,omitempty"`
	ServiceAccountEmail    *string     `json:"serviceAccountEmail,omitempty"`
}

// TextConfig writes message data as lines of text. It has no fields.
type TextConfig struct{}

// AvroConfig writes messages as Avro records.
type AvroConfig struct {
	WriteMetadata  *bool `json:"writeMetadata,omitempty"`
	UseTopicSchema *bool `json:"useTopicSchema,omitempty"`
}

// BigtableConfig writes messages to a Bigtable table.
type BigtableConfig struct {
	Table               *string              `json:"table,omitempty"`
	AppProfileID        *string              `json:"appProfileId,omitempty"`
	ServiceAccountEmail *string              `json:"serviceAccountEmail,omitempty"`
	WriteMetadata       *bool                `json:"writeMetadata,omitempty"`
	State               *string              `json:"state,omitempty"`
	ColumnFamilyMapping *ColumnFamilyMapping `json:"columnFamilyMapping,omitempty"`
}

// ColumnFamilyMapping builds Bigtable row keys and columns from the fields
// of JSON messages. At most one key definition is set.
type ColumnFamilyMapping struct {
	RowKeySchema *RowKeySchema `json:"rowKeySchema,omitempty"`
	DelimitedKey *DelimitedKey `json:"delimitedKey,omitempty"`
}

// RowKeySchema reads the row key from the table's structured row key. It
// has no fields.
type RowKeySchema struct{}

// DelimitedKey joins top-level message fields into the row key.
type DelimitedKey struct {
	KeyFields []string `json:"keyFields,omitempty"`
	Delimiter *string  `json:"delimiter,omitempty"` // bytes, base64 in JSON
}

// ExpirationPolicy says when an idle subscription is deleted.
type ExpirationPolicy struct {
	TTL *Duration `json:"ttl,omitempty"`
}

// DeadLetterPolicy forwards undeliverable messages to another topic.
type DeadLetterPolicy struct {
	DeadLetterTopic     *string `json:"deadLetterTopic,omitempty"`
	MaxDeliveryAttempts *Int32  `json:"maxDeliveryAttempts,omitempty"`
}

// RetryPolicy spaces out redeliveries with exponential backoff.
type RetryPolicy struct {
	MinimumBackoff *Duration `json:"minimumBackoff,omitempty"`
	MaximumBackoff *Duration `json:"maximumBackoff,omitempty"`
}

// AnalyticsHubSubscriptionInfo is output only.
type AnalyticsHubSubscriptionInfo struct {
	Listing      *string `json:"listing,omitempty"`
	Subscription *string `json:"subscription,omitempty"`
}

// MessageTransform is one single message transform (SMT).
type MessageTransform struct {
	JavascriptUdf *JavaScriptUDF `json:"javascriptUdf,omitempty"`
	Compression   *Compression   `json:"compression,omitempty"`
	AiInference   *AIInference   `json:"aiInference,omitempty"`
	Enabled       *bool          `json:"enabled,omitempty"`
	Disabled      *bool          `json:"disabled,omitempty"`
}

// JavaScriptUDF is a user-defined JavaScript function applied to each message.
type JavaScriptUDF struct {
	FunctionName *string `json:"functionName,omitempty"`
	Code         *string `json:"code,omitempty"`
}

// Compression compresses or decompresses message data.
type Compression struct {
	CompressionAlgorithm *string `json:"compressionAlgorithm,omitempty"`
	CompressionMode      *string `json:"compressionMode,omitempty"`
}

// AIInference sends each message to a Vertex AI endpoint.
type AIInference struct {
	Endpoint              *string                `json:"endpoint,omitempty"`
	UnstructuredInference *UnstructuredInference `json:"unstructuredInference,omitempty"`
	ServiceAccountEmail   *string                `json:"serviceAccountEmail,omitempty"`
}

// UnstructuredInference passes free-form parameters to the model.
type UnstructuredInference struct {
	Parameters map[string]any `json:"parameters,omitempty"`
}

// DeliveryType is how a subscription hands messages on.
type DeliveryType string

const (
	Pull         DeliveryType = "pull"
	Push         DeliveryType = "push"
	BigQuery     DeliveryType = "bigquery"
	CloudStorage DeliveryType = "cloudStorage"
	Bigtable     DeliveryType = "bigtable"
)

// DeliveryType reports how s delivers messages. An empty pushConfig (no
// endpoint) means pull, as in the API.
func (s *Subscription) DeliveryType() DeliveryType {
	switch {
	case s.PushConfig != nil && s.PushConfig.PushEndpoint != nil && *s.PushConfig.PushEndpoint != "":
		return Push
	case s.BigQueryConfig != nil:
		return BigQuery
	case s.CloudStorageConfig != nil:
		return CloudStorage
	case s.BigtableConfig != nil:
		return Bigtable
	}
	return Pull
}
