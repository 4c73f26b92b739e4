package storage

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func ptr(s string) *string { return &s }

// TestSeedExamples reproduces every object name the product documentation
// shows (seeds 000, 002, 003 agree on them).
func TestSeedExamples(t *testing.T) {
	tests := []struct {
		name                   string
		prefix, suffix, format *string
		uuid                   string
		want                   string
	}{
		{"prefix and suffix, default format", ptr("prod_"), ptr("_archive"), nil, "uN1QuE",
			"prod_2023-09-25T04:10:00+00:00_uN1QuE_archive"},
		{"neither prefix nor suffix", nil, nil, nil, "uN1QuE",
			"2023-09-25T04:10:00+00:00_uN1QuE"},
		{"format with folder and Z", ptr("prod_"), ptr("_archive"), ptr("YYYY-MM-DD/hh_mm_ssZ"), "uNiQuE",
			"prod_2023-09-25/04_10_00Z_uNiQuE_archive"},
		{"trailing separator replaces _", ptr("prod_"), ptr("_archive"), ptr("YYYY-MM-DDThh_mm_ss-"), "uNiQuE",
			"prod_2023-09-25T04_10_00-uNiQuE_archive"},
		{"empty format means the default", ptr("prod_"), ptr("_archive"), ptr(""), "uN1QuE",
			"prod_2023-09-25T04:10:00+00:00_uN1QuE_archive"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, ds := Compile(Settings{FilenamePrefix: tc.prefix, FilenameSuffix: tc.suffix, FilenameDatetimeFormat: tc.format})
			if l == nil {
				t.Fatalf("Compile: %s", findings(ds))
			}
			if len(ds) != 0 {
				t.Errorf("unexpected findings:\n%s", findings(ds))
			}
			if got := l.Name(seedTime, tc.uuid); got != tc.want {
				t.Errorf("Name = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestLayoutSeparatorAndTemplate(t *testing.T) {
	tests := []struct {
		format   string
		sep      string
		template string
		glob     string
	}{
		{DefaultFormat, "_", "p/{YYYY}-{MM}-{DD}T{hh}:{mm}:{ss}+00:00_{uuid}.txt", "p/????-??-??T??:??:??+00:00_*.txt"},
		{"YYYY-MM-DD/hh_mm_ssZ", "_", "p/{YYYY}-{MM}-{DD}/{hh}_{mm}_{ss}Z_{uuid}.txt", "p/????-??-??/??_??_??Z_*.txt"},
		{"YYYY-MM-DDThh_mm_ss-", "", "p/{YYYY}-{MM}-{DD}T{hh}_{mm}_{ss}-{uuid}.txt", "p/????-??-??T??_??_??-*.txt"},
		{"YYYYMMDDhhmmss_", "", "p/{YYYY}{MM}{DD}{hh}{mm}{ss}_{uuid}.txt", "p/??????????????_*.txt"},
		{"YYYY/MM/DD/hhmmss/", "", "p/{YYYY}/{MM}/{DD}/{hh}{mm}{ss}/{uuid}.txt", "p/????/??/??/??????/*.txt"},
		{"YYMMDDhhmmssT", "_", "p/{YY}{MM}{DD}{hh}{mm}{ss}T_{uuid}.txt", "p/????????????T_*.txt"},
	}
	for _, tc := range tests {
		t.Run(tc.format, func(t *testing.T) {
			l, ds := NewLayout("p/", ".txt", &tc.format)
			if l == nil {
				t.Fatalf("NewLayout: %s", findings(ds))
			}
			if got := l.Separator(); got != tc.sep {
				t.Errorf("Separator() = %q, want %q", got, tc.sep)
			}
			if got := l.Template(); got != tc.template {
				t.Errorf("Template() = %q, want %q", got, tc.template)
			}
			if got := l.Glob(); got != tc.glob {
				t.Errorf("Glob() = %q, want %q", got, tc.glob)
			}
			name := l.Name(seedTime, RandomUUID())
			if !globMatch(tc.glob, name) {
				t.Errorf("Glob() %q does not match the name %q", tc.glob, name)
			}
			if len(name) != l.MaxLen() {
				t.Errorf("MaxLen() = %d, name %q is %d bytes", l.MaxLen(), name, len(name))
			}
		})
	}
}

func TestGlobEscapes(t *testing.T) {
	l, ds := NewLayout("a*b?[c]/", "#", nil)
	if l == nil {
		t.Fatal(findings(ds))
	}
	want := "a[*]b[?][[]c[]]/????-??-??T??:??:??+00:00_*#"
	if got := l.Glob(); got != want {
		t.Errorf("Glob() = %q, want %q", got, want)
	}
	if name := l.Name(seedTime, "u"); !globMatch(want, name) {
		t.Errorf("%q does not match %q", want, name)
	}
	if globMatch(want, "aXb?[c]/2023-09-25T04:10:00+00:00_u#") {
		t.Error("an escaped * matched another character")
	}
}

// globMatch is a small matcher for the patterns Glob writes: "?" one
// character, "*" any run without "/", "[x]" the character x.
func globMatch(pattern, name string) bool {
	if pattern == "" {
		return name == ""
	}
	switch pattern[0] {
	case '*':
		for i := 0; i <= len(name); i++ {
			if globMatch(pattern[1:], name[i:]) {
				return true
			}
			if i < len(name) && name[i] == '/' {
				break
			}
		}
		return false
	case '?':
		return name != "" && name[0] != '/' && globMatch(pattern[1:], name[1:])
	case '[':
		end := strings.IndexByte(pattern[2:], ']') + 2
		return name != "" && name[0] == pattern[1] && globMatch(pattern[end+1:], name[1:])
	}
	return name != "" && name[0] == pattern[0] && globMatch(pattern[1:], name[1:])
}

func TestFolders(t *testing.T) {
	tests := []struct {
		name           string
		prefix, suffix string
		format         *string
		want           []Folder
	}{
		{name: "none", prefix: "prod_", suffix: "_archive", format: nil},
		{name: "seeds format makes a folder per day", prefix: "prod_", suffix: "_archive", format: ptr("YYYY-MM-DD/hh_mm_ssZ"),
			want: []Folder{{Path: "prod_2023-09-25/", Pattern: "prod_{YYYY}-{MM}-{DD}/", Field: PathFormat, Offset: 10, Per: "day"}}},
		{name: "fixed prefix folders", prefix: "logs/prod/", suffix: "", format: nil,
			want: []Folder{
				{Path: "logs/", Pattern: "logs/", Field: PathPrefix, Offset: 4, Per: "fixed"},
				{Path: "logs/prod/", Pattern: "logs/prod/", Field: PathPrefix, Offset: 9, Per: "fixed"},
			}},
		{name: "hive-style levels", prefix: "t/", suffix: ".json", format: ptr("YYYY/MM/DD/hh/mm_ss"),
			want: []Folder{
				{Path: "t/", Pattern: "t/", Field: PathPrefix, Offset: 1, Per: "fixed"},
				{Path: "t/2023/", Pattern: "t/{YYYY}/", Field: PathFormat, Offset: 4, Per: "year"},
				{Path: "t/2023/09/", Pattern: "t/{YYYY}/{MM}/", Field: PathFormat, Offset: 7, Per: "month"},
				{Path: "t/2023/09/25/", Pattern: "t/{YYYY}/{MM}/{DD}/", Field: PathFormat, Offset: 10, Per: "day"},
				{Path: "t/2023/09/25/04/", Pattern: "t/{YYYY}/{MM}/{DD}/{hh}/", Field: PathFormat, Offset: 13, Per: "hour"},
			}},
		{name: "trailing slash in the format folds the uuid", prefix: "", suffix: "", format: ptr("YYYYMMDDhhmmss/"),
			want: []Folder{{Path: "20230925041000/", Pattern: "{YYYY}{MM}{DD}{hh}{mm}{ss}/", Field: PathFormat, Offset: 14, Per: "second"}}},
		{name: "slash in the suffix: a folder per object", prefix: "", suffix: "/part.txt", format: nil,
			want: []Folder{{Path: "2023-09-25T04:10:00+00:00_u/", Pattern: "{YYYY}-{MM}-{DD}T{hh}:{mm}:{ss}+00:00_{uuid}/", Field: PathSuffix, Offset: 0, Per: "object"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, ds := NewLayout(tc.prefix, tc.suffix, tc.format)
			if l == nil {
				t.Fatal(findings(ds))
			}
			got := l.Folders(seedTime, "u")
			if len(got) != len(tc.want) {
				t.Fatalf("Folders = %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("folder %d = %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestCheckObjectParts(t *testing.T) {
	long := strings.Repeat("a", MaxObjectName)
	tests := []struct {
		name string
		s    Settings
		want string
	}{
		{"absent fields", Settings{}, ""},
		{"empty fields", Settings{FilenamePrefix: ptr(""), FilenameSuffix: ptr(""), FilenameDatetimeFormat: ptr("")}, ""},
		{"plain", Settings{FilenamePrefix: ptr("prod/"), FilenameSuffix: ptr(".txt")}, ""},
		{"suffix ends in slash", Settings{FilenameSuffix: ptr("x/")},
			"error filename-suffix-slash 1-2 " + PathSuffix},
		{"suffix with a folder", Settings{FilenameSuffix: ptr("/part.txt")},
			"info filename-suffix-folder 0-1 " + PathSuffix},
		{"line feed in prefix", Settings{FilenamePrefix: ptr("a\nb")},
			"error object-name-newline 1-2 " + PathPrefix},
		{"carriage return in suffix", Settings{FilenameSuffix: ptr("\r")},
			"error object-name-newline 0-1 " + PathSuffix},
		{"invalid UTF-8", Settings{FilenamePrefix: ptr("a\xffb")},
			"error object-name-utf8 1-2 " + PathPrefix},
		{"control character", Settings{FilenamePrefix: ptr("a\x01")},
			"warning object-name-control 1-2 " + PathPrefix},
		{"C1 control character", Settings{FilenamePrefix: ptr("a\u0085")},
			"warning object-name-control 1-3 " + PathPrefix},
		{"awkward characters", Settings{FilenamePrefix: ptr("#[]*?")},
			"warning object-name-awkward 0-1 " + PathPrefix + "\nwarning object-name-awkward 1-2 " + PathPrefix +
				"\nwarning object-name-awkward 2-3 " + PathPrefix + "\nwarning object-name-awkward 3-4 " + PathPrefix +
				"\nwarning object-name-awkward 4-5 " + PathPrefix},
		{"awkward characters are capped", Settings{FilenameSuffix: ptr(strings.Repeat("#", 50))},
			repeatFinding("warning object-name-awkward %d-%d "+PathSuffix, maxCharFindings)},
		{"non-ASCII is fine", Settings{FilenamePrefix: ptr("données/ñ/"), FilenameSuffix: ptr(".日本")}, ""},
		{"empty folder", Settings{FilenamePrefix: ptr("a//b/")},
			"warning object-name-empty-folder 2-3 " + PathPrefix},
		{"leading slash", Settings{FilenamePrefix: ptr("/a")},
			"warning object-name-empty-folder 0-1 " + PathPrefix},
		{"dot folders", Settings{FilenamePrefix: ptr("./../x/")},
			"warning object-name-dot-folder 0-1 " + PathPrefix + "\nwarning object-name-dot-folder 2-4 " + PathPrefix},
		{"prefix and format make //", Settings{FilenamePrefix: ptr("a/"), FilenameDatetimeFormat: ptr("/YYYY-MM-DDThh:mm:ss")},
			"warning object-name-empty-folder 0-1 " + PathFormat},
		{"format starts with a slash", Settings{FilenameDatetimeFormat: ptr("/YYYY-MM-DDThh:mm:ss")},
			"warning object-name-empty-folder 0-1 " + PathFormat},
		{"format repeats a slash", Settings{FilenameDatetimeFormat: ptr("YYYY//MM-DDThh:mm:ss")},
			"warning object-name-empty-folder 5-6 " + PathFormat},
		{"dot in prefix closed by the format", Settings{FilenamePrefix: ptr("a/."), FilenameDatetimeFormat: ptr("/YYYY-MM-DDThh:mm:ss")},
			"warning object-name-dot-folder 2-3 " + PathPrefix},
		{"format slash after the uuid is not empty", Settings{FilenameSuffix: ptr("/x")},
			"info filename-suffix-folder 0-1 " + PathSuffix},
		{"dot without slash is a name part", Settings{FilenamePrefix: ptr(".."), FilenameSuffix: ptr(".")}, ""},
		{"acme prefix", Settings{FilenamePrefix: ptr(".well-known/acme-challenge/x")},
			"error object-name-reserved 0-27 " + PathPrefix},
		{"acme completed by the format", Settings{FilenamePrefix: ptr(".well-known/acme-challenge"), FilenameDatetimeFormat: ptr("/YYYY-MM-DDThh:mm:ss")},
			"error object-name-reserved 0-26 " + PathPrefix},
		{"name at the limit", Settings{FilenamePrefix: ptr(long[:MaxObjectName-len(DefaultFormat)-1-UUIDLen])}, ""},
		{"name one byte over, prefix longest", Settings{FilenamePrefix: ptr(long[:MaxObjectName-len(DefaultFormat)-UUIDLen])},
			"error object-name-length 0-963 " + PathPrefix},
		{"name over, suffix longest", Settings{FilenamePrefix: ptr(long[:400]), FilenameSuffix: ptr(long[:600])},
			"error object-name-length 0-600 " + PathSuffix},
		{"separator-ended format is one byte shorter", Settings{FilenamePrefix: ptr(long[:MaxObjectName-20-UUIDLen]), FilenameDatetimeFormat: ptr("YYYY-MM-DDThh:mm:ss-")}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := findings(Check(tc.s)); got != tc.want {
				t.Errorf("Check findings:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// repeatFinding renders n findings of one-byte spans at offsets 0..n-1.
func repeatFinding(pattern string, n int) string {
	var out []string
	for i := 0; i < n; i++ {
		out = append(out, fmt.Sprintf(pattern, i, i+1))
	}
	return strings.Join(out, "\n")
}

func TestCheckFormatPaths(t *testing.T) {
	ds := Check(Settings{Bucket: ptr("Bad"), FilenamePrefix: ptr("p\n"), FilenameDatetimeFormat: ptr("YYYY-MMM"), FilenameSuffix: ptr("/")})
	want := strings.Join([]string{
		"error bucket-name-uppercase 0-1 " + PathBucket,
		"error object-name-newline 1-2 " + PathPrefix,
		"error datetime-format-missing 0-8 " + PathFormat,
		"error datetime-format-matcher 5-8 " + PathFormat,
		"error filename-suffix-slash 0-1 " + PathSuffix,
	}, "\n")
	if got := findings(ds); got != want {
		t.Errorf("Check findings:\n%s\nwant:\n%s", got, want)
	}
	if l, _ := Compile(Settings{Bucket: ptr("Bad")}); l == nil {
		t.Error("a bad bucket must not stop names from being previewed")
	}
}

func TestCheckObjectName(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"fine", "prod_2023-09-25T04:10:00+00:00_u", ""},
		{"empty", "", "error object-name-empty 0-0"},
		{"dot", ".", "error object-name-dots 0-1"},
		{"dot dot", "..", "error object-name-dots 0-2"},
		{"acme", ".well-known/acme-challenge/a", "error object-name-reserved 0-27"},
		{"too long", strings.Repeat("a", 1025), "error object-name-length 0-1025"},
		{"at the limit", strings.Repeat("a", 1024), ""},
		{"newline", "a\nb", "error object-name-newline 1-2"},
		{"utf-8", "\xff", "error object-name-utf8 0-1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := findings(CheckObjectName(tc.in)); got != tc.want {
				t.Errorf("CheckObjectName(%q):\n%s\nwant:\n%s", tc.in, got, tc.want)
			}
		})
	}
}

func TestNameTimeIsUTC(t *testing.T) {
	l, _ := NewLayout("", "", nil)
	at := time.Date(2023, 9, 25, 6, 10, 0, 0, time.FixedZone("CEST", 2*3600))
	if got, want := l.Name(at, "u"), "2023-09-25T04:10:00+00:00_u"; got != want {
		t.Errorf("Name = %q, want %q", got, want)
	}
}
