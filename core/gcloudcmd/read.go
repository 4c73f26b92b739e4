package gcloudcmd

import (
	"sort"
	"strings"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/limits"
)

// Format names the gcloud command form of a configuration in doc.Doc.
const Format doc.Format = "gcloud"

// Request is a gcloud command and what it can read beside it.
type Request struct {
	Name string // the text's name in findings (a file name), may be ""
	Text string
	// Files are files the command may name (--message-transforms-file), by
	// path as written in the command. A file the command names but that is
	// not here is unknown, not missing: it is on the user's disk.
	Files map[string]string
	// Project is the project gcloud's configuration holds, used when the
	// command has no --project. "" means unknown: names built from it are
	// then reported as unknown rather than guessed.
	Project string
}

// Verb is the gcloud command read.
type Verb string

const (
	Create Verb = "create"
	Update Verb = "update"
)

// Result is what a command means.
type Result struct {
	Verb Verb
	// Doc holds the subscription in its REST JSON shape; its spans point
	// into the command (a flag's value, or the flag itself for a boolean).
	// For an update it holds only the name and the fields that change.
	// Doc.Root is nil when no command could be read.
	Doc *doc.Doc
	// UpdateMask lists the fields an update sends, dotted as the API
	// writes them, in gcloud's order. A field in the mask but not in
	// Doc.Root is cleared (set back to its default).
	UpdateMask []string
	// Unknown lists the JSON pointers whose value the text does not give
	// (a shell variable, a placeholder, the configured project, a file not
	// given): findings at or under them are not the user's to fix here.
	Unknown []string
	// Diagnostics are the findings about the command itself, located and
	// sorted. Findings about the subscription come from core/subscription.
	Diagnostics []diag.Diagnostic
	// At spans the command's words from gcloud to its verb (ReadAll).
	At diag.Span
}

// Known reports whether a finding at path is about a value the text
// gives: false at or under an unknown path, where a finding would judge
// a value nobody wrote.
func (r *Result) Known(path string) bool {
	for _, u := range r.Unknown {
		if path == u || strings.HasPrefix(path, u+"/") {
			return false
		}
	}
	return true
}

