package gcloudcmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// corpusCase is one command of testdata/corpus: the command as a user
// would paste it, the files given beside it, and what gcloud 528 did with
// it against the emulator (recorded by scripts/record-gcloud-corpus).
type corpusCase struct {
	file, name string
	cmd        string
	files      map[string]string
	want       string // the recorded outcome, "" when not yet recorded
}

// archive is a txtar archive: a comment, then "-- name --" sections.
type archive struct {
	comment  string
	sections []section
}

type section struct{ name, data string }

func parseArchive(text string) archive {
	var a archive
	cur := -1
	var b strings.Builder
	flush := func() {
		if cur < 0 {
			a.comment = b.String()
		} else {
			a.sections[cur].data = b.String()
		}
		b.Reset()
	}
	for line := range strings.Lines(text) {
		trim := strings.TrimRight(line, "\n")
		if strings.HasPrefix(trim, "-- ") && strings.HasSuffix(trim, " --") && len(trim) > 6 {
			flush()
			a.sections = append(a.sections, section{name: strings.TrimSpace(trim[3 : len(trim)-3])})
			cur = len(a.sections) - 1
			continue
		}
		b.WriteString(line)
	}
	flush()
	return a
}

func (a archive) format() string {
	var b strings.Builder
	b.WriteString(a.comment)
	for _, s := range a.sections {
		b.WriteString("-- " + s.name + " --\n")
		b.WriteString(s.data)
		if s.data != "" && !strings.HasSuffix(s.data, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// loadCorpus reads every case of testdata/corpus. Sections named
// "file:PATH" are files every case of that archive can name.
func loadCorpus(t testing.TB) []corpusCase {
	t.Helper()
	paths, err := filepath.Glob("testdata/corpus/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	sort.Strings(paths)
	var out []corpusCase
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		a := parseArchive(string(raw))
		files := map[string]string{}
		for _, s := range a.sections {
			if f, ok := strings.CutPrefix(s.name, "file:"); ok {
				files[f] = s.data
			}
		}
		byName := map[string]int{}
		for _, s := range a.sections {
			name, ext, _ := strings.Cut(s.name, ".")
			switch ext {
			case "cmd":
				byName[name] = len(out)
				out = append(out, corpusCase{file: p, name: name, cmd: strings.TrimSuffix(s.data, "\n"), files: files})
			case "want":
				if i, ok := byName[name]; ok {
					out[i].want = s.data
				}
			}
		}
	}
	return out
}

// readerOutcome is what Read makes of a case, in the corpus's form.
func readerOutcome(c corpusCase) (string, *Result) {
	res := Read(Request{Name: c.name, Text: c.cmd, Files: c.files, Project: oracleProject})
	for _, d := range res.Diagnostics {
		if d.Severity == "error" {
			return "rejected", res
		}
	}
	root := res.Doc.Root
	if root == nil {
		return "rejected", res
	}
	name := ""
	if n := root.Get("name"); n != nil {
		name = n.Value
	}
	body := root.JSON()
	method := "PUT"
	if res.Verb == Update {
		method = "PATCH"
		mask, _ := json.Marshal(strings.Join(res.UpdateMask, ","))
		body = `{"subscription":` + body + `,"updateMask":` + string(mask) + `}`
	}
	canon, err := canonicalJSON(body)
	if err != nil {
		return "invalid JSON: " + err.Error(), res
	}
	return "sent " + method + " " + name + "\n" + canon + "\n", res
}

// flagRanges returns the byte ranges of the command where flag (with its
// value) is written.
func flagRanges(cmd, flag string) [][2]int {
	cmds, _ := lex(cmd)
	var out [][2]int
	for _, c := range cmds {
		for i, w := range c.words {
			name, _, glued := strings.Cut(w.text, "=")
			if name != flag && name != "--no-"+strings.TrimPrefix(flag, "--") {
				continue
			}
			end := w.end
			if !glued && i+1 < len(c.words) && !strings.HasPrefix(c.words[i+1].text, "--") {
				end = c.words[i+1].end
			}
			out = append(out, [2]int{w.start, end})
		}
	}
	return out
}

// agree compares a recorded gcloud outcome with the reader's.
func agree(c corpusCase, want string) (bool, string) {
	got, res := readerOutcome(c)
	head, _, _ := strings.Cut(want, "\n")
	if !strings.HasPrefix(head, "rejected") {
		if got != want {
			return false, "gcloud sent:\n" + want + "subplay read:\n" + got + diagText(res)
		}
		return true, ""
	}
	if got != "rejected" {
		return false, "gcloud refused it (" + strings.TrimSpace(want) + ") but subplay read:\n" + got + diagText(res)
	}
	flag := strings.TrimSpace(strings.TrimPrefix(head, "rejected"))
	ranges := flagRanges(c.cmd, flag)
	if flag == "" || len(ranges) == 0 {
		return true, "" // gcloud names no flag the command has: any error agrees
	}
	for _, d := range res.Diagnostics {
		if d.Severity != "error" {
			continue
		}
		off := d.Span.Start.Offset()
		for _, rg := range ranges {
			if off >= rg[0] && off < rg[1] {
				return true, ""
			}
		}
	}
	return false, "gcloud refused " + flag + " but subplay's errors are elsewhere:" + diagText(res)
}

func diagText(res *Result) string {
	var b strings.Builder
	for _, d := range res.Diagnostics {
		fmt.Fprintf(&b, "\n  %d:%d %s %s: %s", d.Line, d.Column, d.Severity, d.Code, d.Message)
	}
	return b.String() + "\n"
}

// corpusExceptions are the cases where subplay knowingly differs from
// gcloud, with the reason. The test fails when one of them agrees again,
// so the list stays true.
var corpusExceptions = map[string]string{
	"mt-missing": "a file the command names but the request does not carry is unknown to subplay (it is on the user's disk), not missing",
}

// TestCorpus compares the reader with every outcome recorded from gcloud.
func TestCorpus(t *testing.T) {
	cases := loadCorpus(t)
	recorded, agreed := 0, 0
	for _, c := range cases {
		if c.want == "" {
			continue
		}
		recorded++
		t.Run(strings.TrimSuffix(filepath.Base(c.file), ".txtar")+"/"+c.name, func(t *testing.T) {
			ok, why := agree(c, c.want)
			reason, isException := corpusExceptions[c.name]
			switch {
			case ok && isException:
				t.Errorf("listed as an exception (%s) but subplay now agrees with gcloud: remove it from corpusExceptions", reason)
			case !ok && !isException:
				t.Errorf("%s\ncommand: %s", why, c.cmd)
			case ok:
				agreed++
			}
		})
	}
	if recorded < 150 {
		t.Errorf("the corpus has %d recorded cases; it should have at least 150", recorded)
	}
	t.Logf("corpus: %d cases, %d recorded, %d agree with gcloud, %d listed exceptions", len(cases), recorded, agreed, len(corpusExceptions))
}

// oracleProject is the project the corpus commands run in (gcloud's
// configuration when the command has no --project).
const oracleProject = "p"

// canonicalJSON re-encodes a JSON text with sorted keys, indented, so
// recorded bodies diff well.
func canonicalJSON(text string) (string, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	b, err := json.MarshalIndent(v, "", "  ")
	return string(b), err
}
