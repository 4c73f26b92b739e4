package avroschema

import (
	"strings"
	"sync"

	"github.com/hamba/avro/v2"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
)

// The schemas the service writes when the topic schema is not used, field
// for field as the product documentation (seed 003) prints them.
const (
	plainSchema = `{"type":"record","namespace":"com.google.pubsub","name":"PubsubMessage","fields":[` +
		`{"name":"data","type":"bytes"}]}`
	metadataSchema = `{"type":"record","namespace":"com.google.pubsub","name":"PubsubMessageWithMetadata","fields":[` +
		metadataFieldsJSON + `,{"name":"data","type":"bytes"}]}`
	// metadataFieldsJSON is also what a topic record is extended with.
	metadataFieldsJSON = `{"name":"subscription_name","type":"string"},` +
		`{"name":"message_id","type":"string"},` +
		`{"name":"publish_time","type":{"type":"long","logicalType":"timestamp-micros"}},` +
		`{"name":"attributes","type":{"type":"map","values":"string"}}`
)

// MetadataFields are the fields writeMetadata adds, in the order they are
// written. A topic record extended with them must not have fields of these
// names (docs/decisions.md D11).
var MetadataFields = []string{"subscription_name", "message_id", "publish_time", "attributes"}

// OrderingKeyAttribute is the attributes-map key the ordering key is
// written under. The API reference names the property ordering_key; the
// older translations of the product page print order_key and the newest
// names none, so the API's spelling is the one we follow.
const OrderingKeyAttribute = "ordering_key"

// Options are a subscription's avroConfig.
type Options struct {
	WriteMetadata  bool
	UseTopicSchema bool
}

// Shape says which of the three output schemas applies.
type Shape int

const (
	ShapePlain    Shape = iota // PubsubMessage: the data alone
	ShapeMetadata              // PubsubMessageWithMetadata
	ShapeTopic                 // the topic's schema, maybe extended with metadata
)

// Output is the schema a subscription writes its Avro files with.
type Output struct {
	Shape    Shape
	Metadata bool        // the metadata fields are written
	JSON     string      // the schema text, compact
	Schema   avro.Schema // parsed by hamba/avro, what the files are encoded with
	topic    *Topic
}

// OutputSchema returns the schema a Cloud Storage subscription with Avro
// output writes. topic is the topic's Avro schema, needed only with
// UseTopicSchema; when it is needed and missing or invalid, the result is
// nil (with a note when missing: the invalid schema has its own errors).
// Diagnostic paths point into the topic schema text.
func OutputSchema(opts Options, topic *Topic) (*Output, []diag.Diagnostic) {
	if !opts.UseTopicSchema {
		text, shape := plainSchema, ShapePlain
		if opts.WriteMetadata {
			text, shape = metadataSchema, ShapeMetadata
		}
		return &Output{Shape: shape, Metadata: opts.WriteMetadata, JSON: text, Schema: fixedSchema(shape)}, nil
	}
	if topic == nil {
		return nil, []diag.Diagnostic{{Severity: diag.Info, Code: "avro-topic-schema-needed",
			Message: "the files are written with the topic's schema, which was not given",
			Hint:    "pass the topic's Avro schema (--topic-schema) to see the output schema and a sample file"}}
	}
	if topic.Schema == nil || topic.Root == nil {
		return nil, nil
	}
	out := &Output{Shape: ShapeTopic, Metadata: opts.WriteMetadata, topic: topic}
	if !opts.WriteMetadata {
		out.JSON = compactJSON(topic.Doc.Root, nil)
		out.Schema = topic.Schema
		return out, nil
	}
	root := topic.Doc.Root
	if topic.Root.Kind != Record || root.Kind != doc.Object || root.Get("fields") == nil {
		ds := []diag.Diagnostic{{Severity: diag.Error, Code: "avro-topic-root-not-record", Span: root.Span,
			Message: "with writeMetadata the topic schema must be a record at its root; this one is " + article(topic.Root.TypeName()),
			Hint:    "the metadata fields are added to the root record's fields; wrap the type in a record or turn writeMetadata off"}}
		topic.Doc.Source.Locate(ds)
		return nil, ds
	}
	var ds []diag.Diagnostic
	for _, name := range MetadataFields {
		if f := topic.Root.FieldNamed(name); f != nil {
			ds = append(ds, diag.Diagnostic{Severity: diag.Error, Code: "avro-metadata-name-clash", Path: f.Path, Span: f.Span,
				Message: "the topic record has a field " + diag.Quote(name) + ", which writeMetadata also writes",
				Hint:    "rename the field in the topic schema, or turn writeMetadata off"})
		}
	}
	if len(ds) > 0 {
		topic.Doc.Source.Locate(ds)
		return nil, diag.Finish(ds)
	}
	out.JSON = compactJSON(root, func(key string) string {
		if key == "fields" {
			return metadataFieldsJSON
		}
		return ""
	})
	s, err := parseAvro(out.JSON)
	if err != nil {
		// The topic schema parsed and no name clashes: this would be a bug.
		ds = []diag.Diagnostic{topic.placeError(err)}
		topic.Doc.Source.Locate(ds)
		return nil, ds
	}
	out.Schema = s
	return out, nil
}

func article(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) && !strings.HasPrefix(strings.ToLower(s), "uni") {
		return "an " + s
	}
	return "a " + s
}

// fixedSchemas parses the two generic schemas on first use rather than at
// start-up, which every WebAssembly instance would pay for.
var fixedSchemas = sync.OnceValue(func() [2]avro.Schema {
	var out [2]avro.Schema
	out[ShapePlain] = avro.MustParse(plainSchema)
	out[ShapeMetadata] = avro.MustParse(metadataSchema)
	return out
})

func fixedSchema(s Shape) avro.Schema { return fixedSchemas()[s] }

// compactJSON writes n as compact JSON. extra, when set, is asked for text
// to append to each array member of the root object, by key.
func compactJSON(n *doc.Node, extra func(key string) string) string {
	var b strings.Builder
	writeJSON(&b, n, extra)
	return b.String()
}

func writeJSON(b *strings.Builder, n *doc.Node, extra func(string) string) {
	if extra == nil || n.Kind != doc.Object {
		n.WriteJSON(b)
		return
	}
	// Only the root object's arrays get extra members; the rest is plain.
	b.WriteByte('{')
	for i, m := range n.Members {
		if i > 0 {
			b.WriteByte(',')
		}
		doc.QuoteJSON(b, m.Key)
		b.WriteByte(':')
		if add := extra(m.Key); add != "" && m.Value.Kind == doc.Array {
			b.WriteByte('[')
			for _, it := range m.Value.Items {
				it.WriteJSON(b)
				b.WriteByte(',')
			}
			b.WriteString(add + "]")
			continue
		}
		m.Value.WriteJSON(b)
	}
	b.WriteByte('}')
}
