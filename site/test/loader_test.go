//go:build browser

package sitetest

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/subplay/subplay/core/playground/hostile"
)

// TestLoaderBuilds loads each build through subplay.js, as another page
// would, and checks what it says it can do against what it does: the
// operations it lists (every build has every operation), whether its
// filter operation evaluates, and whether it answers schema or refuses it
// with needs-module ["avro"].
func TestLoaderBuilds(t *testing.T) {
	tests := []struct {
		module    string
		schema    bool // answers the schema operation (links hamba/avro)
		evaluates bool // runs filters (cel-go)
	}{
		{"full", true, true},
		{"cel", false, true},
		{"avro", true, false},
		{"min", false, false},
		{"extra", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.module, func(t *testing.T) {
			// A tab each: five builds in one tab's time bound was too
			// tight on a loaded machine.
			tb := newTab(t)
			tb.open("")
			var got struct {
				Schema    bool     `json:"schema"`
				Has       bool     `json:"has"`
				Needs     []string `json:"needs"`
				Validate  bool     `json:"validate"`
				Evaluated bool     `json:"evaluated"`
				Module    string   `json:"module"`
				Error     string   `json:"error"`
			}
			tb.eval(`import("./subplay.js").then(async ({ load }) => {
				const sp = await load({ module: "`+tt.module+`" });
				try {
					const f = await sp.call("filter", { filter: "attributes:a", messages: [{ attributes: { a: "1" } }] });
					const [s] = await sp.batch([["schema", { text: "topic: projects/p/topics/t\n", format: "yaml" }]]);
					const e = s.ok ? null : s.value.error;
					return { schema: s.ok, has: sp.has("schema"), needs: e && e.needs, validate: sp.has("validate"), evaluated: !!f.evaluated, module: sp.name,
						error: e && e.code !== "needs-module" ? e.message : "" };
				} finally {
					sp.terminate();
				}
			})`, &got)
			var needs []string
			if !tt.schema {
				needs = []string{"avro"}
			}
			if got.Schema != tt.schema || !got.Has || !slices.Equal(got.Needs, needs) || !got.Validate || got.Evaluated != tt.evaluates || got.Module != tt.module || got.Error != "" {
				t.Errorf("the %s build: %+v; want schema answered %v (else needs %v), evaluates filters %v", tt.module, got, tt.schema, needs, tt.evaluates)
			}
		})
	}
}

// TestCoreRecoversFromACrash kills the Go instance of the page's core (the
// worker's test hook ends the program the way a fatal runtime error does)
// with an edit in flight, and checks that the page notices, marks the
// preview stale, and shows the answer to that edit from a fresh worker.
// The recovery time is printed; the only bound asserted is the generous
// wait of waitRender.
func TestCoreRecoversFromACrash(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	tb.setConfig(validConfig)
	n := tb.rendered()
	var got struct {
		Stale     bool     `json:"stale"`
		Note      string   `json:"note"`
		Recovered float64  `json:"recovered"`
		Codes     []string `json:"codes"`
		StaleNow  bool     `json:"staleNow"`
		NoteNow   bool     `json:"noteNow"`
	}
	b, _ := json.Marshal(badConfig)
	tb.eval(`new Promise((resolve, reject) => {
		const seen = { stale: false, note: "" };
		const watch = new MutationObserver(() => {
			if (document.body.dataset.stale) {
				seen.stale = true;
				seen.note = document.querySelector("#crash-status").textContent;
			}
		});
		watch.observe(document.body, { attributes: true, attributeFilter: ["data-stale"] });
		const t0 = performance.now();
		document.addEventListener("subplay:rendered", function on(e) {
			if (e.detail.crashed) return reject(new Error("the replayed edit crashed too"));
			document.removeEventListener("subplay:rendered", on);
			watch.disconnect();
			resolve({ ...seen, recovered: performance.now() - t0,
				codes: [...document.querySelectorAll("#diagnostics li.diag-error")].map((li) => li.dataset.code),
				staleNow: !!document.body.dataset.stale, noteNow: !document.querySelector("#crash-status").hidden });
		});
		window.subplayPage.killCore();
		window.subplayPage.setConfig(`+string(b)+`);
	})`, &got)
	t.Logf("from the crash to the fresh preview: %.0f ms", got.Recovered)
	if !got.Stale || got.Note == "" {
		t.Errorf("the page did not mark the preview stale with a note while the core restarted: %+v", got)
	}
	if got.StaleNow || got.NoteNow {
		t.Errorf("the fresh preview is still marked stale: %+v", got)
	}
	if !slices.Contains(got.Codes, "value-too-small") {
		t.Errorf("after the restart the diagnostics are %v; want the edit's value-too-small", got.Codes)
	}
	tb.waitRender(n)
	// The restarted core keeps answering.
	tb.setConfig(validConfig)
	var codes []string
	tb.eval(`[...document.querySelectorAll("#diagnostics li.diag-error")].map((li) => li.dataset.code)`, &codes)
	if len(codes) != 0 {
		t.Errorf("after a valid edit the restarted core reports %v", codes)
	}
}

