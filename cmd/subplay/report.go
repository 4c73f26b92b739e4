package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/playground"
	"github.com/subplay/subplay/core/split"
	"github.com/subplay/subplay/core/subscription"
)

// report gathers the verdicts of a validate run over files and writes
// them in one of four forms: text (as a terminal shows findings), NDJSON
// (one verdict of the contract a line), SARIF 2.1.0 (code scanning) or
// GitHub Actions workflow commands (annotations on the lines).
type report struct {
	format string
	quiet  bool
	out    bytes.Buffer
	cwd    string

	subs, files             int
	errors, warnings, infos int
	skips                   []skip
	rules                   map[string]*sarifRule
	ruleOrder               []string
	results                 []sarifResult
}

func newReport(format string, quiet bool) *report {
	cwd, _ := os.Getwd()
	return &report{format: format, quiet: quiet, cwd: cwd, rules: map[string]*sarifRule{}}
}

// check validates one file's text with every subscription it holds;
// false when the operation failed (a usage error, reported).
func (r *report) check(fs *flags, path, text, inFormat, resource string, old *playground.ConfigInput, named bool) bool {
	name := displayName(path)
	req := &playground.ValidateRequest{ConfigInput: playground.ConfigInput{Text: &text, File: name, Format: configFormatOf(path, inFormat), TerraformResource: resource}, Old: old, All: true}
	if resource != "" || old != nil {
		req.All = false
	}
	var resp playground.ValidateResponse
	out, err := call("validate", req, &resp)
	if err != nil {
		fs.fail(fmt.Errorf("%s: %w", name, err))
		return false
	}
	if named && req.All && len(resp.Subscriptions) == 0 && len(resp.Diagnostics) == 0 {
		// A file named on the command line that holds no subscription is
		// read as one, so that what it lacks is said.
		req.All = false
		resp = playground.ValidateResponse{}
		if out, err = call("validate", req, &resp); err != nil {
			fs.fail(fmt.Errorf("%s: %w", name, err))
			return false
		}
	}
	r.file(name, text, &resp, out, req.All)
	return true
}

// file adds one file's response: a list of verdicts, or the single shape
// (all false: the request read the file as one subscription).
func (r *report) file(name, text string, resp *playground.ValidateResponse, raw []byte, all bool) {
	vs := resp.Subscriptions
	var rawVs []json.RawMessage
	var fileDs []diag.Diagnostic
	if vs == nil {
		if all {
			// All: a file without subscriptions, and its findings if any.
			if len(resp.Diagnostics) == 0 {
				return
			}
			fileDs = resp.Diagnostics
		} else {
			vs = []playground.SubscriptionVerdict{{Source: split.Source{File: name, Kind: split.Document}, Valid: resp.Valid, DeliveryType: resp.DeliveryType,
				Diagnostics: resp.Diagnostics, Counts: resp.Counts, Effective: resp.Effective, UpdateMask: resp.UpdateMask}}
			rawVs = []json.RawMessage{raw}
		}
	} else {
		var lst struct {
			Subscriptions []json.RawMessage `json:"subscriptions"`
		}
		json.Unmarshal(raw, &lst)
		rawVs = lst.Subscriptions
		fileDs = fileOnly(resp.Diagnostics, vs)
	}
	r.files++
	src := diag.NewSource(name, text)
	if len(fileDs) > 0 {
		fv := playground.SubscriptionVerdict{Source: split.Source{File: name, Kind: "file"}, Valid: !diag.HasErrors(fileDs), Diagnostics: fileDs,
			Counts: playground.Counts{Errors: diag.Count(fileDs, diag.Error), Warnings: diag.Count(fileDs, diag.Warning), Infos: diag.Count(fileDs, diag.Info)}}
		b, _ := json.Marshal(fv)
		r.verdict(src, &fv, b, false)
	}
	for i := range vs {
		var b []byte
		if i < len(rawVs) {
			b = rawVs[i]
		}
		r.verdict(src, &vs[i], b, true)
	}
}

