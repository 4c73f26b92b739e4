//go:build browser

package sitetest

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/subplay/subplay/core/playground/hostile"
)

// Where a visitor pastes: the editors of the playground, each a
// CodeMirror content element.
const (
	configEditor   = `#editor .cm-content`
	messagesEditor = `#panel-filter .cm-content[aria-label="Sample messages"]`
	udfMessages    = `#panel-transforms .cm-content[aria-label="Sample messages"]`
	topicEditor    = `#panel-schema .cm-content[aria-label="Topic schema"]`
	tableEditor    = `#panel-schema .cm-content[aria-label="BigQuery table schema (JSON)"]`
)

// pasteStep is one paste: text into the editor selected by editor, with
// the preview tab open.
type pasteStep struct {
	tab, editor, text string
}

// pasteCase is a hostile request of the corpus as a visitor would make it
// on the page: what each field is, pasted into the editor that holds it.
type pasteCase struct {
	name  string
	steps []pasteStep
}

// pasteCases turns the hostile corpus into pastes: a configuration (text,
// or an object written as JSON) into the configuration's editor, sample
// messages into the messages editor of the operation's tab, topic and
// table schemas into the schema tab's editors. Fields that are the
// panels' own controls (a count, a stream's rate, a time) and requests
// that are not JSON (cases of the HTTP surface) are left out; invalid
// UTF-8 becomes U+FFFD, as it would on a clipboard.
func pasteCases(t testing.TB) []pasteCase {
	tabs := map[string]string{"validate": "settings", "effective": "settings", "convert": "export",
		"filter": "filter", "names": "storage", "schema": "schema", "transform": "transforms"}
	var out []pasteCase
	for _, c := range hostile.V8Host() {
		var req map[string]json.RawMessage
		if err := json.Unmarshal(c.Body(), &req); err != nil {
			continue
		}
		tab := tabs[c.Op]
		if tab == "" {
			t.Fatalf("%s: no tab for the operation %q", c.Name, c.Op)
		}
		str := func(k string) string {
			raw, ok := req[k]
			if !ok {
				return ""
			}
			var s string
			if json.Unmarshal(raw, &s) == nil {
				return s
			}
			return string(raw) // an object or a list, as JSON
		}
		var steps []pasteStep
		msgs := messagesEditor
		if tab == "transforms" {
			msgs = udfMessages
		}
		// The messages first: the schema and storage tabs read the
		// filter tab's messages.
		if m := str("messages") + str("messagesText"); m != "" {
			mt := tab
			if tab != "transforms" {
				mt = "filter"
			}
			steps = append(steps, pasteStep{mt, msgs, m})
		}
		config := str("text") + str("config")
		if f := str("filter"); f != "" {
			b, _ := json.Marshal(map[string]string{"name": "projects/p/subscriptions/s", "topic": "projects/p/topics/t", "filter": f})
			config = string(b)
		}
		if config != "" {
			steps = append(steps, pasteStep{tab, configEditor, config})
		}
		if s := str("topicSchema"); s != "" {
			steps = append(steps, pasteStep{tab, topicEditor, s})
		}
		if s := str("tableSchema"); s != "" {
			steps = append(steps, pasteStep{tab, tableEditor, s})
		}
		out = append(out, pasteCase{c.Name, steps})
	}
	return out
}

// pasteFigures is what one paste cost the page, in milliseconds from the
// paste key's event time stamp.
type pasteFigures struct {
	Answer   float64 // to the preview rendered for the pasted text
	LongTask float64 // the longest main-thread task in that stretch
	Key      float64 // a key typed afterwards, to its answer painted
	Crashed  bool    // the core died on the way (the page recovered)
}

