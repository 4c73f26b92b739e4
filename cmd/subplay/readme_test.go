package main

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// readmeExample is one `subplay ...` command of README.md: a "$ subplay"
// line of a transcript, with the output printed under it, or a line of a
// sh block, which must run.
type readmeExample struct {
	line int
	args []string
	// want is the transcript's output; "..." ends a prefix. nil: a sh line,
	// whose output README does not show.
	want []string
}

// TestReadmeExamples runs every subplay command README.md shows, from the
// repository root as a reader would, and compares the transcripts.
func TestReadmeExamples(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	examples := readmeExamples(t, string(readme))
	if len(examples) < 3 {
		t.Fatalf("found %d subplay examples in README.md; the extraction is broken", len(examples))
	}
	t.Chdir(root)
	for _, ex := range examples {
		t.Run(strings.Join(ex.args, " "), func(t *testing.T) {
			if ex.args[0] == "serve" {
				checkServe(t, ex.args)
				return
			}
			var stdout, stderr bytes.Buffer
			code := run(ex.args, strings.NewReader(""), &stdout, &stderr)
			if code == exitUsage {
				t.Fatalf("README.md:%d: exit %d: %s", ex.line, code, stderr.String())
			}
			got := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
			for i, w := range ex.want {
				if w == "..." {
					return
				}
				if i >= len(got) || got[i] != w {
					t.Fatalf("README.md:%d: output differs at line %d\nREADME: %s\ngot:    %s\nall output:\n%s", ex.line, i+1, w, at(got, i), stdout.String())
				}
			}
			if ex.want != nil && len(got) != len(ex.want) {
				t.Fatalf("README.md:%d: %d lines of output, README shows %d:\n%s", ex.line, len(got), len(ex.want), stdout.String())
			}
		})
	}
}

// TestReadmeScripts runs every scripts/... command README.md shows in a sh
// block the quick way a newcomer can check it: the script exists, is
// executable, answers --help without building anything, and its help names
// every flag README's line gives it.
func TestReadmeScripts(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	flags := map[string][]string{}
	var order []string
	fence := ""
	for _, line := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(line, "```") {
			if fence == "" {
				fence = strings.TrimPrefix(line, "```") + " "
			} else {
				fence = ""
			}
			continue
		}
		if strings.TrimSpace(fence) != "sh" || !strings.HasPrefix(line, "scripts/") {
			continue
		}
		cmd, _, _ := strings.Cut(line, "#")
		words := strings.Fields(cmd)
		if _, seen := flags[words[0]]; !seen {
			order = append(order, words[0])
			flags[words[0]] = nil
		}
		for _, w := range words[1:] {
			if f, ok := strings.CutPrefix(strings.Trim(w, "[]"), "--"); ok {
				flags[words[0]] = append(flags[words[0]], "--"+f)
			}
		}
	}
	if len(order) < 3 {
		t.Fatalf("found %d scripts in README.md's sh blocks; the extraction is broken", len(order))
	}
	for _, script := range order {
		t.Run(script, func(t *testing.T) {
			path := filepath.Join(root, script)
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if info.Mode()&0o111 == 0 {
				t.Fatalf("%s is not executable", script)
			}
			cmd := exec.Command(path, "--help")
			cmd.Dir = root
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s --help: %v\n%s", script, err, out)
			}
			if len(bytes.TrimSpace(out)) == 0 {
				t.Fatalf("%s --help printed nothing", script)
			}
			for _, f := range flags[script] {
				if !bytes.Contains(out, []byte(f)) {
					t.Errorf("README gives %s the flag %s, which its --help does not name:\n%s", script, f, out)
				}
			}
		})
	}
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(nothing)"
}

func readmeExamples(t *testing.T, text string) []readmeExample {
	var out []readmeExample
	var cur *readmeExample
	fence := ""
	for n, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			if fence == "" {
				fence = strings.TrimPrefix(line, "```") + " " // "" would read as closed
			} else {
				fence, cur = "", nil
			}
			continue
		}
		switch {
		case fence == "":
		case strings.HasPrefix(line, "$ "):
			cur = nil
			if cmd, ok := strings.CutPrefix(line, "$ subplay "); ok {
				out = append(out, readmeExample{line: n + 1, args: shellWords(t, cmd), want: []string{}})
				cur = &out[len(out)-1]
			}
		case cur != nil:
			cur.want = append(cur.want, line)
		case strings.TrimSpace(fence) == "sh" && strings.HasPrefix(line, "subplay "):
			cmd, _, _ := strings.Cut(strings.TrimPrefix(line, "subplay "), "#")
			out = append(out, readmeExample{line: n + 1, args: shellWords(t, cmd)})
		}
	}
	return out
}

// shellWords splits a command line as sh would for the quoting README uses:
// words, 'single' and "double" quotes.
func shellWords(t *testing.T, s string) []string {
	var words []string
	var w strings.Builder
	in, quote := false, rune(0)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		t.Fatalf("unbalanced quote in README command %q", s)
	}
	if in {
		words = append(words, w.String())
	}
	return words
}

// checkServe starts `subplay serve` as README shows it (on a free port),
// waits for the line with its address, and asks for /healthz.
func checkServe(t *testing.T, args []string) {
	bin := filepath.Join(t.TempDir(), "subplay")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/subplay").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, append(args, "--addr", "127.0.0.1:0")...)
	cmd.Dir, _ = os.Getwd()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}()
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var first string
	select {
	case first = <-lines:
	case <-time.After(30 * time.Second):
		t.Fatal("subplay serve printed no address within 30 s")
	}
	_, rest, ok := strings.Cut(first, "http://")
	if !ok {
		t.Fatalf("subplay serve printed %q, with no address", first)
	}
	host, _, _ := strings.Cut(rest, "/")
	resp, err := http.Get("http://" + host + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/healthz: %s", resp.Status)
	}
}
