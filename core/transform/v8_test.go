//go:build !noudf && !js

package transform_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/transform"
)

// The corpus of TestAgreesWithV8: testdata/v8/*.txtar, one file per theme.
// In a file, a case is every entry named CASE/...:
//
//	CASE/FUNCTION.js   a UDF whose function is FUNCTION; several apply in
//	                   the order they are written
//	CASE/messages.json the sample messages, in the REST PubsubMessage shape
//	CASE/messages.js   or a pure generator of them: function generate()
//	                   returning [{text or data, attributes, messageId,
//	                   publishTime, orderingKey}], for messages too large
//	                   to keep in the repository
//	CASE/note          optional: why the case is there; a note starting with
//	                   "runtime not documented" marks a case whose answer
//	                   depends on what the docs do not promise (Intl, locales)
//
// testdata/v8/EXCEPTIONS names the cases allowed to disagree, one a line:
// the name, then the reason.
const (
	v8Corpus     = "testdata/v8"
	v8Exceptions = "testdata/v8/EXCEPTIONS"
	v8Oracle     = "v8oracle/oracle.mjs"
	// v8ReportEnv turns the test into a report: it prints the agreement and
	// every disagreement and fails only when it cannot run.
	v8ReportEnv = "SUBPLAY_V8_REPORT"
	// v8RequestEnv names a file to write the oracle's input to, to run
	// it by hand: node v8oracle/oracle.mjs < FILE.
	v8RequestEnv = "SUBPLAY_V8_REQUEST"
)

// v8Now is the request's time: what Date.now() gives for a message without
// a publish time, and during the top-level code.
var v8Now = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

type v8Case struct {
	Name, Theme, Note string
	UDFs              []transform.UDF
	Messages          []message.Message // nil when generated
	Generator         string
}

// oracleMessage is a message as the oracle reads and writes it: the REST
// shape.
type oracleMessage struct {
	Data        string            `json:"data,omitempty"`
	Attributes  map[string]string `json:"attributes,omitempty"`
	MessageID   string            `json:"messageId,omitempty"`
	PublishTime string            `json:"publishTime,omitempty"`
	OrderingKey string            `json:"orderingKey,omitempty"`
}

type oracleUDF struct {
	Name string `json:"name"`
	Code string `json:"code"`
}

type oracleCase struct {
	Name      string          `json:"name"`
	Now       string          `json:"now"`
	UDFs      []oracleUDF     `json:"udfs"`
	Messages  []oracleMessage `json:"messages,omitempty"`
	Generator string          `json:"generator,omitempty"`
}

type oracleStep struct {
	Outcome    string            `json:"outcome"`
	Data       string            `json:"data"` // base64
	Attributes map[string]string `json:"attributes"`
	Error      *struct {
		Name    string `json:"name"`
		Message string `json:"message"`
	} `json:"error"`
	Console []string `json:"console"`
}

type oracleResult struct {
	Name          string          `json:"name"`
	Error         string          `json:"error"`
	Messages      []oracleMessage `json:"messages"`
	Results       [][]oracleStep  `json:"results"`
	Deterministic bool            `json:"deterministic"`
}

