//go:build unix

package emulator

import (
	"context"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/subscription"
)

var record = flag.Bool("record", false, "create every case in the emulator and write its verdicts into "+goldenPath)

const (
	goldenPath = "testdata/verdicts.txt"
	liveBudget = 2 * time.Minute // the whole live run, emulator start aside
)

// outcome is how one case came out: the emulator's verdict beside ours.
type outcome int

const (
	bothAccept outcome = iota
	bothReject         // and our error is about the field the emulator names
	laxer              // we reject what the emulator accepts
	stricter           // the emulator rejects what we accept, or names another field
)

// ours returns our errors for a body.
func ours(body []byte) []diag.Diagnostic {
	var errs []diag.Diagnostic
	for _, d := range subscription.Decode("case.json", string(body), doc.JSON).Validate() {
		if d.Severity == diag.Error {
			errs = append(errs, d)
		}
	}
	return errs
}

// aliases are the emulator's names for fields that are not the proto's.
var aliases = map[string]string{"ack_deadline_secs": "ack_deadline_seconds"}

var (
	snakeRe = regexp.MustCompile(`\b[a-z]+(?:_[a-z]+)+\b`)
	// phrases name a field in the emulator's words.
	phrases = []struct {
		re   *regexp.Regexp
		path string
	}{
		{regexp.MustCompile(`Invalid \[subscriptions\] name`), "/name"},
		{regexp.MustCompile(`(?i)dead letter topic`), "/deadLetterPolicy/deadLetterTopic"},
		{regexp.MustCompile(`Subscription topic does not exist`), "/topic"},
	}
)

// namedField is the field the emulator's message names, as a JSON pointer
// of the rule table ("" when it names none or several).
func namedField(msg string) string {
	for _, p := range phrases {
		if p.re.MatchString(msg) {
			return p.path
		}
	}
	found := ""
	for _, w := range snakeRe.FindAllString(msg, -1) {
		if a, ok := aliases[w]; ok {
			w = a
		}
		camel := snakeToCamel(w)
		for _, f := range subscription.Fields() {
			if f.Name == camel {
				if found != "" && found != f.Path {
					return ""
				}
				found = concrete(f.Path)
			}
		}
	}
	return found
}

func snakeToCamel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
	}
	return strings.Join(parts, "")
}

// related reports whether two JSON pointers are the same field or one is
// inside the other.
func related(a, b string) bool {
	return a == b || strings.HasPrefix(a, b+"/") || strings.HasPrefix(b, a+"/") || b == ""
}

// judge compares the emulator's verdict with ours for one case.
func judge(c oracleCase, v Verdict) (outcome, string) {
	errs := ours(c.json())
	var paths []string
	for _, d := range errs {
		paths = append(paths, d.Path)
	}
	switch {
	case v.Accepted() && len(errs) == 0:
		return bothAccept, ""
	case v.Accepted():
		return laxer, fmt.Sprintf("the emulator accepts; we report %s", summary(errs))
	case len(errs) == 0:
		return stricter, fmt.Sprintf("the emulator says %q; we accept", v)
	}
	want := namedField(string(v))
	if want == "" {
		want = c.path
	}
	if slices.ContainsFunc(paths, func(p string) bool { return related(p, want) }) {
		return bothReject, ""
	}
	return stricter, fmt.Sprintf("the emulator says %q (about %s); our errors are about other fields: %s", v, want, summary(errs))
}

func summary(errs []diag.Diagnostic) string {
	var b strings.Builder
	for i, d := range errs {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s at %q: %s", d.Code, d.Path, d.Message)
	}
	return b.String()
}

// recorded is one case of the golden file.
type recorded struct {
	body    string
	verdict Verdict
}

func readGolden(t testing.TB) map[string]recorded {
	raw, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatalf("%v (scripts/record-emulator-verdicts records it)", err)
	}
	out := map[string]recorded{}
	var name string
	var cur recorded
	for line := range strings.Lines(string(raw)) {
		line = strings.TrimRight(line, "\n")
		key, val, _ := strings.Cut(line, ": ")
		switch key {
		case "case":
			name, cur = val, recorded{}
		case "body":
			cur.body = val
		case "verdict":
			cur.verdict = Verdict(val)
			out[name] = cur
		}
	}
	return out
}

