// Package outputschema says which schemas a subscription writes with or
// needs: the Avro schema (and a sample file) of a Cloud Storage
// subscription with Avro output, or the verdict on a BigQuery
// subscription's table, with a table that fits and the row each sample
// message becomes. It brings the configuration, the topic and table
// schemas and the sample messages together; core/avroschema and
// core/bigquery do the work on each.
package outputschema

import (
	"context"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/subplay/subplay/core/avroschema"
	"github.com/subplay/subplay/core/bigquery"
	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/protoschema"
	"github.com/subplay/subplay/core/schemaresult"
	"github.com/subplay/subplay/core/subscription"
)

// Input is what a check reads.
type Input struct {
	Config *subscription.Config
	// TopicSchema is the topic's schema definition, Avro JSON or a .proto
	// text; TopicSchemaType ("AVRO", "PROTOCOL_BUFFER" or "" to detect)
	// says which.
	TopicSchema     *string
	TopicSchemaType string
	// TableSchema is the BigQuery table's schema as `bq show --schema`
	// prints it.
	TableSchema *string
	// Messages are the sample messages (nil: none); those without a publish
	// time are published at Now.
	Messages *message.Decoded
	Now      time.Time
	// Through, when not nil, are the messages that come through the
	// subscription's transforms and filter, what it writes, and Origin the
	// sample message each comes from: the previews write them instead of
	// Messages.Messages and name the sample message in rows and findings.
	Through []message.Message
	Origin  []int
}

// written returns the messages the previews write.
func (in *Input) written() []message.Message {
	switch {
	case in.Through != nil:
		return in.Through
	case in.Messages != nil:
		return in.Messages.Messages
	}
	return nil
}

// Result is what a check finds.
type Result struct {
	DeliveryType subscription.DeliveryType
	// Avro is the schema the Avro files are written with, and OCF the
	// object container file of the sample messages, byte for byte what the
	// subscription would write.
	Avro     json.RawMessage
	OCF      []byte
	BigQuery *BigQueryResult
	// Diagnostics are about the configuration and the two schemas, each
	// naming its input; MessageDiagnostics about the sample messages, each
	// pointing at the payload of its message.
	Diagnostics        []diag.Diagnostic
	MessageDiagnostics []diag.Diagnostic
}

// BigQueryResult is the verdict on a BigQuery subscription's table (in
// core/schemaresult, so that builds without Avro can describe it).
type BigQueryResult = schemaresult.BigQueryResult

// Check checks the configuration's output schemas. The configuration must
// have been decoded (Config.Sub is not nil).
func Check(in Input) *Result {
	res, _ := CheckContext(context.Background(), in)
	return res
}

// CheckContext is Check for a caller that may stop waiting: once ctx is
// done it returns ctx's error and no result.
func CheckContext(ctx context.Context, in Input) (*Result, error) {
	res := &Result{}
	s := &schemaRun{ctx: ctx, in: in, cfg: in.Config, res: res, decoded: in.Messages, now: in.Now}
	if e := in.Config.Effective(); e != nil {
		res.DeliveryType = e.DeliveryType
	}
	s.ds = in.Config.FindingsUnder("/bigqueryConfig", "/cloudStorageConfig")
	s.readTopic()
	switch res.DeliveryType {
	case subscription.CloudStorage:
		s.cloudStorage()
	case subscription.BigQuery:
		s.bigQuery()
	default:
		s.config(diag.Diagnostic{Severity: diag.Info, Code: "schema-not-applicable",
			Message: "this subscription delivers by " + string(res.DeliveryType) + "; output schemas belong to BigQuery and Cloud Storage subscriptions",
			Hint:    `add "bigqueryConfig" or "cloudStorageConfig" to preview their schemas`})
	}
	if s.err != nil {
		return nil, s.err
	}
	res.Diagnostics = s.ds
	return res, nil
}

// schemaRun carries one request through.
type schemaRun struct {
	ctx     context.Context
	err     error // ctx's, when a loop stopped early
	in      Input
	cfg     *subscription.Config
	res     *Result
	decoded *message.Decoded
	now     time.Time
	ds      []diag.Diagnostic

	avroTopic  *avroschema.Topic
	protoTopic *protoschema.File
	topicSrc   *diag.Source
	topicOK    bool // given and free of errors
}

// config adds diagnostics about the configuration, located in it.
func (s *schemaRun) config(ds ...diag.Diagnostic) {
	s.ds = append(s.ds, s.cfg.Locate(ds)...)
}