// TestLoaderRecoversFromACrash checks the same through subplay.js, as
// another page sees it: a crash with nothing in flight restarts the core
// at once ("crash", then "recover"), and calls work again.
func TestLoaderRecoversFromACrash(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	var got struct {
		Events  []string `json:"events"`
		Crashes int      `json:"crashes"`
		Ms      float64  `json:"ms"`
		Valid   bool     `json:"valid"`
		Timing  map[string]any
	}
	tb.eval(`import("./subplay.js").then(async ({ load }) => {
		const sp = await load({ module: "full" });
		try {
			const events = [];
			sp.addEventListener("crash", () => events.push("crash"));
			const recovered = new Promise((resolve) => sp.addEventListener("recover", (e) => { events.push("recover"); resolve(e.detail.ms); }));
			sp.kill();
			const ms = await recovered;
			const v = await sp.call("validate", { text: "name: projects/p/subscriptions/s\ntopic: projects/p/topics/t\n", format: "yaml" });
			return { events, crashes: sp.crashes, ms, valid: Array.isArray(v.diagnostics), timing: sp.timing };
		} finally {
			sp.terminate();
		}
	})`, &got)
	t.Logf("restart after a crash: %.0f ms (the fresh worker: %v)", got.Ms, got.Timing)
	if !slices.Equal(got.Events, []string{"crash", "recover"}) || got.Crashes != 1 || !got.Valid {
		t.Errorf("after a crash: %+v; want events [crash recover], one crash, and a valid answer", got)
	}
}

// TestSmallBuildFirst holds the page's full build back (its requests wait
// at a gate) and checks the start-up order of modules.js startCore: the
// small build gives the first answer on its own; a call it would answer
// differently (a filter run on messages: min has no cel-go) waits for the
// full build instead of taking min's answer, although min answered a
// later call; and once the full build is let through, that call gets the
// full build's answer.
func TestSmallBuildFirst(t *testing.T) {
	m := readSiteManifest(t)
	if len(m.StartModules) != 2 || m.StartModules[0] != "min" {
		t.Fatalf("the build says the page starts with %v; want min, then the full build", m.StartModules)
	}
	full := m.Wasm[m.StartModules[1]].File
	site := newGatedSiteFor(t, "/"+full)
	tb := newTab(t)
	tb.base = site.URL + "/"
	tb.open("") // the core's first answer drawn, with the full build held back

	var rows int
	tb.eval(`document.querySelectorAll("#panel-settings tbody tr").length`, &rows)
	if rows < 5 {
		t.Errorf("with only the small build, the effective settings have %d rows", rows)
	}
	// The filter call first, then a call the small build answers: the
	// worker answers in order, so had the filter gone to the small build
	// it would be settled by the time the second is.
	var early struct {
		FilterSettled bool `json:"filterSettled"`
		Effective     bool `json:"effective"`
	}
	tb.eval(`(async () => {
		window.filterAnswer = null;
		window.filterCall = window.subplayPage.call("filter", { filter: "attributes:a", messages: [{ attributes: { a: "1" } }] })
			.then((r) => { window.filterAnswer = r; }, (e) => { window.filterAnswer = { error: e.message }; });
		const e = await window.subplayPage.call("effective", { text: "name: projects/p/subscriptions/s\ntopic: projects/p/topics/t\n", format: "yaml" });
		await new Promise((r) => setTimeout(r, 0));
		return { filterSettled: window.filterAnswer !== null, effective: !!e.settings };
	})()`, &early)
	if !early.Effective {
		t.Errorf("the small build did not answer effective: %+v", early)
	}
	if early.FilterSettled {
		t.Errorf("a filter call was answered before the full build was there (by the small build, which does not run filters)")
	}
	site.open()
	var late struct {
		Evaluated bool   `json:"evaluated"`
		Error     string `json:"error"`
	}
	tb.eval(`window.filterCall.then(() => ({ evaluated: !!window.filterAnswer.evaluated, error: window.filterAnswer.error || "" }))`, &late)
	if !late.Evaluated || late.Error != "" {
		t.Errorf("once the full build was there, the filter call got %+v; want it evaluated", late)
	}
}

