//go:build browser

package sitetest

import (
	"encoding/json"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// BenchmarkLoopingUDF times what a person waits for when one keystroke
// turns a UDF into a loop that never ends: in the transforms panel, with
// real key events, Backspace takes the "!" out of "while (!m) {}" (m, an
// object, is true: the loop runs until the request's 250,000 steps stop
// it, on every sample message), and "!" puts it back (the loop never
// runs). Each is timed from the key event's time stamp to the frame after
// the panel shows the answer: every sample message stopped by its
// steps after the Backspace, none after the "!". Per variant, b.N of each, in a fresh browser context:
//
//	at-once   the first Backspace as soon as the panel has first answered
//	          (the transforms build just loaded: V8 has not optimised
//	          the engine's code, and the worker has not warmed it)
//	settled   the same after 5 s with the page idle, as while a person
//	          reads or types (the worker warms the engine once it has
//	          been idle for 1.5 s: site/src/worker.js)
func BenchmarkLoopingUDF(b *testing.B) {
	const code = "function f(m) {\n  while (!m) {}\n  return m;\n}"
	cfg, _ := json.MarshalIndent(map[string]any{
		"name":              "projects/my-project/subscriptions/orders",
		"topic":             "projects/my-project/topics/orders",
		"messageTransforms": []any{map[string]any{"javascriptUdf": map[string]any{"functionName": "f", "code": code}}},
	}, "", "  ")
	for _, v := range []struct {
		name   string
		settle time.Duration
	}{{"at-once", 0}, {"settled", 5 * time.Second}} {
		b.Run(v.name, func(b *testing.B) {
			tb := newBenchTab(b)
			tb.open("")
			tb.clickTab("transforms")
			tb.setConfig(string(cfg))
			// The panel's first answer (the transforms build loads first).
			ready := func(loops bool) {
				var ok bool
				for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
					tb.eval(fmt.Sprintf(`(() => {
						const p = document.querySelector("#panel-transforms");
						return p.dataset.state === "ready" && p.textContent.includes("was stopped") === %v;
					})()`, loops), &ok)
					if ok {
						return
					}
				}
				b.Fatalf("the transforms panel did not answer (loops %v) within 2 minutes: %s", loops, tb.text("#panel-transforms"))
			}
			ready(false)
			time.Sleep(v.settle)
			// The caret goes right after the "!" (and is there again after each
			// pair of keystrokes).
			tb.eval(`(() => {
				const v = window.subplayPage.editor.view;
				const at = v.state.doc.toString().indexOf("while (!") + "while (!".length;
				v.focus();
				v.dispatch({ selection: { anchor: at } });
				addEventListener("keydown", (e) => { window.udfKey = e.timeStamp; }, true);
				return true;
			})()`, nil)
			// key presses k and waits for the panel to show the answer of
			// the text it leaves (the messages stopped or not), then for the next
			// frame: the milliseconds since the key event.
			key := func(k string, loops bool) float64 {
				tb.run(chromedp.KeyEvent(k))
				var ms float64
				tb.eval(fmt.Sprintf(`new Promise((resolve, reject) => {
					const at = window.udfKey;
					const done = () => {
						const p = document.querySelector("#panel-transforms");
						return p.dataset.state === "ready" && p.textContent.includes("was stopped") === %v &&
							Number(document.body.dataset.rendered) >= Number(document.body.dataset.requested);
					};
					const timer = setTimeout(() => reject(new Error("no answer within 60 s")), 60000);
					const watch = () => {
						if (done()) {
							requestAnimationFrame(() => setTimeout(() => { clearTimeout(timer); resolve(performance.now() - at); }));
							return;
						}
						setTimeout(watch, 5);
					};
					watch();
				})`, loops), &ms)
				return ms
			}
			var loop, plain []float64
			b.ResetTimer()
			for range b.N {
				loop = append(loop, key(kb.Backspace, true))
				plain = append(plain, key("!", false))
			}
			b.StopTimer()
			b.Logf("%s: first looping keystroke %.0f ms; looping %s; benign %s", v.name, loop[0], spread(loop), spread(plain))
			b.ReportMetric(loop[0], "first-loop-ms")
			b.ReportMetric(median(loop), "loop-ms")
			b.ReportMetric(median(plain), "benign-ms")
		})
	}
}

func median(a []float64) float64 {
	s := append([]float64(nil), a...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func spread(a []float64) string {
	s := append([]float64(nil), a...)
	sort.Float64s(s)
	return fmt.Sprintf("min %.0f, median %.0f, max %.0f ms (%d)", s[0], s[len(s)/2], s[len(s)-1], len(s))
}
