// Package doc decodes JSON and YAML into one small tree that remembers where
// every key and value sits in the text, so each finding can point at the
// user's own line and column. It also maps offsets inside a decoded string
// back to the text (a filter in a configuration file, with its escapes).
//
// Both decoders are bounded: input size and nesting depth are capped, and
// malformed input yields positioned diagnostics, never a panic.
package doc

import (
	"math"
	"strings"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
)

// Kind is the JSON kind of a node.
type Kind uint8

const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"null", "boolean", "number", "string", "array", "object"}

func (k Kind) String() string { return kindNames[k] }

// Node is one value of a document.
type Node struct {
	Kind Kind
	// Span covers the value in the source (for a YAML block scalar, its
	// indicator line).
	Span diag.Span
	// Value is the decoded string, the number as written (YAML integers in
	// other bases are turned into decimal), or "true"/"false".
	Value   string
	Items   []*Node  // Array
	Members []Member // Object, in source order; keys are unique
	style   style
}

// Member is one key of an object.
type Member struct {
	Key     string
	KeySpan diag.Span
	Value   *Node
}

// Get returns the value of key in an object node, or nil.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	for i := range n.Members {
		if n.Members[i].Key == key {
			return n.Members[i].Value
		}
	}
	return nil
}

// Format names a text format.
type Format string

const (
	JSON Format = "json"
	YAML Format = "yaml"
)

// Doc is a decoded text.
type Doc struct {
	Source *diag.Source
	Format Format
	Root   *Node // nil when the text could not be decoded
}

// Limits bound what Parse accepts.
type Limits struct {
	MaxBytes int // longest text accepted
	MaxDepth int // deepest nesting of arrays and objects
	// MaxMembers is the most members one object may hold; 0 sets no
	// bound. A payload read from a message's data against its schema
	// sets none (a map may hold any number of entries; its size is
	// bounded already); a payload written into a message file as JSON is
	// part of that file and held to DefaultLimits.
	MaxMembers int
}

// DefaultLimits are the limits every entry point uses (see core/limits for
// their reasons).
var DefaultLimits = Limits{MaxBytes: limits.DocumentBytes, MaxDepth: limits.DocumentDepth, MaxMembers: limits.ObjectMembers}

// Detect guesses the format of text: JSON when its first significant
// character opens an object or array, YAML otherwise.
func Detect(text string) Format {
	t := strings.TrimLeft(strings.TrimPrefix(text, "\ufeff"), " \t\r\n")
	if strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		return JSON
	}
	return YAML
}

// Parse decodes text in format f ("" to detect it) within DefaultLimits.
func Parse(name, text string, f Format) (*Doc, []diag.Diagnostic) {
	return ParseLimits(name, text, f, DefaultLimits)
}

// ParseLimits is Parse with explicit limits. Diagnostics come back located
// (with line and column) and sorted.
func ParseLimits(name, text string, f Format, lim Limits) (*Doc, []diag.Diagnostic) {
	if f == "" {
		f = Detect(text)
	}
	d := &Doc{Source: diag.NewSource(name, text), Format: f}
	if len(text) > lim.MaxBytes {
		ds := []diag.Diagnostic{{
			Severity: diag.Error,
			Code:     "input-too-large",
			Message:  "the input is larger than " + sizeText(lim.MaxBytes) + ", the most subplay reads",
			Hint:     "configurations and schemas are a few kilobytes, sample-message files well under a megabyte; check that this is the right file",
		}}
		return d, ds
	}
	if utf16Text(text) {
		// Read as UTF-8, UTF-16 is a word of odd bytes and NULs: say what it is.
		ds := []diag.Diagnostic{{Severity: diag.Error, Code: "utf16", Span: diag.SpanOf(0, 2),
			Message: "the input is UTF-16 text; subplay reads UTF-8",
			Hint:    "save the file as UTF-8 (PowerShell's > writes UTF-16: use Out-File -Encoding utf8)"}}
		d.Source.Locate(ds)
		return d, ds
	}
	var ds []diag.Diagnostic
	dropped := 0
	members := lim.MaxMembers
	if members <= 0 {
		members = math.MaxInt
	}
	switch f {
	case JSON:
		d.Root, ds, dropped = parseJSON(text, lim.MaxDepth, members)
	case YAML:
		d.Root, ds, dropped = parseYAML(d.Source, lim.MaxDepth, members)
	default:
		ds = []diag.Diagnostic{{Severity: diag.Error, Code: "unknown-format",
			Message: "unknown format " + quote(string(f)), Hint: `use "json" or "yaml"`}}
	}
	d.Source.Locate(ds)
	return d, diag.FinishDropped(ds, dropped)
}

func sizeText(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return itoa(n>>20) + " MiB"
	case n >= 1<<20:
		return itoa(n) + " bytes (" + itoa(n>>20) + "+ MiB)"
	}
	return itoa(n) + " bytes"
}

// tooDeep is the finding for a document nested deeper than maxDepth, at
// the byte offset where the scan or the parser saw it.
func tooDeep(maxDepth, at int) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Error, Code: "too-deep",
		Message: "the input nests deeper than " + itoa(maxDepth) + " levels",
		Hint:    "configurations, schemas and sample messages nest a few levels at most; check that this is the right file",
		Span:    diag.SpanOf(at, at+1)}
}

// tooManyMembers is the finding at the key that takes an object past
// limit members (Limits.MaxMembers); the reader stops there.
func tooManyMembers(key diag.Span, limit int) diag.Diagnostic {
	return diag.Diagnostic{Severity: diag.Error, Code: "too-large",
		Message: "this object holds more than " + itoa(limit) + " members",
		Hint:    "a subscription has a few dozen fields, at most 64 labels, a message at most 100 attributes; check that this is the right file",
		Span:    key}
}

// utf16Text reports whether text looks like UTF-16: a byte-order mark, or a
// NUL in its first two bytes (the high byte of an ASCII character).
func utf16Text(text string) bool {
	return strings.HasPrefix(text, "\xff\xfe") || strings.HasPrefix(text, "\xfe\xff") ||
		len(text) >= 2 && (text[0] == 0 || text[1] == 0)
}
