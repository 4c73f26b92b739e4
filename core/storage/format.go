package storage

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
)

// DefaultFormat is the datetime format a subscription uses when
// filenameDatetimeFormat is absent or empty (docs/decisions.md D12: the seeds'
// example name "prod_2023-09-25T04:10:00+00:00_uN1QuE_archive" implies it).
const DefaultFormat = "YYYY-MM-DDThh:mm:ss+00:00"

// Kind is the kind of one element of a datetime format.
type Kind uint8

const (
	Year4     Kind = iota + 1 // YYYY
	Year2                     // YY
	Month                     // MM
	Day                       // DD
	Hour                      // hh
	Minute                    // mm
	Second                    // ss
	DateSep                   // T, between date and time
	ZoneZ                     // Z
	ZoneUTC                   // +00:00
	Separator                 // one of - _ : /
)

var kindNames = [...]string{
	Year4: "YYYY", Year2: "YY", Month: "MM", Day: "DD", Hour: "hh", Minute: "mm", Second: "ss",
	DateSep: "T", ZoneZ: "Z", ZoneUTC: "+00:00", Separator: "separator",
}

// String returns the matcher as written in a format ("separator" for a
// separator, whose text varies).
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// unit is the time field a matcher prints; the two year matchers share one,
// as do the two zone forms, because each may appear only once.
type unit uint8

const (
	unitNone unit = iota
	unitYear
	unitMonth
	unitDay
	unitHour
	unitMinute
	unitSecond
	unitDateSep
	unitZone
	numUnits
)

func (k Kind) unit() unit {
	switch k {
	case Year4, Year2:
		return unitYear
	case Month:
		return unitMonth
	case Day:
		return unitDay
	case Hour:
		return unitHour
	case Minute:
		return unitMinute
	case Second:
		return unitSecond
	case DateSep:
		return unitDateSep
	case ZoneZ, ZoneUTC:
		return unitZone
	}
	return unitNone
}

var unitNames = [numUnits]string{
	unitYear: "the year (YYYY or YY)", unitMonth: "the month (MM)", unitDay: "the day (DD)",
	unitHour: "the hour (hh)", unitMinute: "the minute (mm)", unitSecond: "the second (ss)",
	unitDateSep: "the date-time separator T", unitZone: "the zone (Z or +00:00)",
}

// Element is one matcher or separator of a format, with its byte offsets
// in the format string.
type Element struct {
	Kind       Kind
	Start, End int
	Sep        byte // the separator character, for Kind == Separator
}

// width is how many bytes the element prints.
func (e Element) width() int {
	switch e.Kind {
	case Year4:
		return 4
	case Year2, Month, Day, Hour, Minute, Second:
		return 2
	case ZoneUTC:
		return 6
	}
	return 1
}

// Format is a parsed filenameDatetimeFormat.
type Format struct {
	// Source is the text the format was parsed from.
	Source   string
	Elements []Element
}

// MaxFormatBytes bounds the format text parsed (see limits.DatetimeFormatBytes).
const MaxFormatBytes = limits.DatetimeFormatBytes

// maxFormatFindings caps the findings of one format (see
// limits.DatetimeFormatFindings).
const maxFormatFindings = limits.DatetimeFormatFindings

// defaultParsed is DefaultFormat, parsed once.
var defaultParsed = mustParse(DefaultFormat)

func mustParse(s string) *Format {
	f, ds := ParseFormat(s)
	if f == nil {
		panic("storage: bad built-in format " + strconv.Quote(s) + ": " + ds[0].Message)
	}
	return f
}

// Default returns the parsed DefaultFormat. It is shared: do not modify it.
func Default() *Format { return defaultParsed }

// ParseFormat parses a datetime format. It returns nil and at least one
// error when the service would reject the format; informational findings
// may come with a valid format. Spans are byte offsets into s; diagnostics
// carry no Path (Check adds it). An empty s is not the default format
// here: callers decide what absence means (Check does).
func ParseFormat(s string) (*Format, []diag.Diagnostic) {
	p := formatParser{src: s}
	p.parse()
	if diag.HasErrors(p.ds) {
		return nil, p.ds
	}
	return &Format{Source: s, Elements: p.els}, p.ds
}

type formatParser struct {
	src  string
	els  []Element
	ds   []diag.Diagnostic
	seen [numUnits]int // 1 + index into els of the first element of each unit
	// tried marks units the user attempted but misspelled, so that a bad
	// "MMM" is not also reported as a missing month.
	tried [numUnits]bool
}

// letterUnit is the unit a letter most likely meant, in either case.
func letterUnit(r rune) unit {
	switch r {
	case 'Y', 'y':
		return unitYear
	case 'M':
		return unitMonth
	case 'D', 'd':
		return unitDay
	case 'h', 'H':
		return unitHour
	case 'm':
		return unitMinute
	case 's', 'S':
		return unitSecond
	}
	return unitNone
}

