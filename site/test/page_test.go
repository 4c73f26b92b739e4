//go:build browser

package sitetest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

const validConfig = `{
  "name": "projects/my-project/subscriptions/orders",
  "topic": "projects/my-project/topics/orders",
  "ackDeadlineSeconds": 30
}
`

// badConfig has one error, on line 4: an ack deadline below 10 seconds.
const badConfig = `{
  "name": "projects/my-project/subscriptions/orders",
  "topic": "projects/my-project/topics/orders",
  "ackDeadlineSeconds": 5
}
`

// pageModules are the builds the playground page loads, in order (see
// site/src/modules.js).
var pageModules = []string{"full", "extra"}

func TestPageLoads(t *testing.T) {
	m := readSiteManifest(t)
	if !slices.Equal(m.PageModules, pageModules) {
		t.Fatalf("the build says the page loads %v, want %v", m.PageModules, pageModules)
	}
	mark := served.mark()
	tb := newTab(t, chromedp.WithNewBrowserContext()) // an empty cache
	tb.open("")
	var version string
	tb.eval(`document.getElementById("version").textContent`, &version)
	if version == "" {
		t.Error("the page shows no version")
	}
	var loadingHidden bool
	tb.eval(`document.getElementById("loading").hidden`, &loadingHidden)
	if !loadingHidden {
		t.Error("the progress indicator is still shown after loading")
	}
	// The default state has settings rows from the core.
	var rows int
	tb.eval(`document.querySelectorAll("#panel-settings tbody tr").length`, &rows)
	if rows < 5 {
		t.Errorf("the effective settings have %d rows", rows)
	}
	tb.screenshot("page")
	// The page starts with the small build and the first of its builds
	// (modules.js startCore), and nothing else.
	checkRequests(t, served.since(mark), m, m.Pages["index.html"], m.StartModules)

	// After load, every panel works from what is in the page: requests are
	// only for the builds that panels need and the first lacks, fetched
	// once, by names that carry nothing of the state.
	mark = served.mark()
	tb.setConfig(validConfig)
	tb.clickTab("storage")
	tb.setConfig(storageConfig)
	tb.clickTab("filter")
	tb.setConfig(badConfig)
	tb.clickTab("schema")
	tb.setConfig(storageConfig)
	tb.clickTab("filter")
	tb.clickTab("schema")
	tb.clickTab("settings")
	tb.clickTab("transforms")
	tb.clickTab("export")
	// None of these configurations has a UDF or is Terraform: the first
	// build answers them all, and extra is not fetched
	// (TestExtraOnlyWhenNeeded fetches it).
	checkRequests(t, served.since(mark), m, m.Pages["index.html, every panel opened"], nil)
	if s := tb.text("#panel-schema .summary"); !strings.Contains(s, "Cloud Storage subscription") {
		t.Errorf("the schema panel says %q for a Cloud Storage configuration", s)
	}
}

func TestDiagnosticAtLine(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	tb.setConfig(badConfig)

	var ds []struct {
		Code string `json:"code"`
		Line string `json:"line"`
	}
	tb.eval(`[...document.querySelectorAll("#diagnostics li.diag-error")].map((li) => ({code: li.dataset.code, line: li.dataset.line}))`, &ds)
	found := false
	for _, d := range ds {
		if d.Code == "value-too-small" && d.Line == "4" {
			found = true
		}
	}
	if !found {
		t.Fatalf("no value-too-small error at line 4 in %+v", ds)
	}
	// The editor underlines the value on line 4.
	var marked string
	tb.eval(`(() => {
		const m = document.querySelector(".cm-content .cm-lintRange-error");
		if (!m) return "";
		const line = m.closest(".cm-line");
		return [...document.querySelectorAll(".cm-content .cm-line")].indexOf(line) + 1 + ":" + m.textContent;
	})()`, &marked)
	if marked != "4:5" {
		t.Errorf("underlined %q, want the 5 on line 4 (\"4:5\")", marked)
	}
	tb.screenshot("page-diagnostic")

	// Activating the diagnostic selects its span in the editor.
	tb.run(chromedp.Click(chromedp.CSS(`#diagnostics li[data-code="value-too-small"] button`)))
	var sel struct{ From, To int }
	tb.eval(`(() => { const s = window.subplayPage.editor.view.state.selection.main; return {from: s.from, to: s.to}; })()`, &sel)
	if want := strings.Index(badConfig, "5\n"); sel.From != want || sel.To != want+1 {
		t.Errorf("selection %+v, want %d..%d", sel, want, want+1)
	}
	var focused bool
	tb.eval(`document.activeElement.classList.contains("cm-content")`, &focused)
	if !focused {
		t.Error("the editor does not have the focus after the jump")
	}

	// Fixing it clears it.
	tb.setConfig(strings.Replace(badConfig, `: 5`, `: 15`, 1))
	var errorsLeft int
	tb.eval(`document.querySelectorAll("#diagnostics li.diag-error, .cm-content .cm-lintRange-error").length`, &errorsLeft)
	if errorsLeft != 0 {
		t.Errorf("%d error marks remain after the fix", errorsLeft)
	}
}

