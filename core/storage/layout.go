package storage

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/subplay/subplay/core/diag"
)

// Settings are the string fields of a cloudStorageConfig that decide where
// objects go and what they are called. A nil field is absent.
type Settings struct {
	Bucket                 *string
	FilenamePrefix         *string
	FilenameSuffix         *string
	FilenameDatetimeFormat *string
}

// JSON pointers of the fields, as diagnostics report them.
const (
	PathBucket = "/cloudStorageConfig/bucket"
	PathPrefix = "/cloudStorageConfig/filenamePrefix"
	PathSuffix = "/cloudStorageConfig/filenameSuffix"
	PathFormat = "/cloudStorageConfig/filenameDatetimeFormat"
)

// Check applies every Cloud Storage naming rule to s: the bucket name, the
// characters of prefix and suffix, the datetime format, and the names they
// make together (length, reserved forms). Each diagnostic has Path set to
// its field and, when it points inside the field, a Span in bytes of that
// field's string; Line and Column are left for the caller to fill in.
// Findings come grouped by field (bucket, prefix, format, suffix), each
// group in order of position.
//
// Check leaves alone what the subscription rule table covers: whether a
// bucket is given at all (an empty string counts as not given, as in
// proto3), the numeric batching limits, and the output format.
func Check(s Settings) []diag.Diagnostic {
	_, ds := Compile(s)
	return ds
}

// Compile checks s as Check does and, when prefix, suffix and format are
// valid, returns the Layout they make (an invalid bucket does not stop
// names from being previewed). The Layout is nil otherwise.
func Compile(s Settings) (*Layout, []diag.Diagnostic) {
	var ds []diag.Diagnostic
	field := func(path string, fds []diag.Diagnostic) {
		slices.SortStableFunc(fds, func(a, b diag.Diagnostic) int { return cmp.Compare(a.Span.Start, b.Span.Start) })
		for i := range fds {
			fds[i].Path = path
		}
		ds = append(ds, fds...)
	}
	// An empty bucket is, in proto3, no bucket: the rule table's
	// required-field check reports it.
	if s.Bucket != nil && *s.Bucket != "" {
		field(PathBucket, CheckBucket(*s.Bucket))
	}

	l := &Layout{Format: defaultParsed}
	nameErrors := false
	var prefixDs, suffixDs []diag.Diagnostic
	if s.FilenamePrefix != nil {
		l.Prefix = *s.FilenamePrefix
		prefixDs = checkPart(l.Prefix)
	}
	if s.FilenameSuffix != nil {
		l.Suffix = *s.FilenameSuffix
		suffixDs = checkPart(l.Suffix)
		if strings.HasSuffix(l.Suffix, "/") {
			suffixDs = append(suffixDs, diag.Diagnostic{Severity: diag.Error, Code: "filename-suffix-slash",
				Message: "the filename suffix cannot end in \"/\"",
				Hint:    "objects would look like folders; drop the final \"/\"",
				Span:    diag.SpanOf(len(l.Suffix)-1, len(l.Suffix))})
		} else if i := strings.IndexByte(l.Suffix, '/'); i >= 0 {
			suffixDs = append(suffixDs, diag.Diagnostic{Severity: diag.Info, Code: "filename-suffix-folder",
				Message: "a \"/\" in the suffix puts every object in a folder of its own, named after its uuid",
				Span:    diag.SpanOf(i, i+1)})
		}
	}
	var formatDs []diag.Diagnostic
	// proto3 cannot tell an empty string from an absent one: both mean
	// the default format.
	if s.FilenameDatetimeFormat != nil && *s.FilenameDatetimeFormat != "" {
		var f *Format
		f, formatDs = ParseFormat(*s.FilenameDatetimeFormat)
		if f != nil {
			l.Format = f
			l.FormatSet = true
		}
	}
	nameErrors = diag.HasErrors(prefixDs) || diag.HasErrors(suffixDs) || diag.HasErrors(formatDs)
	// route files a finding about the whole name under the field it is on.
	route := func(path string, d diag.Diagnostic) {
		switch path {
		case PathPrefix:
			prefixDs = append(prefixDs, d)
		case PathSuffix:
			suffixDs = append(suffixDs, d)
		default:
			formatDs = append(formatDs, d)
		}
	}

	// Rules on the whole name: checked only once each part is valid, and
	// reported on a part, since the name itself is nowhere in the config.
	if !nameErrors {
		if n := l.MaxLen(); n > MaxObjectName {
			path, span := l.longestPart()
			d := diag.Diagnostic{Severity: diag.Error, Code: "object-name-length", Span: span,
				Message: "object names would be " + strconv.Itoa(n) + " bytes long; at most 1024 are allowed",
				Hint:    "the date-time and the 36-character uuid count too; shorten the prefix or suffix"}
			route(path, d)
		}
		sample := l.Name(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), strings.Repeat("0", UUIDLen))
		if strings.HasPrefix(sample, acmePrefix) {
			d := diag.Diagnostic{Severity: diag.Error, Code: "object-name-reserved",
				Message: "object names would start with " + strconv.Quote(acmePrefix) + ", which Cloud Storage reserves",
				Hint:    "choose another prefix"}
			if s.FilenamePrefix != nil {
				d.Span = diag.SpanOf(0, min(len(l.Prefix), len(acmePrefix)))
				prefixDs = append(prefixDs, d)
			} else {
				formatDs = append(formatDs, d)
			}
		}
		nameErrors = diag.HasErrors(prefixDs) || diag.HasErrors(suffixDs) || diag.HasErrors(formatDs)
	}
	if l.Format != nil && !diag.HasErrors(formatDs) {
		for _, d := range l.checkFolders() {
			route(d.Path, d)
		}
	}
	field(PathPrefix, prefixDs)
	field(PathFormat, formatDs)
	field(PathSuffix, suffixDs)
	if nameErrors {
		return nil, ds
	}
	return l, ds
}