// TestDeepUDFsInTheWorker: the deepest UDFs the depth scan lets through
// (hostile.AtBound) compile in the page's worker, where Chromium
// gives the Go instance about half of Node's stack (it died past about 555
// parentheses there, 1,113 in Node), and
// one past the bound gets its finding; the UDFs whose built-ins recurse
// past the run-time bound (hostile.DeepAtRun) throw its RangeError there.
// An overflow would end the instance: the loader would restart it and the
// rendering would say crashed.
func TestDeepUDFsInTheWorker(t *testing.T) {
	cases := []struct{ name, code, want, says string }{
		// 400 nested += once passed the engine's own bound in this worker;
		// QuickJS-ng's parser takes it within its stack.
		{"nested-plus-assign", "function f(m) { var a = ''; " + strings.Repeat("a += ", 400) + "m.data; return {data: a} }", "", ""},
	}
	for _, u := range hostile.AtBound {
		cases = append(cases, struct{ name, code, want, says string }{u.Name, u.Code, "", ""})
	}
	for _, u := range hostile.DeepAtRun {
		// Each ends in a finding (a RangeError of the call, or of its
		// top-level code, or the engine's stack): which one is the engine's;
		// what this test holds is that the worker answers and lives.
		cases = append(cases, struct{ name, code, want, says string }{u.Name, u.Code, "*", ""})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// A tab each: the panel's state is then this UDF's.
			tb := newTab(t)
			tb.open("")
			tb.clickTab("transforms") // the panel runs the UDF on the sample messages
			tb.eval(`window.deepCrashed = false, document.addEventListener("subplay:rendered", (e) => { if (e.detail.crashed) window.deepCrashed = true }), true`, nil)
			cfg, _ := json.MarshalIndent(map[string]any{
				"name":              "projects/my-project/subscriptions/orders",
				"topic":             "projects/my-project/topics/orders",
				"messageTransforms": []any{map[string]any{"javascriptUdf": map[string]any{"functionName": "f", "code": c.code}}},
			}, "", "  ")
			tb.setConfig(string(cfg))
			// The panel answers once the core's transform build has loaded.
			var got struct {
				State   string   `json:"state"`
				Crashed bool     `json:"crashed"`
				Codes   []string `json:"codes"`
			}
			for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
				tb.eval(`({ state: document.querySelector("#panel-transforms").dataset.state || "", crashed: window.deepCrashed,
					codes: [...document.querySelectorAll("#diagnostics li.diag, #panel-transforms li.diag")].map((li) => li.dataset.code) })`, &got)
				if got.State == "ready" || got.Crashed {
					break
				}
			}
			if got.Crashed {
				t.Fatalf("the core crashed on it")
			}
			if got.State != "ready" {
				t.Fatalf("the transforms panel is %q after 2 minutes: %s", got.State, tb.text("#panel-transforms"))
			}
			if c.says != "" {
				// A RangeError of the call: a finding of each message.
				if text := tb.text("#panel-transforms .transform-results"); !strings.Contains(text, c.says) {
					t.Errorf("the messages' results do not say %q: %.300s", c.says, text)
				}
				return
			}
			if c.want == "*" {
				return
			}
			udf := slices.DeleteFunc(got.Codes, func(code string) bool { return !strings.HasPrefix(code, "udf-") || code == "udf-slow" })
			if c.want == "" && len(udf) > 0 || c.want != "" && !slices.Contains(udf, c.want) {
				t.Errorf("UDF findings %v, want %q", udf, c.want)
			}
		})
	}
}