func (p *formatParser) report(sev diag.Severity, start, end int, code, msg, hint string) {
	if len(p.ds) >= maxFormatFindings {
		return
	}
	if len(p.ds) == maxFormatFindings-1 {
		sev, code, msg, hint = diag.Error, "datetime-format-too-many", "more problems in this datetime format were left out", "fix the ones before it first"
	}
	p.ds = append(p.ds, diag.Diagnostic{Severity: sev, Code: code, Message: msg, Hint: hint, Span: diag.SpanOf(start, end)})
}

func (p *formatParser) fail(start, end int, code, msg, hint string) {
	p.report(diag.Error, start, end, code, msg, hint)
}

func (p *formatParser) parse() {
	s := p.src
	if len(s) > MaxFormatBytes {
		p.fail(0, len(s), "datetime-format-too-long",
			"the datetime format is "+strconv.Itoa(len(s))+" bytes; an object name holds at most 1024",
			"a format needs about 20 characters, e.g. "+DefaultFormat)
		return
	}
	if s == "" {
		p.fail(0, 0, "datetime-format-empty", "the datetime format is empty", "leave the field out to get "+DefaultFormat)
		return
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch c {
		case 'Y', 'M', 'D', 'h', 'm', 's':
			j := i + 1
			for j < len(s) && s[j] == c {
				j++
			}
			p.run(c, i, j)
			i = j
		case 'T':
			p.add(Element{Kind: DateSep, Start: i, End: i + 1})
			i++
		case 'Z':
			p.add(Element{Kind: ZoneZ, Start: i, End: i + 1})
			i++
		case '+':
			if strings.HasPrefix(s[i:], "+00:00") {
				p.add(Element{Kind: ZoneUTC, Start: i, End: i + 6})
				i += 6
				continue
			}
			j := i + 1
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ':') {
				j++
			}
			p.fail(i, j, "datetime-format-zone", diag.Quote(s[i:j])+" is not a zone offset the service writes",
				"names are in UTC: the only offsets are Z and +00:00")
			i = j
		case '-', '_', ':', '/':
			p.els = append(p.els, Element{Kind: Separator, Start: i, End: i + 1, Sep: c})
			i++
		default:
			i = p.unknown(i)
		}
	}
	p.checkComplete()
}

// run handles a run of one matcher letter: only the exact lengths of the
// matchers are valid, so "MMM" is one mistake, not a month and a stray M.
func (p *formatParser) run(c byte, i, j int) {
	n := j - i
	k := Kind(0)
	switch {
	case c == 'Y' && n == 4:
		k = Year4
	case c == 'Y' && n == 2:
		k = Year2
	case n == 2 && c == 'M':
		k = Month
	case n == 2 && c == 'D':
		k = Day
	case n == 2 && c == 'h':
		k = Hour
	case n == 2 && c == 'm':
		k = Minute
	case n == 2 && c == 's':
		k = Second
	}
	if k != 0 {
		p.add(Element{Kind: k, Start: i, End: j})
		return
	}
	p.tried[letterUnit(rune(c))] = true
	text := p.src[i:j]
	var hint string
	switch c {
	case 'Y':
		hint = "the year is YYYY (four digits) or YY (two)"
	case 'M':
		hint = "the month is MM, two digits; months are never written as names"
	case 'D':
		hint = "the day of the month is DD"
	case 'h':
		hint = "the hour is hh, two digits from 00 to 23"
	case 'm':
		hint = "minutes are mm and the month is MM"
	case 's':
		hint = "seconds are ss; there are no fractions of a second"
	}
	p.fail(i, j, "datetime-format-matcher", diag.Quote(text)+" is not a datetime matcher", hint)
}

// unknown reports a character no matcher or separator starts with, and
// returns where parsing resumes. Consecutive unknown characters make one
// finding.
func (p *formatParser) unknown(i int) int {
	s := p.src
	r, size := utf8.DecodeRuneInString(s[i:])
	hint := caseHint(r)
	j := i + size
	switch {
	case r == '%' && j < len(s) && (s[j]|0x20 >= 'a' && s[j]|0x20 <= 'z'):
		// A strftime directive: one finding for "%Y", and the unit it
		// meant counts as attempted.
		p.tried[strftimeUnit(s[j])] = true
		j++
	case hint != "":
		for j < len(s) && rune(s[j]) == r {
			j++
		}
		p.tried[letterUnit(r)] = true
	default:
		for j < len(s) && !startsElement(s[j]) && caseHint(rune(s[j])) == "" {
			_, n := utf8.DecodeRuneInString(s[j:])
			j += n
		}
		hint = "between matchers only - _ : and / may appear"
	}
	what := "character " + strconv.QuoteRune(r)
	if r == utf8.RuneError && size == 1 {
		what = "byte " + strconv.Quote(s[i:i+1])
	}
	if j-i > size {
		what = diag.Quote(s[i:j])
	}
	p.fail(i, j, "datetime-format-character", what+" is not allowed in a datetime format", hint)
	return j
}

func startsElement(c byte) bool {
	return strings.IndexByte("YMDhmsTZ+-_:/", c) >= 0
}

