//go:build browser

package sitetest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
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
//
// SUBPLAY_KEY_SPIN=MS sets how long the page may watch the shared slot
// for an answer (loader.js SPIN_MS by default): with a long watch, the
// "watched" figures are how long answers really take once the editor has
// redrawn, which is what SPIN_MS is chosen by.
//
// SUBPLAY_KEY_PROFILE=DIR writes a CPU profile of the page's main thread
// over the measured keystrokes to DIR/keystroke-TAB.cpuprofile (sampled
// every 100 µs; DevTools' Performance panel opens it) and logs the
// functions that took the most time, on their own and with what they
// called: what the time before the request is spent on.
func BenchmarkKeystroke(b *testing.B) {
	for _, p := range editPanels {
		b.Run(p.tab, func(b *testing.B) {
			tb := newBenchTab(b)
			tb.open("")
			tb.setConfig(p.config)
			tb.clickTab(p.tab)
			if ms := os.Getenv("SUBPLAY_KEY_SPIN"); ms != "" {
				spin, err := strconv.Atoi(ms)
				if err != nil {
					b.Fatalf("SUBPLAY_KEY_SPIN=%q: %v", ms, err)
				}
				tb.eval(fmt.Sprintf(`(window.subplayPage.setSpin(%d), true)`, spin), nil)
			}
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
					const s = { seq: d.seq, key: k, done: d.done, sent: t.sent, worker: t.worker, received: t.received, painted: 0,
						watchAt: t.watchAt, watched: t.watched, shared: t.shared };
					window.benchSamples[d.seq] = s;
					requestAnimationFrame(() => setTimeout(() => { s.painted = performance.now(); if (window.benchWake) window.benchWake(); }));
				});
				return true;
			})()`, p.field, len(p.field)), nil)
			type sample struct {
				Total, Frame, Send, Seen, Worker, Wait, Render float64
				Redraw, Watched                                float64 // -1: no watch
				Same, Shared                                   bool
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
								redraw: s.watchAt ? s.watchAt - s.sent : -1, watched: s.watched ?? -1, shared: !!s.shared,
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
			var byKey, sendByKey [2][]float64 // the digits', Backspace's
			var redraw, watched []float64     // the keystrokes whose answer the page watched the slot for
			shared := 0
			same := 0
			stopProfile := startProfile(b, tb, p.tab)
			b.ResetTimer()
			for i := range b.N {
				s := key(i)
				total, frame, seen = append(total, s.Total), append(frame, s.Frame), append(seen, s.Seen)
				send, worker, wait, render = append(send, s.Send), append(worker, s.Worker), append(wait, s.Wait), append(render, s.Render)
				byKey[i%2], sendByKey[i%2] = append(byKey[i%2], s.Total), append(sendByKey[i%2], s.Send)
				if s.Watched >= 0 {
					redraw, watched = append(redraw, s.Redraw), append(watched, s.Watched)
				}
				if s.Shared {
					shared++
				}
				if s.Same {
					same++
				}
			}
			b.StopTimer()
			stopProfile()
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
			for k, name := range []string{"digit", "Backspace"} {
				parts = append(parts, fmt.Sprintf("%s: drawn p50 %.1f p95 %.1f, send p50 %.1f", name,
					percentile(byKey[k], 50), percentile(byKey[k], 95), percentile(sendByKey[k], 50)))
			}
			// What SPIN_MS is chosen by (loader.js): the worker's time per
			// call, and how long the page watched the slot after the editor
			// redrew.
			b.Logf("%s: worker ms p50 %.1f p90 %.1f p95 %.1f p99 %.1f max %.1f; slot watched for %d keystrokes: editor redraw p50 %.1f p95 %.1f, watched p50 %.1f p90 %.1f p95 %.1f max %.1f; %d answers from the slot, %d by message",
				p.tab, percentile(worker, 50), percentile(worker, 90), percentile(worker, 95), percentile(worker, 99), percentile(worker, 100),
				len(watched), percentile(redraw, 50), percentile(redraw, 95), percentile(watched, 50), percentile(watched, 90), percentile(watched, 95), percentile(watched, 100),
				shared, b.N-shared)
			var within []string
			for _, ms := range []float64{0.5, 1, 2, 4, 6, 8, 12} {
				k := 0
				for _, w := range watched {
					if w <= ms {
						k++
					}
				}
				within = append(within, fmt.Sprintf("%g ms %d", ms, k))
			}
			b.Logf("%s: of the %d watched, answered within %s", p.tab, len(watched), strings.Join(within, ", "))
			b.Logf("%s, %d keystrokes: diagnostics drawn p50 %.1f p95 %.1f ms, on screen (next frame) p50 %.1f p95 %.1f ms, drawn before the keystroke's own frame in %d; %s ms",
				p.tab, b.N, percentile(total, 50), percentile(total, 95), percentile(frame, 50), percentile(frame, 95), same, strings.Join(parts, "; "))
		})
	}
}

// startProfile starts the page's CPU profiler when SUBPLAY_KEY_PROFILE
// names a directory, and returns what stops it and writes the profile.
func startProfile(b *testing.B, tb *tab, name string) func() {
	dir := os.Getenv("SUBPLAY_KEY_PROFILE")
	if dir == "" {
		return func() {}
	}
	tb.run(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, profiler.Enable, cdp.Empty{}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, t, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 100}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, t, profiler.Start, cdp.Empty{})
		return err
	}))
	return func() {
		tb.run(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			res, err := cdp.Call(ctx, t, profiler.Stop, cdp.Empty{})
			if err != nil {
				return err
			}
			raw, err := json.Marshal(res.Profile)
			if err != nil {
				return err
			}
			path := fmt.Sprintf("%s/keystroke-%s.cpuprofile", dir, name)
			b.Logf("CPU profile of the measured keystrokes: %s\n%s", path, profileSummary(res.Profile, 60))
			return os.WriteFile(path, raw, 0o644)
		}))
	}
}

// profileSummary lists the n functions with the most samples of their own
// (self) and the n with the most samples including their callees (total),
// in ms, as function name, file and line.
func profileSummary(p *profiler.Profile, n int) string {
	if p == nil || len(p.Nodes) == 0 {
		return "(empty profile)"
	}
	ms := make(map[int64]float64) // node id -> sampled ms of its own
	for i, id := range p.Samples {
		if i+1 < len(p.TimeDeltas) {
			ms[id] += float64(p.TimeDeltas[i+1]) / 1000
		}
	}
	parent := make(map[int64]int64)
	byID := make(map[int64]*profiler.ProfileNode)
	for _, nd := range p.Nodes {
		byID[nd.ID] = nd
		for _, c := range nd.Children {
			parent[c] = nd.ID
		}
	}
	name := func(nd *profiler.ProfileNode) string {
		f := nd.CallFrame
		url := f.URL
		if i := strings.LastIndex(url, "/"); i >= 0 {
			url = url[i+1:]
		}
		fn := f.FunctionName
		if fn == "" {
			fn = "(anonymous)"
		}
		return fmt.Sprintf("%s %s:%d", fn, url, f.LineNumber+1)
	}
	self := make(map[string]float64)
	total := make(map[string]float64)
	var all float64
	for id, v := range ms {
		all += v
		self[name(byID[id])] += v
		seen := make(map[string]bool) // recursion counts once
		for at, ok := id, true; ok; at, ok = parent[at] {
			k := name(byID[at])
			if !seen[k] {
				seen[k] = true
				total[k] += v
			}
		}
	}
	top := func(m map[string]float64) string {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] })
		var sb strings.Builder
		for i, k := range keys {
			if i == n {
				break
			}
			fmt.Fprintf(&sb, "  %8.1f ms  %s\n", m[k], k)
		}
		return sb.String()
	}
	return fmt.Sprintf("sampled %.0f ms\nself:\n%stotal:\n%s", all, top(self), top(total))
}
