//go:build unix

package gcloudcmd

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/subplay/subplay/internal/emulator"
)

// The oracle is gcloud itself, run against Google's Pub/Sub emulator with
// --log-http: the request body it sends is what a command means. These
// tests need both installed; SUBPLAY_REQUIRE_TOOLS=1 makes their absence a
// failure instead of a skip.

var record = flag.Bool("record", false, "run every corpus command through gcloud and the emulator and write the outcomes into testdata/corpus")

const (
	oracleWorkers    = 4                // gcloud is single-threaded and slow to start; the machine has 2 cores
	oracleCmdTimeout = 90 * time.Second // one gcloud run, emulator round trip included
	oracleBudget     = 4 * time.Minute  // the whole live comparison; cases past it are counted as not run
	recordBudget     = 50 * time.Minute // recording, which resumes where it stopped when run again
)

// oracle runs commands through gcloud against one emulator.
type oracle struct {
	endpoint string
	configs  chan string // scratch CLOUDSDK_CONFIG directories, one per worker
}

// startOracle starts the emulator (internal/emulator: its own process
// group on a loopback port, stopped at cleanup) and the workers' scratch
// gcloud configurations.
func startOracle(t *testing.T) *oracle {
	t.Helper()
	e := emulator.Start(t)
	o := &oracle{endpoint: e.Endpoint(), configs: make(chan string, oracleWorkers)}
	for range oracleWorkers {
		o.configs <- t.TempDir()
	}
	return o
}

// shellText is the command as bash runs it: a leading "$ " prompt, which
// a shell would not accept, is dropped.
func shellText(cmd string) string {
	return strings.TrimPrefix(strings.TrimLeft(cmd, " \t"), "$ ")
}

// run sends one command through gcloud and returns its outcome in the
// corpus's form.
func (o *oracle) run(parent context.Context, c corpusCase) (string, error) {
	dir, err := os.MkdirTemp("", "gcloudcmd-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	for name, data := range c.files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			return "", err
		}
	}
	cfg := <-o.configs
	defer func() { o.configs <- cfg }()
	logPath := filepath.Join(dir, ".gcloud-log")
	// The function sends gcloud's stderr (where --log-http writes) to a file
	// of ours, whatever redirection the command itself ends with; a text of
	// several gcloud commands appends them all, in order.
	script := `gcloud() { command gcloud "$@" 2>>"$GCLOG"; }` + "\n" + shellText(c.cmd) + "\n"
	ctx, cancel := context.WithTimeout(parent, oracleCmdTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GCLOG="+logPath,
		"CLOUDSDK_CONFIG="+cfg,
		"CLOUDSDK_CORE_PROJECT="+oracleProject,
		"CLOUDSDK_CORE_LOG_HTTP=true",
		"CLOUDSDK_CORE_DISABLE_PROMPTS=1",
		"CLOUDSDK_CORE_CHECK_GCE_METADATA=false",
		"CLOUDSDK_CORE_DISABLE_USAGE_REPORTING=true",
		"CLOUDSDK_COMPONENT_MANAGER_DISABLE_UPDATE_CHECK=true",
		"CLOUDSDK_AUTH_DISABLE_CREDENTIALS=true",
		"CLOUDSDK_API_ENDPOINT_OVERRIDES_PUBSUB="+o.endpoint,
	)
	out, runErr := cmd.CombinedOutput()
	if parent.Err() != nil {
		return "", nil // the whole run's budget is spent: not run, not a failure
	}
	if ctx.Err() != nil {
		return "", fmt.Errorf("gcloud timed out: %w", ctx.Err())
	}
	logText, _ := os.ReadFile(logPath)
	return outcome(string(logText), string(out), runErr)
}

var (
	reqRe  = regexp.MustCompile(`(?s)==== request start ====\nuri: (\S+)\nmethod: (\S+)\n.*?== body start ==\n(.*?)\n?== body end ==`)
	flagRe = regexp.MustCompile(`--[a-z0-9][a-z0-9-]*`)
)

// outcome turns gcloud's log into the corpus form: "sent METHOD PATH" and
// the canonical request body of the first subscription it created or
// updated, or "rejected [--flag]" and gcloud's error line when it sent
// none.
func outcome(log, out string, runErr error) (string, error) {
	for _, m := range reqRe.FindAllStringSubmatch(log, -1) {
		uri, method, body := m[1], m[2], m[3]
		if method != "PUT" && method != "PATCH" || !strings.Contains(uri, "/subscriptions/") {
			continue // a topic's creation, in a text of several commands
		}
		path := uri
		if i := strings.Index(path, "/v1/"); i >= 0 {
			path = path[i+4:]
		}
		path, _, _ = strings.Cut(path, "?")
		canon, err := canonicalJSON(body)
		if err != nil {
			return "", fmt.Errorf("request body: %w", err)
		}
		return "sent " + method + " " + path + "\n" + canon + "\n", nil
	}
	if runErr == nil {
		return "", fmt.Errorf("gcloud succeeded without sending a request:\n%s%s", log, out)
	}
	var errLine string
	for line := range strings.Lines(log + "\n" + out) {
		if strings.HasPrefix(line, "ERROR:") {
			errLine = strings.TrimSpace(line)
			break
		}
	}
	if errLine == "" {
		return "", fmt.Errorf("gcloud failed (%v) with no error line:\n%s%s", runErr, log, out)
	}
	head := "rejected"
	if f := flagRe.FindString(errLine); f != "" {
		head += " " + f
	}
	return head + "\n" + errLine + "\n", nil
}