// origin says which field, and where in it, a byte of a name comes from.
type origin struct {
	path string // "" for bytes no field holds: the uuid and the separator
	off  int
}

// sample returns a name of the layout and the origin of each of its bytes.
func (l *Layout) sample() (string, []origin) {
	var b []byte
	var o []origin
	for i := 0; i < len(l.Prefix); i++ {
		b, o = append(b, l.Prefix[i]), append(o, origin{PathPrefix, i})
	}
	for _, e := range l.Format.Elements {
		text := (&Format{Elements: []Element{e}}).Append(nil, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))
		for k := range text {
			b, o = append(b, text[k]), append(o, origin{PathFormat, e.Start + min(k, e.End-e.Start-1)})
		}
	}
	for _, c := range []byte(l.Separator() + strings.Repeat("0", UUIDLen)) {
		b, o = append(b, c), append(o, origin{})
	}
	for i := 0; i < len(l.Suffix); i++ {
		b, o = append(b, l.Suffix[i]), append(o, origin{PathSuffix, i})
	}
	return string(b), o
}

// checkFolders warns about folder names that tools and file systems handle
// badly, looking at whole names, since a prefix ending in "/" and a format
// starting with one make "//" together. Each finding goes to the field
// holding the "/" that ends the folder.
func (l *Layout) checkFolders() []diag.Diagnostic {
	name, from := l.sample()
	var ds []diag.Diagnostic
	start := 0
	for i := 0; i < len(name); i++ {
		if name[i] != '/' {
			continue
		}
		seg := name[start:i]
		at := from[i]
		switch seg {
		case "":
			ds = append(ds, diag.Diagnostic{Severity: diag.Warning, Code: "object-name-empty-folder", Path: at.path,
				Span:    diag.SpanOf(at.off, at.off+1),
				Message: "this \"/\" makes a folder with an empty name",
				Hint:    "many tools cannot open such folders; drop the extra \"/\""})
		case ".", "..":
			// Point at the dots when one field holds them all.
			if first, last := from[start], from[i-1]; first.path == last.path && first.path != "" {
				at = first
			}
			span := diag.SpanOf(at.off, at.off+len(seg))
			if at == from[i] {
				span = diag.SpanOf(at.off, at.off+1)
			}
			ds = append(ds, diag.Diagnostic{Severity: diag.Warning, Code: "object-name-dot-folder", Path: at.path,
				Span:    span,
				Message: "a folder named " + diag.Quote(seg) + " is collapsed or refused by tools that treat names as paths",
				Hint:    "choose another folder name"})
		}
		start = i + 1
		if len(ds) >= maxCharFindings {
			break
		}
	}
	return ds
}

// Layout is how a subscription names its objects:
// <prefix><date-time><separator><uuid><suffix>, where the separator is "_"
// unless the format ends in a separator of its own.
type Layout struct {
	Prefix, Suffix string
	Format         *Format
	// FormatSet is false when the default format applies.
	FormatSet bool
}

// NewLayout returns the layout of a valid prefix, suffix and format (nil
// format: the default), or nil and the findings that make it invalid.
func NewLayout(prefix, suffix string, format *string) (*Layout, []diag.Diagnostic) {
	return Compile(Settings{FilenamePrefix: &prefix, FilenameSuffix: &suffix, FilenameDatetimeFormat: format})
}

// Separator is what stands between the date-time and the uuid.
func (l *Layout) Separator() string {
	if l.Format.EndsWithSeparator() {
		return ""
	}
	return "_"
}

// MaxLen is the length in bytes of every name with a 36-character uuid
// (for years 0 to 9999).
func (l *Layout) MaxLen() int {
	return len(l.Prefix) + l.Format.Width() + len(l.Separator()) + UUIDLen + len(l.Suffix)
}

func (l *Layout) longestPart() (string, diag.Span) {
	p, s, f := len(l.Prefix), len(l.Suffix), l.Format.Width()
	switch {
	case p >= s && p >= f:
		return PathPrefix, diag.SpanOf(0, p)
	case s >= f:
		return PathSuffix, diag.SpanOf(0, s)
	}
	if l.FormatSet {
		return PathFormat, diag.SpanOf(0, len(l.Format.Source))
	}
	return PathFormat, diag.Span{}
}

