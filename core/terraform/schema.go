package terraform

// ResourceType is the Terraform resource type this package reads and
// writes.
const ResourceType = "google_pubsub_subscription"

// TopicType is the resource type whose id and name a subscription's
// topic may refer to.
const TopicType = "google_pubsub_topic"

// kind is how an attribute is written in HCL.
type kind uint8

const (
	kString   kind = iota // a quoted string
	kDuration             // a string in the REST duration form ("600s")
	kBool
	kInt   // a whole number (int32 or int64 in REST)
	kMap   // a map of strings: labels = { k = "v" }
	kBlock // a nested block, at most once
	kList  // a nested block that may repeat (message_transforms)
)

// attr is one attribute or block of google_pubsub_subscription and the
// REST field it maps to. The reader and the writer both walk this table,
// so the two cannot disagree about a name.
type attr struct {
	tf   string // the provider's attribute name
	rest string // the REST field it maps to ("" for project, which is part of the name)
	kind kind
	// required is what the provider's schema requires; the reader says so
	// when one is missing, positioned at the enclosing block.
	required bool
	// forceNew marks fields the provider cannot update in place: a change
	// replaces the subscription (destroy, then create), losing its backlog.
	forceNew bool
	children []*attr
}

// The table follows the provider's schema for google_pubsub_subscription
// as generated from magic-modules' mmv1/products/pubsub/Subscription.yaml:
// name, topic, filter and enable_message_ordering are immutable (plus
// project, which is part of the name); message_retention_duration and
// cloud_storage_config.max_duration have provider-side defaults;
// expiration_policy.ttl = "" means never expire.
var schema = []*attr{
	{tf: "name", rest: "name", kind: kString, required: true, forceNew: true},
	{tf: "project", kind: kString, forceNew: true},
	{tf: "topic", rest: "topic", kind: kString, required: true, forceNew: true},
	{tf: "labels", rest: "labels", kind: kMap},
	{tf: "ack_deadline_seconds", rest: "ackDeadlineSeconds", kind: kInt},
	{tf: "message_retention_duration", rest: "messageRetentionDuration", kind: kDuration},
	{tf: "retain_acked_messages", rest: "retainAckedMessages", kind: kBool},
	{tf: "filter", rest: "filter", kind: kString, forceNew: true},
	{tf: "enable_message_ordering", rest: "enableMessageOrdering", kind: kBool, forceNew: true},
	{tf: "enable_exactly_once_delivery", rest: "enableExactlyOnceDelivery", kind: kBool},
	{tf: "expiration_policy", rest: "expirationPolicy", kind: kBlock, children: []*attr{
		{tf: "ttl", rest: "ttl", kind: kDuration, required: true},
	}},
	{tf: "dead_letter_policy", rest: "deadLetterPolicy", kind: kBlock, children: []*attr{
		{tf: "dead_letter_topic", rest: "deadLetterTopic", kind: kString},
		{tf: "max_delivery_attempts", rest: "maxDeliveryAttempts", kind: kInt},
	}},
	{tf: "retry_policy", rest: "retryPolicy", kind: kBlock, children: []*attr{
		{tf: "minimum_backoff", rest: "minimumBackoff", kind: kDuration},
		{tf: "maximum_backoff", rest: "maximumBackoff", kind: kDuration},
	}},
	{tf: "push_config", rest: "pushConfig", kind: kBlock, children: []*attr{
		{tf: "push_endpoint", rest: "pushEndpoint", kind: kString, required: true},
		{tf: "attributes", rest: "attributes", kind: kMap},
		{tf: "oidc_token", rest: "oidcToken", kind: kBlock, children: []*attr{
			{tf: "service_account_email", rest: "serviceAccountEmail", kind: kString, required: true},
			{tf: "audience", rest: "audience", kind: kString},
		}},
		{tf: "no_wrapper", rest: "noWrapper", kind: kBlock, children: []*attr{
			{tf: "write_metadata", rest: "writeMetadata", kind: kBool, required: true},
		}},
	}},
	{tf: "bigquery_config", rest: "bigqueryConfig", kind: kBlock, children: []*attr{
		{tf: "table", rest: "table", kind: kString, required: true},
		{tf: "use_topic_schema", rest: "useTopicSchema", kind: kBool},
		{tf: "use_table_schema", rest: "useTableSchema", kind: kBool},
		{tf: "write_metadata", rest: "writeMetadata", kind: kBool},
		{tf: "drop_unknown_fields", rest: "dropUnknownFields", kind: kBool},
		{tf: "service_account_email", rest: "serviceAccountEmail", kind: kString},
	}},
	{tf: "cloud_storage_config", rest: "cloudStorageConfig", kind: kBlock, children: []*attr{
		{tf: "bucket", rest: "bucket", kind: kString, required: true},
		{tf: "filename_prefix", rest: "filenamePrefix", kind: kString},
		{tf: "filename_suffix", rest: "filenameSuffix", kind: kString},
		{tf: "filename_datetime_format", rest: "filenameDatetimeFormat", kind: kString},
		{tf: "max_duration", rest: "maxDuration", kind: kDuration},
		{tf: "max_bytes", rest: "maxBytes", kind: kInt},
		{tf: "max_messages", rest: "maxMessages", kind: kInt},
		{tf: "service_account_email", rest: "serviceAccountEmail", kind: kString},
		{tf: "avro_config", rest: "avroConfig", kind: kBlock, children: []*attr{
			{tf: "write_metadata", rest: "writeMetadata", kind: kBool},
			{tf: "use_topic_schema", rest: "useTopicSchema", kind: kBool},
		}},
	}},
	{tf: "message_transforms", rest: "messageTransforms", kind: kList, children: []*attr{
		{tf: "javascript_udf", rest: "javascriptUdf", kind: kBlock, children: []*attr{
			{tf: "function_name", rest: "functionName", kind: kString, required: true},
			{tf: "code", rest: "code", kind: kString, required: true},
		}},
		{tf: "disabled", rest: "disabled", kind: kBool},
	}},
}

// outputOnly are the REST fields a Terraform configuration cannot set:
// the service reports them.
var outputOnly = map[string]bool{
	"detached": true, "state": true, "topicMessageRetentionDuration": true, "analyticsHubSubscriptionInfo": true,
}

func find(list []*attr, name string, byTF bool) *attr {
	for _, a := range list {
		if byTF && a.tf == name || !byTF && a.rest == name && a.rest != "" {
			return a
		}
	}
	return nil
}
