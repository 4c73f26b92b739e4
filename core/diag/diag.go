package diag

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/subplay/subplay/core/limits"
)

// Severity says how much a finding matters.
type Severity string

const (
	// Error means the Pub/Sub API would reject the configuration.
	Error Severity = "error"
	// Warning means the API accepts it but it probably does not do what the user wants.
	Warning Severity = "warning"
	// Info is a consequence worth knowing.
	Info Severity = "info"
)

func (s Severity) rank() int {
	switch s {
	case Error:
		return 0
	case Warning:
		return 1
	}
	return 2
}

// Pos is a byte offset into a text plus one, in the manner of go/token:
// the zero Pos means "no position", so a Diagnostic built without one stays
// honest about it.
type Pos int

// NoPos is the zero Pos.
const NoPos Pos = 0

// At returns the Pos of a byte offset.
func At(offset int) Pos { return Pos(offset + 1) }

// IsValid reports whether p names a position.
func (p Pos) IsValid() bool { return p > 0 }

// Offset returns the byte offset p names; it is -1 for NoPos.
func (p Pos) Offset() int { return int(p) - 1 }

// Span is the half-open byte range [Start, End) of a text.
type Span struct {
	Start, End Pos
}

// SpanOf returns the span of the byte offsets [start, end).
func SpanOf(start, end int) Span {
	if end < start {
		end = start
	}
	return Span{At(start), At(end)}
}

// IsValid reports whether s has a position.
func (s Span) IsValid() bool { return s.Start.IsValid() }

// Diagnostic is one finding, in the shape every entry point returns
// (see DESIGN.md, "The contract").
//
// Producers that parse a text (the filter parser, the datetime-format
// parser, the document decoder) set Span, in bytes of the text they were
// given. Line and Column are filled in at the end by Source.Locate, once the
// span has been carried into the text the user typed.
//
// Input names the text of the request the finding is about (one of the
// Input constants), and MessageIndex, for a finding about one sample
// message, its index ("message" is taken by the text). Producers set both
// where they create the finding, so that no consumer guesses them back
// from the path.
type Diagnostic struct {
	Severity     Severity `json:"severity"`
	Code         string   `json:"code"`
	Input        string   `json:"input,omitempty"`
	MessageIndex *int     `json:"messageIndex,omitempty"`
	Path         string   `json:"path,omitempty"`
	Line         int      `json:"line,omitempty"`
	Column       int      `json:"column,omitempty"`
	EndLine      int      `json:"endLine,omitempty"`
	EndColumn    int      `json:"endColumn,omitempty"`
	Message      string   `json:"message"`
	Hint         string   `json:"hint,omitempty"`

	Span Span `json:"-"`
}

// Sort orders diagnostics by position (unpositioned ones last, by path),
// then by severity, then by code, so output is stable whatever order the
// rules ran in.
func Sort(ds []Diagnostic) {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		ap, bp := a.Line > 0, b.Line > 0
		if ap != bp {
			if ap {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(a.Line, b.Line); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Column, b.Column); c != 0 {
			return c
		}
		if !ap {
			if c := cmp.Compare(a.Span.Start, b.Span.Start); c != 0 {
				return c
			}
			if c := cmp.Compare(a.Path, b.Path); c != 0 {
				return c
			}
		}
		if c := cmp.Compare(a.Severity.rank(), b.Severity.rank()); c != 0 {
			return c
		}
		return cmp.Compare(a.Code, b.Code)
	})
}

// HasErrors reports whether any diagnostic is an error.
func HasErrors(ds []Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Count returns how many diagnostics have severity s.
func Count(ds []Diagnostic, s Severity) int {
	n := 0
	for _, d := range ds {
		if d.Severity == s {
			n++
		}
	}
	return n
}

// MaxDiagnostics caps what one request reports (see limits.Diagnostics).
const MaxDiagnostics = limits.Diagnostics

// MaxCollected caps what one parser keeps (see limits.CollectedDiagnostics):
// past it, a parser counts what it drops and passes the count to
// FinishDropped.
const MaxCollected = limits.CollectedDiagnostics

// Cap trims ds to MaxDiagnostics entries (after sorting, so the first
// findings by position are kept) and appends a note saying how many were
// left out.
func Cap(ds []Diagnostic) []Diagnostic { return capDropped(ds, 0) }

func capDropped(ds []Diagnostic, uncollected int) []Diagnostic {
	if len(ds) <= MaxDiagnostics && uncollected == 0 {
		return ds
	}
	dropped := max(len(ds)-MaxDiagnostics, 0) + uncollected
	ds = ds[:min(len(ds), MaxDiagnostics):min(len(ds), MaxDiagnostics)]
	return append(ds, Diagnostic{
		Severity: Info,
		Code:     "too-many-diagnostics",
		Message:  strconv.Itoa(dropped) + " more findings were left out",
		Hint:     "fix the ones above first",
	})
}

// Finish sorts and caps ds: what every producer returns to a caller.
func Finish(ds []Diagnostic) []Diagnostic {
	Sort(ds)
	return Cap(ds)
}

// FinishDropped is Finish for a producer that stopped collecting at
// MaxCollected: the note counts the uncollected findings too.
func FinishDropped(ds []Diagnostic, uncollected int) []Diagnostic {
	Sort(ds)
	return capDropped(ds, uncollected)
}

// PointerKey escapes an object key for use as one segment of a JSON
// pointer (RFC 6901): "~" becomes "~0" and "/" becomes "~1", so a label
// key "a/b" gives the path "/labels/a~1b".
func PointerKey(k string) string {
	if !strings.ContainsAny(k, "~/") {
		return k
	}
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// Quote quotes a piece of user input for a message, as strconv.Quote does,
// keeping at most limits.QuotedInput code points and marking a cut with
// "…": a megabyte key must not make a megabyte message.
func Quote(s string) string {
	if c, cut := clip(s); cut {
		return strconv.Quote(c) + "…"
	}
	return strconv.Quote(s)
}

// Clip is Quote without the quotes: a piece of user input shown as it is
// (a number, a key in a path), keeping at most limits.QuotedInput code
// points and marking a cut with "…".
func Clip(s string) string {
	if c, cut := clip(s); cut {
		return c + "…"
	}
	return s
}

// clip returns s's first limits.QuotedInput code points, and whether that
// left anything out.
func clip(s string) (string, bool) {
	n := 0
	for i := range s {
		if n == limits.QuotedInput {
			return s[:i], true
		}
		n++
	}
	return s, false
}

// The inputs of a request a diagnostic can be about.
const (
	InputConfig      = "config"      // the subscription configuration
	InputMessages    = "messages"    // the sample messages
	InputTopicSchema = "topicSchema" // the topic's Avro or .proto schema
	InputTableSchema = "tableSchema" // the BigQuery table's schema
	InputFilter      = "filter"      // a filter given on its own
)

// In sets the input of every diagnostic of ds that has none, and returns ds.
func In(input string, ds []Diagnostic) []Diagnostic {
	for i := range ds {
		if ds[i].Input == "" {
			ds[i].Input = input
		}
	}
	return ds
}

// OfMessage marks every diagnostic of ds as about sample message i, and
// returns ds.
func OfMessage(i int, ds []Diagnostic) []Diagnostic {
	for j := range ds {
		ds[j].Input = InputMessages
		ds[j].MessageIndex = &i
	}
	return ds
}

// ForMessage reports whether d is about sample message i.
func (d *Diagnostic) ForMessage(i int) bool {
	return d.MessageIndex != nil && *d.MessageIndex == i
}
