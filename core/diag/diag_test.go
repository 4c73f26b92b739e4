package diag_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag"
)

// multi has multi-byte characters and a CRLF line ending:
// "é" is 2 bytes, "中" 3, "😀" 4.
const multi = "é中\n😀x\r\ny"

func TestLineCol(t *testing.T) {
	src := diag.NewSource("m", multi)
	if src.Lines() != 3 {
		t.Fatalf("Lines = %d, want 3", src.Lines())
	}
	cases := []struct {
		name           string
		offset         int
		line, col      int
		offsetFromBack int // what Offset(line, col) gives back
	}{
		{"start", 0, 1, 1, 0},
		{"after a two-byte character", 2, 1, 2, 2},
		{"inside a character counts it whole", 3, 1, 3, 5},
		{"the line feed", 5, 1, 3, 5},
		{"start of the second line", 6, 2, 1, 6},
		{"after a four-byte character", 10, 2, 2, 10},
		{"the carriage return", 11, 2, 3, 11},
		{"the line feed after it", 12, 2, 4, 11},
		{"last line", 13, 3, 1, 13},
		{"end of text", 14, 3, 2, 14},
		{"past the end", 100, 3, 2, 14},
		{"negative", -5, 1, 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			line, col := src.LineCol(c.offset)
			if line != c.line || col != c.col {
				t.Errorf("LineCol(%d) = %d:%d, want %d:%d", c.offset, line, col, c.line, c.col)
			}
			if got := src.Offset(line, col); got != c.offsetFromBack {
				t.Errorf("Offset(%d, %d) = %d, want %d", line, col, got, c.offsetFromBack)
			}
		})
	}
}

func TestOffsetClamps(t *testing.T) {
	src := diag.NewSource("m", multi)
	cases := []struct {
		name      string
		line, col int
		want      int
	}{
		{"column past the end of a line", 1, 99, 5},
		{"column past the end of a CRLF line", 2, 99, 11},
		{"line zero", 0, 5, 0},
		{"line past the end", 9, 1, len(multi)},
		{"column zero", 2, 0, 6},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := src.Offset(c.line, c.col); got != c.want {
				t.Errorf("Offset(%d, %d) = %d, want %d", c.line, c.col, got, c.want)
			}
		})
	}
}

func TestLineText(t *testing.T) {
	cases := []struct {
		name, text string
		line       int
		want       string
	}{
		{"first", multi, 1, "é中"},
		{"carriage return is not part of the line", multi, 2, "😀x"},
		{"last line without a line feed", multi, 3, "y"},
		{"line zero", multi, 0, ""},
		{"past the end", multi, 4, ""},
		{"empty text", "", 1, ""},
		{"empty last line", "a\n", 2, ""},
		{"carriage return alone stays", "a\rb\n", 1, "a\rb"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := diag.NewSource("t", c.text).LineText(c.line); got != c.want {
				t.Errorf("LineText(%d) = %q, want %q", c.line, got, c.want)
			}
		})
	}
}

func TestColumnsCountInvalidBytesOnce(t *testing.T) {
	src := diag.NewSource("t", "a\xff\xfeb")
	if _, col := src.LineCol(3); col != 4 {
		t.Errorf("column of b = %d, want 4", col)
	}
}

func TestLocate(t *testing.T) {
	src := diag.NewSource("t", "ab\ncdé\n")
	ds := []diag.Diagnostic{
		{Code: "span", Span: diag.SpanOf(3, 7)},
		{Code: "empty-span", Span: diag.SpanOf(1, 1)},
		{Code: "across-lines", Span: diag.SpanOf(1, 4)},
		{Code: "no-span"},
		{Code: "already-located", Line: 9, Column: 9, Span: diag.SpanOf(0, 1)},
	}
	src.Locate(ds)
	want := [][4]int{{2, 1, 2, 4}, {1, 2, 0, 0}, {1, 2, 2, 2}, {0, 0, 0, 0}, {9, 9, 0, 0}}
	for i, d := range ds {
		if got := [4]int{d.Line, d.Column, d.EndLine, d.EndColumn}; got != want[i] {
			t.Errorf("%s located at %v, want %v", d.Code, got, want[i])
		}
	}
}

func TestSpanOf(t *testing.T) {
	cases := []struct {
		name       string
		start, end int
		want       diag.Span
	}{
		{"ordinary", 2, 5, diag.Span{Start: 3, End: 6}},
		{"empty at zero is still a position", 0, 0, diag.Span{Start: 1, End: 1}},
		{"end before start is made empty", 5, 2, diag.Span{Start: 6, End: 6}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := diag.SpanOf(c.start, c.end)
			if got != c.want || !got.IsValid() {
				t.Errorf("SpanOf(%d, %d) = %v, want %v", c.start, c.end, got, c.want)
			}
			if got.Start.Offset() != c.start {
				t.Errorf("Start.Offset() = %d, want %d", got.Start.Offset(), c.start)
			}
		})
	}
	if (diag.Span{}).IsValid() || diag.NoPos.IsValid() || diag.NoPos.Offset() != -1 {
		t.Error("the zero span and NoPos must not be positions")
	}
}