func (s *schemaRun) readTopic() {
	if s.in.TopicSchema == nil {
		return
	}
	text := *s.in.TopicSchema
	var ds []diag.Diagnostic
	if len(text) > limits.TopicSchemaBytes {
		s.topicSrc = diag.NewSource("topicSchema", text)
		ds = []diag.Diagnostic{{Severity: diag.Error, Code: "topic-schema-too-large", Span: diag.SpanOf(limits.TopicSchemaBytes, len(text)),
			Message: "the topic schema is " + strconv.Itoa(len(text)) + " bytes; Pub/Sub takes schema definitions of at most " + strconv.Itoa(limits.TopicSchemaBytes>>10) + " KB",
			Hint:    "a schema this large cannot be attached to a topic; split the message type, or keep large blobs as bytes fields"}}
		s.topicSrc.Locate(ds)
		s.topic(ds)
		return
	}
	if bigquery.TopicSchemaType(text, s.in.TopicSchemaType) == bigquery.Avro {
		s.avroTopic, ds = avroschema.ParseTopic("topicSchema", text)
		s.topicSrc = s.avroTopic.Doc.Source
	} else {
		s.topicSrc = diag.NewSource("topicSchema", text)
		s.protoTopic, ds = protoschema.Parse(text)
		s.topicSrc.Locate(ds)
	}
	s.topicOK = !diag.HasErrors(ds)
	s.topic(ds)
}

// topic adds diagnostics about the topic schema.
func (s *schemaRun) topic(ds []diag.Diagnostic) {
	s.ds = append(s.ds, diag.In(diag.InputTopicSchema, prefixPaths(ds, bigquery.TopicPath))...)
}

func prefixPaths(ds []diag.Diagnostic, p string) []diag.Diagnostic {
	for i := range ds {
		ds[i].Path = p + ds[i].Path
	}
	return ds
}

func (s *schemaRun) cloudStorage() {
	cs := s.cfg.Sub.CloudStorageConfig
	if cs.AvroConfig == nil {
		s.config(diag.Diagnostic{Severity: diag.Info, Code: "avro-not-used", Path: "/cloudStorageConfig",
			Message: "the files are text: message data only, one message per line, with no Avro schema",
			Hint:    `add "avroConfig": {} for Avro files`})
		return
	}
	opts := avroschema.Options{
		WriteMetadata:  cs.AvroConfig.WriteMetadata != nil && *cs.AvroConfig.WriteMetadata,
		UseTopicSchema: cs.AvroConfig.UseTopicSchema != nil && *cs.AvroConfig.UseTopicSchema,
	}
	var topic *avroschema.Topic
	if opts.UseTopicSchema {
		switch {
		case s.protoTopic != nil:
			s.config(diag.Diagnostic{Severity: diag.Error, Code: "avro-topic-schema-not-avro", Path: "/cloudStorageConfig/avroConfig/useTopicSchema",
				Message: "useTopicSchema writes files with the topic's schema, which must be Avro; this topic schema is a Protocol Buffer",
				Hint:    "turn useTopicSchema off, or give the topic an Avro schema"})
			return
		case s.avroTopic != nil && !s.topicOK:
			return // its errors are reported already
		case s.avroTopic != nil:
			topic = s.avroTopic
		}
	}
	out, ds := avroschema.OutputSchema(opts, topic)
	for i := range ds {
		if ds[i].Code == "avro-topic-schema-needed" {
			ds[i].Path = "/cloudStorageConfig/avroConfig/useTopicSchema"
			s.config(ds[i])
		} else {
			s.topic(ds[i : i+1])
		}
	}
	if out == nil {
		return
	}
	s.res.Avro = json.RawMessage(out.JSON)
	msgs := s.in.written()
	if len(msgs) == 0 {
		return
	}
	file, mds, err := out.EncodeOCFContext(s.ctx, msgs, avroschema.Sample{Subscription: s.name(), Now: s.now, Origin: s.in.Origin})
	if err != nil {
		s.err = err
		return
	}
	s.res.OCF = file
	s.messages(mds)
}

func (s *schemaRun) name() string {
	if s.cfg.Sub.Name != nil {
		return *s.cfg.Sub.Name
	}
	return ""
}

