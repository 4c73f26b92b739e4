package limits

// Bounds of topic schemas (.proto and Avro), BigQuery table schemas and
// what subplay generates from them.

// BigQueryColumns is the most columns a BigQuery table holds, nested
// columns included: BigQuery's own limit ("the overall maximum number of
// columns and nested columns is 10,000", Data Catalog's schema reference
// for BigQuery tables). A table schema over it is refused, and so is a
// proposed table that would be.
const BigQueryColumns = 10_000

// BigQueryNesting is how many levels of columns a BigQuery table may nest:
// a RECORD holds fields only up to this level, top-level columns being
// level 1. BigQuery's own limit ("a schema cannot contain more than 15
// levels of nested RECORD types", the nested and repeated columns page).
const BigQueryNesting = 15

// BigQueryColumnName is the longest column name BigQuery accepts, in
// bytes (rules.md table 7).
const BigQueryColumnName = 300

// SchemaBytes bounds the text of a schema the readers take, like every
// other input: a megabyte.
const SchemaBytes = 1 << 20

// TopicSchemaBytes is Pub/Sub's own limit on a schema definition: 300 KB
// (the schema overview's "quotas and limits"; an older translation says
// 50 KB, the newer pages 300 KB). A topic schema over it cannot exist, so
// it is reported and not read further, which also bounds what reading a
// schema costs (hamba/avro's parser allocates about 4 KB per field). Read
// as KiB, the lenient reading, so that no schema the service takes is
// refused.
const TopicSchemaBytes = 300 << 10

// SchemaDepth bounds nesting in a topic schema: of declarations and
// brackets in a .proto text, and of field types along any chain of
// references (a message whose field's type is a message whose field's type
// is ..., in .proto and Avro alike). Readers check it before they recurse,
// so a hostile chain cannot exhaust the stack or the JSON encoders' depth;
// 64 is the JSON and YAML nesting bound of every document, and far more
// than any column layout BigQuery can hold (BigQueryNesting).
const SchemaDepth = 64

// ListedSymbols bounds how many of an enum's symbols a finding lists: an
// enum may have thousands, and a message must stay a sentence.
const ListedSymbols = 10
