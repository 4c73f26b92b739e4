// Package protoschema reads a Protocol Buffer topic schema, the .proto text
// a Pub/Sub topic can hold, far enough to say which BigQuery columns its
// messages fit: messages, nested messages, enums, scalar, repeated, map and
// oneof fields, with the position of every declaration.
//
// It is a hand-written reader rather than a full compiler such as
// github.com/bufbuild/protocompile: the schema preview needs declarations
// and types, not descriptors, options or imports, and this package is
// linked into the browser module, where every dependency is paid for in
// download size. Options are skipped (their syntax is checked only loosely),
// services and extensions are skipped whole, and imports are not followed.
package protoschema
