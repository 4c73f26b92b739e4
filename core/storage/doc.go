// Package storage previews what a Cloud Storage subscription writes: the
// object names it makes, when it rolls over to a new file, and what a file
// holds. It also carries every naming rule of such a subscription (bucket
// names, object names, the datetime format) behind one function, Check,
// which the subscription validator calls, so that validating and
// previewing cannot disagree.
//
// # Names
//
// An object is named <prefix><date-time><separator><uuid><suffix>. The
// date-time is the file's creation time in UTC, printed by the
// filenameDatetimeFormat (DefaultFormat when the field is absent or empty,
// docs/decisions.md D12). The separator is "_", unless the format ends in one of
// its separators (- _ : /), which then takes its place. ParseFormat turns a
// format into a list of Elements with byte offsets, from which it can be
// printed back (Format.String) or applied to a time (Format.Append).
//
// A preview is reproducible when it is given a time and a uuid. Asked for
// several names, it gives file i the time t + i*maxDuration (the earliest
// each successive file can roll over by duration alone) and the uuid
// UUIDs.At(i): the given uuid for file 0, and for the others a UUID derived
// from it and i, since the service never reuses one.
//
// # Batching
//
// Batcher cuts a message stream into files by maxDuration, maxBytes and
// maxMessages; its doc comment lists the exact roll-over rules chosen. It
// costs constant time per message and keeps only the first files it is
// asked to keep, so a synthetic stream of millions of messages runs in
// milliseconds.
//
// # Contents
//
// A text file holds the payloads separated by "\n", with no newline after
// the last (AppendText). Avro files are only summarised here (which record
// schema, how many records, how many payload bytes); core/avroschema
// writes real ones.
//
// The package uses the standard library and core/diag only: it is linked
// into every build, the browser's included.
package storage
