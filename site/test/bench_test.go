//go:build browser

package sitetest

// The playground's performance figures, as benchmarks in headless Chromium
// (scripts/bench-site runs them; they are never timed tests):
//
//	BenchmarkDownload      bytes each page downloads, from the build's
//	                       manifest (raw, gzip, brotli) and as transferred
//	BenchmarkColdLoad      navigation to the first preview, cache off
//	BenchmarkRepeatVisit   the same with the cache on, after a first visit,
//	                       and whether the module's code cache was used
//	BenchmarkEditToPreview an edit to the rendered preview, per panel
//	BenchmarkLongestTask   the longest main-thread task after first paint,
//	                       from a Chromium trace of a load and 40 edits

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// benchPages are the pages measured: the playground and each embed.
var benchPages = []struct{ name, manifestKey, path string }{
	{"page", "index.html", ""},
	{"page-schema-tab", "index.html, every panel opened", "#tab=schema"},
	{"embed-filter", "embed.html#widget=filter", widgets[0].frag},
	{"embed-names", "embed.html#widget=names", widgets[1].frag},
	{"embed-schema", "embed.html#widget=schema", widgets[2].frag},
	{"embed-settings", "embed.html#widget=settings", widgets[3].frag},
}

func BenchmarkDownload(b *testing.B) {
	m := readSiteManifest(b)
	for _, p := range benchPages {
		b.Run(p.name, func(b *testing.B) {
			var raw, gz, br int
			for _, f := range m.Pages[p.manifestKey] {
				s := m.Sizes[f]
				raw, gz, br = raw+s.Raw, gz+s.Gzip, br+s.Br
			}
			var transferred float64
			var encodings []string
			for range b.N {
				transferred, encodings = transferredBytes(b, p.path)
			}
			b.ReportMetric(float64(raw), "raw-B")
			b.ReportMetric(float64(gz), "gzip-B")
			b.ReportMetric(float64(br), "br-B")
			b.ReportMetric(transferred, "transferred-B")
			b.Logf("%s: files %v; encodings the browser got: %v", p.name, m.Pages[p.manifestKey], encodings)
		})
	}
}

