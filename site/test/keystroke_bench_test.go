//go:build browser

package sitetest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// BenchmarkKeystroke types into the configuration editor with real key
// events (Input.dispatchKeyEvent, as a keyboard would: keydown, char,
// keyup), alternately a digit and Backspace after the ack deadline's
// value, and times each keystroke from the keydown event the page saw to
// the rendered diagnostics and to the next frame, with the parts:
//
//	send    keydown to the request posted to the worker
//	worker  the worker running the operations
//	wait    the answer waiting for the page's main thread
//	render  the answer handled to the diagnostics drawn
func BenchmarkKeystroke(b *testing.B) {
	for _, p := range editPanels {
		b.Run(p.tab, func(b *testing.B) {
			tb := newBenchTab(b)
			tb.open("")
			tb.setConfig(p.config)
			tb.clickTab(p.tab)
			// The caret goes right after the value's first digit; the page
			// records the keydown's time stamp.
			tb.eval(fmt.Sprintf(`(() => {
				const v = window.subplayPage.editor.view;
				const at = v.state.doc.toString().indexOf(%q) + %d + 1;
				v.focus();
				v.dispatch({ selection: { anchor: at } });
				window.benchKeys = [];
				document.addEventListener("keydown", (e) => { window.benchKeyAt = e.timeStamp; }, true);
				return true;
			})()`, p.field, len(p.field)), nil)
			type sample struct {
				Total, Frame, Send, Worker, Wait, Render float64
			}
			key := func(i int) sample {
				n := tb.rendered()
				var a chromedp.Action[chromedp.Void]
				if i%2 == 0 {
					a = chromedp.KeyEvent("7")
				} else {
					a = chromedp.KeyEvent(kb.Backspace)
				}
				tb.run(a)
				var s sample
				tb.eval(fmt.Sprintf(`new Promise((resolve, reject) => {
					const b = document.body.dataset;
					const timer = setTimeout(() => reject(new Error("no rendering within 20 s")), 20000);
					const check = (d) => {
						if (!(Number(b.rendered) > %d && Number(b.rendered) >= Number(b.requested))) return false;
						clearTimeout(timer);
						const k = window.benchKeyAt, t = d.timing || {};
						requestAnimationFrame(() => setTimeout(() => resolve({
							total: d.done - k, frame: performance.now() - k,
							send: t.sent - k, worker: t.worker, wait: t.received - t.sent - t.worker, render: d.done - t.received,
						})));
						return true;
					};
					if (window.benchLast && check(window.benchLast)) return;
					document.addEventListener("subplay:rendered", function on(e) {
						if (check(e.detail)) document.removeEventListener("subplay:rendered", on);
					});
				})`, n), &s)
				return s
			}
			tb.eval(`document.addEventListener("subplay:rendered", (e) => { window.benchLast = e.detail; }), true`, nil)
			for i := range 20 { // warm-up: JIT, caches, first layouts
				key(i)
			}
			var total, frame, send, worker, wait, render []float64
			b.ResetTimer()
			for i := range b.N {
				s := key(i)
				total, frame = append(total, s.Total), append(frame, s.Frame)
				send, worker, wait, render = append(send, s.Send), append(worker, s.Worker), append(wait, s.Wait), append(render, s.Render)
			}
			b.StopTimer()
			if b.N%2 == 1 { // leave the text as it was
				key(b.N)
			}
			b.ReportMetric(percentile(total, 50), "p50-ms")
			b.ReportMetric(percentile(total, 95), "p95-ms")
			b.ReportMetric(percentile(frame, 50), "p50-frame-ms")
			var parts []string
			for _, x := range []struct {
				name string
				v    []float64
			}{{"send", send}, {"worker", worker}, {"wait", wait}, {"render", render}} {
				parts = append(parts, fmt.Sprintf("%s p50 %.1f p95 %.1f", x.name, percentile(x.v, 50), percentile(x.v, 95)))
			}
			b.Logf("%s, %d keystrokes: total p50 %.1f p95 %.1f ms; %s ms", p.tab, b.N, percentile(total, 50), percentile(total, 95), strings.Join(parts, "; "))
		})
	}
}
