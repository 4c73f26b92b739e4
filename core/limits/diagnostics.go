package limits

// Diagnostics caps the findings one answer reports: past this many, a wall
// of findings helps nobody, and hostile input must not make output
// unbounded.
const Diagnostics = 200

// CollectedDiagnostics caps the findings one parser keeps while it reads;
// the rest are only counted. Parsers find in text order, so the kept ones
// include the first Diagnostics by position even after merging with other
// findings, and a megabyte of duplicate keys costs a few hundred findings,
// not a hundred thousand.
const CollectedDiagnostics = 2 * Diagnostics