// transferredBytes loads a page with the cache off and adds up what came
// over the wire: the page's requests with their headers, and the bodies of
// the modules the workers fetched.
func transferredBytes(b *testing.B, path string) (float64, []string) {
	tb := newBenchTab(b)
	var mu sync.Mutex
	var total float64
	enc := map[string]bool{}
	err := chromedp.Listen(tb.ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventLoadingFinished:
			total += e.EncodedDataLength
		case *network.EventResponseReceived:
			if ce, ok := e.Response.Headers["Content-Encoding"]; ok {
				enc[fmt.Sprint(ce)] = true
			} else if ce, ok := e.Response.Headers["content-encoding"]; ok {
				enc[fmt.Sprint(ce)] = true
			}
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	tb.open(path)
	time.Sleep(200 * time.Millisecond) // let the last loadingFinished arrive
	// The modules come through workers, whose requests the page's network
	// events do not show; the worker reports their transfer size.
	var worker float64
	tb.eval(`((window.subplayTiming || {}).transferred || 0) + ((window.subplayMoreTiming || {}).transferred || 0)`, &worker)
	mu.Lock()
	defer mu.Unlock()
	total += worker
	var encs []string
	for e := range enc {
		encs = append(encs, e)
	}
	slices.Sort(encs)
	return total, encs
}

// newBenchTab is a tab in a fresh browser context with the cache off, so
// every load is cold.
func newBenchTab(b *testing.B) *tab {
	b.Helper()
	tb := newTab(b, chromedp.WithNewBrowserContext())
	tb.base = serverURL // not through the recording proxy
	if _, err := chromedp.Call(tb.ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
		b.Fatal(err)
	}
	return tb
}

func BenchmarkColdLoad(b *testing.B) {
	for _, p := range benchPages {
		b.Run(p.name, func(b *testing.B) {
			var runs []loadFigures
			for range b.N {
				tb := newBenchTab(b)
				tb.open(p.path)
				runs = append(runs, readLoadFigures(tb))
			}
			reportLoads(b, p.name+", cold", runs)
		})
	}
}

// BenchmarkRepeatVisit measures a returning visitor: it loads the
// playground once with the cache on and uses it as a person would (20
// edits, then 10 s more with the page open), then loads it again b.N
// times. The edits are saved work, so the first preview of a repeat visit
// is the answers the page kept for it (early.js, lib/persist-preview.js)
// when it was, and the log says in how many visits
// (stored-previews). It uses the browser's own profile, not a fresh browser context:
// those are off-the-record, and Chromium keeps no code cache for them.
//
// Whether Chromium stored the module's compiled code, and used it, is
// read from a trace of the first visit (v8.wasm.cachedModule, written
// when V8 hands over the code it optimised) and of one more visit after
// the measured ones (v8.wasm.moduleCacheHit); that visit is not counted.
// V8 writes the cache once 1,000 bytes of optimised code exist and no more
// was made for 2 s (--wasm-caching-timeout-ms), or at once after 1 MB
// (--wasm-caching-hard-threshold). In Debian's Chromium 156 the first way
// never happened, even with the page open 45 s (site/tools/codecache):
// this page makes a few hundred KB of optimised code, so visitors get no
// code cache, and this benchmark says so rather than assume one.
// SUBPLAY_JS_FLAGS=--wasm-caching-hard-threshold=50000 shows what the cache
// would give.
func BenchmarkRepeatVisit(b *testing.B) {
	// Any option keeps newTab from making a fresh (off-the-record) browser
	// context: this tab is in the browser's own profile.
	tb := newTab(b, chromedp.WithNewWindow(true))
	tb.base = serverURL
	var written []float64
	cacheTrace(b, tb, func(w []float64, _ int) { written = w }, func() {
		tb.open("")
		for i := range 20 {
			tb.setConfig(strings.Replace(validConfig, "30", fmt.Sprint(31+i), 1))
		}
		time.Sleep(10 * time.Second)
	})
	// Each measured visit is paired with one whose kept answers were
	// removed just before (what a visitor had before they were kept, on
	// the same build and cache), alternating, so that the two sets see
	// the same load. Each pair has a tab of its own in the same profile
	// (a tab lives two minutes), whose first visit is not counted: a new
	// tab's first navigation also starts its renderer.
	var runs, without []loadFigures
	b.ResetTimer()
	for i := range b.N {
		tb := newTab(b, chromedp.WithNewWindow(true))
		tb.base = serverURL
		tb.open("")
		// Which of the two goes first alternates (the one without gets
		// them written again for the next).
		for _, keep := range [][]bool{{true, false}, {false, true}}[i%2] {
			// The last visit's answers are written at most two debounce
			// intervals after its last answer (persist-preview.js).
			time.Sleep(1500 * time.Millisecond)
			if !keep {
				tb.eval(`localStorage.removeItem("subplay:preview"), true`, nil)
			}
			tb.open("")
			if keep {
				runs = append(runs, readLoadFigures(tb))
			} else {
				without = append(without, readLoadFigures(tb))
			}
		}
	}
	b.StopTimer()
	hits := 0
	tb = newTab(b, chromedp.WithNewWindow(true))
	tb.base = serverURL
	cacheTrace(b, tb, func(_ []float64, h int) { hits = h }, func() { tb.open("") })
	reportLoadsAs(b, "page, repeat visit without the kept answers (removed before each)", "nokept-", without)
	reportLoads(b, "page, repeat visit", runs)
	total := 0.0
	for _, w := range written {
		total += w
	}
	b.Logf("code cache: written %d times on the first visit (last %.0f KB of %.0f KB in all); used on the visit after the measured ones: %v",
		len(written), last(written)/1024, total/1024, hits > 0)
	b.ReportMetric(float64(len(written)), "code-cache-writes")
	b.ReportMetric(float64(hits), "code-cache-hits")
}

func last(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return xs[len(xs)-1]
}

// cacheTrace runs fn under a Chromium trace and passes to done the sizes
// of the WebAssembly code cache entries written meanwhile and how many
// streaming compiles found one to use.
func cacheTrace(b *testing.B, tb *tab, done func(written []float64, hits int), fn func()) {
	b.Helper()
	var written []float64
	hits := 0
	for _, raw := range traceEvents(b, tb, []string{"disabled-by-default-devtools.timeline"}, fn) {
		var te struct {
			Name string `json:"name"`
			Args struct {
				Produced float64 `json:"producedCacheSize"`
			} `json:"args"`
		}
		if json.Unmarshal(raw, &te) != nil {
			continue
		}
		switch te.Name {
		case "v8.wasm.cachedModule":
			written = append(written, te.Args.Produced)
		case "v8.wasm.moduleCacheHit":
			hits++
		}
	}
	done(written, hits)
}

// traceEvents runs fn under a Chromium trace of the given categories and
// returns the trace's events.
func traceEvents(b *testing.B, tb *tab, categories []string, fn func()) []json.RawMessage {
	b.Helper()
	ctx, cancel := context.WithCancel(tb.ctx)
	defer cancel()
	var mu sync.Mutex
	var events []json.RawMessage
	complete := make(chan struct{})
	err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			for _, v := range e.Value {
				events = append(events, json.RawMessage(v))
			}
			mu.Unlock()
		case *tracing.EventTracingComplete:
			close(complete)
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := chromedp.Call(tb.ctx, tracing.Start, tracing.StartParams{
		TransferMode: tracing.StartTransferModeReportEvents,
		TraceConfig:  &tracing.TraceConfig{IncludedCategories: categories},
	}); err != nil {
		b.Fatal(err)
	}
	fn()
	if _, err := chromedp.Call(tb.ctx, tracing.End, cdp.Empty{}); err != nil {
		b.Fatal(err)
	}
	select {
	case <-complete:
	case <-time.After(60 * time.Second):
		b.Fatal("the trace did not complete")
	}
	mu.Lock()
	defer mu.Unlock()
	return events
}

// loadFigures is where one load's time went, in ms: navigation to the
// first preview (the build's answer for the default state, when the page
// could show it, else the core's), navigation to the core's first answer
// drawn, and the core's part of it (fetching the module, compiling
// it, starting Go, and everything after until the preview was drawn: the
// first call and its rendering, and waiting for the page's own start).
type loadFigures struct {
	First   float64 `json:"first"`
	Live    float64 `json:"live"`   // the core's first answer drawn
	Built   bool    `json:"built"`  // whether the first preview was the build's
	Stored  bool    `json:"stored"` // whether it was the answers kept by an earlier visit
	Fetch   float64 `json:"fetch"`
	Compile float64 `json:"compile"`
	Start   float64 `json:"start"`
	Ready   float64 `json:"ready"` // navigation to the core's ready message
	Sent    float64 `json:"sent"`  // the first call posted to the worker
	Worker  float64 `json:"worker"`
	Got     float64 `json:"got"` // its answer handled
}

func readLoadFigures(tb *tab) loadFigures {
	var r loadFigures
	tb.eval(`(() => { const t = window.subplayTiming || {};
		const c = window.subplayFirstCall || {};
		return {first: window.subplayFirstPreview, live: c.done || 0, built: document.body.dataset.previewFrom === "build", stored: document.body.dataset.previewFrom === "stored", fetch: t.fetch || 0, compile: t.compile || 0, start: t.start || 0, ready: t.readyAt || 0,
			sent: c.sent || 0, worker: c.worker || 0, got: c.received || 0}; })()`, &r)
	return r
}

// reportLoads reports the loads' first preview and the core's first
// answer, and logs where the core's part went, stage by stage, with the
// machine's load average (a busy machine stretches every stage).
func reportLoads(b *testing.B, what string, runs []loadFigures) {
	reportLoadsAs(b, what, "", runs)
}

// reportLoadsAs is reportLoads with its metrics' units prefixed, for a
// second set of loads in the same benchmark.
func reportLoadsAs(b *testing.B, what, prefix string, runs []loadFigures) {
	col := func(f func(loadFigures) float64) []float64 {
		var xs []float64
		for _, r := range runs {
			xs = append(xs, f(r))
		}
		return xs
	}
	first := col(func(r loadFigures) float64 { return r.First })
	live := col(func(r loadFigures) float64 { return r.Live })
	built, stored := 0, 0
	for _, r := range runs {
		if r.Built {
			built++
		}
		if r.Stored {
			stored++
		}
	}
	b.ReportMetric(percentile(first, 50), prefix+"p50-first-preview-ms")
	b.ReportMetric(percentile(first, 95), prefix+"p95-first-preview-ms")
	b.ReportMetric(percentile(live, 50), prefix+"p50-core-answer-ms")
	b.ReportMetric(float64(stored), prefix+"stored-previews")
	lines := []string{
		fmt.Sprintf("%s, %d loads, load average %s:", what, len(runs), loadAverage()),
		fmt.Sprintf("  first preview           p50 %5.0f  p95 %5.0f ms  (the build's preview in %d of %d, the answers kept by an earlier visit in %d)", percentile(first, 50), percentile(first, 95), built, len(runs), stored),
		fmt.Sprintf("  core's first answer     p50 %5.0f  p95 %5.0f ms  (navigation to drawn), of which:", percentile(live, 50), percentile(live, 95)),
	}
	for _, x := range []struct {
		name, metric string
		f            func(loadFigures) float64
	}{
		{"page, to the fetch", "", func(r loadFigures) float64 { return r.Ready - r.Start - r.Compile - r.Fetch }},
		{"fetch (to headers)", "fetch", func(r loadFigures) float64 { return r.Fetch }},
		{"compile (streaming)", "compile", func(r loadFigures) float64 { return r.Compile }},
		{"Go start", "go-start", func(r loadFigures) float64 { return r.Start }},
		{"ready to call sent", "", func(r loadFigures) float64 { return r.Sent - r.Ready }},
		{"first call (worker)", "first-call", func(r loadFigures) float64 { return r.Worker }},
		{"waiting (main thread)", "", func(r loadFigures) float64 { return r.Got - r.Sent - r.Worker }},
		{"render", "render", func(r loadFigures) float64 { return r.Live - r.Got }},
	} {
		xs := col(x.f)
		lines = append(lines, fmt.Sprintf("    %-21s p50 %5.0f  p95 %5.0f ms", x.name, percentile(xs, 50), percentile(xs, 95)))
		if x.metric != "" {
			b.ReportMetric(percentile(xs, 50), prefix+"p50-"+x.metric+"-ms")
		}
	}
	b.Log(strings.Join(lines, "\n"))
}

// loadAverage is the machine's 1, 5 and 15 minute load averages.
func loadAverage() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(raw))[:3], " ")
}