func TestRender(t *testing.T) {
	long := strings.Repeat("a", 300)
	cases := []struct {
		name string
		src  *diag.Source
		d    diag.Diagnostic
		want string
	}{
		{"caret under a span with a hint", diag.NewSource("t.json", "{\n  \"a\": tru\n}"),
			diag.Diagnostic{Severity: diag.Error, Code: "json-syntax", Line: 2, Column: 8, EndLine: 2, EndColumn: 11, Message: "bad word", Hint: "write true"},
			"t.json:2:8: error: bad word [json-syntax]\n" +
				" 2 |   \"a\": tru\n" +
				"   |        ^~~\n" +
				"  hint: write true\n"},
		{"tabs are copied so the caret lines up", diag.NewSource("t.yaml", "\tkey:\tvalue\n"),
			diag.Diagnostic{Severity: diag.Warning, Code: "c", Line: 1, Column: 7, Message: "m"},
			"t.yaml:1:7: warning: m [c]\n" +
				" 1 | \tkey:\tvalue\n" +
				"   | \t    \t^\n"},
		{"control characters are shown escaped", diag.NewSource("t", "a\x1bb"),
			diag.Diagnostic{Severity: diag.Error, Code: "c", Line: 1, Column: 3, Message: "bell\a here", Hint: "no \x1b[31m colour"},
			"t:1:3: error: bell\\a here [c]\n" +
				" 1 | a\\x1bb\n" +
				"   |      ^\n" +
				"  hint: no \\x1b[31m colour\n"},
		{"wide characters count as one column", diag.NewSource("t", "é中😀x"),
			diag.Diagnostic{Severity: diag.Info, Code: "c", Line: 1, Column: 4, EndLine: 1, EndColumn: 5, Message: "m"},
			"t:1:4: info: m [c]\n" +
				" 1 | é中😀x\n" +
				"   |    ^\n"},
		{"a span over several lines gets one caret", diag.NewSource("t", "ab\ncd"),
			diag.Diagnostic{Severity: diag.Error, Code: "c", Line: 1, Column: 2, EndLine: 2, EndColumn: 2, Message: "m"},
			"t:1:2: error: m [c]\n" +
				" 1 | ab\n" +
				"   |  ^\n"},
		{"CRLF lines are shown without the carriage return", diag.NewSource("t", "ab\r\ncd\r\n"),
			diag.Diagnostic{Severity: diag.Error, Code: "c", Line: 1, Column: 3, Message: "m"},
			"t:1:3: error: m [c]\n" +
				" 1 | ab\n" +
				"   |   ^\n"},
		{"a long line is cut around the caret", diag.NewSource("t", long),
			diag.Diagnostic{Severity: diag.Error, Code: "c", Line: 1, Column: 200, Message: "m"},
			"t:1:200: error: m [c]\n" +
				" 1 | …" + strings.Repeat("a", 141) + "\n" +
				"   |  " + strings.Repeat(" ", 40) + "^\n"},
		{"a long line is cut at its end", diag.NewSource("t", long),
			diag.Diagnostic{Severity: diag.Error, Code: "c", Line: 1, Column: 1, EndLine: 1, EndColumn: 301, Message: "m"},
			"t:1:1: error: m [c]\n" +
				" 1 | " + strings.Repeat("a", 160) + "…\n" +
				"   | ^" + strings.Repeat("~", 159) + "\n"},
		{"line numbers of several digits", diag.NewSource("t", strings.Repeat("\n", 11)+"x"),
			diag.Diagnostic{Severity: diag.Error, Code: "c", Line: 12, Column: 1, Message: "m"},
			"t:12:1: error: m [c]\n" +
				" 12 | x\n" +
				"    | ^\n"},
		{"no position: the path instead", diag.NewSource("t", "x"),
			diag.Diagnostic{Severity: diag.Warning, Code: "c", Path: "/a/b", Message: "m", Hint: "h"},
			"t: warning: m [c] (at /a/b)\n" +
				"  hint: h\n"},
		{"no source", nil,
			diag.Diagnostic{Severity: diag.Error, Code: "c", Line: 3, Column: 1, Message: "m"},
			"<input>:3:1: error: m [c]\n"},
		{"line past the end of the source", diag.NewSource("t", "x"),
			diag.Diagnostic{Severity: diag.Error, Code: "c", Line: 5, Column: 1, Message: "m"},
			"t:5:1: error: m [c]\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := diag.Render(c.src, []diag.Diagnostic{c.d}); got != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

func TestPrintable(t *testing.T) {
	cases := map[string]string{
		"plain":           "plain",
		"tab\tstays":      "tab\tstays",
		"nl\n":            `nl\n`,
		"esc\x1b[2J":      `esc\x1b[2J`,
		"del\x7f":         `del\x7f`,
		"c1\u0085":        `c1\u0085`,
		"bidi\u202e":      `bidi\u202e`,
		"isolate\u2066":   `isolate\u2066`,
		"separator\u2028": `separator\u2028`,
		"bad\xff":         "bad\ufffd", // a replacement character: visible, and inert in a terminal
		"é中😀 are printed": "é中😀 are printed",
	}
	for in, want := range cases {
		if got := diag.Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSort(t *testing.T) {
	ds := []diag.Diagnostic{
		{Code: "unpositioned-b", Severity: diag.Error, Path: "/b"},
		{Code: "line2", Severity: diag.Error, Line: 2, Column: 1},
		{Code: "line1-col5", Severity: diag.Error, Line: 1, Column: 5},
		{Code: "unpositioned-a", Severity: diag.Error, Path: "/a"},
		{Code: "unpositioned-span", Severity: diag.Error, Path: "/z", Span: diag.SpanOf(0, 1)},
		{Code: "b-same-place-info", Severity: diag.Info, Line: 1, Column: 1},
		{Code: "z-same-place-error", Severity: diag.Error, Line: 1, Column: 1},
		{Code: "a-same-place-error", Severity: diag.Error, Line: 1, Column: 1},
		{Code: "same-place-warning", Severity: diag.Warning, Line: 1, Column: 1},
	}
	diag.Sort(ds)
	want := []string{"a-same-place-error", "z-same-place-error", "same-place-warning", "b-same-place-info", "line1-col5", "line2",
		"unpositioned-a", "unpositioned-b", "unpositioned-span"}
	for i, d := range ds {
		if d.Code != want[i] {
			t.Fatalf("order %v, want %v", codes(ds), want)
		}
	}
}

func codes(ds []diag.Diagnostic) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Code
	}
	return out
}

func TestCapAndFinish(t *testing.T) {
	many := func(n int) []diag.Diagnostic {
		ds := make([]diag.Diagnostic, n)
		for i := range ds {
			ds[i] = diag.Diagnostic{Severity: diag.Error, Code: "c" + strconv.Itoa(i), Line: n - i, Column: 1}
		}
		return ds
	}
	cases := []struct {
		name     string
		n        int
		wantLen  int
		wantNote string
	}{
		{"under the cap", 3, 3, ""},
		{"at the cap", diag.MaxDiagnostics, diag.MaxDiagnostics, ""},
		{"over the cap", diag.MaxDiagnostics + 5, diag.MaxDiagnostics + 1, "5 more findings were left out"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := diag.Finish(many(c.n))
			if len(ds) != c.wantLen {
				t.Fatalf("len = %d, want %d", len(ds), c.wantLen)
			}
			if ds[0].Line != 1 {
				t.Errorf("the first finding is at line %d: Finish must sort before it caps", ds[0].Line)
			}
			last := ds[len(ds)-1]
			if c.wantNote == "" && last.Code == "too-many-diagnostics" {
				t.Error("a note without a reason")
			}
			if c.wantNote != "" && (last.Code != "too-many-diagnostics" || last.Message != c.wantNote || last.Severity != diag.Info) {
				t.Errorf("last = %+v, want the note %q", last, c.wantNote)
			}
		})
	}
}

func TestCounts(t *testing.T) {
	ds := []diag.Diagnostic{{Severity: diag.Warning}, {Severity: diag.Info}, {Severity: diag.Warning}}
	if diag.HasErrors(ds) || diag.Count(ds, diag.Warning) != 2 || diag.Count(ds, diag.Error) != 0 {
		t.Error("counts of warnings and infos")
	}
	if !diag.HasErrors(append(ds, diag.Diagnostic{Severity: diag.Error})) {
		t.Error("HasErrors misses an error")
	}
}

func TestQuote(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"short", "a\"b", `"a\"b"`},
		{"at the bound", strings.Repeat("é", 64), `"` + strings.Repeat("é", 64) + `"`},
		{"past the bound", strings.Repeat("é", 65), `"` + strings.Repeat("é", 64) + `"…`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := diag.Quote(c.in); got != c.want {
				t.Errorf("Quote = %s, want %s", got, c.want)
			}
		})
	}
}
func TestInputs(t *testing.T) {
	ds := diag.In(diag.InputConfig, []diag.Diagnostic{{Code: "a"}, {Code: "b", Input: diag.InputFilter}})
	if ds[0].Input != diag.InputConfig || ds[1].Input != diag.InputFilter {
		t.Errorf("In: %+v", ds)
	}
	ms := diag.OfMessage(2, []diag.Diagnostic{{Code: "c"}, {Code: "d", Input: diag.InputConfig}})
	for _, d := range ms {
		if d.Input != diag.InputMessages || !d.ForMessage(2) || d.ForMessage(0) {
			t.Errorf("OfMessage: %+v", d)
		}
	}
	b, _ := json.Marshal(ms[0])
	if want := `{"severity":"","code":"c","input":"messages","messageIndex":2,"message":""}`; string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
	if b, _ := json.Marshal(diag.Diagnostic{Code: "e"}); strings.Contains(string(b), "input") || strings.Contains(string(b), "messageIndex") {
		t.Errorf("a diagnostic without input writes %s", b)
	}
}