// AppendName appends the name of an object created at t with uuid.
func (l *Layout) AppendName(dst []byte, t time.Time, uuid string) []byte {
	dst = append(dst, l.Prefix...)
	dst = l.Format.Append(dst, t)
	dst = append(dst, l.Separator()...)
	dst = append(dst, uuid...)
	return append(dst, l.Suffix...)
}

// Name returns the name of an object created at t (taken in UTC) with uuid.
func (l *Layout) Name(t time.Time, uuid string) string {
	return string(l.AppendName(make([]byte, 0, l.MaxLen()-UUIDLen+len(uuid)), t, uuid))
}

// Template writes the layout with its variable parts in braces, e.g.
// "prod_{YYYY}-{MM}-{DD}T{hh}:{mm}:{ss}+00:00_{uuid}_archive".
func (l *Layout) Template() string {
	var b strings.Builder
	b.WriteString(l.Prefix)
	for _, e := range l.Format.Elements {
		switch e.Kind {
		case Year4, Year2, Month, Day, Hour, Minute, Second:
			b.WriteString("{" + e.Kind.String() + "}")
		case Separator:
			b.WriteByte(e.Sep)
		default:
			b.WriteString(e.Kind.String())
		}
	}
	b.WriteString(l.Separator() + "{uuid}" + l.Suffix)
	return b.String()
}

// Glob returns a wildcard pattern that matches every name of the layout
// and, as far as fixed text allows, nothing else: each digit of the
// date-time is "?" and the uuid is "*" (which does not cross "/" in
// gcloud storage or most file-system globs). Wildcard characters in the
// prefix and suffix are escaped as one-character classes ("[*]").
func (l *Layout) Glob() string {
	var b strings.Builder
	writeGlobLiteral(&b, l.Prefix)
	for _, e := range l.Format.Elements {
		switch e.Kind {
		case Year4, Year2, Month, Day, Hour, Minute, Second:
			b.WriteString(strings.Repeat("?", e.width()))
		case Separator:
			b.WriteByte(e.Sep)
		default:
			b.WriteString(e.Kind.String())
		}
	}
	b.WriteString(l.Separator() + "*")
	writeGlobLiteral(&b, l.Suffix)
	return b.String()
}

func writeGlobLiteral(b *strings.Builder, s string) {
	for _, r := range s {
		switch r {
		case '*', '?', '[', ']':
			b.WriteString("[" + string(r) + "]")
		default:
			b.WriteRune(r)
		}
	}
}

// Folder is one level of the folders a layout's "/" characters make.
type Folder struct {
	// Path is the folder of the example name, ending in "/".
	Path string `json:"path"`
	// Pattern is the same path as the layout writes it (see Template).
	Pattern string `json:"pattern"`
	// Field is the JSON pointer of the field whose "/" closes the folder,
	// and Offset the byte offset of that "/" in the field's value.
	Field  string `json:"field"`
	Offset int    `json:"offset"`
	// Per says how often a new folder appears at this level: "fixed" (one
	// folder for every object), "year", "month", "day", "hour", "minute",
	// "second" (the finest unit of the path so far), or "object" (the
	// uuid is in the path: one folder per object).
	Per string `json:"per"`
}

var perNames = [...]string{unitNone: "fixed", unitYear: "year", unitMonth: "month", unitDay: "day",
	unitHour: "hour", unitMinute: "minute", unitSecond: "second", unitSecond + 1: "object"}

// Folders lists the folders of the name created at t with uuid, from the
// outermost, saying which field's "/" makes each one.
func (l *Layout) Folders(t time.Time, uuid string) []Folder {
	var out []Folder
	var path, pattern strings.Builder
	finest := unitNone
	per := func() string { return perNames[finest] }
	literal := func(s, field string) {
		for i := 0; i < len(s); i++ {
			path.WriteByte(s[i])
			pattern.WriteByte(s[i])
			if s[i] == '/' {
				out = append(out, Folder{Path: path.String(), Pattern: pattern.String(), Field: field, Offset: i, Per: per()})
			}
		}
	}
	literal(l.Prefix, PathPrefix)
	t = t.UTC()
	for _, e := range l.Format.Elements {
		if u := e.Kind.unit(); u >= unitYear && u <= unitSecond && u > finest {
			finest = u
		}
		switch e.Kind {
		case Separator:
			path.WriteByte(e.Sep)
			pattern.WriteByte(e.Sep)
			if e.Sep == '/' {
				out = append(out, Folder{Path: path.String(), Pattern: pattern.String(), Field: PathFormat, Offset: e.Start, Per: per()})
			}
		case Year4, Year2, Month, Day, Hour, Minute, Second:
			path.Write((&Format{Elements: []Element{e}}).Append(nil, t))
			pattern.WriteString("{" + e.Kind.String() + "}")
		default:
			path.WriteString(e.Kind.String())
			pattern.WriteString(e.Kind.String())
		}
	}
	path.WriteString(l.Separator() + uuid)
	pattern.WriteString(l.Separator() + "{uuid}")
	finest = unitSecond + 1
	literal(l.Suffix, PathSuffix)
	return out
}