// TestAgreesWithV8 runs every case of the corpus through V8 (Node's vm,
// under the contract the oracle mirrors) and through this package, and
// holds them to the same outcome at every step of every message, and to
// the same data and attributes where a step returns a message.
func TestAgreesWithV8(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not on PATH: this test needs Node 20 or later as its V8 (Debian: apt-get install nodejs; or https://nodejs.org/)")
	}
	// EXCEPTIONS lists every remaining difference; scripts/v8-diff turns
	// the test into a report that only logs them.
	report := os.Getenv(v8ReportEnv) == "1"
	defer transform.ScaleDeadlines(20)()
	cases := loadV8Corpus(t)
	exceptions := loadV8Exceptions(t, cases)
	results := runOracle(t, node, cases)

	agree := 0
	var disagree []string
	for i, c := range cases {
		r := results[i]
		if r.Name != c.Name {
			t.Fatalf("the oracle answered %q for case %q", r.Name, c.Name)
		}
		if r.Error != "" {
			t.Errorf("%s: the oracle could not run it: %s", c.Name, r.Error)
			continue
		}
		if !r.Deterministic {
			t.Errorf("%s: V8 gives a different answer on a second run: the case must be deterministic", c.Name)
			continue
		}
		msgs := c.Messages
		if c.Generator != "" {
			msgs = decodeMessages(t, c.Name, r.Messages)
		}
		if len(r.Results) != len(msgs) {
			t.Errorf("%s: the oracle answered for %d messages of %d", c.Name, len(r.Results), len(msgs))
			continue
		}
		diffs, both := compareCase(c, msgs, r.Results)
		for _, b := range both {
			t.Logf("%s: both failed, %s", c.Name, b)
		}
		reason, excepted := exceptions[c.Name]
		switch {
		case len(diffs) == 0 && excepted:
			agree++
			if report {
				t.Logf("stale exception: %s now agrees with V8 (%s)", c.Name, reason)
			} else {
				t.Errorf("%s agrees with V8 now: remove it from %s", c.Name, v8Exceptions)
			}
		case len(diffs) == 0:
			agree++
		default:
			disagree = append(disagree, c.Name)
			tag := ""
			if strings.HasPrefix(c.Note, "runtime not documented") {
				tag = " [runtime not documented]"
			}
			head := fmt.Sprintf("%s (%s)%s disagrees with V8:\n\t%s", c.Name, c.Theme, tag, strings.Join(diffs, "\n\t"))
			switch {
			case excepted:
				t.Logf("%s\n\texcepted: %s", head, reason)
			case report:
				t.Log(head)
			default:
				t.Error(head)
			}
		}
	}
	t.Logf("%d of %d cases agree with V8 (%.1f%%)", agree, len(cases), 100*float64(agree)/float64(max(len(cases), 1)))
	t.Logf("by theme: %s", byTheme(cases, disagree))
}

// byTheme counts, per theme, the cases that agree out of all.
func byTheme(cases []v8Case, disagree []string) string {
	bad := map[string]bool{}
	for _, n := range disagree {
		bad[n] = true
	}
	total, ok := map[string]int{}, map[string]int{}
	for _, c := range cases {
		total[c.Theme]++
		if !bad[c.Name] {
			ok[c.Theme]++
		}
	}
	var parts []string
	for _, th := range slices.Sorted(maps.Keys(total)) {
		parts = append(parts, fmt.Sprintf("%s %d/%d", th, ok[th], total[th]))
	}
	return strings.Join(parts, ", ")
}

func loadV8Corpus(t *testing.T) []v8Case {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(v8Corpus, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus in %s (%v)", v8Corpus, err)
	}
	var cases []v8Case
	seen := map[string]string{}
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		theme := strings.TrimSuffix(filepath.Base(f), ".txtar")
		byName := map[string]*v8Case{}
		var order []string
		var raw = map[string]string{} // messages.json text per case
		for _, file := range a.Files {
			name, part, ok := strings.Cut(file.Name, "/")
			if !ok || name == "" || part == "" {
				t.Fatalf("%s: entry %q is not CASE/PART", f, file.Name)
			}
			c := byName[name]
			if c == nil {
				if other, dup := seen[name]; dup {
					t.Fatalf("%s: case %q is also in %s", f, name, other)
				}
				seen[name] = f
				c = &v8Case{Name: name, Theme: theme}
				byName[name] = c
				order = append(order, name)
			}
			text := string(file.Data)
			switch {
			case part == "note":
				c.Note = strings.TrimSpace(text)
			case part == "messages.json":
				raw[name] = text
			case part == "messages.js":
				c.Generator = text
			case strings.HasSuffix(part, ".js"):
				fn := strings.TrimSuffix(part, ".js")
				c.UDFs = append(c.UDFs, transform.UDF{FunctionName: fn, Code: text})
			default:
				t.Fatalf("%s: case %q has an entry %q of no known kind", f, name, part)
			}
		}
		for _, name := range order {
			c := byName[name]
			if len(c.UDFs) == 0 {
				t.Fatalf("%s: case %q has no UDF", f, name)
			}
			text, hasJSON := raw[name]
			if hasJSON == (c.Generator != "") {
				t.Fatalf("%s: case %q needs messages.json or messages.js, one of them", f, name)
			}
			if hasJSON {
				d, ds := message.Parse(name, text, doc.JSON)
				if diag.HasErrors(ds) || len(d.Messages) == 0 {
					t.Fatalf("%s: case %q: its messages do not decode: %v", f, name, ds)
				}
				c.Messages = d.Messages
			}
			cases = append(cases, *c)
		}
	}
	return cases
}