// Judges reports whether a finding of the subscription's rules at path
// judges what the command says. The value must be Known; an update shows
// only its name and the fields in its mask, so a finding elsewhere (a
// required field it leaves as it stands, or one across fields) would judge
// the existing subscription, which the text does not show.
func (r *Result) Judges(path string) bool {
	if !r.Known(path) {
		return false
	}
	if r.Verb != Update || path == "/name" {
		return true
	}
	for _, f := range r.UpdateMask {
		p := "/" + strings.ReplaceAll(f, ".", "/")
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// occurrence is one flag as written.
type occurrence struct {
	spec     *flagSpec
	flag     diag.Span   // "--name" (and "=value" when glued)
	val      *word       // the word holding the value; nil for booleans
	valFrom  int         // where the value starts in val.text
	negated  bool        // --no-NAME
	explicit string      // a boolean given a value (--flag=true), which gcloud refuses
	prev     *occurrence // the same flag written before (--labels merges them)
}

func (o *occurrence) value() string { return o.val.text[o.valFrom:] }

func (o *occurrence) valueSpan() diag.Span {
	if o.val == nil {
		return o.flag
	}
	return o.val.span(o.valFrom, len(o.val.text))
}

type reader struct {
	req     Request
	src     *diag.Source
	ds      []diag.Diagnostic
	verb    Verb
	names   []*word
	occ     map[string]*occurrence
	order   []string // flags in the order first written
	root    *doc.Node
	unknown map[string]bool
	mask    []string
	project string // from --project or the request; "" when unknown
	// resetToDefault holds the fields an update sets back to their
	// default (--message-retention-duration=default).
	resetToDefault map[string]bool
	// projUnknown is --project when its value is a shell variable or a
	// placeholder.
	projUnknown *occurrence
	// sets holds the variables the text sets before the command read
	// (NAME=VALUE, export NAME=VALUE), by name, with the offset: a note on
	// an unknown value points there, though the value is not used.
	sets map[string]int
}

// Read reads a gcloud command. It never fails: problems are diagnostics,
// and Doc.Root is nil only when no gcloud subscription command is there.
func Read(req Request) *Result {
	r := &reader{req: req, src: diag.NewSource(req.Name, req.Text), occ: map[string]*occurrence{}, unknown: map[string]bool{}, resetToDefault: map[string]bool{}}
	res := &Result{}
	if len(req.Text) > limits.GcloudMaxBytes {
		r.errorf(diag.Span{}, "", "input-too-large", "the command is longer than "+itoa(limits.GcloudMaxBytes>>10)+" KiB, the most subplay reads",
			"paste one gcloud command, not a whole script")
	} else {
		r.read()
	}
	res.Verb = r.verb
	res.Doc = &doc.Doc{Source: r.src, Format: Format, Root: r.root}
	res.UpdateMask = r.mask
	for p := range r.unknown {
		res.Unknown = append(res.Unknown, p)
	}
	sort.Strings(res.Unknown)
	res.Diagnostics = r.src.Finish(r.ds)
	return res
}

func (r *reader) add(sev diag.Severity, sp diag.Span, path, code, msg, hint string) {
	r.ds = append(r.ds, diag.Diagnostic{Severity: sev, Code: code, Path: path, Message: msg, Hint: hint, Span: sp})
}

func (r *reader) errorf(sp diag.Span, path, code, msg, hint string) {
	r.add(diag.Error, sp, path, code, msg, hint)
}

func (r *reader) read() {
	cmds, ds := lex(r.req.Text)
	r.ds = append(r.ds, ds...)
	// The command read is the first gcloud pubsub subscriptions create or
	// update; failing that, the first gcloud command, whose words then
	// say what it is not. Every other gcloud command is named in a note.
	var gclouds []*command
	var cmd *command
	r.sets = map[string]int{}
	for i := range cmds {
		if gcloudWords(&cmds[i]) < 0 {
			// export X=..., echo, cd: the shell's, not gcloud's.
			if cmd == nil {
				r.noteSetting(&cmds[i])
			}
			continue
		}
		gclouds = append(gclouds, &cmds[i])
		if cmd == nil && subscriptionVerb(&cmds[i]) >= 0 {
			cmd = &cmds[i]
		}
	}
	if cmd == nil && len(gclouds) > 0 {
		cmd = gclouds[0]
	}
	if cmd == nil {
		r.errorf(diag.Span{}, "", "gcloud-no-command", "no gcloud pubsub subscriptions create or update command found",
			"paste a command such as: gcloud pubsub subscriptions create NAME --topic=TOPIC")
		return
	}
	at := gcloudWords(cmd)
	line := itoa(lineOf(r.src, diag.SpanOf(cmd.words[at].start, cmd.words[at].end)))
	for _, c := range gclouds {
		if c != cmd {
			r.otherCommand(c, cmd, line)
		}
	}
	for _, sp := range cmd.redirects {
		r.add(diag.Info, sp, "", "gcloud-shell-redirect", "this redirection is the shell's; it does not change the subscription", "")
	}
	r.parse(cmd.words[at:])
}

// noteSetting records the variables a command such as "export A=1 B=2"
// or "A=1" sets.
func (r *reader) noteSetting(c *command) {
	ws := c.words
	if len(ws) > 1 && (ws[0].text == "export" || ws[0].text == "declare" || ws[0].text == "readonly" || ws[0].text == "local") {
		ws = ws[1:]
	}
	for i := range ws {
		n := nameLen(ws[i].text)
		if n == 0 || n >= len(ws[i].text) || ws[i].text[n] != '=' || ws[i].text[0] >= '0' && ws[i].text[0] <= '9' {
			return
		}
		r.sets[ws[i].text[:n]] = ws[i].start
	}
}

// otherCommand notes a gcloud command of the text that is not the one
// read (at line line), naming it by its words up to its verb.
func (r *reader) otherCommand(c, read *command, line string) {
	from := gcloudWords(c)
	to := subscriptionVerb(c)
	if to < 0 {
		// Three words after gcloud (and a release track), the length of
		// most commands' groups and verb, stopping at the first flag:
		// "gcloud pubsub topics create", "gcloud config set project".
		to = from
		last := from + 3
		if last-2 < len(c.words) && (c.words[last-2].text == "alpha" || c.words[last-2].text == "beta") {
			last++
		}
		for k := from + 1; k < len(c.words) && k <= last && !strings.HasPrefix(c.words[k].text, "-"); k++ {
			to = k
		}
	}
	var name strings.Builder
	for k := from; k <= to; k++ {
		if k > from {
			name.WriteByte(' ')
		}
		name.WriteString(c.words[k].text)
	}
	sp := diag.SpanOf(c.words[from].start, c.words[to].end)
	msg := "subplay checks the gcloud command at line " + line + " and skips this " + diag.Quote(name.String())
	switch {
	case subscriptionVerb(read) < 0:
	case subscriptionVerb(c) >= 0:
		msg = "subplay checks the first subscription command, at line " + line + ", and skips this one"
	default:
		msg = "subplay checks the subscription command at line " + line + " and skips this " + diag.Quote(name.String())
	}
	r.add(diag.Info, sp, "", "gcloud-more-commands", msg, "check each subscription command on its own")
}

// subscriptionVerb returns the index of the create or update word of a
// gcloud [alpha|beta] pubsub subscriptions create|update command, or -1.
// Global flags may stand between gcloud and pubsub.
func subscriptionVerb(c *command) int {
	ws := c.words
	for k := gcloudWords(c) + 1; k+2 < len(ws); k++ {
		if ws[k].text == "pubsub" && ws[k+1].text == "subscriptions" {
			if v := ws[k+2].text; v == "create" || v == "update" {
				return k + 2
			}
			return -1
		}
	}
	return -1
}

// gcloudWords returns the index of the word "gcloud" that starts cmd,
// after an optional prompt ("$", ">", "PS>"), or -1.
func gcloudWords(c *command) int {
	for i, w := range c.words {
		switch {
		case isGcloud(w.text):
			return i
		case i == 0 && (w.text == "$" || w.text == ">" || w.text == "%" || strings.HasPrefix(w.text, "PS") && strings.HasSuffix(w.text, ">")):
			continue
		}
		return -1
	}
	return -1
}

// isGcloud reports whether a command word runs gcloud: by name, by path,
// or as Windows' gcloud.cmd.
func isGcloud(w string) bool {
	return w == "gcloud" || strings.HasSuffix(w, "/gcloud") || strings.EqualFold(w, "gcloud.cmd")
}

// Detect reports whether text is a gcloud command rather than JSON or
// YAML: its first command word runs gcloud, after an optional prompt
// ("$ ", "PS> ") and what scripts and docs put before it: blank lines, #
// comments (a #! line) and shell settings (export NAME=..., NAME=...,
// set -e, PowerShell's $NAME = ...). It reads only up to that word.
func Detect(text string) bool {
	for text != "" {
		line, rest, _ := strings.Cut(text, "\n")
		line = strings.TrimLeft(line, " \t\r")
		line = line[prompt(line):]
		if line == "" || line[0] == '#' || shellSetting(line) {
			text = rest
			continue
		}
		end := strings.IndexAny(line, " \t\r")
		if end < 0 {
			end = len(line)
		}
		return isGcloud(line[:end])
	}
	return false
}

// shellSetting reports whether a line sets a shell variable or option:
// [export|declare|readonly|local] NAME=VALUE, set -..., set -o ..., or
// PowerShell's $NAME = VALUE and $env:NAME = VALUE. YAML's "key: value"
// and JSON are neither.
func shellSetting(line string) bool {
	if rest, ok := strings.CutPrefix(line, "set "); ok {
		return strings.HasPrefix(strings.TrimLeft(rest, " \t"), "-")
	}
	if rest, ok := strings.CutPrefix(line, "$"); ok {
		if v, ok := strings.CutPrefix(rest, "env:"); ok {
			rest = v
		}
		n := nameLen(rest)
		return n > 0 && strings.HasPrefix(strings.TrimLeft(rest[n:], " \t"), "=")
	}
	for _, kw := range []string{"export ", "declare ", "readonly ", "local "} {
		if rest, ok := strings.CutPrefix(line, kw); ok {
			line = strings.TrimLeft(rest, " \t")
			break
		}
	}
	n := nameLen(line)
	return n > 0 && !(line[0] >= '0' && line[0] <= '9') && n < len(line) && line[n] == '='
}

// nameLen is the length of the shell name (letters, digits, _) s starts with.
func nameLen(s string) int {
	n := 0
	for n < len(s) && isNameByte(s[n]) {
		n++
	}
	return n
}

var groupWords = []string{"pubsub", "subscriptions"}

func (r *reader) parse(ws []word) {
	gcloud := &ws[0]
	var pos []*word
	rest := false
	for i := 1; i < len(ws); i++ {
		w := &ws[i]
		t := w.text
		switch {
		case rest || !strings.HasPrefix(t, "-") || t == "-":
			pos = append(pos, w)
		case t == "--" && !rest:
			rest = true
			if i+1 < len(ws) {
				r.errorf(diag.SpanOf(w.start, w.end), "", "gcloud-unexpected-argument", "gcloud takes no arguments after --",
					"remove -- and what follows it")
			}
		case t == "-q":
			// --quiet: no prompts, nothing in the request.
		case !strings.HasPrefix(t, "--"):
			r.errorf(diag.SpanOf(w.start, w.end), "", "gcloud-unknown-flag", diag.Quote(t)+" is not a flag gcloud knows",
				"gcloud flags start with two dashes")
		default:
			i += r.flag(ws, i)
		}
	}
	// Positionals: [alpha|beta] pubsub subscriptions VERB NAME...
	k := 0
	if k < len(pos) && (pos[k].text == "alpha" || pos[k].text == "beta") {
		k++
	}
	for _, g := range groupWords {
		if k >= len(pos) || pos[k].text != g {
			r.errorf(spanOfWords(gcloud, pos, k), "", "gcloud-not-subscription-command",
				"this is not a gcloud pubsub subscriptions command", "subplay reads gcloud pubsub subscriptions create and update")
			return
		}
		k++
	}
	if k >= len(pos) || (pos[k].text != "create" && pos[k].text != "update") {
		r.errorf(spanOfWords(gcloud, pos, k), "", "gcloud-not-subscription-command",
			"subplay reads gcloud pubsub subscriptions create and update, not "+quoteOr(pos, k, "nothing"),
			"use create or update")
		return
	}
	r.verb = Verb(pos[k].text)
	verbWord := pos[k]
	r.names = pos[k+1:]
	r.build(verbWord)
}

func spanOfWords(first *word, pos []*word, k int) diag.Span {
	if k < len(pos) {
		return diag.SpanOf(pos[k].start, pos[k].end)
	}
	return diag.SpanOf(first.start, first.end)
}

func quoteOr(pos []*word, k int, none string) string {
	if k < len(pos) {
		return diag.Quote(pos[k].text)
	}
	return none
}

// flag reads the flag at ws[i] and returns how many more words it used.
func (r *reader) flag(ws []word, i int) int {
	w := &ws[i]
	name, _, glued := strings.Cut(w.text[2:], "=")
	nameEnd := 2 + len(name)
	flagSpan := w.span(0, nameEnd)
	spec := flagByName[name]
	negated := false
	if spec == nil {
		if base, ok := strings.CutPrefix(name, "no-"); ok {
			if s := flagByName[base]; s != nil && s.kind == kBool {
				spec, negated = s, true
			}
		}
	}
	if spec == nil {
		hint := "run gcloud pubsub subscriptions --help to see its flags"
		if s := suggestFlag(name); s != "" {
			hint = "did you mean --" + s + "?"
		}
		r.errorf(flagSpan, "", "gcloud-unknown-flag", diag.Quote("--"+name)+" is not a flag of gcloud pubsub subscriptions", hint)
		if glued || i+1 >= len(ws) || strings.HasPrefix(ws[i+1].text, "-") {
			return 0
		}
		return 0
	}
	o := &occurrence{spec: spec, flag: flagSpan, negated: negated}
	used := 0
	switch {
	case !spec.takesValue():
		if glued {
			o.explicit = w.text[nameEnd+1:]
		}
	case glued:
		o.val, o.valFrom = w, nameEnd+1
	case i+1 < len(ws) && !(strings.HasPrefix(ws[i+1].text, "--") && len(ws[i+1].text) > 2):
		o.val, o.valFrom = &ws[i+1], 0
		used = 1
	default:
		r.errorf(flagSpan, "", "gcloud-missing-value", "--"+name+" needs a value", "write --"+name+"=VALUE")
		return 0
	}
	key := spec.name
	if prev, dup := r.occ[key]; dup && spec.kind == kLabels {
		o.prev = prev
	} else if dup {
		r.add(diag.Warning, flagSpan, "", "gcloud-repeated-flag", "--"+name+" is given twice; gcloud uses the last one",
			"remove the other one, at line "+itoa(lineOf(r.src, prev.flag)))
	} else {
		r.order = append(r.order, key)
	}
	r.occ[key] = o
	return used
}

// suggestFlag returns the flag name closest to name, or "".
func suggestFlag(name string) string {
	if len(name) > 64 {
		return ""
	}
	norm := strings.ToLower(strings.ReplaceAll(name, "_", "-"))
	best, bestD := "", 4
	for i := range flagTable {
		f := &flagTable[i]
		if f.kind == kGlobal || f.kind == kGlobalBool {
			continue
		}
		cand := strings.ReplaceAll(f.name, "-", "")
		if strings.ReplaceAll(norm, "-", "") == cand {
			return f.name
		}
		d := bestD
		if strings.HasPrefix(f.name, norm) && len(norm) >= 3 {
			d = 2
		}
		// The distance is at least the lengths' difference: a name that
		// cannot come closer is not measured (each of 400 unknown flags
		// of 64 bytes was measured against every flag: 240 ms in js/wasm).
		if diff := len(norm) - len(f.name); diff < d && -diff < d {
			d = min(d, diag.EditDistance(norm, f.name))
		}
		if d < bestD {
			best, bestD = f.name, d
		}
	}
	return best
}

func lineOf(src *diag.Source, sp diag.Span) int {
	l, _ := src.LineCol(sp.Start.Offset())
	return l
}

// ReadAll reads every gcloud pubsub subscriptions create or update command
// of a text (a deploy script), each on its own, with findings positioned
// in the whole text. The text is lexed once. Findings of the lexer (an
// unclosed quote) go to the first command read; a text with no such
// command gives none, and no finding.
func ReadAll(req Request) []*Result {
	src := diag.NewSource(req.Name, req.Text)
	if len(req.Text) > limits.GcloudScriptBytes {
		r := &reader{req: req, src: src}
		r.errorf(diag.Span{}, "", "input-too-large", "the script is longer than "+itoa(limits.GcloudScriptBytes>>10)+" KiB, the most subplay reads",
			"split it, or check its commands one by one")
		return []*Result{{Doc: &doc.Doc{Source: src, Format: Format}, Diagnostics: src.Finish(r.ds)}}
	}
	cmds, lexDs := lex(req.Text)
	var out []*Result
	sets := map[string]int{}
	for i := range cmds {
		c := &cmds[i]
		if gcloudWords(c) < 0 {
			(&reader{sets: sets}).noteSetting(c)
			continue
		}
		if subscriptionVerb(c) < 0 {
			continue
		}
		r := &reader{req: req, src: src, occ: map[string]*occurrence{}, unknown: map[string]bool{}, resetToDefault: map[string]bool{}, sets: sets}
		if len(out) == 0 {
			r.ds = append(r.ds, lexDs...)
		}
		for _, sp := range c.redirects {
			r.add(diag.Info, sp, "", "gcloud-shell-redirect", "this redirection is the shell's; it does not change the subscription", "")
		}
		at := gcloudWords(c)
		r.parse(c.words[at:])
		res := &Result{Verb: r.verb, UpdateMask: r.mask, Doc: &doc.Doc{Source: src, Format: Format, Root: r.root}}
		res.At = diag.SpanOf(c.words[at].start, c.words[subscriptionVerb(c)].end)
		for p := range r.unknown {
			res.Unknown = append(res.Unknown, p)
		}
		sort.Strings(res.Unknown)
		res.Diagnostics = src.Finish(r.ds)
		out = append(out, res)
	}
	return out
}
