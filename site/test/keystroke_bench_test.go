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
// value, and times each keystroke from the keydown event's time stamp (when
// the browser made the event) to the rendered diagnostics and to the frame
// that shows them, with the parts:
//
//	send    keydown to the request posted to the worker
//	worker  the worker running the operations
//	wait    the answer waiting for the page's main thread
//	render  the answer handled to the diagnostics drawn
//
// The page records everything itself, as it happens: "painted" is taken in
// a task right after the next animation frame that follows the rendering
// (the frame that draws it), and "same frame" counts the keystrokes whose
// diagnostics were drawn before the keystroke's own frame began (what
// typing with the previews in step looks like).
func BenchmarkKeystroke(b *testing.B) {
	for _, p := range editPanels {
		b.Run(p.tab, func(b *testing.B) {
			tb := newBenchTab(b)
			tb.open("")
			tb.setConfig(p.config)
			tb.clickTab(p.tab)
			// The caret goes right after the value's first digit.
			tb.eval(fmt.Sprintf(`(() => {
				const v = window.subplayPage.editor.view;
				const at = v.state.doc.toString().indexOf(%q) + %d + 1;
				v.focus();
				v.dispatch({ selection: { anchor: at } });
				window.benchSamples = {};
				addEventListener("keydown", (e) => {
					const k = { at: e.timeStamp, seen: performance.now(), frame: 0 };
					window.benchKey = k;
					requestAnimationFrame(() => { k.frame = performance.now(); });
				}, true);
				document.addEventListener("subplay:rendered", (e) => {
					const d = e.detail, k = window.benchKey || {}, t = d.timing || {};
					const s = { seq: d.seq, key: k, done: d.done, sent: t.sent, worker: t.worker, received: t.received, painted: 0 };
					window.benchSamples[d.seq] = s;
					requestAnimationFrame(() => setTimeout(() => { s.painted = performance.now(); if (window.benchWake) window.benchWake(); }));
				});
				return true;
			})()`, p.field, len(p.field)), nil)
			type sample struct {
				Total, Frame, Send, Seen, Worker, Wait, Render float64
				Same                                           bool
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
					const check = () => {
						const s = window.benchSamples[b.rendered];
						if (Number(b.rendered) > %d && Number(b.rendered) >= Number(b.requested) && s && s.painted) {
							const k = s.key;
							resolve({
								total: s.done - k.at, frame: s.painted - k.at, send: s.sent - k.at, seen: k.seen - k.at,
								worker: s.worker, wait: s.received - s.sent - s.worker, render: s.done - s.received,
								same: k.frame > 0 && s.done < k.frame,
							});
							return true;
						}
						return false;
					};
					// Woken by each painted sample, so that no polling competes
					// with the keystrokes measured.
					const timer = setTimeout(() => reject(new Error("no rendering within 20 s")), 20000);
					window.benchWake = () => { if (check() !== false) { clearTimeout(timer); window.benchWake = null; } };
					window.benchWake();
				})`, n), &s)
				return s
			}
			for i := range 20 { // warm-up: JIT, caches, first layouts
				key(i)
			}
			var total, frame, send, seen, worker, wait, render []float64
			same := 0
			b.ResetTimer()
			for i := range b.N {
				s := key(i)
				total, frame, seen = append(total, s.Total), append(frame, s.Frame), append(seen, s.Seen)
				send, worker, wait, render = append(send, s.Send), append(worker, s.Worker), append(wait, s.Wait), append(render, s.Render)
				if s.Same {
					same++
				}
			}
			b.StopTimer()
			if b.N%2 == 1 { // leave the text as it was
				key(b.N)
			}
			b.ReportMetric(percentile(total, 50), "p50-ms")
			b.ReportMetric(percentile(total, 95), "p95-ms")
			b.ReportMetric(percentile(frame, 50), "p50-frame-ms")
			b.ReportMetric(percentile(frame, 95), "p95-frame-ms")
			b.ReportMetric(100*float64(same)/float64(b.N), "same-frame-%")
			var parts []string
			for _, x := range []struct {
				name string
				v    []float64
			}{{"keydown seen", seen}, {"send", send}, {"worker", worker}, {"wait", wait}, {"render", render}} {
				parts = append(parts, fmt.Sprintf("%s p50 %.1f p95 %.1f", x.name, percentile(x.v, 50), percentile(x.v, 95)))
			}
			b.Logf("%s, %d keystrokes: diagnostics drawn p50 %.1f p95 %.1f ms, on screen (next frame) p50 %.1f p95 %.1f ms, drawn before the keystroke's own frame in %d; %s ms",
				p.tab, b.N, percentile(total, 50), percentile(total, 95), percentile(frame, 50), percentile(frame, 95), same, strings.Join(parts, "; "))
		})
	}
}