// pasteTab opens the playground in a tab allowed to use the clipboard,
// with a long-task observer installed.
func pasteTab(t testing.TB) *tab {
	// The whole corpus, one paste after another, takes minutes.
	tb := newTabFor(t, 30*time.Minute)
	tb.allowClipboard()
	tb.open("")
	tb.eval(`(() => {
		window.pasteLong = [];
		new PerformanceObserver((l) => { for (const e of l.getEntries()) window.pasteLong.push([e.startTime, e.duration]); })
			.observe({ type: "longtask" });
		window.pasteKey = null;
		addEventListener("keydown", (e) => { window.pasteKey = e.timeStamp; }, true);
		window.pasteCrashed = false;
		const s = window.subplayPage.state;
		window.pasteDefaults = { config: s.config, messages: s.messages, schema: { ...s.schema } };
		document.addEventListener("subplay:rendered", (e) => { if (e.detail.crashed) window.pasteCrashed = true; });
		return true;
	})()`, nil)
	return tb
}

// stateOf is where the page keeps each editor's text.
var stateOf = map[string]string{
	configEditor:   "state.config",
	messagesEditor: "state.messages",
	udfMessages:    "state.messages",
	topicEditor:    "state.schema.topic",
	tableEditor:    "state.schema.table",
}

// paste opens the step's tab, puts its text on the clipboard and pastes
// it over the editor's whole text with the keyboard (Ctrl+A, Ctrl+V: real
// key events), waits for the page's answer, then types a space at the end
// of the text (Ctrl+End, space) and waits for that answer, and reports the
// figures.
func (tb *tab) paste(s pasteStep) pasteFigures {
	tb.t.Helper()
	var on bool
	tb.eval(`document.querySelector("#tab-`+s.tab+`").getAttribute("aria-selected") === "true"`, &on)
	if !on {
		tb.clickTab(s.tab)
	}
	b, _ := json.Marshal(s.text)
	sel, _ := json.Marshal(s.editor)
	tb.eval(`navigator.clipboard.writeText(`+string(b)+`).then(() => true)`, nil)
	tb.eval(`(document.querySelector(`+string(sel)+`).focus(), window.pasteCrashed = false, window.pasteLong = [], true)`, nil)
	ctrl := chromedp.KeyModifiers(chromedp.ModifierCtrl)
	tb.run(chromedp.KeyEvent("a", ctrl))
	n := tb.rendered()
	tb.run(chromedp.KeyEvent("v", ctrl))
	var f pasteFigures
	at := tb.waitAnswer(n)
	var k float64
	tb.eval(`window.pasteKey`, &k)
	f.Answer = at - k
	tb.eval(fmt.Sprintf(`window.pasteLong.reduce((m, [s, d]) => s + d >= %f ? Math.max(m, d) : m, 0)`, k), &f.LongTask)
	// The editor holds what was pasted (line breaks aside: CodeMirror
	// keeps \n for \r\n and \r).
	var held int
	tb.eval(`window.subplayPage.`+stateOf[s.editor]+`.length`, &held)
	if want := utf16Len(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s.text)); held != want {
		tb.t.Fatalf("the editor holds %d characters after the paste of %d", held, want)
	}
	tb.run(chromedp.KeyEvent(kb.End, ctrl))
	n = tb.rendered()
	tb.run(chromedp.KeyEvent(" "))
	at = tb.waitAnswer(n)
	tb.eval(`window.pasteKey`, &k)
	f.Key = at - k
	tb.eval(`window.pasteCrashed`, &f.Crashed)
	return f
}

// utf16Len is the length of s in JavaScript's string units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xffff {
			n++
		}
	}
	return n
}

// waitAnswer waits until the page has painted its answer to the editor's
// text (the last job requested, newer than after) and returns when it was
// painted (performance.now()).
func (tb *tab) waitAnswer(after int) float64 {
	tb.t.Helper()
	var at float64
	tb.eval(fmt.Sprintf(`new Promise((resolve, reject) => {
		const b = document.body.dataset;
		const done = () => Number(b.rendered || 0) > %d && Number(b.rendered) >= Number(b.requested || 0) && !b.busy;
		const painted = () => requestAnimationFrame(() => setTimeout(() => resolve(performance.now())));
		const timer = setTimeout(() => reject(new Error("no answer within 60 s (editor holds " +
			window.subplayPage.editor.view.state.doc.length + " characters)")), 60000);
		const check = () => { if (done()) { clearTimeout(timer); document.removeEventListener("subplay:rendered", check); painted(); } };
		document.addEventListener("subplay:rendered", check);
		check();
	})`, after), &at)
	return at
}

