package diag

import (
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Source is a text a user gave, with an index of where its lines start.
// Columns are counted in Unicode code points, 1-based, because that is what
// an editor shows; a byte that is not valid UTF-8 counts as one column.
//
// A finding's span is widened to whole characters when it is located: an
// end that falls inside a valid UTF-8 character moves to the character's
// start (Start) or past its end (End). Readers report such byte offsets:
// the JSON and .proto readers end a syntax error one byte after a
// non-ASCII character they did not expect, and HCL does on damaged text;
// counted as it stands, such an end would count the character's leading
// bytes as columns of their own.
//
// Turning an offset into a column and back costs O(log n) whatever the
// text: a megabyte on one line with thousands of findings must not count
// each column from the start of its line.
type Source struct {
	Name  string
	Text  string
	lines []int // byte offset of the start of each line
	ascii bool  // every byte is ASCII, so a column is a byte count

	marksOnce sync.Once
	marks     []mark // column checkpoints inside long lines, by offset
}

// mark records the column of a rune boundary inside a long line.
type mark struct{ off, col int }

// markEvery is how many bytes apart the checkpoints of a long line are:
// finding a column decodes at most this many bytes (plus one rune).
const markEvery = 256

// NewSource indexes text. Lines end at "\n"; a "\r" before it belongs to the
// line ending, not to the line.
func NewSource(name, text string) *Source {
	lines := make([]int, 1, 1+strings.Count(text, "\n"))
	var high byte
	for i := 0; i < len(text); i++ {
		high |= text[i]
		if text[i] == '\n' {
			lines = append(lines, i+1)
		}
	}
	return &Source{Name: name, Text: text, lines: lines, ascii: high < utf8.RuneSelf}
}

// Lines returns the number of lines.
func (s *Source) Lines() int { return len(s.lines) }

// LineCol returns the 1-based line and column of a byte offset. Offsets past
// the end land just after the last character.
func (s *Source) LineCol(offset int) (line, col int) {
	if offset < 0 {
		offset = 0
	}
	if offset > len(s.Text) {
		offset = len(s.Text)
	}
	i := sort.Search(len(s.lines), func(i int) bool { return s.lines[i] > offset }) - 1
	return i + 1, s.column(s.lines[i], offset)
}

// column counts the code points of the line starting at start up to offset,
// plus one, from the nearest checkpoint.
func (s *Source) column(start, offset int) int {
	if s.ascii {
		return offset - start + 1
	}
	if offset-start > markEvery {
		marks := s.lineMarks()
		k := sort.Search(len(marks), func(k int) bool { return marks[k].off > offset }) - 1
		if k >= 0 && marks[k].off > start {
			return marks[k].col + utf8.RuneCountInString(s.Text[marks[k].off:offset])
		}
	}
	return utf8.RuneCountInString(s.Text[start:offset]) + 1
}

// lineMarks builds, once, a checkpoint every markEvery bytes of every line
// longer than that, at rune boundaries as a decoder reading the line from
// its start finds them, so counting from a checkpoint gives the same column
// as counting from the line's start.
func (s *Source) lineMarks() []mark {
	s.marksOnce.Do(func() {
		for l := range s.lines {
			start, end := s.lines[l], s.lineEnd(l+1)
			if end-start <= markEvery {
				continue
			}
			col, last := 1, start
			for off := start; off < end; {
				if off-last >= markEvery {
					s.marks = append(s.marks, mark{off, col})
					last = off
				}
				_, n := utf8.DecodeRuneInString(s.Text[off:end])
				off += n
				col++
			}
		}
	})
	return s.marks
}

// Offset returns the byte offset of a 1-based line and column (columns in
// code points). It clamps to the line, so a column past the end of a line
// gives the offset of its end.
func (s *Source) Offset(line, col int) int {
	if line < 1 {
		return 0
	}
	if line > len(s.lines) {
		return len(s.Text)
	}
	start := s.lines[line-1]
	end := s.lineEnd(line)
	if col < 1 {
		col = 1
	}
	if s.ascii {
		return min(start+col-1, end)
	}
	off, c := start, 1
	if end-start > markEvery {
		marks := s.lineMarks()
		// The last checkpoint of this line at or before the column.
		lo := sort.Search(len(marks), func(k int) bool { return marks[k].off > start })
		hi := sort.Search(len(marks), func(k int) bool { return marks[k].off >= end })
		k := lo + sort.Search(hi-lo, func(k int) bool { return marks[lo+k].col > col }) - 1
		if k >= lo {
			off, c = marks[k].off, marks[k].col
		}
	}
	for ; c < col && off < end; c++ {
		_, n := utf8.DecodeRuneInString(s.Text[off:end])
		off += n
	}
	return off
}

func (s *Source) lineEnd(line int) int {
	end := len(s.Text)
	if line < len(s.lines) {
		end = s.lines[line] - 1
	}
	if end > s.lines[line-1] && s.Text[end-1] == '\r' {
		end--
	}
	return end
}

// LineText returns line n (1-based) without its line ending.
func (s *Source) LineText(n int) string {
	if n < 1 || n > len(s.lines) {
		return ""
	}
	return s.Text[s.lines[n-1]:s.lineEnd(n)]
}

// Locate fills Line, Column, EndLine and EndColumn from the Span of every
// diagnostic that has one and no line yet, first widening the Span to
// whole characters (see Source).
func (s *Source) Locate(ds []Diagnostic) {
	for i := range ds {
		d := &ds[i]
		if d.Line > 0 || !d.Span.IsValid() {
			continue
		}
		d.Span = s.OnRunes(d.Span)
		d.Line, d.Column = s.LineCol(d.Span.Start.Offset())
		if d.Span.End > d.Span.Start {
			d.EndLine, d.EndColumn = s.LineCol(d.Span.End.Offset())
		}
	}
}

// OnRunes widens sp so that neither end falls inside a valid UTF-8
// character of s's text. A byte that is not valid UTF-8 is a character of
// its own, so an offset next to one stays where it is.
func (s *Source) OnRunes(sp Span) Span {
	if !sp.IsValid() || s.ascii {
		return sp
	}
	start, end := sp.Start.Offset(), sp.End.Offset()
	if p, _, ok := RuneAround(s.Text, start); ok {
		start = p
	}
	if _, q, ok := RuneAround(s.Text, end); ok {
		end = q
	}
	return SpanOf(start, end)
}

// RuneAround returns the valid UTF-8 character [start, end) of text that
// off falls strictly inside, and false when off is on a character boundary
// (or next to a byte that is not valid UTF-8). It looks back at most
// utf8.UTFMax bytes.
func RuneAround(text string, off int) (start, end int, ok bool) {
	if off <= 0 || off >= len(text) || utf8.RuneStart(text[off]) {
		return 0, 0, false
	}
	for p := off - 1; p >= 0 && p > off-utf8.UTFMax; p-- {
		if utf8.RuneStart(text[p]) {
			if r, n := utf8.DecodeRuneInString(text[p:]); (r != utf8.RuneError || n > 1) && p+n > off {
				return p, p + n, true
			}
			return 0, 0, false
		}
	}
	return 0, 0, false
}

// Finish is Finish for findings about s's text that have no line yet: it
// caps them before locating them, because locating costs up to the length
// of a line and a hostile one-line text can hold thousands of findings,
// then sorts the located ones again, by line and column too.
func (s *Source) Finish(ds []Diagnostic) []Diagnostic {
	ds = Finish(ds)
	s.Locate(ds)
	Sort(ds)
	return ds
}

// maxShownLine bounds how much of one source line Render prints, so a
// minified megabyte on one line does not flood a terminal.
const maxShownLine = 160

// Render writes diagnostics as text: "name:line:col: severity: message
// [code]", then the source line with a caret under the span, then the hint.
// Diagnostics without a position are written as "name: severity: message"
// with their path. src may be nil when there is no text to show.
func Render(src *Source, ds []Diagnostic) string {
	var b strings.Builder
	name := "<input>"
	if src != nil && src.Name != "" {
		name = src.Name
	}
	for _, d := range ds {
		b.WriteString(name)
		if d.Line > 0 {
			b.WriteString(":" + strconv.Itoa(d.Line) + ":" + strconv.Itoa(d.Column))
		}
		b.WriteString(": " + string(d.Severity) + ": " + Printable(d.Message))
		if d.Code != "" {
			b.WriteString(" [" + d.Code + "]")
		}
		if d.Line == 0 && d.Path != "" {
			b.WriteString(" (at " + Printable(d.Path) + ")")
		}
		b.WriteByte('\n')
		if src != nil && d.Line > 0 && d.Line <= src.Lines() {
			writeExcerpt(&b, src, d)
		}
		if d.Hint != "" {
			b.WriteString("  hint: " + Printable(d.Hint) + "\n")
		}
	}
	return b.String()
}

func writeExcerpt(b *strings.Builder, src *Source, d Diagnostic) {
	// Work in offsets, not in a []rune of the line: the line may be a
	// megabyte and there may be hundreds of findings on it.
	start, end := src.lines[d.Line-1], src.lineEnd(d.Line)
	n := src.column(start, end) - 1 // code points on the line
	col := min(d.Column-1, n)
	width := 1
	if d.EndLine == d.Line && d.EndColumn > d.Column {
		width = d.EndColumn - d.Column
	}
	// Keep the caret in view on long lines.
	from := 0
	if col > maxShownLine-20 {
		from = col - 40
	}
	to := n
	if to-from > maxShownLine {
		to = from + maxShownLine
	}
	if col+width > to {
		width = max(1, to-col)
	}
	fromOff, colOff, toOff := src.Offset(d.Line, from+1), src.Offset(d.Line, col+1), src.Offset(d.Line, to+1)
	num := strconv.Itoa(d.Line)
	pad := strings.Repeat(" ", len(num))
	b.WriteString(" " + num + " | ")
	if from > 0 {
		b.WriteString("…")
	}
	for _, r := range src.Text[fromOff:toOff] {
		b.WriteString(printableRune(r))
	}
	if to < n {
		b.WriteString("…")
	}
	b.WriteString("\n " + pad + " | ")
	if from > 0 {
		b.WriteString(" ")
	}
	// Copy tabs so the caret lines up whatever the tab width.
	for _, r := range src.Text[fromOff:colOff] {
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteString(strings.Repeat(" ", utf8.RuneCountInString(printableRune(r))))
		}
	}
	b.WriteString("^" + strings.Repeat("~", width-1) + "\n")
}

// Printable replaces control characters (an ANSI escape in a hostile
// configuration, say) with visible escapes, so rendering never lets the
// input drive the terminal.
func Printable(s string) string {
	clean := true
	for _, r := range s {
		if r != '\t' && isControl(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		b.WriteString(printableRune(r))
	}
	return b.String()
}

func printableRune(r rune) string {
	if r == '\t' || !isControl(r) {
		return string(r)
	}
	q := strconv.QuoteRune(r)
	return q[1 : len(q)-1]
}

func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError ||
		r == '\u2028' || r == '\u2029' || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069')
}