// editPanels are the panels edits are timed on, each with a configuration
// that gives it work to do and the line whose number the edits change.
var editPanels = []struct{ tab, config, field string }{
	{"settings", validConfig, `"ackDeadlineSeconds": `},
	{"filter", `{
  "name": "projects/my-project/subscriptions/orders-eu",
  "topic": "projects/my-project/topics/orders",
  "ackDeadlineSeconds": 30,
  "filter": "attributes.region = \"eu\" AND NOT attributes.kind = \"refund\""
}
`, `"ackDeadlineSeconds": `},
	{"storage", storageConfig + "ackDeadlineSeconds: 30\n", `ackDeadlineSeconds: `},
	{"schema", storageConfig + "  avroConfig:\n    writeMetadata: true\nackDeadlineSeconds: 30\n", `ackDeadlineSeconds: `},
}

func BenchmarkEditToPreview(b *testing.B) {
	for _, p := range editPanels {
		b.Run(p.tab, func(b *testing.B) {
			tb := newBenchTab(b)
			tb.open("")
			tb.setConfig(p.config)
			tb.clickTab(p.tab)
			// One edit: the time to the rendered preview, to the next frame
			// (the preview on screen), and of it, what the worker spent on
			// the operations and what the page spent drawing.
			type timing struct {
				Render, Frame, Ops, Draw float64
				Each                     []float64 // per operation, in call order
				Calls                    []string
			}
			edit := func() timing {
				var r timing
				tb.eval(fmt.Sprintf(`new Promise((resolve) => {
					const v = window.subplayPage.editor.view;
					const at = v.state.doc.toString().indexOf(%q) + %d;
					const digit = v.state.doc.sliceString(at, at + 1) === "3" ? "4" : "3";
					document.addEventListener("subplay:rendered", function on(e) {
						document.removeEventListener("subplay:rendered", on);
						const d = e.detail;
						const ops = (d.ops || []).reduce((a, b) => a + (b || 0), 0);
						// The next frame: the preview is on screen.
						requestAnimationFrame(() => setTimeout(() => resolve({render: d.ms, frame: performance.now() - t0, ops, draw: d.renderMs, each: d.ops, calls: d.calls})));
					});
					const t0 = performance.now();
					v.dispatch({changes: {from: at, to: at + 1, insert: digit}, userEvent: "input.type"});
				})`, p.field, len(p.field)), &r)
				return r
			}
			for range 20 { // warm-up: JIT, caches, first layouts
				edit()
			}
			var render, frame, ops, draw []float64
			each := map[string][]float64{}
			b.ResetTimer()
			for range b.N {
				r := edit()
				render, frame, ops, draw = append(render, r.Render), append(frame, r.Frame), append(ops, r.Ops), append(draw, r.Draw)
				for i, c := range r.Calls {
					if i < len(r.Each) {
						k := fmt.Sprintf("%d-%s", i, c)
						each[k] = append(each[k], r.Each[i])
					}
				}
			}
			b.StopTimer()
			b.ReportMetric(percentile(render, 50), "p50-ms")
			b.ReportMetric(percentile(render, 95), "p95-ms")
			b.ReportMetric(slices.Max(render), "max-ms")
			b.ReportMetric(percentile(ops, 50), "p50-worker-ms")
			b.ReportMetric(percentile(draw, 50), "p50-draw-ms")
			var parts []string
			for _, k := range slices.Sorted(maps.Keys(each)) {
				parts = append(parts, fmt.Sprintf("%s p50 %.1f ms", k[strings.IndexByte(k, '-')+1:], percentile(each[k], 50)))
			}
			b.Logf("%s: worker time per operation: %s", p.tab, strings.Join(parts, ", "))
			b.ReportMetric(percentile(frame, 95), "p95-frame-ms")
		})
	}
}