// pasteRow is one paste's figures, for the report.
type pasteRow struct {
	name, editor string
	size         int
	f            pasteFigures
}

// pasteCase runs a case's pastes on a page that holds the state it was
// opened with (the defaults are put back first) and returns their
// figures, with what the browser reported on the way.
func (tb *tab) pasteCase(c pasteCase) ([]pasteRow, []string) {
	tb.t.Helper()
	tb.eval(`(() => {
		const p = window.subplayPage, d = window.pasteDefaults;
		p.setConfig(d.config);
		p.setMessages(d.messages);
		if (p.state.schema.topic !== d.schema.topic || p.state.schema.table !== d.schema.table) p.setSchemas(d.schema.topic, d.schema.table);
		return true;
	})()`, nil)
	tb.waitRender(-1) // the last job asked for, whichever
	tb.takeProblems()
	var rows []pasteRow
	for _, s := range c.steps {
		rows = append(rows, pasteRow{c.name, s.editor, len(s.text), tb.paste(s)})
	}
	return rows, tb.takeProblems()
}

// editorNames name the editors in reports.
var editorNames = map[string]string{
	configEditor: "config", messagesEditor: "messages", udfMessages: "messages",
	topicEditor: "topic-schema", tableEditor: "table-schema",
}

// TestHostilePaste pastes the hostile corpus into the playground as a
// visitor would (see pasteCases; the UDF cases, which
// TestHostileInTheWorker runs in the page's worker, are left to the
// benchmark, for time): every paste gets its answer drawn, the editor keeps
// what was pasted, a key typed afterwards is answered too, the core never
// dies, and the browser reports no error on the way. Nothing is timed here:
// BenchmarkHostilePaste prints how long each took.
func TestHostilePaste(t *testing.T) {
	tb := pasteTab(t)
	for _, c := range pasteCases(t) {
		if strings.HasPrefix(c.name, "transform/") {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			tb.t = t
			rows, problems := tb.pasteCase(c)
			for _, r := range rows {
				if r.f.Crashed {
					t.Errorf("the core died on the paste into the %s editor (the page restarted it)", editorNames[r.editor])
				}
			}
			for _, p := range problems {
				t.Errorf("browser reported: %s", p)
			}
		})
	}
}

// BenchmarkHostilePaste pastes each case of the hostile corpus into the
// playground with the keyboard (see pasteCases and paste) and prints, per
// paste, the time from the paste key's event to the painted answer, the
// longest main-thread task in that stretch, and a key typed afterwards to
// its painted answer; slowest first. SUBPLAY_PASTE_CASES (a regular
// expression) picks cases; SUBPLAY_KEY_PROFILE=DIR writes a CPU profile
// of the page's main thread over them (see BenchmarkKeystroke).
func BenchmarkHostilePaste(b *testing.B) {
	cs := pasteCases(b)
	if re := os.Getenv("SUBPLAY_PASTE_CASES"); re != "" {
		m := regexp.MustCompile(re)
		cs = slices.DeleteFunc(cs, func(c pasteCase) bool { return !m.MatchString(c.name) })
	}
	tb := pasteTab(b)
	// The extra build (Terraform, UDFs) loads on its first use, which the
	// first case that needs it would otherwise pay for: BenchmarkColdLoad
	// and the panels' figures measure that, not this.
	tb.setConfig(tfConfig)
	var rows []pasteRow
	var problems []string
	stopProfile := startProfile(b, tb, "paste")
	b.ResetTimer()
	for range b.N {
		rows = rows[:0]
		for _, c := range cs {
			r, p := tb.pasteCase(c)
			rows = append(rows, r...)
			for _, s := range p {
				problems = append(problems, c.name+": "+s)
			}
		}
	}
	b.StopTimer()
	stopProfile()
	sort.Slice(rows, func(i, j int) bool { return rows[i].f.Answer > rows[j].f.Answer })
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-48s %-12s %9s %9s %9s %9s\n", "case", "pasted into", "bytes", "answer ms", "long ms", "key ms")
	for _, r := range rows {
		mark := ""
		if r.f.Crashed {
			mark = " core-restarted"
		}
		fmt.Fprintf(&sb, "%-48s %-12s %9d %9.0f %9.0f %9.0f%s\n", r.name, editorNames[r.editor], r.size, r.f.Answer, r.f.LongTask, r.f.Key, mark)
	}
	for _, p := range problems {
		fmt.Fprintf(&sb, "browser reported: %s\n", p)
	}
	fmt.Print(sb.String())
}

