package labnotes

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const ordinal = `(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|` +
	`thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth|fortieth|fiftieth)`

// patterns are the kinds of lab note, each a regular expression over one
// line of a tracked file.
var patterns = []struct {
	kind string
	re   *regexp.Regexp
}{
	// "the ninth session", "twenty-first session", "end of the third session".
	{"work-log label", regexp.MustCompile(`(?i)\b` + ordinal + `[ -]+session`)},
	// A compound ordinal alone ("since the twenty-sixth") is a session
	// label in this project: nothing else here counts past twenty.
	{"work-log label", regexp.MustCompile(`(?i)\b(twenty|thirty|forty|fifty)-` + ordinal + `\b`)},
	{"work-log label", regexp.MustCompile(`(?i)\blatest figures\b`)},
	// "issue 10", "issues 10 and 12", "Issue #47".
	{"issue reference", regexp.MustCompile(`(?i)\bissues?\s+#?[0-9]+\b`)},
	// "#47" standing as a word in prose; "owner/repo#47" (a source cited
	// by its tracker) and "#fff" are not.
	{"issue reference", regexp.MustCompile(`(^|[\s(\[])#[0-9]+\b`)},
	// An absolute path of a machine, standing as a word or quoted;
	// os.TempDir() and t.TempDir() name no path, and a URL's path has its
	// host before it.
	{"machine path", regexp.MustCompile("(^|[\\s\"'`(=:])/(work|root|home|tmp)/")},
}

// allowed lists the tracked paths the test does not read, each with its
// reason. Keep it short: an entry here is a place lab notes can hide.
var allowed = []struct{ prefix, why string }{
	// Inputs a fuzzer found: bytes, not prose.
	{"testdata/fuzz/", "fuzz inputs"},
	// This test's own table of examples.
	{"internal/labnotes/", "the examples of this test"},
}

func isAllowed(path string) bool {
	for _, a := range allowed {
		if strings.HasPrefix(path, a.prefix) || strings.Contains(path, "/"+a.prefix) {
			return true
		}
	}
	return false
}

// find returns the kind of lab note in line, or "".
func find(path, line string) string {
	for _, p := range patterns {
		if p.kind == "issue reference" && strings.HasSuffix(path, ".css") && strings.Contains(line, "#") {
			continue // colours such as #333
		}
		if p.re.MatchString(line) {
			return p.kind
		}
	}
	return ""
}

// TestNoLabNotes reads every tracked file outside the allow-list and fails
// on each line that carries a lab note.
func TestNoLabNotes(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("not a git checkout (git ls-files: %v): nothing tracked to read", err)
	}
	files := strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	if len(files) < 100 {
		t.Fatalf("git ls-files listed %d files; the listing is broken", len(files))
	}
	read := 0
	for _, path := range files {
		if isAllowed(path) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			if os.IsNotExist(err) {
				continue // deleted in the work tree, not yet in the index
			}
			t.Fatal(err)
		}
		if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
			continue // binary
		}
		read++
		lines := strings.Split(string(data), "\n")
		for n, line := range lines {
			kind := find(path, line)
			if kind == "" && n+1 < len(lines) {
				// A label wrapped over two lines of a comment: "the
				// eleventh\n// session".
				next := continued(lines[n+1])
				if find(path, next) == "" {
					kind = find(path, line+" "+next)
				}
			}
			if kind != "" {
				t.Errorf("%s:%d: %s: %.160s", path, n+1, kind, strings.TrimSpace(line))
			}
		}
	}
	t.Logf("%d tracked files read", read)
}

// continued is a line without its comment marker, as it continues the
// sentence of the line before.
func continued(line string) string {
	line = strings.TrimSpace(line)
	for _, marker := range []string{"//", "#", "*", "--"} {
		line = strings.TrimPrefix(line, marker)
	}
	return strings.TrimSpace(line)
}

// TestPatterns holds the patterns to what they must and must not find.
func TestPatterns(t *testing.T) {
	for _, c := range []struct {
		path, line, want string
	}{
		{"a.go", "// measured in the thirty-third session", "work-log label"},
		{"a.go", "// (twenty-first session: before, ...)", "work-log label"},
		{"a.go", "// 100 until the twenty-sixth, when it fell", "work-log label"},
		{"README.md", "### Latest figures (2026-12-04)", "work-log label"},
		{"a.sh", "# end of the third session, main at bef5644", "work-log label"},
		{"a.go", "// Issue 10 asks for 1 s", "issue reference"},
		{"a.go", "// issue #47's budget", "issue reference"},
		{"a.md", "fixed in #47 by the lead", "issue reference"},
		{"a.md", "(#12)", "issue reference"},
		{"a.sh", "#   scripts/build-wasm /tmp/x.wasm TAGS", "machine path"},
		{"a.md", "git clone /work/wt/sizes", "machine path"},
		{"a.go", `dir := "/home/me/subplay"`, "machine path"},
		{"a.md", "`/root/.cache/go-build`", "machine path"},

		{"a.go", "// the first session cookie is refreshed", "work-log label"}, // strict on purpose
		{"a.go", "// the first message of a session", ""},
		{"a.go", "// the twentieth item", ""},
		{"a.go", "// a second request meanwhile", ""},
		{"a.md", "the filter is create-only (nodejs-pubsub#976)", ""},
		{"a.md", "hashicorp/terraform-provider-google#17119", ""},
		{"a.css", "color: #333;", ""},
		{"a.js", `const c = "#000";`, ""},
		{"a.go", "dir := os.TempDir()", ""},
		{"a.go", `u := "https://example.com/home/x"`, ""},
		{"a.md", "files under dist/tmp/ are ignored", ""},
		{"a.go", "// see the issues listed below", ""},
		{"a.go", "// #include-style directive", ""},
	} {
		if got := find(c.path, c.line); got != c.want {
			t.Errorf("find(%q, %q) = %q, want %q", c.path, c.line, got, c.want)
		}
	}
}

func TestContinued(t *testing.T) {
	line, next := "// measured again in the eleventh", "// session, on a quiet machine"
	if find("a.go", line) != "" || find("a.go", continued(next)) != "" {
		t.Fatal("the example should need both lines")
	}
	if got := find("a.go", line+" "+continued(next)); got != "work-log label" {
		t.Errorf("a label wrapped over two lines: find = %q", got)
	}
}

func TestAllowed(t *testing.T) {
	for path, want := range map[string]bool{
		"core/transform/engine.go":                      false,
		"core/limits/transform.go":                      false,
		"core/limits/server.go":                         false,
		"core/message/testdata/fuzz/FuzzParse/d514d475": true,
		"docs/limits.md":                                false,
		"docs/api.md":                                   false,
		"README.md":                                     false,
	} {
		if got := isAllowed(path); got != want {
			t.Errorf("isAllowed(%q) = %v, want %v", path, got, want)
		}
	}
}
