// Package avroschema answers "what does a Cloud Storage subscription with
// Avro output write?": the output schema (PubsubMessage,
// PubsubMessageWithMetadata, or the topic's own schema, extended with the
// metadata fields when asked), and a sample Avro object container file of
// some messages, byte for byte what a reader of the bucket would see.
//
// Topic schemas are read twice on purpose. core/doc decodes the text into a
// positioned tree, which this package walks to build its own small model of
// the schema (Type) and to report problems at the line and column where they
// were written; then github.com/hamba/avro/v2 parses the same text, so the
// schema that encodes the sample file is the one an Avro library accepts.
// When hamba/avro rejects something the walk did not catch, its error is
// reported at the closest node that can be found.
//
// Parsing uses a fresh schema cache every time: hamba/avro's default cache
// is global, and names defined by one user's schema must not leak into the
// next request served by the same instance.
package avroschema