// TestLongListsInParts: the filter tab draws 200 of 1,000 sample messages'
// rows, says so, and draws 200 more at each click of its button; of the
// messages' 1,000 findings (every message is empty), 200 are listed and
// marked in the editor, with a note that says how many are not. The
// transforms tab draws 200 of 300 messages' blocks, then the rest.
func TestLongListsInParts(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	tb.clickTab("filter")
	msgs := "[" + strings.TrimSuffix(strings.Repeat(`{"attributes":{"a":"x"}},`, 1000), ",") + "]"
	n := tb.rendered()
	b, _ := json.Marshal(msgs)
	tb.eval(`(window.subplayPage.setMessages(`+string(b)+`), true)`, nil)
	tb.waitRender(n)
	type view struct {
		Rows           int
		More           string
		MoreHidden     bool
		Listed, Marked int
		Note           string
		NoteHidden     bool
		Summary        string
	}
	read := func() view {
		var v view
		tb.eval(`(() => {
			const p = document.querySelector("#panel-filter"), more = p.querySelector(".more-rows"), note = p.querySelector(".more-note");
			return {
				rows: p.querySelectorAll("table.results tbody tr").length,
				more: more.textContent, moreHidden: more.hidden,
				listed: p.querySelectorAll('ul[aria-label="Sample message diagnostics"] li:not(.diag-none)').length,
				marked: p.querySelectorAll(".cm-lint-marker, .cm-lintRange").length,
				note: note.textContent, noteHidden: note.hidden,
				summary: p.querySelector(".summary").textContent,
			};
		})()`, &v)
		return v
	}
	v := read()
	if v.Rows != 200 || v.MoreHidden || v.More != "Showing 200 of 1000 messages. Show 200 more" {
		t.Fatalf("1,000 valid messages: %d rows, more %q (hidden %v)", v.Rows, v.More, v.MoreHidden)
	}
	if !strings.Contains(v.Summary, " of 1000 messages delivered") {
		t.Errorf("the summary counts every message: %q", v.Summary)
	}
	for want := 400; want <= 1000; want += 200 {
		tb.run(chromedp.Click(chromedp.CSS(`#panel-filter .more-rows button`)))
		if v = read(); v.Rows != want {
			t.Fatalf("after a click: %d rows, want %d", v.Rows, want)
		}
	}
	if !v.MoreHidden {
		t.Errorf("every row is drawn and the button still shows: %q", v.More)
	}
	if !v.NoteHidden || v.Listed != 0 {
		t.Errorf("valid messages: %d findings listed, note %q (hidden %v)", v.Listed, v.Note, v.NoteHidden)
	}

	empty := "[" + strings.TrimSuffix(strings.Repeat(`{},`, 1000), ",") + "]"
	n = tb.rendered()
	b, _ = json.Marshal(empty)
	tb.eval(`(window.subplayPage.setMessages(`+string(b)+`), true)`, nil)
	tb.waitRender(n)
	v = read()
	if v.Rows != 200 || v.Listed != 200 || v.NoteHidden || v.Note != "800 more findings in later messages are not listed here or marked in the editor." {
		t.Fatalf("1,000 empty messages: %d rows, %d findings listed, note %q (hidden %v)", v.Rows, v.Listed, v.Note, v.NoteHidden)
	}
	if v.Marked == 0 {
		t.Errorf("no finding is marked in the messages editor")
	}

	// The transforms tab likewise, a block per message.
	cfg, _ := json.Marshal(map[string]any{"name": "projects/p/subscriptions/s", "topic": "projects/p/topics/t",
		"messageTransforms": []any{map[string]any{"javascriptUdf": map[string]any{"functionName": "f", "code": "function f(m) { return m }"}}}})
	tb.setConfig(string(cfg))
	n = tb.rendered()
	b, _ = json.Marshal("[" + strings.TrimSuffix(strings.Repeat(`{"text":"x"},`, 300), ",") + "]")
	tb.eval(`(window.subplayPage.setMessages(`+string(b)+`), true)`, nil)
	tb.waitRender(n)
	tb.clickTab("transforms")
	var blocks int
	var more string
	tb.eval(`document.querySelectorAll("#panel-transforms section.msg-through").length`, &blocks)
	tb.eval(`document.querySelector("#panel-transforms .more-rows").textContent`, &more)
	if blocks != 200 || more != "Showing 200 of 300 messages. Show 100 more" {
		t.Fatalf("300 messages through a UDF: %d blocks, more %q", blocks, more)
	}
	tb.run(chromedp.Click(chromedp.CSS(`#panel-transforms .more-rows button`)))
	tb.eval(`document.querySelectorAll("#panel-transforms section.msg-through").length`, &blocks)
	if blocks != 300 {
		t.Errorf("after a click: %d blocks, want 300", blocks)
	}
}

