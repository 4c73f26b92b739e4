// Package schemaresult holds the types of the schema operation's answer
// that describe BigQuery tables and rows. They live apart from the
// packages that compute them (core/bigquery, core/outputschema), which
// link hamba/avro, so that a build without Avro (tag noavro) still
// describes the schema operation with the same types: its OpenAPI document
// and operation list are those of every other build.
package schemaresult

import "encoding/json"

// The topic schema types a request's topicSchemaType may name.
const (
	TopicSchemaAvro     = "AVRO"
	TopicSchemaProtobuf = "PROTOCOL_BUFFER"
)

// SchemaField is one column in the JSON form `bq mk --schema FILE` reads
// and `bq show --schema` prints.
type SchemaField struct {
	Name   string        `json:"name"`
	Type   string        `json:"type"`
	Mode   string        `json:"mode"`
	Fields []SchemaField `json:"fields,omitempty"`
}

// Row is what one sample message becomes in the table.
type Row struct {
	Message int  `json:"message"` // index of the sample message
	Written bool `json:"written"`
	// Values is the row, column by column in table order, as BigQuery
	// would hold it (dates from numbers shown as dates, and so on).
	Values json.RawMessage `json:"values,omitempty"`
	// Dropped lists message fields without a column that dropUnknownFields
	// removes, as JSON pointers into the message.
	Dropped []string `json:"dropped,omitempty"`
	// Problem says why the message is not written and stays in the backlog.
	Problem string   `json:"problem,omitempty"`
	Notes   []string `json:"notes,omitempty"`
}

// BigQueryResult is the verdict on a BigQuery subscription's table.
type BigQueryResult struct {
	// Checked says whether a table schema was given to check; Compatible
	// is true when it was and nothing in it, the topic schema or the sample
	// messages stops the subscription from writing.
	Checked    bool `json:"checked"`
	Compatible bool `json:"compatible"`
	// TableSchema is a table that fits, to create the table with (`bq mk
	// --schema`): from the topic schema with useTopicSchema, else the data
	// column, plus the metadata columns with writeMetadata.
	TableSchema []SchemaField `json:"tableSchema"`
	Rows        []Row         `json:"rows,omitempty"`
}
