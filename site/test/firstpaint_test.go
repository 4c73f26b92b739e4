//go:build browser

package sitetest

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestFirstPaintFromBuild: with the core held back, the default state's
// preview (computed by the build with the same module) is on the page at
// once; it is exactly what the core answers for the same calls; an edit
// before the core is there takes it away; and the core's answer then
// replaces it.
func TestFirstPaintFromBuild(t *testing.T) {
	site := newGatedSite(t)
	tb := newTab(t)
	tb.base = site.URL + "/"
	tb.run(chromedp.Navigate(tb.base), chromedp.WaitVisible(chromedp.CSS(`body[data-first-paint="shown"]`)))
	// The preview comes before the rest of the page; the checks below use
	// the page's hook, which comes with the editor.
	waitEditor(tb)
	var early struct {
		Ready, Rendered  bool
		Rows, Diags      int
		Summary, Count   string
		Key              string
		Results          json.RawMessage
		Calls            json.RawMessage
		FirstPreviewSeen bool
	}
	tb.eval(`(() => {
		const b = document.body.dataset;
		const f = window.subplayPage.firstPaint;
		return {ready: "ready" in b, rendered: "rendered" in b,
			rows: document.querySelectorAll("#panel-settings tbody tr").length,
			diags: document.querySelectorAll("#diagnostics li").length,
			summary: document.querySelector("#panel-settings .summary").textContent,
			count: document.getElementById("diag-count").textContent,
			key: f.key, results: f.results, calls: JSON.parse(f.key),
			firstPreviewSeen: window.subplayFirstPreview > 0};
	})()`, &early)
	if early.Ready || early.Rendered {
		t.Fatalf("the core answered although its module was held back: %+v", early)
	}
	if early.Rows == 0 || early.Diags == 0 || !strings.HasPrefix(early.Summary, "Valid") || early.Count == "" || !early.FirstPreviewSeen {
		t.Fatalf("the build's preview is not on the page: %+v", early)
	}

	// An edit before the core is there: the preview no longer belongs to
	// what is on screen.
	tb.eval(`window.subplayPage.setConfig(window.subplayPage.editor.text.replace("30", "31")), true`, nil)
	var after struct {
		FirstPaint, Stale, List, Count string
	}
	tb.eval(`({firstPaint: document.body.dataset.firstPaint, stale: document.body.dataset.stale || "",
		list: document.getElementById("diagnostics").textContent, count: document.getElementById("diag-count").textContent})`, &after)
	if after.FirstPaint != "withdrawn" || after.Stale != "true" || !strings.Contains(after.List, "Checking as soon as the core has loaded") || after.Count != "" {
		t.Fatalf("after an edit the build's preview is still shown as current: %+v", after)
	}
	// Back to the default text: it belongs again.
	tb.eval(`window.subplayPage.setConfig(window.subplayPage.editor.text.replace("31", "30")), true`, nil)
	tb.eval(`document.body.dataset.firstPaint`, &after.FirstPaint)
	if after.FirstPaint != "shown" {
		t.Fatalf("the default text again: first paint %q", after.FirstPaint)
	}

	// The core arrives and answers; its answer to the same calls is the
	// build's, byte for byte.
	site.open()
	tb.run(chromedp.WaitVisible(chromedp.CSS("body[data-ready][data-rendered]")))
	tb.waitRender(0)
	live := coreAnswers(tb, `window.subplayPage.firstPaint.key`)
	if !jsonEqual(t, live, early.Results) {
		t.Errorf("the build's answer differs from the core's for the same calls:\nbuild: %s\ncore:  %s", early.Results, live)
	}
	var stale bool
	tb.eval(`"stale" in document.body.dataset`, &stale)
	if stale {
		t.Error("the page is still marked stale after the core answered")
	}
}

// TestFirstPaintOnlyForItsState: a link or saved work that differs from
// the default state never shows the build's preview (saved work may show
// the answers kept for it: storedpreview_test.go).
func TestFirstPaintOnlyForItsState(t *testing.T) {
	for _, c := range []struct {
		name, path string
		saved      bool
	}{
		{"link to another configuration", "#config=" + url.QueryEscape("topic: projects/p/topics/t\n"), false},
		{"link to another tab", "#tab=filter", false},
		{"saved work", "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			site := newGatedSite(t)
			tb := newTab(t)
			tb.base = site.URL + "/"
			if c.saved {
				// Work saved by an earlier visit (the same origin: the
				// gated proxy), with the core let through for that visit.
				site.open()
				tb.open("")
				tb.setConfig(storageConfig)
				tb.eval(`new Promise((resolve, reject) => { const t0 = Date.now(); const f = () => localStorage.getItem("subplay:work") ? resolve(true) : Date.now() - t0 > 20000 ? reject(new Error("never saved")) : setTimeout(f, 50); f(); })`, nil)
				tb.run(chromedp.Navigate(tb.base), chromedp.WaitVisible(chromedp.CSS("body[data-ready][data-rendered]")))
			} else {
				tb.run(chromedp.Navigate(tb.base+c.path), chromedp.WaitVisible(chromedp.CSS(`#editor .cm-content`)))
				// The page restores the link's state before it would draw.
				tb.eval(`new Promise((resolve) => setTimeout(resolve, 300))`, nil)
				site.open()
				tb.run(chromedp.WaitVisible(chromedp.CSS("body[data-ready][data-rendered]")))
			}
			var fp, from string
			var first, live float64
			tb.eval(`document.body.dataset.firstPaint || ""`, &fp)
			tb.eval(`document.body.dataset.previewFrom || ""`, &from)
			tb.eval(`window.subplayFirstPreview`, &first)
			tb.eval(`window.subplayFirstCall.done`, &live)
			if from == "stored" {
				return
			}
			if fp != "" || first != live {
				t.Errorf("the build's preview was shown (%q; first preview at %.0f ms, the core's at %.0f ms)", fp, first, live)
			}
		})
	}
}

func jsonEqual(t *testing.T, a, b json.RawMessage) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}