// TestHostileInTheWorker sends every case of the hostile corpus to the
// page's core as the page routes its own calls (window.subplayPage.run),
// in the page's worker:
// Chromium gives it about half of the stack Node has, and the js/wasm
// suites run in Node with 8 MiB (go_js_wasm_exec's --stack-size), where a
// join of 1,000 nested arrays passed that ended the page's instance from
// about 220. Each call must be answered (an answer, or an error of the
// request) by the instance it was sent to: never "crashed", a time-out or
// an internal error. The UDF cases run in the extra build, as on the page.
func TestHostileInTheWorker(t *testing.T) {
	tb := newTabFor(t, 30*time.Minute)
	tb.open("")
	// The page calls its extra build (UDFs, Terraform) once it has loaded
	// it, for a configuration that needs it.
	tb.setConfig(tfConfig)
	for _, c := range hostile.V8Host() {
		var req json.RawMessage
		if json.Unmarshal(c.Body(), &req) != nil {
			continue // not JSON: a case of the HTTP surface
		}
		t.Run(c.Name, func(t *testing.T) {
			tb.t = t
			op, _ := json.Marshal(c.Op)
			body, _ := json.Marshal(string(req))
			var got struct {
				OK            bool
				Code, Message string
			}
			tb.eval(`window.subplayPage.run([[`+string(op)+`, JSON.parse(`+string(body)+`)]]).then(([r]) => r.ok ? {ok: true} :
				{ok: false, code: String((r.value.error || {}).code || ""), message: String((r.value.error || {}).message || "")},
				(e) => ({ok: false, code: String(e.code || "thrown"), message: String(e.message || e)}))`, &got)
			switch got.Code {
			case "crashed", "timeout", "internal", "load", "needs-module", "loading", "thrown":
				t.Errorf("the core answered %s: %s", got.Code, got.Message)
			}
			for _, p := range tb.takeProblems() {
				t.Errorf("browser reported: %s", p)
			}
		})
	}
}
