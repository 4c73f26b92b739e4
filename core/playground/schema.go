//go:build !noavro

// The noavro build (the docs embeds that show no schemas) leaves this
// operation, and hamba/avro with it, out: see wasm/browser.

package playground

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/subplay/subplay/core/bigquery"
	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/outputschema"
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
type BigQueryResult = outputschema.BigQueryResult

// Schema answers a SchemaRequest.
func Schema(req *SchemaRequest) (*SchemaResponse, error) {
	return SchemaContext(context.Background(), req)
}

// SchemaContext is Schema that stops, with ctx's error, once ctx is done.
func SchemaContext(ctx context.Context, req *SchemaRequest) (*SchemaResponse, error) {
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
	case "", bigquery.Avro, bigquery.Protobuf:
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
	resp := &SchemaResponse{MessageDiagnostics: msgDs, Diagnostics: []diag.Diagnostic{}}
	if cfg.Sub == nil {
		resp.Diagnostics = cfg.Validate()
		return resp, nil
	}
	p, through, origin, err := downstream(ctx, cfg, decoded, msgDs, udfClock(req.Time, now))
	if err != nil {
		return nil, err
	}
	resp.Pipeline = p
	r, err := outputschema.CheckContext(ctx, outputschema.Input{Config: cfg, TopicSchema: req.TopicSchema, TopicSchemaType: req.TopicSchemaType,
		TableSchema: req.TableSchema, Messages: decoded, Now: now, Through: through, Origin: origin})
	if err != nil {
		return nil, err
	}
	resp.DeliveryType, resp.Avro, resp.OCF, resp.BigQuery = r.DeliveryType, r.Avro, r.OCF, r.BigQuery
	resp.Diagnostics = diag.Finish(append(resp.Diagnostics, r.Diagnostics...))
	resp.MessageDiagnostics = diag.Finish(append(resp.MessageDiagnostics, r.MessageDiagnostics...))
	return resp, nil
}

func init() {
	registerContext("schema", "the Avro output schema and sample file of a Cloud Storage subscription, or the BigQuery table check, generated table and row preview", SchemaContext)
}
