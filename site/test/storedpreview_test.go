//go:build browser

package sitetest

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// newHoldTab is a tab on site with the HTTP cache off, so that a reload
// asks the proxy for the modules again and the hold works.
func newHoldTab(t *testing.T, site *gatedSite) *tab {
	t.Helper()
	tb := newTab(t)
	tb.base = site.URL + "/"
	if _, err := chromedp.Call(tb.ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
		t.Fatal(err)
	}
	return tb
}

// storedPreviewConfig is a configuration other than the default state's,
// with a finding, so the kept preview has diagnostics to draw.
var storedPreviewConfig = strings.Replace(validConfig, "30", "45", 1) + "\n"

// visitAndKeep opens the page with its core, edits the configuration and
// waits until the page kept the core's answers for it; it returns those
// answers as the core gives them for the same calls.
func visitAndKeep(t *testing.T, tb *tab) json.RawMessage {
	t.Helper()
	tb.open("")
	tb.setConfig(storedPreviewConfig)
	tb.eval(`new Promise((resolve, reject) => {
		const t0 = Date.now();
		const f = () => {
			let e = null;
			try { e = JSON.parse(localStorage.getItem("subplay:preview")); } catch {}
			const calls = e && JSON.parse(e.key);
			if (calls && JSON.parse(calls[0][1]).text === window.subplayPage.state.config && localStorage.getItem("subplay:work")) return resolve(true);
			if (Date.now() - t0 > 20000) return reject(new Error("the answers were never kept"));
			setTimeout(f, 50);
		};
		f();
	})`, nil)
	return coreAnswers(tb, `JSON.parse(localStorage.getItem("subplay:preview")).key`)
}

// waitStarted waits, with the core held back, until page.js has restored
// the work (its hook is there with the editor) and had time to draw.
func waitStarted(tb *tab) {
	tb.t.Helper()
	waitEditor(tb)
	tb.eval(`new Promise((resolve) => setTimeout(resolve, 300))`, nil)
}

// TestStoredPreviewOnReload: a returning visitor with saved work sees the
// answers this browser kept for it before the core has loaded; they are
// exactly what the core answers for the same calls; the core's answer
// then replaces them.
func TestStoredPreviewOnReload(t *testing.T) {
	site := newHoldSite(t)
	tb := newHoldTab(t, site)
	live := visitAndKeep(t, tb)

	site.hold()
	tb.run(chromedp.Navigate(tb.base), chromedp.WaitVisible(chromedp.CSS(`body[data-first-paint="shown"]`)))
	waitStarted(tb)
	var early struct {
		From, Summary, Count, Config string
		Ready, Rendered              bool
		Rows, Diags                  int
		Stored                       json.RawMessage
		First                        float64
	}
	tb.eval(`(() => {
		const b = document.body.dataset;
		return {from: b.previewFrom || "", ready: "ready" in b, rendered: "rendered" in b,
			rows: document.querySelectorAll("#panel-settings tbody tr").length,
			diags: document.querySelectorAll("#diagnostics li").length,
			summary: document.querySelector("#panel-settings .summary").textContent,
			count: document.getElementById("diag-count").textContent,
			config: window.subplayPage.state.config,
			stored: window.subplayPage.storedPreview && window.subplayPage.storedPreview.results,
			first: window.subplayFirstPreview || 0};
	})()`, &early)
	if early.Ready || early.Rendered {
		t.Fatalf("the core answered although its module was held back: %+v", early)
	}
	if early.From != "stored" || early.Rows == 0 || early.Diags == 0 || early.Count == "" || early.First <= 0 {
		t.Fatalf("the kept preview is not on the page: %+v", early)
	}
	if early.Config != storedPreviewConfig {
		t.Fatalf("the page restored %q, not the saved work", early.Config)
	}
	if !jsonEqual(t, early.Stored, live) {
		t.Errorf("the kept answers differ from the core's for the same calls:\nkept: %s\ncore: %s", early.Stored, live)
	}
	tb.screenshot("stored-preview")

	site.open()
	tb.run(chromedp.WaitVisible(chromedp.CSS("body[data-ready][data-rendered]")))
	tb.waitRender(0)
	var after struct {
		Stale     bool
		Summary   string
		First     float64
		Live      float64
		Requested string
	}
	tb.eval(`({stale: "stale" in document.body.dataset, summary: document.querySelector("#panel-settings .summary").textContent,
		first: window.subplayFirstPreview, live: window.subplayFirstCall.done})`, &after)
	if after.Stale || after.Summary != early.Summary {
		t.Errorf("the core's answer did not replace the kept preview cleanly: %+v (kept: %q)", after, early.Summary)
	}
	if !(after.First < after.Live) {
		t.Errorf("first preview at %.0f ms, the core's answer at %.0f ms: the kept preview came no sooner", after.First, after.Live)
	}
}