// fileOnly is the findings of a response that belong to none of its
// subscriptions: those about the text as a whole.
func fileOnly(all []diag.Diagnostic, vs []playground.SubscriptionVerdict) []diag.Diagnostic {
	type key struct {
		line, col int
		code, msg string
	}
	seen := map[key]int{}
	for _, v := range vs {
		for _, d := range v.Diagnostics {
			seen[key{d.Line, d.Column, d.Code, d.Message}]++
		}
	}
	var out []diag.Diagnostic
	for _, d := range all {
		k := key{d.Line, d.Column, d.Code, d.Message}
		if seen[k] > 0 {
			seen[k]--
			continue
		}
		if d.Code == "too-many-diagnostics" {
			continue
		}
		out = append(out, d)
	}
	return out
}

// verdict adds one subscription's verdict (sub false: the findings about
// a file as a whole).
func (r *report) verdict(src *diag.Source, v *playground.SubscriptionVerdict, raw []byte, sub bool) {
	if sub {
		r.subs++
	}
	r.errors += v.Counts.Errors
	r.warnings += v.Counts.Warnings
	r.infos += v.Counts.Infos
	ds := v.Diagnostics
	if r.quiet && r.format != "json" {
		ds = dropInfo(ds)
	}
	switch r.format {
	case "json":
		r.out.Write(raw)
		r.out.WriteByte('\n')
	case "text":
		r.out.WriteString(diag.Render(src, ds))
		if sub {
			resp := playground.ValidateResponse{Valid: v.Valid, DeliveryType: v.DeliveryType, Counts: v.Counts}
			fmt.Fprintln(&r.out, summary(label(v), &resp, r.quiet))
		}
	case "github":
		for _, d := range ds {
			r.github(v.Source.File, d)
		}
	case "sarif":
		for _, d := range ds {
			r.sarif(v, d)
		}
	}
}

// label names where a subscription is written, for text output: the
// file, its line and column, and its address or index there.
func label(v *playground.SubscriptionVerdict) string {
	s := v.Source.File
	if v.Source.Line > 0 && v.Source.Name != "" {
		s += ":" + strconv.Itoa(v.Source.Line) + ":" + strconv.Itoa(v.Source.Column) + " " + v.Source.Name
	}
	return s
}

// finish writes the report; a run over more than one subscription ends,
// in text and GitHub output, with a line that sums it up.
func (r *report) finish(w io.Writer, many bool) {
	switch r.format {
	case "sarif":
		r.writeSarif(w)
		return
	case "json":
		w.Write(r.out.Bytes())
		return
	}
	w.Write(r.out.Bytes())
	if !many && r.subs <= 1 && r.files <= 1 {
		return
	}
	fmt.Fprintln(w, r.closing())
}

// closing is the summary of a run: "12 subscriptions in 5 files: 1 error,
// 3 warnings".
func (r *report) closing() string {
	parts := []string{nOf(r.errors, "error"), nOf(r.warnings, "warning")}
	if !r.quiet {
		parts = append(parts, nOf(r.infos, "note"))
	}
	s := nOf(r.subs, "subscription") + " in " + nOf(r.files, "file") + ": " + strings.Join(parts, ", ")
	if len(r.skips) > 0 {
		s += "; " + nOf(len(r.skips), "path") + " skipped"
	}
	return s
}

func nOf(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// rel is a path relative to the working directory, with forward slashes,
// as code scanning and annotations name files.
func (r *report) rel(path string) string {
	if path == "<stdin>" {
		return path
	}
	abs, err := filepath.Abs(path)
	if err == nil && r.cwd != "" {
		if rel, err := filepath.Rel(r.cwd, abs); err == nil {
			path = rel
		}
	}
	return filepath.ToSlash(path)
}

// github writes one finding as a workflow command. Its message is
// escaped as the runner reads it (%, CR and LF; in properties also : and
// ,).
func (r *report) github(file string, d diag.Diagnostic) {
	cmd := map[diag.Severity]string{diag.Error: "error", diag.Warning: "warning", diag.Info: "notice"}[d.Severity]
	props := []string{"file=" + ghProp(r.rel(file))}
	if d.Line > 0 {
		props = append(props, "line="+strconv.Itoa(d.Line), "col="+strconv.Itoa(d.Column))
		if d.EndLine > 0 {
			props = append(props, "endLine="+strconv.Itoa(d.EndLine), "endColumn="+strconv.Itoa(d.EndColumn))
		}
	}
	props = append(props, "title="+ghProp("subplay "+d.Code))
	msg := d.Message
	if d.Hint != "" {
		msg += "\nhint: " + d.Hint
	}
	fmt.Fprintf(&r.out, "::%s %s::%s\n", cmd, strings.Join(props, ","), ghData(msg))
}

func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// SARIF 2.1.0, the parts subplay writes.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string       `json:"name"`
	Version        string       `json:"version"`
	InformationURI string       `json:"informationUri"`
	Rules          []*sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID               string     `json:"id"`
	ShortDescription sarifText  `json:"shortDescription"`
	Help             sarifText  `json:"help"`
	DefaultConfig    sarifLevel `json:"defaultConfiguration"`
	fields           []string   // the rule-table fields it was reported on
	hint             string
}

