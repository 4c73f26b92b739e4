package storage

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/diag/diagtest"
)

// findings renders diagnostics as "severity code start-end" lines (byte
// offsets), the form every table here compares.
func findings(ds []diag.Diagnostic) string {
	var out []string
	for _, d := range ds {
		s := string(d.Severity) + " " + d.Code
		if d.Span.IsValid() {
			s += fmt.Sprintf(" %d-%d", d.Span.Start.Offset(), d.Span.End.Offset())
		}
		if d.Path != "" {
			s += " " + d.Path
		}
		out = append(out, s)
	}
	return strings.Join(out, "\n")
}

// elements renders a parsed format as its kinds with offsets.
func elements(f *Format) string {
	var out []string
	for _, e := range f.Elements {
		k := e.Kind.String()
		if e.Kind == Separator {
			k = string(e.Sep)
		}
		out = append(out, fmt.Sprintf("%s@%d", k, e.Start))
	}
	return strings.Join(out, " ")
}

var seedTime = time.Date(2023, 9, 25, 4, 10, 0, 0, time.UTC)

func TestParseFormat(t *testing.T) {
	tests := []struct {
		name   string
		format string
		els    string // parsed elements, when valid
		out    string // the format applied to seedTime, when valid
		diags  string
	}{
		{name: "default", format: DefaultFormat,
			els: "YYYY@0 -@4 MM@5 -@7 DD@8 T@10 hh@11 :@13 mm@14 :@16 ss@17 +00:00@19",
			out: "2023-09-25T04:10:00+00:00"},
		{name: "seeds folder and Z", format: "YYYY-MM-DD/hh_mm_ssZ", out: "2023-09-25/04_10_00Z",
			els: "YYYY@0 -@4 MM@5 -@7 DD@8 /@10 hh@11 _@13 mm@14 _@16 ss@17 Z@19"},
		{name: "seeds trailing separator", format: "YYYY-MM-DDThh_mm_ss-", out: "2023-09-25T04_10_00-",
			els: "YYYY@0 -@4 MM@5 -@7 DD@8 T@10 hh@11 _@13 mm@14 _@16 ss@17 -@19"},
		{name: "two-digit year", format: "YYMMDDhhmmss", out: "230925041000",
			els: "YY@0 MM@2 DD@4 hh@6 mm@8 ss@10"},
		{name: "bare matchers", format: "YYYYMMDDhhmmss", out: "20230925041000",
			els: "YYYY@0 MM@4 DD@6 hh@8 mm@10 ss@12"},
		{name: "every separator repeated", format: "--YYYY//MM__DD::hh-mm-ss//", out: "--2023//09__25::04-10-00//",
			els: "-@0 -@1 YYYY@2 /@6 /@7 MM@8 _@10 _@11 DD@12 :@14 :@15 hh@16 -@18 mm@19 -@21 ss@22 /@24 /@25"},
		{name: "zone before time", format: "ZYYYY-MM-DDThh:mm:ss", out: "Z2023-09-25T04:10:00",
			els: "Z@0 YYYY@1 -@5 MM@6 -@8 DD@9 T@11 hh@12 :@14 mm@15 :@17 ss@18"},
		{name: "T at the end", format: "YYYYMMDDhhmmssT", out: "20230925041000T",
			els: "YYYY@0 MM@4 DD@6 hh@8 mm@10 ss@12 T@14"},

		{name: "order info", format: "DD-MM-YYYY_hh:mm:ss", out: "25-09-2023_04:10:00",
			els:   "DD@0 -@2 MM@3 -@5 YYYY@6 _@10 hh@11 :@13 mm@14 :@16 ss@17",
			diags: "info datetime-format-order 3-5"},
		{name: "minute before hour", format: "YYYYMMDDmmhhss", out: "20230925100400",
			els:   "YYYY@0 MM@4 DD@6 mm@8 hh@10 ss@12",
			diags: "info datetime-format-order 10-12"},

		{name: "empty", format: "", diags: "error datetime-format-empty 0-0"},
		{name: "MMM", format: "YYYY-MMM-DDThh:mm:ss", diags: "error datetime-format-matcher 5-8"},
		{name: "single M", format: "YYYY-M-DDThh:mm:ss", diags: "error datetime-format-matcher 5-6"},
		{name: "YY-YYYY", format: "YY-YYYY-MM-DDThh:mm:ss", diags: "error datetime-format-repeated 3-7"},
		{name: "YYYY twice", format: "YYYYYYYY-MM-DD hh", diags: "error datetime-format-matcher 0-8\nerror datetime-format-character 14-15\nerror datetime-format-missing 0-17"},
		{name: "YYY", format: "YYY-MM-DDThh:mm:ss", diags: "error datetime-format-matcher 0-3"},
		{name: "five Y", format: "YYYYY-MM-DDThh:mm:ss", diags: "error datetime-format-matcher 0-5"},
		{name: "DD twice", format: "YYYY-MM-DD-DDThh:mm:ss", diags: "error datetime-format-repeated 11-13"},
		{name: "T twice", format: "YYYY-MM-DDThhTmm:ss", diags: "error datetime-format-repeated 13-14"},
		{name: "two zones", format: "YYYY-MM-DDThh:mm:ssZ+00:00", diags: "error datetime-format-repeated 20-26"},
		{name: "Z twice", format: "YYYY-MM-DDThh:mm:ssZZ", diags: "error datetime-format-repeated 20-21"},
		{name: "other offset", format: "YYYY-MM-DDThh:mm:ss+01:00", diags: "error datetime-format-zone 19-25"},
		{name: "lone plus", format: "YYYY-MM-DDThh:mm:ss+", diags: "error datetime-format-zone 19-20"},
		{name: "missing seconds", format: "YYYY-MM-DDThh:mm", diags: "error datetime-format-missing 0-16"},
		{name: "only year", format: "YYYY", diags: "error datetime-format-missing 0-4"},
		{name: "only separators", format: "-_:/", diags: "error datetime-format-missing 0-4"},
		{name: "unknown letter", format: "YYYY-MM-DDThh:mm:ssX", diags: "error datetime-format-character 19-20"},
		{name: "dot and space run", format: "YYYY-MM-DD hh.mm. ss", diags: "error datetime-format-character 10-11\nerror datetime-format-character 13-14\nerror datetime-format-character 16-18"},
		{name: "lower-case year", format: "yyyy-MM-DDThh:mm:ss", diags: "error datetime-format-character 0-4"},
		{name: "upper-case hour", format: "YYYY-MM-DDTHH:mm:ss", diags: "error datetime-format-character 11-13"},
		{name: "lower-case day", format: "YYYY-MM-ddThh:mm:ss", diags: "error datetime-format-character 8-10"},
		{name: "upper-case seconds", format: "YYYY-MM-DDThh:mm:SS", diags: "error datetime-format-character 17-19"},
		{name: "lower-case t and z", format: "YYYY-MM-DDthh:mm:ssz", diags: "error datetime-format-character 10-11\nerror datetime-format-character 19-20"},
		{name: "strftime", format: "%Y-%m-%d", diags: "error datetime-format-character 0-2\nerror datetime-format-character 3-5\nerror datetime-format-character 6-8\nerror datetime-format-missing 0-8"},
		{name: "strftime full", format: "%Y-%m-%dT%H:%M:%S", diags: "error datetime-format-character 0-2\nerror datetime-format-character 3-5\nerror datetime-format-character 6-8\nerror datetime-format-character 9-11\nerror datetime-format-character 12-14\nerror datetime-format-character 15-17"},
		{name: "percent then non-letter", format: "%é", diags: "error datetime-format-character 0-1\nerror datetime-format-character 1-3\nerror datetime-format-missing 0-3"},
		{name: "digits", format: "YYYY-MM-DDThh:mm:ss0", diags: "error datetime-format-character 19-20"},
		{name: "non-ASCII", format: "YYYY-MM-DDThh:mm:ssé", diags: "error datetime-format-character 19-21"},
		{name: "invalid UTF-8", format: "YYYY-MM-DDThh:mm:ss\xff", diags: "error datetime-format-character 19-20"},
		{name: "too long", format: strings.Repeat("-", MaxFormatBytes+1), diags: "error datetime-format-too-long 0-1025"},
		{name: "many errors are capped", format: strings.Repeat("x-", 100),
			diags: capped(100)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, ds := ParseFormat(tc.format)
			if got := findings(ds); got != tc.diags {
				t.Errorf("ParseFormat(%q) findings:\n%s\nwant:\n%s", tc.format, got, tc.diags)
			}
			if tc.els == "" {
				if f != nil {
					t.Errorf("ParseFormat(%q) = %s, want nil", tc.format, elements(f))
				}
				return
			}
			if f == nil {
				t.Fatalf("ParseFormat(%q) = nil", tc.format)
			}
			if got := elements(f); got != tc.els {
				t.Errorf("elements:\n got %s\nwant %s", got, tc.els)
			}
			if got := f.String(); got != tc.format {
				t.Errorf("String() = %q, want %q", got, tc.format)
			}
			if got := f.Format(seedTime); got != tc.out {
				t.Errorf("Format(seed time) = %q, want %q", got, tc.out)
			}
			if got := len(f.Format(seedTime)); got != f.Width() {
				t.Errorf("Width() = %d, printed %d bytes", f.Width(), got)
			}
		})
	}
}

