package limits

// Bounds of the Cloud Storage previews (core/storage, the names operation).

// DatetimeFormatBytes bounds the datetime format parsed: an object name
// holds at most 1024 bytes, so a longer format can only be wrong, and the
// bound keeps hostile input from costing one finding per byte.
const DatetimeFormatBytes = 1024

// DatetimeFormatFindings caps the findings of one format; past a handful
// the user has typed something else entirely.
const DatetimeFormatFindings = 20

// CharFindings caps the findings of each severity about single characters of one name
// field (a prefix full of control characters is one problem, not 1,000).
const CharFindings = 10

// PreviewNames is the most object names the names operation lists: a page
// shows a few, a script wants a sample; 1,000 names are ~100 KB of output.
const PreviewNames = 1000

// PreviewFiles is the most simulated files the names operation lists; the
// totals count every file, the list stops here.
const PreviewFiles = 1000

// StreamMessages is the most messages a synthetic stream may have
// (rate times duration). The simulation computes per file, not per
// message, so this bounds the arithmetic's range rather than the work.
const StreamMessages = 10_000_000

// FileContentBytes bounds the contents of one simulated file a response
// carries.
const FileContentBytes = 1 << 20

// UUIDBytes bounds the uuid a request may give for the first file: uuids
// are 36 bytes, and the value is copied into every name.
const UUIDBytes = 64