type sarifLevel struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID     string          `json:"ruleId"`
	RuleIndex  int             `json:"ruleIndex"`
	Level      string          `json:"level"`
	Message    sarifText       `json:"message"`
	Locations  []sarifLocation `json:"locations"`
	Properties map[string]any  `json:"properties,omitempty"`
}

type sarifLocation struct {
	Physical sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	Artifact struct {
		URI string `json:"uri"`
	} `json:"artifactLocation"`
	Region *sarifRegion `json:"region,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

var sarifLevels = map[diag.Severity]string{diag.Error: "error", diag.Warning: "warning", diag.Info: "note"}

// sarif adds one finding as a result; its rule is its code, whose help
// is the rule table's help of each field it was reported on.
func (r *report) sarif(v *playground.SubscriptionVerdict, d diag.Diagnostic) {
	rule, ok := r.rules[d.Code]
	if !ok {
		rule = &sarifRule{ID: d.Code, ShortDescription: sarifText{strings.ReplaceAll(d.Code, "-", " ")}, DefaultConfig: sarifLevel{sarifLevels[d.Severity]}, hint: d.Hint}
		r.rules[d.Code] = rule
		r.ruleOrder = append(r.ruleOrder, d.Code)
	}
	if f := subscription.FieldAt(d.Path); f != nil && !contains(rule.fields, f.Path) {
		rule.fields = append(rule.fields, f.Path)
	}
	res := sarifResult{RuleID: d.Code, Level: sarifLevels[d.Severity], Message: sarifText{d.Message}}
	if d.Hint != "" {
		res.Message.Text += " (" + d.Hint + ")"
	}
	var loc sarifLocation
	loc.Physical.Artifact.URI = r.rel(v.Source.File)
	if d.Line > 0 {
		loc.Physical.Region = &sarifRegion{StartLine: d.Line, StartColumn: d.Column, EndLine: d.EndLine, EndColumn: d.EndColumn}
	}
	res.Locations = []sarifLocation{loc}
	res.Properties = map[string]any{}
	if d.Path != "" {
		res.Properties["path"] = d.Path
	}
	if v.Source.Name != "" {
		res.Properties["subscription"] = v.Source.Name
	}
	r.results = append(r.results, res)
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func (r *report) writeSarif(w io.Writer) {
	run := sarifRun{ColumnKind: "unicodeCodePoints", Results: r.results}
	run.Tool.Driver = sarifDriver{Name: "subplay", Version: version(), InformationURI: "https://github.com/subplay/subplay", Rules: []*sarifRule{}}
	sort.Strings(r.ruleOrder)
	index := map[string]int{}
	for i, id := range r.ruleOrder {
		rule := r.rules[id]
		var help []string
		for _, p := range rule.fields {
			f := subscription.FieldAt(p)
			help = append(help, f.Name+": "+f.Help)
		}
		if len(help) == 0 {
			help = append(help, rule.hint)
		}
		rule.Help = sarifText{strings.TrimSpace(strings.Join(help, "\n"))}
		if rule.Help.Text == "" {
			rule.Help.Text = rule.ShortDescription.Text
		}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, rule)
		index[id] = i
	}
	for i := range run.Results {
		run.Results[i].RuleIndex = index[run.Results[i].RuleID]
	}
	if run.Results == nil {
		run.Results = []sarifResult{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}