// capped renders the findings of n bad characters "x" at even offsets,
// past the cap.
func capped(n int) string {
	var out []string
	for i := 0; i < n && len(out) < maxFormatFindings-1; i++ {
		out = append(out, fmt.Sprintf("error datetime-format-character %d-%d", 2*i, 2*i+1))
	}
	out = append(out, fmt.Sprintf("error datetime-format-too-many %d-%d", 2*(maxFormatFindings-1), 2*(maxFormatFindings-1)+1))
	return strings.Join(out, "\n")
}

func TestFormatHints(t *testing.T) {
	// Every error names the problem and says how to fix it.
	for _, s := range []string{"", "YYYY-MMM-DDThh:mm:ss", "yyyy", "YYYY+02:00", "YYYY", "YY-YYYY", "a b", "%Y"} {
		_, ds := ParseFormat(s)
		for _, d := range ds {
			if d.Hint == "" || d.Message == "" {
				t.Errorf("ParseFormat(%q): %s has no message or hint", s, d.Code)
			}
			if strings.HasSuffix(d.Message, ".") || d.Message[0] >= 'A' && d.Message[0] <= 'Z' && !strings.HasPrefix(d.Message, "YY") {
				t.Errorf("ParseFormat(%q): message %q is not in house style", s, d.Message)
			}
		}
	}
}