// messages adds diagnostics about sample messages, each pointing at the
// payload of the message it is about.
func (s *schemaRun) messages(ds []diag.Diagnostic) {
	for _, d := range ds {
		if d.MessageIndex != nil {
			d.Path, d.Span = s.decoded.Payload(*d.MessageIndex)
		}
		one := diag.In(diag.InputMessages, []diag.Diagnostic{d})
		if s.decoded.Doc != nil && s.decoded.Doc.Source != nil {
			s.decoded.Doc.Source.Locate(one)
		}
		s.res.MessageDiagnostics = append(s.res.MessageDiagnostics, one[0])
	}
}

func (s *schemaRun) bigQuery() {
	bq := s.cfg.Sub.BigQueryConfig
	on := func(b *bool) bool { return b != nil && *b }
	opts := bigquery.Options{UseTopicSchema: on(bq.UseTopicSchema), UseTableSchema: on(bq.UseTableSchema),
		WriteMetadata: on(bq.WriteMetadata), DropUnknownFields: on(bq.DropUnknownFields)}
	result := &BigQueryResult{}
	s.res.BigQuery = result
	start := len(s.ds)

	var topic *bigquery.TopicSchema
	switch {
	case s.topicOK && opts.UseTopicSchema:
		var ds []diag.Diagnostic
		if s.avroTopic != nil {
			topic, ds = bigquery.FromAvro(s.avroTopic)
		} else {
			topic, ds = bigquery.FromProto(s.protoTopic, s.topicSrc)
		}
		s.ds = append(s.ds, diag.In(diag.InputTopicSchema, ds)...)
	case s.topicOK && opts.UseTableSchema:
		// Only its presence matters: the messages must then be JSON.
		topic = &bigquery.TopicSchema{Source: s.topicSrc}
	}
	if opts.UseTopicSchema && s.in.TopicSchema == nil {
		s.config(diag.Diagnostic{Severity: diag.Info, Code: "bq-topic-schema-needed", Path: "/bigqueryConfig/useTopicSchema",
			Message: "columns come from the topic's schema, which was not given",
			Hint:    "pass the topic's schema (--topic-schema) to check the table against it and generate a fitting one"})
	}
	var table *bigquery.Table
	if s.in.TableSchema != nil {
		var ds []diag.Diagnostic
		table, ds = bigquery.ParseTable("tableSchema", *s.in.TableSchema)
		s.ds = append(s.ds, diag.In(diag.InputTableSchema, ds)...)
		if diag.HasErrors(ds) {
			table = nil
		}
	} else {
		s.config(diag.Diagnostic{Severity: diag.Info, Code: "bq-table-schema-needed", Path: "/bigqueryConfig/table",
			Message: "no table schema was given, so compatibility is not checked",
			Hint:    "pass the table's schema (bq show --schema PROJECT:DATASET.TABLE) as --table-schema"})
	}
	if !opts.UseTopicSchema || topic != nil {
		// Without a table, Check still reports what the topic schema and
		// the options alone get wrong (a field that clashes with a
		// metadata column).
		result.Checked = table != nil
		for _, d := range bigquery.Check(opts, table, topic) {
			// Findings about the flags alone are the configuration
			// validation's, already in the list.
			if d.Input != "" {
				s.ds = append(s.ds, d)
			}
		}
	}
	msgs := s.in.written()
	generated, ds := bigquery.Generate(opts, topic, dataTypeFor(msgs))
	s.ds = append(s.ds, diag.In(diag.InputTopicSchema, ds)...)
	result.TableSchema = generated
	if result.TableSchema == nil {
		result.TableSchema = []bigquery.SchemaField{}
	}
	rowErrors := false
	if table != nil && len(msgs) > 0 {
		rows, rds, err := bigquery.PreviewContext(s.ctx, opts, table, msgs, bigquery.Sample{Subscription: s.name(), Now: s.now, Origin: s.in.Origin})
		if err != nil {
			s.err = err
			return
		}
		result.Rows = rows
		rowErrors = diag.HasErrors(rds)
		s.messages(rds)
	}
	result.Compatible = result.Checked && !rowErrors && !diag.HasErrors(s.ds[start:]) && !s.cfg.BigQueryOptionsInError()
}

// dataTypeFor picks the data column type a generated table uses: STRING
// when every sample message is text, BYTES (which holds anything) when one
// is not or there are none.
func dataTypeFor(msgs []message.Message) string {
	if len(msgs) == 0 {
		return bigquery.Bytes
	}
	for _, m := range msgs {
		if !utf8.Valid(m.Data) {
			return bigquery.Bytes
		}
	}
	return bigquery.String
}