// runAll runs cases through the oracle, oracleWorkers at a time, within
// oracleBudget; outcomes[i] is "" for a case not run.
func (o *oracle) runAll(t *testing.T, cases []corpusCase, budget time.Duration) (outcomes []string, errs []error) {
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	outcomes = make([]string, len(cases))
	errs = make([]error, len(cases))
	next := make(chan int)
	var wg sync.WaitGroup
	for range oracleWorkers {
		wg.Go(func() {
			for i := range next {
				outcomes[i], errs[i] = o.run(ctx, cases[i])
			}
		})
	}
	for i := range cases {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return outcomes, errs
}

// writeOutcomes stores recorded outcomes as ".want" sections after each
// case's ".cmd", replacing what was recorded before.
func writeOutcomes(t *testing.T, cases []corpusCase, outcomes []string) {
	byFile := map[string]map[string]string{}
	for i, c := range cases {
		if outcomes[i] == "" {
			continue
		}
		if byFile[c.file] == nil {
			byFile[c.file] = map[string]string{}
		}
		byFile[c.file][c.name] = outcomes[i]
	}
	for file, wants := range byFile {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		a := parseArchive(string(raw))
		var secs []section
		for _, s := range a.sections {
			name, ext, _ := strings.Cut(s.name, ".")
			if ext == "want" {
				if _, ok := wants[name]; ok {
					continue
				}
			}
			secs = append(secs, s)
			if w, ok := wants[name]; ok && ext == "cmd" {
				secs = append(secs, section{name + ".want", w})
			}
		}
		a.sections = secs
		if err := os.WriteFile(file, []byte(a.format()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGcloudRecord writes the outcomes of the corpus cases that have none
// yet (scripts/record-gcloud-corpus; delete a ".want" to re-record it).
// gcloud takes 2 to 10 s a command on a busy machine, so a run that hits
// its budget keeps what it recorded and the next run resumes.
func TestGcloudRecord(t *testing.T) {
	if !*record {
		t.Skip("run with -record to re-record the corpus from gcloud")
	}
	o := startOracle(t)
	var cases []corpusCase
	for _, c := range loadCorpus(t) {
		if c.want == "" {
			cases = append(cases, c)
		}
	}
	outcomes, errs := o.runAll(t, cases, recordBudget)
	n := 0
	for i, err := range errs {
		if err != nil {
			t.Logf("%s/%s: not recorded: %v", cases[i].file, cases[i].name, err)
			outcomes[i] = ""
		}
		if outcomes[i] != "" {
			n++
		}
	}
	writeOutcomes(t, cases, outcomes)
	t.Logf("recorded %d of the %d cases that had no outcome", n, len(cases))
}

// liveSample picks the cases the live comparison runs: every case when
// SUBPLAY_GCLOUD_LIVE=all, otherwise an even spread of liveDefault cases
// across the corpus (gcloud takes 2 to 10 s a command, and the whole
// comparison must stay within oracleBudget).
const liveDefault = 24

func liveSample(cases []corpusCase) []corpusCase {
	if os.Getenv("SUBPLAY_GCLOUD_LIVE") == "all" || len(cases) <= liveDefault {
		return cases
	}
	out := make([]corpusCase, 0, liveDefault)
	for i := range liveDefault {
		out = append(out, cases[i*len(cases)/liveDefault])
	}
	return out
}

// TestGcloudLive runs corpus commands through gcloud and the emulator now
// and compares what gcloud sends with the reader (and with the recorded
// outcome, which catches a gcloud that changed since recording).
func TestGcloudLive(t *testing.T) {
	if *record {
		t.Skip("recording")
	}
	if testing.Short() {
		t.Skip("SKIPPED: the live gcloud comparison does not run with -short")
	}
	o := startOracle(t)
	cases := liveSample(loadCorpus(t))
	outcomes, errs := o.runAll(t, cases, oracleBudget)
	ran, agreed, drift := 0, 0, 0
	for i, c := range cases {
		if errs[i] != nil {
			t.Errorf("%s/%s: %v", c.file, c.name, errs[i])
			continue
		}
		if outcomes[i] == "" {
			continue
		}
		ran++
		if c.want != "" && c.want != outcomes[i] {
			drift++
			t.Errorf("%s/%s: gcloud now does something else than recorded:\nrecorded:\n%snow:\n%s", c.file, c.name, c.want, outcomes[i])
		}
		ok, why := agree(c, outcomes[i])
		_, isException := corpusExceptions[c.name]
		switch {
		case ok:
			agreed++
		case !isException:
			t.Errorf("%s/%s: %s\ncommand: %s", c.file, c.name, why, c.cmd)
		}
	}
	if ran < len(cases) {
		t.Logf("%d of %d cases did not run within %v", len(cases)-ran, len(cases), oracleBudget)
	}
	// A run that compared too few cases proves nothing: gcloud or the
	// emulator answered too slowly or not at all.
	if minLive := len(cases) / 2; ran < minLive {
		t.Errorf("only %d of %d cases were compared within %v; at least %d must be", ran, len(cases), oracleBudget, minLive)
	}
	t.Logf("live comparison with gcloud 528 and the emulator: %d cases run, %d agree with the reader, %d differ from the recording, %d listed exceptions",
		ran, agreed, drift, len(corpusExceptions))
}
