package subscription_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/diag/diagtest"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/subscription"
)

// FuzzDecode runs the whole pipeline a keystroke runs (decode, validate,
// effective settings) on arbitrary JSON and YAML text.
func FuzzDecode(f *testing.F) {
	for _, glob := range []string{"testdata/examples/*", "testdata/conformance/*.json"} {
		files, err := filepath.Glob(glob)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			text, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(string(text), strings.HasSuffix(file, ".yaml"))
		}
	}
	f.Fuzz(func(t *testing.T, text string, asYAML bool) {
		format := doc.JSON
		if asYAML {
			format = doc.YAML
		}
		cfg := subscription.Decode("f", text, format)
		src := diag.NewSource("f", text)
		for _, d := range cfg.Validate() {
			checkInText(t, src, d)
		}
		eff := cfg.Effective()
		if cfg.Sub == nil {
			if eff != nil {
				t.Fatal("effective settings without a subscription")
			}
			return
		}
		if eff == nil {
			t.Fatal("a subscription without effective settings")
		}
		checkReDecodes(t, eff.Subscription)
	})
}

// checkInText asserts that a diagnostic points into the text, by span and
// by line and column.
func checkInText(t *testing.T, src *diag.Source, d diag.Diagnostic) {
	t.Helper()
	if p := diagtest.WordsProblem(d); p != "" {
		t.Fatalf("%s (%s): %s", d.Code, d.Path, p)
	}
	if d.Code == "input-too-large" || d.Code == "too-many-diagnostics" {
		return // about the input as a whole
	}
	if s, e := d.Span.Start.Offset(), d.Span.End.Offset(); !d.Span.IsValid() || e > len(src.Text) || e < s {
		t.Fatalf("%s (%s) has span [%d, %d) in a text of %d bytes", d.Code, d.Path, s, e, len(src.Text))
	}
	for _, lc := range [][2]int{{d.Line, d.Column}, {d.EndLine, d.EndColumn}} {
		if lc == [2]int{d.EndLine, d.EndColumn} && d.EndLine == 0 {
			continue
		}
		if lc[0] < 1 || lc[0] > src.Lines() {
			t.Fatalf("%s (%s) at line %d of %d", d.Code, d.Path, lc[0], src.Lines())
		}
		raw := strings.SplitN(src.Text, "\n", lc[0]+1)[lc[0]-1]
		if lc[1] < 1 || lc[1] > utf8.RuneCountInString(raw)+1 {
			t.Fatalf("%s (%s) at %d:%d, past the end of the line", d.Code, d.Path, lc[0], lc[1])
		}
	}
}

// checkReDecodes asserts that the effective settings, encoded as the
// contract encodes them, decode again without a decoding problem, and
// encode to the same JSON: they are a fixed point.
func checkReDecodes(t *testing.T, s *subscription.Subscription) {
	t.Helper()
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatalf("encoding the effective settings: %v", err)
	}
	again := subscription.DecodeObject(out)
	if errs := decodingErrors(again.Validate()); again.Sub == nil || len(errs) > 0 {
		t.Fatalf("the effective settings do not decode:\n%s\n%s", out, dump(errs))
	}
	for _, d := range again.Validate() {
		if d.Code == "unknown-field" {
			t.Fatalf("the effective settings have an unknown field: %s", d.Path)
		}
	}
	out2, err := json.Marshal(again.Sub)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, out2) {
		t.Fatalf("the effective settings change when read again\nfirst:  %s\nsecond: %s", out, out2)
	}
}
