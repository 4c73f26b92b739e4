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
	// typed is what a printable key inserts at the caret (the editor
	// inserts it itself: editor.js typeDirect); "" for the others.
	keys := []struct {
		name     string
		key      string
		typed    string
		requests int
	}{
		{"digit", "0", "0", 1},
		{"another digit", "7", "7", 1},
		{"Backspace after a digit", kb.Backspace, "", 1},
		{"letter (a JSON error)", "x", "x", 1},
		{"Backspace over the letter", kb.Backspace, "", 1},
		{"Enter", kb.Enter, "", 2},
		{"Backspace in leading spaces", kb.Backspace, "", 1},
		{"closing bracket", "}", "", 1}, // and the line is indented again
		{"Backspace over it", kb.Backspace, "", 1},
		{"space", " ", " ", 1},
	}
	for _, k := range keys {
		var before int
		tb.eval(`Number(document.body.dataset.requested)`, &before)
		var was struct {
			Text string
			Head int // in UTF-16 units; the text is ASCII
		}
		tb.eval(`(() => { const v = window.subplayPage.editor.view; return {text: v.state.doc.toString(), head: v.state.selection.main.head}; })()`, &was)
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
		if want := was.Text[:was.Head] + k.typed + was.Text[was.Head:]; k.typed != "" && got.Text != want {
			t.Errorf("%s: the text is %q, want %q", k.name, got.Text, want)
		}
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

// TestDiagnosticsRedrawOnlyWhatChanged types a key that removes one of two
// findings (the ack deadline 5 becomes 50; the retention stays too short)
// and checks that the finding that stays is the same element as before:
// only what changed is drawn anew (diaglist.js).
func TestDiagnosticsRedrawOnlyWhatChanged(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	tb.setConfig(`{
  "name": "projects/my-project/subscriptions/orders",
  "topic": "projects/my-project/topics/orders",
  "messageRetentionDuration": "5s",
  "ackDeadlineSeconds": 5
}
`)
	var before []string
	tb.eval(`(() => {
		const v = window.subplayPage.editor.view;
		v.dispatch({selection: {anchor: v.state.doc.toString().indexOf("5\n") + 1}});
		v.focus();
		return [...document.querySelectorAll("#diagnostics li.diag")].map((li, i) => { li.subplayTag = i + 1; return li.dataset.code; });
	})()`, &before)
	n := tb.rendered()
	tb.run(chromedp.KeyEvent("0"))
	tb.waitRender(n)
	var after []struct {
		Code string
		Tag  int // 0: a new element
	}
	tb.eval(`[...document.querySelectorAll("#diagnostics li.diag")].map((li) => ({code: li.dataset.code, tag: li.subplayTag || 0}))`, &after)
	kept := 0
	for _, a := range after {
		if a.Tag == 0 {
			t.Errorf("finding %s was drawn anew; before the key the list had %v", a.Code, before)
		} else {
			kept++
		}
	}
	if len(after) >= len(before) || kept == 0 {
		t.Errorf("before the key %v, after %+v: want one finding fewer and the others kept", before, after)
	}
}