func writeGolden(t testing.TB, cases []oracleCase, verdicts []Verdict) {
	var b strings.Builder
	b.WriteString("# The Pub/Sub emulator's verdict on each case of cases_test.go, recorded\n# by scripts/record-emulator-verdicts; the fast test reads it.\n")
	for i, c := range cases {
		fmt.Fprintf(&b, "\ncase: %s\nbody: %s\nverdict: %s\n", c.name, c.json(), verdicts[i])
	}
	if err := os.WriteFile(goldenPath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// tally counts outcomes and reports every one the exception lists do not
// explain, and every listed exception that explains nothing.
type tally struct {
	cases, agree, laxer, stricter int
	used                          map[*exception]int
}

func (ty *tally) add(t *testing.T, c oracleCase, v Verdict) {
	t.Helper()
	ty.cases++
	o, why := judge(c, v)
	switch o {
	case bothAccept, bothReject:
		ty.agree++
	case laxer:
		ty.laxer++
		e := explain(laxerCases, c.name)
		if e == nil {
			t.Errorf("%s: %s\nbody: %s\n(if the emulator is only laxer than the service here, list the case in laxerCases with the reason)", c.name, why, c.json())
			return
		}
		ty.used[e]++
	case stricter:
		ty.stricter++
		e := explain(stricterCases, c.name)
		if e == nil {
			t.Errorf("%s: %s\nbody: %s", c.name, why, c.json())
			return
		}
		ty.used[e]++
	}
}

func (ty *tally) finish(t *testing.T) {
	t.Helper()
	for i, e := range append(stricterCases, laxerCases...) {
		if ty.used[e] == 0 {
			t.Errorf("the exception %q explains no case now: remove it", e.pattern)
		}
		kind := "stricter"
		if i >= len(stricterCases) {
			kind = "laxer"
		}
		t.Logf("%s %-50s %3d  %s", kind, e.pattern, ty.used[e], e.reason)
	}
	t.Logf("%d cases: %d agree with the emulator, %d the emulator accepts and we reject (laxer, listed), %d the emulator rejects and we accept or reject for another field (listed)",
		ty.cases, ty.agree, ty.laxer, ty.stricter)
}

func newTally() *tally {
	return &tally{used: map[*exception]int{}}
}

// TestEmulatorVerdicts holds our verdict on every case against the
// emulator's recorded one: everything the emulator rejects, we reject,
// with an error about the same field, unless stricterCases says why not.
func TestEmulatorVerdicts(t *testing.T) {
	if *record {
		t.Skip("recording")
	}
	golden := readGolden(t)
	cases := allCases(t)
	ty := newTally()
	for _, c := range cases {
		r, ok := golden[c.name]
		switch {
		case !ok:
			t.Errorf("%s has no recorded verdict: run scripts/record-emulator-verdicts", c.name)
			continue
		case r.body != string(c.json()):
			t.Errorf("%s was recorded with another body: run scripts/record-emulator-verdicts\nrecorded: %s\nnow:      %s", c.name, r.body, c.json())
			continue
		}
		ty.add(t, c, r.verdict)
	}
	if len(golden) != len(cases) {
		t.Errorf("%s holds %d cases, the table %d: run scripts/record-emulator-verdicts", goldenPath, len(golden), len(cases))
	}
	ty.finish(t)
}

// runLive creates every case in a fresh emulator, within liveBudget.
func runLive(t *testing.T, cases []oracleCase) []Verdict {
	e := Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), liveBudget)
	defer cancel()
	made := map[string]bool{}
	verdicts := make([]Verdict, len(cases))
	for i, c := range cases {
		for _, tp := range c.topics() {
			if !made[tp] {
				made[tp] = true
				if err := e.Topic(ctx, tp); err != nil {
					t.Logf("topic %s: %v", tp, err) // an invalid name is the case's point
				}
			}
		}
		v, err := e.Create(ctx, c.id, c.json())
		if ctx.Err() != nil {
			t.Logf("%d of %d cases did not run within %v", len(cases)-i, len(cases), liveBudget)
			break // verdicts[i:] stay "": not run
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		verdicts[i] = v
	}
	return verdicts
}

// TestEmulatorLive creates every case in Google's Pub/Sub emulator now and
// compares its verdicts with ours and with the recording (which catches an
// emulator that changed since).
func TestEmulatorLive(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED: the live emulator comparison does not run with -short")
	}
	cases := allCases(t)
	verdicts := runLive(t, cases)
	ran := slices.Index(append(verdicts, ""), "") // the cases before the first not run
	if *record {
		if ran < len(cases) {
			t.Fatalf("only %d of %d cases ran: nothing recorded", ran, len(cases))
		}
		writeGolden(t, cases, verdicts)
		t.Logf("recorded %d verdicts into %s", len(cases), goldenPath)
		return
	}
	golden := readGolden(t)
	ty := newTally()
	drift := 0
	for i, c := range cases[:ran] {
		if r, ok := golden[c.name]; ok && r.body == string(c.json()) && r.verdict != verdicts[i] {
			drift++
			t.Errorf("%s: the emulator now says %q, recorded %q", c.name, verdicts[i], r.verdict)
		}
		ty.add(t, c, verdicts[i])
	}
	// A run that compared too few cases proves nothing: the emulator
	// answered too slowly or not at all.
	if minLive := len(cases) / 2; ran < minLive {
		t.Errorf("only %d of %d cases were compared within %v; at least %d must be", ran, len(cases), liveBudget, minLive)
	}
	if ran == len(cases) {
		ty.finish(t)
	} else {
		t.Logf("%d cases ran: %d agree, %d laxer, %d stricter (the exception lists are checked only on a full run)", ty.cases, ty.agree, ty.laxer, ty.stricter)
	}
	t.Logf("live: %d of %d verdicts differ from the recording", drift, ran)
}