func TestFormatAppendEdges(t *testing.T) {
	f, _ := ParseFormat("YYYY YY-MM-DD-hh-mm-ss")
	if f != nil {
		t.Fatal("a space must not parse")
	}
	tests := []struct {
		name   string
		format string
		at     time.Time
		want   string
	}{
		{"year 0", "YYYY-MM-DDThh:mm:ss", time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), "0000-01-01T00:00:00"},
		{"year 9999", "YYYY-MM-DDThh:mm:ss", time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC), "9999-12-31T23:59:59"},
		{"year 10000", "YYYY-MM-DDThh:mm:ss", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), "10000-01-01T00:00:00"},
		{"two-digit year 2000", "YY-MM-DDThh:mm:ss", time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), "00-01-01T00:00:00"},
		{"two-digit year 1999", "YY-MM-DDThh:mm:ss", time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC), "99-01-01T00:00:00"},
		{"negative year", "YY-MM-DDThh:mm:ss", time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC), "99-01-01T00:00:00"},
		{"converted to UTC", "YYYY-MM-DDThh:mm:ssZ", time.Date(2023, 9, 25, 6, 10, 0, 0, time.FixedZone("CEST", 2*3600)), "2023-09-25T04:10:00Z"},
		{"fractions dropped", "YYYY-MM-DDThh:mm:ss", time.Date(2023, 9, 25, 4, 10, 0, 999_000_000, time.UTC), "2023-09-25T04:10:00"},
		{"date change in UTC", "YYYY-MM-DD/hh", time.Date(2024, 3, 1, 0, 30, 0, 0, time.FixedZone("", -3600)), "2024-03-01/01"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, ds := ParseFormat(tc.format)
			if f == nil {
				// "YYYY-MM-DD/hh" lacks minutes and seconds: apply the
				// elements anyway, the printer does not care.
				p := formatParser{src: tc.format}
				p.parse()
				f = &Format{Source: tc.format, Elements: p.els}
				_ = ds
			}
			if got := f.Format(tc.at); got != tc.want {
				t.Errorf("Format(%v) = %q, want %q", tc.at, got, tc.want)
			}
		})
	}
}

func TestDefaultFormat(t *testing.T) {
	if got := Default().String(); got != DefaultFormat {
		t.Errorf("Default() prints %q", got)
	}
	if Default().EndsWithSeparator() {
		t.Error("the default format must not end with a separator")
	}
}

func FuzzParseFormat(f *testing.F) {
	for _, s := range []string{
		DefaultFormat, "YYYY-MM-DD/hh_mm_ssZ", "YYYY-MM-DDThh_mm_ss-", "YYMMDDhhmmss", "ZYYYY-MM-DDThh:mm:ss",
		"YYYY-MMM-DD", "YY-YYYY", "DD-DD", "YYYY-MM-DDThh:mm:ss+01:00", "+", "yyyy-HH", "%Y", "é", "\xff", "",
		"T", "TT", "ZZ", "+00:00+00:00", "-_:/", "YYYYYY", "DD-MM-YYYY hh:mm:ss",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fm, ds := ParseFormat(s)
		for _, d := range ds {
			if !d.Span.IsValid() || d.Span.Start.Offset() > len(s) || d.Span.End.Offset() > len(s) || d.Span.End < d.Span.Start {
				t.Fatalf("ParseFormat(%q): bad span %v for %s", s, d.Span, d.Code)
			}
			if p := diagtest.WordsProblem(d); p != "" {
				t.Fatalf("ParseFormat(%q): %s: %s", s, d.Code, p)
			}
		}
		if len(ds) > maxFormatFindings {
			t.Fatalf("ParseFormat(%q): %d findings", s, len(ds))
		}
		if (fm == nil) != diag.HasErrors(ds) {
			t.Fatalf("ParseFormat(%q): format %v with errors %v", s, fm != nil, diag.HasErrors(ds))
		}
		if fm == nil {
			return
		}
		if fm.String() != s {
			t.Fatalf("ParseFormat(%q) prints back as %q", s, fm.String())
		}
		again, ds2 := ParseFormat(fm.String())
		if again == nil || len(ds2) != len(ds) {
			t.Fatalf("ParseFormat(%q): the printed form does not parse the same", s)
		}
		out := fm.Format(seedTime)
		if len(out) != fm.Width() {
			t.Fatalf("ParseFormat(%q): width %d, printed %q", s, fm.Width(), out)
		}
	})
}
