// Package bigquery checks a BigQuery subscription against its table before
// anything is created: the table schema (in the JSON `bq show --schema`
// prints), the topic schema (Avro or Protocol Buffer), and the
// subscription's options. A mismatch the service would meet later, as a
// SCHEMA_MISMATCH state or as messages piling up in the backlog, is
// reported here as an error at the column or field that causes it.
//
// It also generates a table schema that fits a topic schema, and previews
// the row each sample message becomes.
//
// Diagnostics come back located, with paths that say which text they point
// into: "/tableSchema/..." (the table schema), "/topicSchema/..." (the
// topic schema), "/messages/..." (the sample messages), and anything else
// into the subscription. The playground's request fields have those names.
package bigquery