// TestStoredPreviewOnlyForItsStateAndCore: kept answers are never shown
// for another state, for another core, when they are damaged, or when
// storage refused them; the page works as without them. Each case has a
// tab of its own (a tab lives two minutes) and a first visit that keeps
// the answers.
func TestStoredPreviewOnlyForItsStateAndCore(t *testing.T) {
	for _, c := range []struct {
		name string
		// edit runs in the page before the reload, path is what is
		// opened; refuse makes storage refuse every write.
		edit, path string
		refuse     bool
	}{
		{name: "the same state (the control)"},
		{name: "saved work edited", edit: `localStorage.setItem("subplay:work", JSON.stringify({frag: "config=" + encodeURIComponent(` + jsString(storageConfig) + `), at: Date.now()}))`},
		{name: "a link to another configuration", path: "#config=" + url.QueryEscape(storageConfig)},
		{name: "another tab", path: "&tab=filter"},
		{name: "another version of the core", edit: `(() => { const e = JSON.parse(localStorage.getItem("subplay:preview")); e.core = e.core.replace(/^\S+/, "v0.0.0-other"); localStorage.setItem("subplay:preview", JSON.stringify(e)); })()`},
		{name: "another build of the core", edit: `(() => { const e = JSON.parse(localStorage.getItem("subplay:preview")); e.core = e.core.replace(/full=subplay-full\.\w+/, "full=subplay-full.00000000"); localStorage.setItem("subplay:preview", JSON.stringify(e)); })()`},
		{name: "not JSON", edit: `localStorage.setItem("subplay:preview", "{\"key\":")`},
		{name: "answers of another shape", edit: `(() => { const e = JSON.parse(localStorage.getItem("subplay:preview")); e.results[0].value.diagnostics = "none"; localStorage.setItem("subplay:preview", JSON.stringify(e)); })()`},
		{name: "oversized", edit: `(() => { const e = JSON.parse(localStorage.getItem("subplay:preview")); e.pad = "x".repeat(300 * 1024); localStorage.setItem("subplay:preview", JSON.stringify(e)); })()`},
		{name: "storage refused", refuse: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			site := newHoldSite(t)
			tb := newHoldTab(t, site)
			path := c.path
			if !c.refuse {
				visitAndKeep(t, tb)
				if strings.HasPrefix(path, "&") {
					// The address as the page keeps it, with another tab.
					var hash string
					tb.eval(`location.hash`, &hash)
					path = hash + path
				}
			}
			if c.edit != "" {
				tb.eval(c.edit+`, true`, nil)
			}
			if c.refuse {
				// A private window or a full quota, from this visit on:
				// this visit's answers are not kept, and a reload has none.
				if _, err := chromedp.Call(tb.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
					Source: `Storage.prototype.setItem = function () { throw new DOMException("refused", "QuotaExceededError"); };`,
				}); err != nil {
					t.Fatal(err)
				}
				tb.open("")
				tb.setConfig(storedPreviewConfig)
				tb.eval(`new Promise((resolve) => setTimeout(resolve, 1500))`, nil)
			}
			site.hold()
			tb.run(chromedp.Navigate(tb.base + path))
			waitStarted(tb)
			var from string
			tb.eval(`document.body.dataset.previewFrom || ""`, &from)
			control := c.name == "the same state (the control)"
			if (from == "stored") != control {
				t.Errorf("kept preview shown: %v, want %v", from == "stored", control)
			}
			site.open()
			tb.run(chromedp.WaitVisible(chromedp.CSS("body[data-ready][data-rendered]")))
			tb.waitRender(0)
			var rows int
			tb.eval(`document.querySelectorAll("#panel-settings tbody tr").length`, &rows)
			if path == "" && rows == 0 {
				t.Errorf("the page did not draw the core's answer")
			}
		})
	}
}
