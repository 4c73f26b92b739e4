// The schema operation's types and the part of its work that needs no
// schema reader are in every build: a build without Avro (noavro) has the
// operation too, with the same request and response (so the same OpenAPI
// document), and answers needs-module (schema_noavro.go).

package playground

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/pipeline"
	"github.com/subplay/subplay/core/schemaresult"
	"github.com/subplay/subplay/core/subscription"
)

// SchemaRequest asks which schemas a subscription produces or needs.
type SchemaRequest struct {
	ConfigInput
	// TopicSchema is the topic's schema definition: Avro JSON or a .proto
	// text. TopicSchemaType ("AVRO" or "PROTOCOL_BUFFER") overrides the
	// detection (a text that opens with {, [ or " is Avro).
	TopicSchema     *string `json:"topicSchema,omitempty"`
	TopicSchemaType string  `json:"topicSchemaType,omitempty"`
	// TableSchema is the BigQuery table's schema as `bq show --schema`
	// prints it.
	TableSchema *string `json:"tableSchema,omitempty"`
	MessagesInput
	// Time is the publish time of sample messages that have none, RFC
	// 3339; the current time when empty.
	Time string `json:"time,omitempty"`
}

// SchemaResponse holds the Avro output schema of a Cloud Storage
// subscription with Avro output (and a sample file of the messages), or the
// BigQuery verdict of a BigQuery subscription.
//
// Diagnostics point into the configuration, except those whose path starts
// with /topicSchema or /tableSchema: their lines and columns are in that
// text, and the rest of the path is a JSON pointer into it (Avro and table
// schemas). MessageDiagnostics are about the sample messages, with paths
// into their text ("/0/data").
type SchemaResponse struct {
	DeliveryType subscription.DeliveryType `json:"deliveryType,omitempty"`
	// Avro is the schema the Avro files are written with.
	Avro json.RawMessage `json:"avro,omitempty"`
	// OCF is the Avro object container file of the sample messages (base64
	// in JSON), byte for byte what the subscription would write.
	OCF      []byte          `json:"ocf,omitempty"`
	BigQuery *BigQueryResult `json:"bigquery,omitempty"`
	// Pipeline, present when the configuration has enabled JavaScript UDFs
	// or a filter and the request sample messages, says what they did: the
	// sample file and the rows hold only the messages that came through,
	// as the transforms left them (rows name their sample message).
	Pipeline           *Pipeline         `json:"pipeline,omitempty"`
	Diagnostics        []diag.Diagnostic `json:"diagnostics"`
	MessageDiagnostics []diag.Diagnostic `json:"messageDiagnostics,omitempty"`
}

// BigQueryResult is the verdict on a BigQuery subscription's table.
type BigQueryResult = schemaresult.BigQueryResult

// schemaSummary is the schema operation's summary in every build.
const schemaSummary = "the Avro output schema and sample file of a Cloud Storage subscription, or the BigQuery table check, generated table and row preview"

// schemaStart is what the schema operation reads from its request before
// it looks at a schema.
type schemaStart struct {
	cfg     *subscription.Config
	now     time.Time
	decoded *message.Decoded
	// through and origin are the messages that came through the
	// transforms and the filter, and the sample message each comes from.
	through []message.Message
	origin  []int
	// resp is the answer so far; when done it is the whole answer (the
	// configuration did not decode: there is nothing to check schemas of).
	resp *SchemaResponse
	done bool
}

// startSchema reads the request and runs the configuration's pipeline on
// its sample messages; its errors are the schema operation's in every
// build, needs-module ones included (a UDF in a noudf build).
func startSchema(ctx context.Context, req *SchemaRequest) (*schemaStart, error) {
	cfg, err := req.ConfigInput.Load()
	if err != nil {
		return nil, err
	}
	now := time.Now().UTC()
	if req.Time != "" {
		if now, err = time.Parse(time.RFC3339Nano, req.Time); err != nil {
			return nil, &Error{Code: "bad-request", Message: `"time" must be an RFC 3339 time such as "2024-05-01T12:00:00Z", not ` + quote(req.Time)}
		}
	}
	switch strings.ToUpper(req.TopicSchemaType) {
	case "", schemaresult.TopicSchemaAvro, schemaresult.TopicSchemaProtobuf:
	default:
		return nil, &Error{Code: "bad-request", Message: `"topicSchemaType" must be "AVRO", "PROTOCOL_BUFFER" or empty, not ` + quote(req.TopicSchemaType)}
	}
	decoded, msgDs, err := req.MessagesInput.LoadContext(ctx)
	if err != nil {
		return nil, err
	}
	if msgDs, err = checkMessages(ctx, decoded, msgDs); err != nil {
		return nil, err
	}
	st := &schemaStart{cfg: cfg, now: now, decoded: decoded, resp: &SchemaResponse{MessageDiagnostics: msgDs, Diagnostics: []diag.Diagnostic{}}}
	if cfg.Sub == nil {
		st.resp.Diagnostics = cfg.Validate()
		st.done = true
		return st, nil
	}
	st.resp.Pipeline, st.through, st.origin, err = downstream(ctx, cfg, decoded, msgDs, pipeline.UDFClock(req.Time, now))
	if err != nil {
		return nil, err
	}
	return st, nil
}