func TestTypingInTheEditor(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	tb.setConfig(validConfig)
	// Real key presses: put the cursor after "30" and type a digit, which
	// makes the deadline 300 (valid); then another, 3000 (too large).
	n := tb.rendered()
	tb.eval(`(() => { const v = window.subplayPage.editor.view; const at = v.state.doc.toString().indexOf("30\n") + 2; v.dispatch({selection: {anchor: at}}); v.focus(); return true; })()`, nil)
	tb.run(chromedp.KeyEvent("0"))
	tb.waitRender(n)
	n = tb.rendered()
	tb.run(chromedp.KeyEvent("0"))
	tb.waitRender(n)
	var codes []string
	tb.eval(`[...document.querySelectorAll("#diagnostics li.diag-error")].map((li) => li.dataset.code)`, &codes)
	if len(codes) != 1 || codes[0] != "value-too-large" {
		t.Errorf("after typing 3000: errors %v, want [value-too-large]", codes)
	}
}

func TestFilterMarksMessages(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	tb.setConfig(`{
  "name": "projects/my-project/subscriptions/orders-eu",
  "topic": "projects/my-project/topics/orders",
  "filter": "attributes.region = \"eu\" AND NOT attributes.kind = \"refund\""
}
`)
	tb.clickTab("filter")
	var got []struct {
		Index string `json:"index"`
		Match string `json:"match"`
	}
	tb.eval(`[...document.querySelectorAll("#panel-filter tbody tr")].map((tr) => ({index: tr.dataset.index, match: tr.dataset.match}))`, &got)
	// The default messages: eu order, us order, eu refund, no attributes.
	want := []string{"true", "false", "false", "false"}
	if len(got) != len(want) {
		t.Fatalf("%d result rows, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		if got[i].Match != w {
			t.Errorf("message %d: match %s, want %s", i+1, got[i].Match, w)
		}
	}
	if cel := tb.text("#panel-filter pre"); !strings.Contains(cel, `"eu"`) || !strings.Contains(cel, "&&") {
		t.Errorf("CEL form %q", cel)
	}
	tb.screenshot("page-filter")

	// A filter typed in the panel replaces the configuration's.
	n := tb.rendered()
	tb.run(chromedp.SetValue(chromedp.CSS(`#panel-filter input.filter-input`), `attributes:kind`))
	tb.eval(`document.querySelector("#panel-filter input.filter-input").dispatchEvent(new Event("input")), true`, nil)
	tb.waitRender(n)
	var matches []string
	tb.eval(`[...document.querySelectorAll("#panel-filter tbody tr")].map((tr) => tr.dataset.match)`, &matches)
	if strings.Join(matches, ",") != "true,true,true,false" {
		t.Errorf("with attributes:kind: %v", matches)
	}
}

const storageConfig = `name: projects/my-project/subscriptions/archive
topic: projects/my-project/topics/orders
cloudStorageConfig:
  bucket: my-archive-bucket
  filenamePrefix: orders/
  filenameSuffix: .txt
  filenameDatetimeFormat: YYYY-MM-DD/hh_mm_ssZ
  maxDuration: 300s
`

