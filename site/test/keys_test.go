//go:build browser

package sitetest

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestTypingSendsOneRequestPerKey types real keys into the editor: digits,
// a letter (a JSON error), Backspace, Enter (the editor indents the new
// line), Backspace in a line's leading spaces (the editor removes an
// indent unit), a closing bracket (the editor re-indents its line). Each
// key makes one request to the core (Enter at most two: CodeMirror makes
// two updates of it in Chromium, in tasks of their own, and each text is
// asked for), and after each the page shows the core's answer for exactly the
// editor's text: the same as asking the core directly.
//
// It types twice: with the answers taken from the slot the page shares
// with the core's worker (loader.js, lib/slot.js; the page is
// cross-origin isolated, and may wait for an answer far longer than it
// does, so that every answer comes that way however loaded the machine
// is), and with the answers by message only, as in an embed.
func TestTypingSendsOneRequestPerKey(t *testing.T) {
	modes := []struct {
		name   string
		spin   int  // how long the page may wait for an answer, ms
		shared bool // every answer from the slot, else every one by message
	}{
		{"answers from the shared slot", 20000, true},
		{"answers by message", 0, false},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			tb := newTab(t)
			tb.open("")
			tb.setConfig(validConfig)
			var isolated bool
			tb.eval(fmt.Sprintf(`(() => { window.subplayPage.setSpin(%d); return window.crossOriginIsolated; })()`, m.spin), &isolated)
			if !isolated {
				t.Fatalf("the page is not cross-origin isolated: no shared slot")
			}
			var before answered
			tb.eval(`window.subplayPage.answered`, &before)
			typeKeys(t, tb)
			var after answered
			tb.eval(`window.subplayPage.answered`, &after)
			shared, posted := after.Shared-before.Shared, after.Posted-before.Posted
			if m.shared && (shared == 0 || posted != 0) || !m.shared && (shared != 0 || posted == 0) {
				t.Errorf("%d answers from the shared slot, %d by message", shared, posted)
			}
		})
	}
}

// answered is how the page's first build got its answers (loader.js).
type answered struct{ Shared, Posted int }

func typeKeys(t *testing.T, tb *tab) {
	t.Helper()
	tb.eval(`(() => { const v = window.subplayPage.editor.view; const at = v.state.doc.toString().indexOf("30\n") + 2; v.dispatch({selection: {anchor: at}}); v.focus(); return true; })()`, nil)
	keys := []struct {
		name     string
		key      string
		requests int
	}{
		{"digit", "0", 1},
		{"another digit", "7", 1},
		{"Backspace after a digit", kb.Backspace, 1},
		{"letter (a JSON error)", "x", 1},
		{"Backspace over the letter", kb.Backspace, 1},
		{"Enter", kb.Enter, 2},
		{"Backspace in leading spaces", kb.Backspace, 1},
		{"closing bracket", "}", 1},
		{"Backspace over it", kb.Backspace, 1},
		{"space", " ", 1},
	}
	for _, k := range keys {
		var before int
		tb.eval(`Number(document.body.dataset.requested)`, &before)
		n := tb.rendered()
		tb.run(chromedp.KeyEvent(k.key))
		tb.waitRender(n)
		var got struct {
			Requested int
			Text      string
			Shown     []json.RawMessage
			Core      []json.RawMessage
		}
		tb.eval(`(async () => {
			const p = window.subplayPage;
			const text = p.editor.text;
			const core = await p.call("effective", {text, format: ""}).then((v) => v.diagnostics, (e) => [{code: e.code}]);
			const shown = [...document.querySelectorAll("#diagnostics li[data-code]")].map((li) => ({code: li.dataset.code, line: li.dataset.line}));
			return {requested: Number(document.body.dataset.requested), text, shown,
				core: core.map((d) => ({code: d.code, line: String(d.line || "")}))};
		})()`, &got)
		if d := got.Requested - before; d < 1 || d > k.requests {
			t.Errorf("%s: %d requests, want 1 to %d", k.name, d, k.requests)
		}
		if !sameSet(t, got.Shown, got.Core) {
			t.Errorf("%s: the page shows %s for %q; the core finds %s", k.name, got.Shown, got.Text, got.Core)
		}
	}
}

// sameSet says whether two lists hold the same JSON values, in any order.
func sameSet(t *testing.T, a, b []json.RawMessage) bool {
	t.Helper()
	count := map[string]int{}
	for _, x := range a {
		count[string(x)]++
	}
	for _, x := range b {
		count[string(x)]--
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return true
}