func loadV8Exceptions(t *testing.T, cases []v8Case) map[string]string {
	t.Helper()
	out := map[string]string{}
	b, err := os.ReadFile(v8Exceptions)
	if os.IsNotExist(err) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, c := range cases {
		known[c.Name] = true
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, reason, _ := strings.Cut(line, " ")
		reason = strings.TrimSpace(reason)
		switch {
		case !known[name]:
			t.Errorf("%s:%d: no case is called %q", v8Exceptions, n, name)
		case reason == "":
			t.Errorf("%s:%d: %q needs a reason", v8Exceptions, n, name)
		}
		out[name] = reason
	}
	return out
}

func runOracle(t *testing.T, node string, cases []v8Case) []oracleResult {
	t.Helper()
	in := make([]oracleCase, len(cases))
	for i, c := range cases {
		oc := oracleCase{Name: c.Name, Now: v8Now.Format(time.RFC3339), Generator: c.Generator}
		for _, u := range c.UDFs {
			oc.UDFs = append(oc.UDFs, oracleUDF{Name: u.FunctionName, Code: u.Code})
		}
		for _, m := range c.Messages {
			oc.Messages = append(oc.Messages, oracleMessage{
				Data: base64.StdEncoding.EncodeToString(m.Data), Attributes: m.Attributes,
				MessageID: m.MessageID, PublishTime: m.PublishTime, OrderingKey: m.OrderingKey})
		}
		in[i] = oc
	}
	req, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if path := os.Getenv(v8RequestEnv); path != "" {
		if err := os.WriteFile(path, req, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(node, v8Oracle)
	// The contract's local time is UTC; a fixed locale keeps what Intl
	// answers the same on every machine.
	cmd.Env = append(os.Environ(), "TZ=UTC", "LANG=en_US.UTF-8", "LC_ALL=en_US.UTF-8")
	cmd.Stdin = bytes.NewReader(req)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", node, v8Oracle, err, stderr.String())
	}
	var results []oracleResult
	if err := json.Unmarshal(out, &results); err != nil {
		t.Fatalf("the oracle's answer: %v", err)
	}
	if len(results) != len(cases) {
		t.Fatalf("the oracle answered %d cases of %d", len(results), len(cases))
	}
	return results
}

// decodeMessages makes the generated messages as the REST decoder would.
// They do not go through message.Parse: its bound on a document (1 MiB)
// is smaller than the base64 of the largest messages the service takes.
func decodeMessages(t *testing.T, name string, ms []oracleMessage) []message.Message {
	t.Helper()
	out := make([]message.Message, len(ms))
	for i, m := range ms {
		data, err := base64.StdEncoding.DecodeString(m.Data)
		if err != nil {
			t.Fatalf("%s: generated message %d: data: %v", name, i, err)
		}
		out[i] = message.Message{Data: data, Attributes: m.Attributes, MessageID: m.MessageID, PublishTime: m.PublishTime, OrderingKey: m.OrderingKey}
		if m.PublishTime != "" {
			if _, ok := out[i].Time(); !ok {
				t.Fatalf("%s: generated message %d: publishTime %q is not RFC 3339", name, i, m.PublishTime)
			}
		}
		if ds := message.Check(&out[i], nil, ""); diag.HasErrors(ds) {
			t.Fatalf("%s: generated message %d breaks a publish limit: %v", name, i, ds)
		}
	}
	return out
}

// goSteps turns this package's steps into what the oracle reports: the
// steps up to the first drop or failure. A UDF that could not start (its
// top-level code threw, a syntax error, no such function) or that the
// request's budget left out is NotRun here and a failure in V8, where
// nothing but the UDF itself stops it.
func goSteps(steps []transform.Step) []transform.Step {
	var out []transform.Step
	for _, s := range steps {
		if s.Outcome == transform.NotRun {
			s.Outcome = transform.Failed
		}
		out = append(out, s)
		if s.Outcome == transform.Failed || s.Outcome == transform.Dropped {
			break
		}
	}
	return out
}

// compareCase runs c through this package and returns how it differs from
// V8's answers, and, for the steps both fail, what each engine said (the
// texts differ by engine: they are shown, not compared).
func compareCase(c v8Case, msgs []message.Message, want [][]oracleStep) (diffs, both []string) {
	prog, err := transform.Compile(c.UDFs, transform.Options{Now: v8Now})
	if err != nil {
		return []string{"compile: " + err.Error()}, nil
	}
	for i, m := range msgs {
		got := goSteps(prog.Run(m))
		for k := range got {
			// A UDF that could not start says why in the program's
			// findings, not in the step's.
			if k < len(prog.Diagnostics) && len(prog.Diagnostics[k]) > 0 && got[k].Outcome == transform.Failed &&
				len(got[k].Diagnostics) > 0 && got[k].Diagnostics[0].Code == "udf-not-compiled" {
				got[k].Diagnostics = prog.Diagnostics[k]
			}
		}
		v8 := want[i]
		for k := 0; k < max(len(got), len(v8)); k++ {
			at := fmt.Sprintf("message %d, %s", i, stepName(c, k))
			switch {
			case k >= len(got):
				diffs = append(diffs, fmt.Sprintf("%s: V8 %s, subplay did not run it", at, v8Outcome(v8[k])))
				continue
			case k >= len(v8):
				diffs = append(diffs, fmt.Sprintf("%s: subplay %s, V8 did not run it", at, goOutcome(got[k])))
				continue
			}
			g, w := got[k], v8[k]
			if string(g.Outcome) != w.Outcome {
				diffs = append(diffs, fmt.Sprintf("%s: V8 %s, subplay %s", at, v8Outcome(w), goOutcome(g)))
				break
			}
			if w.Outcome == "failed" {
				both = append(both, fmt.Sprintf("%s: V8 %s; subplay %s", at, v8Outcome(w), goOutcome(g)))
			}
			if w.Outcome != "changed" && w.Outcome != "unchanged" {
				continue
			}
			wd, err := base64.StdEncoding.DecodeString(w.Data)
			if err != nil {
				diffs = append(diffs, at+": the oracle's data is not base64")
				continue
			}
			if d := textDiff(wd, g.Message.Data); d != "" {
				diffs = append(diffs, at+": data differs: "+d)
			}
			if !maps.Equal(w.Attributes, g.Message.Attributes) {
				diffs = append(diffs, fmt.Sprintf("%s: attributes differ: V8 %s, subplay %s", at, showAttrs(w.Attributes), showAttrs(g.Message.Attributes)))
			}
		}
	}
	return diffs, both
}

func stepName(c v8Case, k int) string {
	if k < len(c.UDFs) {
		return c.UDFs[k].FunctionName
	}
	return fmt.Sprintf("step %d", k)
}

func v8Outcome(s oracleStep) string {
	if s.Error != nil {
		return fmt.Sprintf("%s (%s: %s)", s.Outcome, s.Error.Name, clip(s.Error.Message, 120))
	}
	return s.Outcome
}

func goOutcome(s transform.Step) string {
	for _, d := range s.Diagnostics {
		if d.Severity == diag.Error {
			return fmt.Sprintf("%s (%s: %s)", s.Outcome, d.Code, clip(d.Message, 120))
		}
	}
	return string(s.Outcome)
}

// textDiff shows where two payloads part: the offset and some text of each
// around it.
func textDiff(v8, got []byte) string {
	if bytes.Equal(v8, got) {
		return ""
	}
	i := 0
	for i < len(v8) && i < len(got) && v8[i] == got[i] {
		i++
	}
	from := max(i-30, 0)
	for from > 0 && !utf8.RuneStart(v8[from]) {
		from--
	}
	part := func(b []byte) string {
		end := min(i+50, len(b))
		return fmt.Sprintf("%q", b[min(from, len(b)):end])
	}
	return fmt.Sprintf("at byte %d (lengths %d and %d): V8 …%s…, subplay …%s…", i, len(v8), len(got), part(v8), part(got))
}

func showAttrs(a map[string]string) string {
	keys := slices.Collect(maps.Keys(a))
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%q: %q", k, clip(a[k], 40)))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
