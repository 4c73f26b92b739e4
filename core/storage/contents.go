package storage

// AppendText appends the contents of a text file holding payloads: each
// payload exactly as published, with "\n" between two of them and none
// after the last (the service separates messages; it does not terminate
// them). A payload that itself holds "\n" is written as is, so a reader
// splitting on lines sees more lines than messages.
func AppendText(dst []byte, payloads [][]byte) []byte {
	for i, p := range payloads {
		if i > 0 {
			dst = append(dst, '\n')
		}
		dst = append(dst, p...)
	}
	return dst
}

// Avro record schemas a subscription writes without a topic schema
// (seeds 003, "Formato de archivo").
const (
	AvroNamespace          = "com.google.pubsub"
	AvroPlainRecord        = "PubsubMessage"
	AvroWithMetadataRecord = "PubsubMessageWithMetadata"
	// AvroTopicRecord stands for the topic's own schema, whose name only
	// the topic knows.
	AvroTopicRecord = "topic schema"
)

// AvroSummary describes one Avro file without writing it (the Avro issue
// writes real container files).
type AvroSummary struct {
	Index int `json:"index"`
	// Schema is the full name of the record schema, or AvroTopicRecord.
	Schema string `json:"schema"`
	// Metadata says whether subscription name, message id, publish time
	// and attributes are written next to the data.
	Metadata     bool  `json:"metadata"`
	Records      int64 `json:"records"`
	PayloadBytes int64 `json:"payloadBytes"`
}

// AvroSchemaName returns the record schema an Avro file is written with.
func AvroSchemaName(writeMetadata, useTopicSchema bool) string {
	switch {
	case useTopicSchema:
		return AvroTopicRecord
	case writeMetadata:
		return AvroNamespace + "." + AvroWithMetadataRecord
	}
	return AvroNamespace + "." + AvroPlainRecord
}

// SummarizeAvro returns the Avro summary of a simulated file.
func SummarizeAvro(f File, writeMetadata, useTopicSchema bool) AvroSummary {
	return AvroSummary{Index: f.Index, Schema: AvroSchemaName(writeMetadata, useTopicSchema),
		Metadata: writeMetadata, Records: f.Messages, PayloadBytes: f.Bytes}
}