// BenchmarkLongestTask traces a cold load of the playground and 40 edits on
// each panel, and reports the longest task on the page's main thread after
// its first paint.
func BenchmarkLongestTask(b *testing.B) {
	for range b.N {
		tb := newBenchTab(b)
		events := traceEvents(b, tb, []string{
			"toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "loading", "__metadata",
		}, func() {
			tb.open("")
			for _, p := range editPanels {
				tb.setConfig(p.config)
				tb.clickTab(p.tab)
				for i := range 10 {
					tb.setConfig(strings.Replace(p.config, "30", fmt.Sprint(31+i), 1))
				}
			}
		})
		tasks := longTasks(events, 0)
		longest, over := 0.0, 0
		for _, t := range tasks {
			longest = max(longest, t.ms)
			if t.ms > 50 {
				over++
				b.Logf("task over 50 ms after first paint: %.1f ms at %.0f ms; inside: %s", t.ms, t.at, t.inside)
			}
		}
		b.ReportMetric(longest, "longest-task-ms")
		b.ReportMetric(float64(over), "tasks-over-50ms")
	}
}

// longTask is one task on a page's main thread: when it started (ms after
// the first paint), how long it ran, and the longest events inside it.
type longTask struct {
	at, ms float64
	inside string
}

// longTasks finds the renderer main threads and the first paint, and
// returns every task on those threads that starts after it and runs over
// min ms, longest first.
func longTasks(raw []json.RawMessage, minMS float64) []longTask {
	type event struct {
		Name string          `json:"name"`
		Cat  string          `json:"cat"`
		Ph   string          `json:"ph"`
		Ts   float64         `json:"ts"`
		Dur  float64         `json:"dur"`
		Pid  int             `json:"pid"`
		Tid  int             `json:"tid"`
		Args json.RawMessage `json:"args"`
	}
	var evs []event
	main := map[[2]int]bool{}
	for _, r := range raw {
		var e event
		if json.Unmarshal(r, &e) != nil {
			continue
		}
		if e.Ph == "M" && e.Name == "thread_name" && strings.Contains(string(e.Args), "CrRendererMain") {
			main[[2]int{e.Pid, e.Tid}] = true
		}
		evs = append(evs, e)
	}
	firstPaint := -1.0
	for _, e := range evs {
		if (e.Name == "firstPaint" || e.Name == "firstContentfulPaint") && (firstPaint < 0 || e.Ts < firstPaint) {
			firstPaint = e.Ts
		}
	}
	// Tasks, without those nested in another (Chromium traces a task
	// inside its scheduler's task).
	var tasks []event
	for _, e := range evs {
		if e.Ph == "X" && main[[2]int{e.Pid, e.Tid}] && (e.Name == "RunTask" || e.Name == "ThreadControllerImpl::RunTask") {
			tasks = append(tasks, e)
		}
	}
	slices.SortFunc(tasks, func(a, b event) int { return cmp.Or(cmp.Compare(a.Ts, b.Ts), cmp.Compare(b.Dur, a.Dur)) })
	var outer []event
	for _, e := range tasks {
		if n := len(outer); n > 0 && outer[n-1].Pid == e.Pid && outer[n-1].Tid == e.Tid && e.Ts+e.Dur <= outer[n-1].Ts+outer[n-1].Dur {
			continue
		}
		outer = append(outer, e)
	}
	var out []longTask
	for _, task := range outer {
		if task.Ts < firstPaint || task.Dur/1000 <= minMS {
			continue
		}
		// What the task spent its time on: the longest events nested in it.
		var inner []event
		for _, e := range evs {
			if e.Ph == "X" && e.Pid == task.Pid && e.Tid == task.Tid && e.Ts >= task.Ts &&
				e.Ts+e.Dur <= task.Ts+task.Dur && e.Name != task.Name && e.Dur > 1000 {
				inner = append(inner, e)
			}
		}
		slices.SortFunc(inner, func(a, b event) int { return int(b.Dur - a.Dur) })
		var parts []string
		for _, e := range inner[:min(len(inner), 4)] {
			detail := ""
			if len(e.Args) < 400 {
				detail = " " + string(e.Args)
			}
			parts = append(parts, fmt.Sprintf("%s %.0f ms%s", e.Name, e.Dur/1000, detail))
		}
		out = append(out, longTask{at: (task.Ts - firstPaint) / 1000, ms: task.Dur / 1000, inside: strings.Join(parts, "; ")})
	}
	slices.SortFunc(out, func(a, b longTask) int { return int(b.ms - a.ms) })
	return out
}

func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(p/100*float64(len(s)-1) + 0.5)
	return s[i]
}
