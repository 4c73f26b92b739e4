package limits

// Bounds on the configuration and message documents subplay decodes
// (core/doc).

// DocumentBytes is the longest text decoded. A subscription as gcloud or
// the REST API prints it is under 4 KiB; a file of sample messages can be
// longer, and a megabyte leaves room for both while keeping a hostile
// request's cost small.
const DocumentBytes = 1 << 20

// DocumentDepth is the deepest nesting of objects and arrays accepted. A
// subscription nests five levels; schemas and message payloads go deeper,
// never this deep.
const DocumentDepth = 64

// YAMLScanDepthFactor scales DocumentDepth into the bound of the cheap scan
// that runs before the YAML library sees the text. The library recurses
// once per level (and allows 10,000 levels), so a text nested thousands of
// levels deep must be refused before it recurses; the scan counts
// indentation steps and open brackets, which can undercount a level
// (a sequence written at its key's indentation) or overcount one (a scalar
// after "- "), so it refuses only at twice DocumentDepth: what it refuses
// is surely too deep, and what it lets through recurses a few hundred
// levels at most, which the walker then reports exactly.
const YAMLScanDepthFactor = 2

// ObjectMembers bounds the members of one object (a JSON object, a YAML
// mapping), duplicates included. A subscription has a few dozen fields,
// at most 64 labels, a message at most 100 attributes; the widest payload
// a schema gives a meaning is a BigQuery row (10,000 columns, nested ones
// included) or an Avro record at Pub/Sub's 300 KB schema limit (about
// 9,500 fields). Past it the reader stops at the first member too many,
// before anything downstream (decoding, checking every key, echoing the
// object back) pays for the rest: 60,000 labels cost the browser's
// instance about a second.
const ObjectMembers = 10_000

// YAMLNodes bounds the values a YAML document expands to: a few anchors
// referring to each other can otherwise expand a kilobyte into billions.
const YAMLNodes = 100_000

// YAMLAliasNodes bounds the values copied by aliases alone, far below
// YAMLNodes: a large sample-message file is legitimate, a small file that
// expands a thousandfold through aliases is not, and refusing it should
// cost little.
const YAMLAliasNodes = 10_000

// QuotedInput is the most of one piece of user input (a key, a word, a
// value) a message quotes; longer ones are shortened with "…", so a
// 900 KB key cannot make a 900 KB message.
const QuotedInput = 64