func TestObjectNames(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	tb.setConfig(storageConfig)
	tb.clickTab("storage")
	n0 := tb.rendered()
	tb.run(chromedp.SetValue(chromedp.CSS(`#panel-storage input.mono`), `2024-05-01T12:00:00Z`))
	tb.eval(`document.querySelector("#panel-storage input.mono").dispatchEvent(new Event("input")), true`, nil)
	tb.waitRender(n0)
	var names []string
	tb.eval(`[...document.querySelectorAll("#panel-storage ol.names li")].map((li) => li.textContent)`, &names)
	// One simulation gives the names and the files: the names are those
	// of the files the batching table lists (a 900 s stream closed every
	// 300 s: 3 files, though 5 names were asked for).
	var fileNames []string
	tb.eval(`[...document.querySelectorAll("#panel-storage table.files tbody td.name")].map((td) => td.textContent)`, &fileNames)
	if len(names) != 3 || !slices.Equal(names, fileNames[:min(len(fileNames), len(names))]) {
		t.Fatalf("names %v, want the 3 files' names %v", names, fileNames)
	}
	if !strings.HasPrefix(names[0], "orders/2024-05-01/12_00_00Z_") || !strings.HasSuffix(names[0], ".txt") {
		t.Errorf("first name %q", names[0])
	}
	var files int
	tb.eval(`document.querySelectorAll("#panel-storage table.files tbody tr").length`, &files)
	if files == 0 {
		t.Error("the synthetic stream made no files")
	}
	tb.screenshot("page-storage")

	// With the sample messages, the text files' contents appear.
	n := tb.rendered()
	tb.run(chromedp.Click(chromedp.CSS(`#panel-storage input[type=radio][value=messages]`)))
	tb.waitRender(n)
	if c := tb.text("#panel-storage .contents pre"); !strings.Contains(c, "order 1") {
		t.Errorf("file contents %q lack the first message", c)
	}
}

func TestShareLinkRestores(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	tb.setConfig(storageConfig)
	tb.clickTab("storage")
	tb.run(chromedp.Click(chromedp.CSS(`#share`)))
	var link string
	tb.eval(`new Promise((resolve) => { const f = () => document.querySelector(".share-url") ? resolve(document.querySelector(".share-url").value) : setTimeout(f, 20); f(); })`, &link)
	if !strings.Contains(link, "#z=") {
		t.Fatalf("share link %q has no state", link)
	}
	var before map[string]any
	tb.eval(`window.subplayPage.state`, &before)

	other := newTab(t)
	other.run(chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS("body[data-ready][data-rendered]")))
	var after map[string]any
	other.eval(`window.subplayPage.state`, &after)
	bj, _ := json.Marshal(before)
	aj, _ := json.Marshal(after)
	if string(bj) != string(aj) {
		t.Errorf("restored state differs:\n got  %s\n want %s", aj, bj)
	}
	var editorText string
	other.eval(`window.subplayPage.editor.text`, &editorText)
	if editorText != storageConfig {
		t.Errorf("editor holds %q", editorText)
	}
	var selected string
	other.eval(`document.querySelector('[role=tab][aria-selected=true]').dataset.tab`, &selected)
	if selected != "storage" {
		t.Errorf("selected tab %q, want storage", selected)
	}
}

