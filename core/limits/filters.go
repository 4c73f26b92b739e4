package limits

// FilterDepth bounds how deep the filter parser recurses (core/filter). The
// service accepts filters of 256 bytes, and every level costs at least one
// byte, so a filter the service accepts never reaches it; the bound stops a
// longer filter (one in a configuration file can be a megabyte) from
// recursing without limit. The parser checks it before it recurses.
const FilterDepth = 256

// CollectedDiagnostics (diagnostics.go) also bounds the findings of one
// filter: a megabyte of bad escapes is 400 findings and a count.