// strftimeUnit is the unit of a strftime directive letter.
func strftimeUnit(c byte) unit {
	switch c {
	case 'Y', 'y', 'G', 'g':
		return unitYear
	case 'm', 'b', 'B':
		return unitMonth
	case 'd', 'e':
		return unitDay
	case 'H', 'I':
		return unitHour
	case 'M':
		return unitMinute
	case 'S':
		return unitSecond
	}
	return unitNone
}

// caseHint recognises a matcher typed in the wrong case or in another
// library's notation.
func caseHint(r rune) string {
	switch r {
	case 'y':
		return "the year is YYYY or YY, in capitals"
	case 'd':
		return "the day is DD, in capitals"
	case 'H':
		return "the hour is hh, in lower case"
	case 'S':
		return "seconds are ss, in lower case"
	case 't':
		return "the date-time separator is a capital T"
	case 'z':
		return "the UTC zone is a capital Z"
	case '%':
		return "write matchers such as YYYY and hh, not strftime directives"
	}
	return ""
}

// add appends a matcher, rejecting a second one of the same unit.
func (p *formatParser) add(e Element) {
	u := e.Kind.unit()
	if first := p.seen[u]; first != 0 {
		prev := p.els[first-1]
		msg := unitNames[u] + " appears twice"
		if prev.Kind != e.Kind {
			msg = unitNames[u] + " appears twice, as " + p.src[prev.Start:prev.End] + " and " + p.src[e.Start:e.End]
		}
		p.fail(e.Start, e.End, "datetime-format-repeated", msg,
			"each matcher may appear once; remove this one")
		return
	}
	p.els = append(p.els, e)
	p.seen[u] = len(p.els)
}

// checkComplete reports missing required matchers, and, as information,
// an order in which names do not sort by time.
func (p *formatParser) checkComplete() {
	var missing []string
	for u := unitYear; u <= unitSecond; u++ {
		if p.seen[u] == 0 && !p.tried[u] {
			missing = append(missing, unitNames[u])
		}
	}
	if len(missing) > 0 {
		msg := "the datetime format lacks " + joinAnd(missing)
		p.fail(0, len(p.src), "datetime-format-missing", msg,
			"every format needs YYYY (or YY), MM, DD, hh, mm and ss once each, e.g. "+DefaultFormat)
		return
	}
	if diag.HasErrors(p.ds) {
		return
	}
	last := unitNone
	for _, e := range p.els {
		u := e.Kind.unit()
		if u < unitYear || u > unitSecond {
			continue
		}
		if u < last {
			p.report(diag.Info, e.Start, e.End, "datetime-format-order",
				"object names will not sort by time: "+unitNames[u]+" comes after a smaller unit",
				"write the units from year down to second if downstream jobs list files in name order")
			return
		}
		last = u
	}
}

func joinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

// String prints the format back from its elements.
func (f *Format) String() string {
	var b strings.Builder
	for _, e := range f.Elements {
		if e.Kind == Separator {
			b.WriteByte(e.Sep)
		} else {
			b.WriteString(e.Kind.String())
		}
	}
	return b.String()
}

// EndsWithSeparator reports whether the format's last element is a
// separator; that character then stands between the date-time and the
// uuid instead of the usual "_" (as the seeds' "YYYY-MM-DDThh_mm_ss-"
// example shows).
func (f *Format) EndsWithSeparator() bool {
	return len(f.Elements) > 0 && f.Elements[len(f.Elements)-1].Kind == Separator
}

// Width is the number of bytes the format prints for a year from 0 to 9999.
func (f *Format) Width() int {
	n := 0
	for _, e := range f.Elements {
		n += e.width()
	}
	return n
}

// Append appends t, in UTC, as the format prints it. Years outside 0-9999
// (which no RFC 3339 time has) print in full under YYYY.
func (f *Format) Append(dst []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	hour, minute, sec := t.Clock()
	for _, e := range f.Elements {
		switch e.Kind {
		case Year4:
			if year >= 0 && year <= 9999 {
				dst = append(dst, byte('0'+year/1000), byte('0'+year/100%10), byte('0'+year/10%10), byte('0'+year%10))
			} else {
				dst = strconv.AppendInt(dst, int64(year), 10)
			}
		case Year2:
			dst = append2(dst, (year%100+100)%100)
		case Month:
			dst = append2(dst, int(month))
		case Day:
			dst = append2(dst, day)
		case Hour:
			dst = append2(dst, hour)
		case Minute:
			dst = append2(dst, minute)
		case Second:
			dst = append2(dst, sec)
		case DateSep:
			dst = append(dst, 'T')
		case ZoneZ:
			dst = append(dst, 'Z')
		case ZoneUTC:
			dst = append(dst, "+00:00"...)
		case Separator:
			dst = append(dst, e.Sep)
		}
	}
	return dst
}

func append2(dst []byte, v int) []byte {
	return append(dst, byte('0'+v/10), byte('0'+v%10))
}

// Format returns t, in UTC, as the format prints it.
func (f *Format) Format(t time.Time) string {
	return string(f.Append(make([]byte, 0, f.Width()), t))
}