// TestOldShareLink opens a link made with state format v1. When the format
// changes, this link must keep opening to the same state: add an upgrade
// in site/src/lib/state.js, never edit testdata/share-v1.txt.
func TestOldShareLink(t *testing.T) {
	frag, err := os.ReadFile(filepath.Join("testdata", "share-v1.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "share-v1.config"))
	if err != nil {
		t.Fatal(err)
	}
	tb := newTab(t)
	tb.open("#" + strings.TrimSpace(string(frag)))
	var got string
	tb.eval(`window.subplayPage.editor.text`, &got)
	if got != string(want) {
		t.Errorf("the v1 link restored\n%s\nwant\n%s", got, want)
	}
	var selected string
	tb.eval(`document.querySelector('[role=tab][aria-selected=true]').dataset.tab`, &selected)
	if selected != "filter" {
		t.Errorf("selected tab %q, want filter", selected)
	}
}

func TestTabsByKeyboard(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	tb.run(chromedp.Focus(chromedp.CSS(`#tab-settings`)), chromedp.KeyEvent(kb.ArrowRight))
	var state struct {
		Selected string `json:"selected"`
		Focused  string `json:"focused"`
		Hidden   bool   `json:"hidden"`
	}
	tb.eval(`({selected: document.querySelector('[role=tab][aria-selected=true]').id, focused: document.activeElement.id, hidden: document.getElementById("panel-settings").hidden})`, &state)
	if state.Selected != "tab-filter" || state.Focused != "tab-filter" || !state.Hidden {
		t.Errorf("after ArrowRight: %+v", state)
	}
}

func TestExamplesOpen(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	// The panel is built when its tab first opens: count its cards then.
	tb.clickTab("examples")
	var count int
	tb.eval(`document.querySelectorAll("#panel-examples .card").length`, &count)
	if count == 0 {
		t.Fatal("the gallery is empty: the build found no examples (core/subscription/testdata/examples)")
	}
	tb.screenshot("page-examples")
	n := tb.rendered()
	tb.run(chromedp.Click(chromedp.CSS(`#panel-examples .card button`)))
	tb.waitRender(n)
	var text string
	tb.eval(`window.subplayPage.editor.text`, &text)
	if !strings.Contains(text, "topic") {
		t.Errorf("the example put %q in the editor", text)
	}
}

// TestPhone loads the page and an embed at a phone's width: nothing may
// force sideways scrolling, and the editor and the previews stack.
func TestPhone(t *testing.T) {
	for _, path := range []string{"", widgets[1].frag} {
		t.Run("/"+strings.SplitN(path, "#", 2)[0], func(t *testing.T) {
			tb := newTab(t)
			tb.run(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
			tb.open(path)
			var fit struct {
				Scroll int `json:"scroll"`
				Inner  int `json:"inner"`
			}
			tb.eval(`({scroll: document.documentElement.scrollWidth, inner: window.innerWidth})`, &fit)
			if fit.Scroll > fit.Inner {
				t.Errorf("the page is %d px wide in a %d px viewport", fit.Scroll, fit.Inner)
			}
			if path == "" {
				tb.clickTab("filter")
				var stacked bool
				tb.eval(`document.querySelector(".preview-pane").getBoundingClientRect().top >= document.querySelector(".editor-pane").getBoundingClientRect().bottom`, &stacked)
				if !stacked {
					t.Error("the previews are not below the editor")
				}
				tb.screenshot("page-phone")
			} else {
				tb.screenshot("embed-phone")
			}
		})
	}
}

func TestSchemas(t *testing.T) {
	// The browser's default context (any option but a new context keeps
	// it): SetDownloadBehavior below applies there.
	tb := newTab(t, chromedp.WithListener(func(any) {}))
	tb.open("")
	// Cloud Storage with Avro output: the files' schema and a sample file.
	tb.setConfig(`name: projects/my-project/subscriptions/avro-archive
topic: projects/my-project/topics/orders
cloudStorageConfig:
  bucket: my-archive-bucket
  avroConfig:
    writeMetadata: true
`)
	tb.clickTab("schema")
	if s := tb.text("#panel-schema pre.code"); !strings.Contains(s, `"PubsubMessageWithMetadata"`) {
		t.Errorf("Avro schema %q", s)
	}
	var label string
	tb.eval(`(document.querySelector("#panel-schema button.download") || {textContent: ""}).textContent`, &label)
	if !strings.HasPrefix(label, "Download the Avro file") {
		t.Errorf("no download of the sample Avro file (button %q)", label)
	}
	var magic string
	tb.eval(`document.querySelector("#panel-schema button.download").sampleFile().arrayBuffer().then((b) => String.fromCharCode(...new Uint8Array(b, 0, 4)))`, &magic)
	if magic != "Obj\x01" {
		t.Errorf("the sample file starts %q, not with the Avro magic", magic)
	}
	// The button really downloads it.
	dir := t.TempDir()
	if _, err := chromedp.Call(tb.ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: new(true),
	}); err != nil {
		t.Fatal(err)
	}
	dctx, cancel := context.WithTimeout(tb.ctx, 20*time.Second)
	defer cancel()
	progress := chromedp.Events(dctx, browser.DownloadProgress)
	tb.run(chromedp.Click(chromedp.CSS(`#panel-schema button.download`)))
	for ev, err := range progress {
		if err != nil {
			t.Fatalf("waiting for the download: %v", err)
		}
		if ev.State == browser.DownloadProgressStateCanceled {
			t.Fatal("the download was cancelled")
		}
		if ev.State != browser.DownloadProgressStateCompleted {
			continue
		}
		file, err := os.ReadFile(filepath.Join(dir, ev.GUID))
		if err != nil || !strings.HasPrefix(string(file), "Obj\x01") {
			t.Errorf("the downloaded file (%v) starts %.4q, not with the Avro magic", err, file)
		}
		break
	}
	tb.screenshot("page-schema")

	// BigQuery with a topic schema: the table it needs, and the verdict on
	// a table that lacks a column.
	tb.setConfig(`{
  "name": "projects/my-project/subscriptions/orders-to-bq",
  "topic": "projects/my-project/topics/orders",
  "bigqueryConfig": {"table": "my-project.analytics.orders", "useTopicSchema": true}
}
`)
	n := tb.rendered()
	tb.eval(`window.subplayPage.setSchemas(`+jsString(`{"type": "record", "name": "Order", "fields": [{"name": "id", "type": "string"}, {"name": "total", "type": "double"}]}`)+`, `+jsString(`[{"name": "id", "type": "STRING"}]`)+`), true`, nil)
	tb.waitRender(n)
	bq := tb.text("#panel-schema")
	if !strings.Contains(bq, "does not fit") {
		t.Errorf("the BigQuery verdict is missing from %q", bq)
	}
	if !strings.Contains(bq, `"total"`) {
		t.Errorf("the generated table schema lacks the total column: %q", bq)
	}
}

// TestSettingsRedrawOneRow edits one value: its row shows the new value,
// and the other rows stay the same elements (the panel redraws only what
// changed).
func TestSettingsRedrawOneRow(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	tb.setConfig(validConfig)
	tb.eval(`document.querySelectorAll("#panel-settings tbody tr").forEach((tr) => { tr.subplayOld = true; }), true`, nil)
	tb.setConfig(strings.Replace(validConfig, `: 30`, `: 45`, 1))
	var rows []struct {
		Path  string `json:"path"`
		Value string `json:"value"`
		Old   bool   `json:"old"`
	}
	tb.eval(`[...document.querySelectorAll("#panel-settings tbody tr")].map((tr) => ({path: tr.dataset.path, value: tr.querySelector(".value").textContent, old: !!tr.subplayOld}))`, &rows)
	if len(rows) < 5 {
		t.Fatalf("%d settings rows", len(rows))
	}
	for _, r := range rows {
		changed := r.Path == "/ackDeadlineSeconds"
		if changed && (r.Old || !strings.HasPrefix(r.Value, "45")) {
			t.Errorf("the edited row %+v: want a new row showing 45", r)
		}
		if !changed && !r.Old {
			t.Errorf("row %s was redrawn, though its setting did not change", r.Path)
		}
	}
}

// TestWorkIsKept: edits reach the address bar as one types, a reload keeps
// them, the bare address brings them back from storage, and a share link
// that replaces them offers them back. The share bar goes at the next edit.
func TestWorkIsKept(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	mine := strings.Replace(storageConfig, "archive", "mine", 1)
	tb.setConfig(mine)
	waitHash := `new Promise((resolve, reject) => { const t0 = Date.now(); const f = () => location.hash.includes("z=") ? resolve(location.href) : Date.now() - t0 > 20000 ? reject(new Error("the URL never followed the edit")) : setTimeout(f, 50); f(); })`
	var href string
	tb.eval(waitHash, &href)
	editorText := func(tb *tab) string {
		var s string
		tb.eval(`window.subplayPage.editor.text`, &s)
		return s
	}

	tb.run(chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("body[data-ready][data-rendered]")))
	if got := editorText(tb); got != mine {
		t.Fatalf("after a reload the editor holds %q", got)
	}

	tb.run(chromedp.Navigate(tb.base), chromedp.WaitVisible(chromedp.CSS("body[data-ready][data-rendered]")))
	if got := editorText(tb); got != mine {
		t.Fatalf("the bare address did not bring the work back: %q", got)
	}
	if s := tb.text("#share-status"); !strings.Contains(s, "is back") {
		t.Errorf("no note that the work was restored: %q", s)
	}

	// Someone else's link, made in another context.
	other := newTab(t)
	other.open("")
	other.setConfig(storageConfig)
	var link string
	other.eval(waitHash, &link)

	tb.run(chromedp.Navigate("about:blank"), chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS("body[data-ready][data-rendered]")))
	if got := editorText(tb); got != storageConfig {
		t.Fatalf("the link did not open: %q", got)
	}
	if s := tb.text("#share-status"); !strings.Contains(s, "replaced your own work") {
		t.Fatalf("no offer to restore the replaced work: %q", s)
	}
	n := tb.rendered()
	tb.eval(`[...document.querySelectorAll("#share-status button")].find((b) => b.textContent === "Restore my work").click(), true`, nil)
	tb.waitRender(n)
	if got := editorText(tb); got != mine {
		t.Fatalf("restoring gave %q", got)
	}

	// The share bar says the link is copied, and goes at the next edit.
	tb.run(chromedp.Click(chromedp.CSS(`#share`)), chromedp.WaitVisible(chromedp.CSS(".share-url")))
	tb.setConfig(storageConfig)
	var hidden bool
	tb.eval(`document.getElementById("share-status").hidden`, &hidden)
	if !hidden {
		t.Error("the share bar stays after an edit")
	}
}
