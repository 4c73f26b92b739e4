//go:build browser

package sitetest

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// udfConfig has two JavaScript UDFs: the first adds an attribute to every
// message, the second drops refunds; the filter then keeps region eu.
const udfConfig = `{
  "name": "projects/my-project/subscriptions/orders",
  "topic": "projects/my-project/topics/orders",
  "filter": "attributes.region = \"eu\"",
  "messageTransforms": [
    {"javascriptUdf": {"functionName": "tag", "code": "function tag(message, metadata) {\n  const attributes = message.attributes || {};\n  attributes.seen = \"yes\";\n  return {data: message.data, attributes: attributes};\n}"}},
    {"javascriptUdf": {"functionName": "dropRefunds", "code": "function dropRefunds(message, metadata) {\n  if (message.attributes.kind === \"refund\") {\n    return null;\n  }\n  return message;\n}"}}
  ]
}
`

// tfConfig is a Terraform resource with one error, on line 5: an ack
// deadline below 10 seconds.
const tfConfig = `resource "google_pubsub_subscription" "orders" {
  name  = "orders"
  topic = "projects/my-project/topics/orders"

  ack_deadline_seconds = 5
}
`

// exportConfig sets properties of several kinds (durations, a map, nested
// objects, a filter) for the export round trip.
const exportConfig = `name: projects/my-project/subscriptions/orders
topic: projects/my-project/topics/orders
ackDeadlineSeconds: 45
messageRetentionDuration: 86400s
retainAckedMessages: true
labels:
  team: payments
  env: prod
filter: attributes.region = "eu"
expirationPolicy:
  ttl: 1209600s
retryPolicy:
  minimumBackoff: 20s
  maximumBackoff: 400s
deadLetterPolicy:
  deadLetterTopic: projects/my-project/topics/orders-dead
  maxDeliveryAttempts: 7
`

// watchCodes starts recording, in the page, every diagnostic code the
// configuration's list shows while the second build is loading (until it
// is there) and after; tb.eval(`window.seenCodes`) reads them.
const watchCodes = `(() => {
	window.seenCodes = { loading: [], after: [] };
	const list = document.querySelector("#diagnostics");
	const take = () => {
		const codes = [...list.querySelectorAll("li[data-code]")].map((li) => li.dataset.code);
		(document.body.dataset.busy ? window.seenCodes.loading : window.seenCodes.after).push(...codes);
	};
	new MutationObserver(take).observe(list, { childList: true, subtree: true });
	return true;
})()`

type seenCodes struct {
	Loading []string `json:"loading"`
	After   []string `json:"after"`
}

func extraFetches(t *testing.T, m siteManifest, reqs []request) int {
	t.Helper()
	n := 0
	for _, r := range reqs {
		if strings.TrimPrefix(r.Path, "/") == m.Wasm["extra"].File {
			n++
		}
	}
	return n
}

// TestExtraOnlyWhenNeeded counts what the page fetches: editing JSON, YAML
// and gcloud configurations in every panel that does not need the
// JavaScript engine or the Terraform reader never downloads the extra
// build; a configuration with a UDF does (the first build refuses to
// validate or transform it), once, and the answers come from it: the page
// says it is loading meanwhile and then shows them, never an error or a
// partial answer from the first build.
func TestExtraOnlyWhenNeeded(t *testing.T) {
	m := readSiteManifest(t)
	mark := served.mark()
	tb := newTab(t, chromedp.WithNewBrowserContext()) // an empty cache
	tb.open("")
	tb.setConfig(validConfig)
	tb.clickTab("filter")
	tb.setConfig(badConfig)
	tb.clickTab("storage")
	tb.setConfig(storageConfig)
	tb.clickTab("schema")
	tb.setConfig("gcloud pubsub subscriptions create orders --topic=projects/my-project/topics/orders --ack-deadline=30\n")
	tb.clickTab("settings")
	tb.setConfig(exportConfig)
	checkRequests(t, served.since(mark), m, m.Pages["index.html"], m.StartModules) // the small build, then full (modules.js startCore)

	mark = served.mark()
	tb.eval(watchCodes, nil)
	tb.eval(`(() => {
		window.panelStates = [];
		new MutationObserver((ms) => {
			for (const x of ms) if (x.target.id === "panel-transforms") window.panelStates.push(x.target.dataset.state);
		}).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
		return true;
	})()`, nil)
	tb.setConfig(udfConfig)
	tb.clickTab("transforms")
	if n := extraFetches(t, m, served.since(mark)); n != 1 {
		t.Errorf("the Transforms panel fetched the extra build %d times, want once", n)
	}
	var states []string
	tb.eval(`window.panelStates`, &states)
	var seen seenCodes
	tb.eval(`window.seenCodes`, &seen)
	if len(states) == 0 || states[len(states)-1] != "ready" || slices.Contains(states, "error") {
		t.Errorf("the panel went through %v; want it to end ready, never in error", states)
	}
	// The page said it was loading: in the diagnostics (the first build
	// refused to validate a configuration with a UDF) or in the panel.
	if !slices.Contains(states, "loading") && !slices.Contains(seen.Loading, "loading") {
		t.Errorf("the page never said it was loading the extra build (panel %v, diagnostics %v)", states, seen.Loading)
	}
	for _, c := range seen.Loading {
		if c != "loading" {
			t.Errorf("while the extra build loaded, the list showed %q; want only the loading note", c)
		}
	}
	// Once there, it is not fetched again.
	mark = served.mark()
	tb.setConfig(strings.Replace(udfConfig, `\"yes\"`, `\"no\"`, 1))
	tb.clickTab("settings")
	tb.clickTab("transforms")
	if n := extraFetches(t, m, served.since(mark)); n != 0 {
		t.Errorf("the extra build was fetched %d more times", n)
	}
}

// TestTransformsBeforeAfter runs the UDFs of udfConfig on the default
// sample messages: message 1 gains an attribute (marked as added) and is
// delivered, message 2 gains it and the filter acknowledges it, message 3
// (a refund) is dropped by the second transform.
func TestTransformsBeforeAfter(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	tb.clickTab("transforms")
	tb.setConfig(udfConfig)
	var got struct {
		UDFs     []string          `json:"udfs"`
		Outcomes []string          `json:"outcomes"`
		Added    []string          `json:"added"`
		Verdicts map[string]string `json:"verdicts"`
		Order    string            `json:"order"`
		State    string            `json:"state"`
	}
	tb.eval(`(() => {
		const p = document.querySelector("#panel-transforms");
		const msgs = [...p.querySelectorAll(".msg-through")];
		return {
			state: p.dataset.state || "",
			order: p.querySelector(".transform-order").textContent,
			udfs: [...p.querySelectorAll(".udf .udf-name")].map((c) => c.textContent),
			outcomes: msgs.map((m) => m.dataset.outcome),
			added: [...(msgs[0] ? msgs[0].querySelectorAll(".diff-added code:first-child") : [])].map((c) => c.textContent),
			verdicts: Object.fromEntries(msgs.map((m) => [m.dataset.index, m.querySelector(".verdict").textContent])),
		};
	})()`, &got)
	tb.screenshot("page-transforms")
	if got.State != "ready" {
		t.Fatalf("the panel is %q: %s", got.State, tb.text("#panel-transforms .summary"))
	}
	if !slices.Equal(got.UDFs, []string{"tag", "dropRefunds"}) {
		t.Errorf("UDFs shown %v, want [tag dropRefunds]", got.UDFs)
	}
	if want := []string{"delivered", "acked", "dropped", "acked"}; !slices.Equal(got.Outcomes, want) {
		t.Errorf("outcomes %v, want %v", got.Outcomes, want)
	}
	if !slices.Equal(got.Added, []string{"seen"}) {
		t.Errorf("message 1 after tag: attributes marked added %v, want [seen]", got.Added)
	}
	if v := got.Verdicts["2"]; !strings.Contains(v, "transform 2") {
		t.Errorf("message 3's verdict %q does not name transform 2", v)
	}
	if got.Order == "" {
		t.Error("the panel does not say in which order transforms and the filter apply")
	}

	// A UDF with a syntax error: the finding is in the configuration, at
	// the line of the code string, marked in the editor and listed
	// beside its UDF.
	broken := strings.Replace(udfConfig, `return null;`, `return null;;}}`, 1)
	tb.setConfig(broken)
	var ds []struct {
		Code string `json:"code"`
		Line string `json:"line"`
	}
	tb.eval(`[...document.querySelectorAll("#panel-transforms .udf[data-index='1'] li.diag-error")].map((li) => ({code: li.dataset.code, line: li.dataset.line}))`, &ds)
	if len(ds) == 0 || ds[0].Line != "7" {
		t.Errorf("the broken UDF's findings %+v; want an error at line 7", ds)
	}
	var marked int
	tb.eval(`document.querySelectorAll(".cm-content .cm-lintRange-error").length`, &marked)
	if marked == 0 {
		t.Error("the editor marks nothing in the broken UDF")
	}
}

// TestTerraformViaExtra pastes a Terraform resource: the first build
// refuses it (no HCL reader), the page loads the extra build, says so
// meanwhile, and then shows its diagnostic at the Terraform text's line.
func TestTerraformViaExtra(t *testing.T) {
	m := readSiteManifest(t)
	mark := served.mark()
	tb := newTab(t, chromedp.WithNewBrowserContext())
	tb.open("")
	tb.eval(watchCodes, nil)
	tb.setConfig(tfConfig)
	var ds []struct {
		Code string `json:"code"`
		Line string `json:"line"`
	}
	tb.eval(`[...document.querySelectorAll("#diagnostics li.diag-error")].map((li) => ({code: li.dataset.code, line: li.dataset.line}))`, &ds)
	if len(ds) != 1 || ds[0].Code != "value-too-small" || ds[0].Line != "5" {
		t.Errorf("errors %+v; want value-too-small at line 5", ds)
	}
	var seen seenCodes
	tb.eval(`window.seenCodes`, &seen)
	for _, c := range seen.Loading {
		if c != "loading" {
			t.Errorf("while the extra build loaded, the list showed %q; want only the loading note", c)
		}
	}
	if !slices.Contains(seen.Loading, "loading") {
		t.Errorf("the page did not say it was loading the extra build (codes shown meanwhile: %v)", seen.Loading)
	}
	if n := extraFetches(t, m, served.since(mark)); n != 1 {
		t.Errorf("the extra build was fetched %d times, want once", n)
	}
	tb.screenshot("page-terraform")
}

// TestExportRoundTrip exports a configuration as Terraform with the copy
// button, pastes what the clipboard holds back into the editor, and checks
// that the effective settings are the same; likewise for the gcloud
// command and the JSON.
func TestExportRoundTrip(t *testing.T) {
	tb := newTab(t)
	tb.allowClipboard()
	tb.open("")
	tb.setConfig(exportConfig)
	want := settingsRows(tb)
	if len(want) < 10 {
		t.Fatalf("only %d settings rows for the export configuration", len(want))
	}
	for _, form := range []string{"terraform", "gcloud", "json", "yaml"} {
		t.Run(form, func(t *testing.T) {
			var same bool
			b, _ := json.Marshal(exportConfig)
			tb.eval(`window.subplayPage.state.config === `+string(b), &same)
			if !same {
				tb.setConfig(exportConfig)
			}
			tb.clickTab("export")
			var ready string
			tb.eval(`document.querySelector("#panel-export").dataset.state || ""`, &ready)
			if ready != "ready" {
				t.Fatalf("the export panel is %q: %s", ready, tb.text("#panel-export .summary"))
			}
			tb.run(chromedp.Click(chromedp.CSS(`#panel-export .export-form[data-form="` + form + `"] button.copy`)))
			var text string
			tb.eval(`new Promise((resolve) => { const f = () => { const s = document.querySelector('#panel-export .export-form[data-form="`+form+`"] .copy-status').textContent; if (s) resolve(s); else setTimeout(f, 20); }; f(); }).then(() => navigator.clipboard.readText())`, &text)
			if shown := tb.text(`#panel-export pre[data-form="` + form + `"]`); text != shown || text == "" {
				t.Fatalf("the clipboard holds %q, the panel shows %q", text, shown)
			}
			tb.setConfig(text)
			tb.clickTab("settings")
			var errs int
			tb.eval(`document.querySelectorAll("#diagnostics li.diag-error").length`, &errs)
			if errs != 0 {
				t.Errorf("the pasted %s has %d errors: %s\n%s", form, errs, tb.text("#diagnostics"), text)
			}
			got := settingsRows(tb)
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s: %s is %q after the round trip, %q before", form, k, got[k], v)
				}
			}
			if t.Failed() {
				t.Logf("exported %s:\n%s", form, text)
			}
			tb.screenshot("page-export-" + form)
		})
	}
}

// settingsRows reads the effective settings table: path → value.
func settingsRows(tb *tab) map[string]string {
	tb.t.Helper()
	var rows map[string]string
	tb.eval(`Object.fromEntries([...document.querySelectorAll("#panel-settings tbody tr")].map((tr) => [tr.dataset.path, tr.querySelector("td.value").textContent]))`, &rows)
	return rows
}

// TestExportFormatEmbed: a docs page embeds its own gcloud command
// (format=gcloud) and its Terraform resource (format=terraform); each
// widget reads it, and the export widget shows the one form asked for.
func TestExportFormatEmbed(t *testing.T) {
	tests := []struct {
		name, frag, check string
	}{
		{"gcloud settings", fragment("widget", "settings", "format", "gcloud",
			"config", "gcloud pubsub subscriptions create orders --topic=projects/my-project/topics/orders --ack-deadline=45"),
			`[...document.querySelectorAll("tbody tr")].some((tr) => tr.dataset.path === "/ackDeadlineSeconds" && tr.querySelector("td.value").textContent.startsWith("45"))`},
		{"terraform settings", fragment("widget", "settings", "format", "terraform", "config", tfConfig),
			`[...document.querySelectorAll("li.diag-error")].some((li) => li.dataset.code === "value-too-small" && li.dataset.line === "5")`},
		{"export one form", fragment("widget", "export", "to", "gcloud", "config", validConfig),
			`document.querySelectorAll(".export-form").length === 1 && /^gcloud pubsub subscriptions create/.test(document.querySelector("pre[data-form=gcloud]").textContent)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := newTab(t)
			tb.open(tt.frag)
			var ok bool
			tb.eval(`new Promise((resolve) => { const t0 = Date.now(); const f = () => (`+tt.check+`) ? resolve(true) : Date.now() - t0 > 20000 ? resolve(false) : setTimeout(f, 25); f(); })`, &ok)
			if !ok {
				b, _ := json.Marshal(tb.text("#widget"))
				t.Errorf("the widget does not show its result; body: %s", b)
			}
		})
	}
}

// TestExportUpdate gives the Export panel the existing configuration: the
// gcloud command becomes an update with only the flags that change.
func TestExportUpdate(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	tb.setConfig(exportConfig)
	tb.clickTab("export")
	n := tb.rendered()
	tb.run(chromedp.Click(chromedp.CSS(`#panel-export .export-old summary`)), chromedp.Click(chromedp.CSS(`#panel-export .export-old .cm-content`)))
	if _, err := chromedp.Call(tb.ctx, input.InsertText, input.InsertTextParams{
		Text: strings.Replace(exportConfig, "ackDeadlineSeconds: 45", "ackDeadlineSeconds: 20", 1),
	}); err != nil {
		t.Fatal(err)
	}
	tb.waitRender(n)
	cmd := tb.text(`#panel-export pre[data-form="gcloud"]`)
	if !strings.HasPrefix(cmd, "gcloud pubsub subscriptions update orders") || !strings.Contains(cmd, "--ack-deadline=45") || strings.Contains(cmd, "--labels") {
		t.Errorf("with the existing configuration, the gcloud command is\n%s\nwant an update that sets only --ack-deadline=45", cmd)
	}
	tb.screenshot("page-export-update")
}

// TestStoragePipeline batches the default sample messages under a UDF
// that drops refunds and upper-cases the rest: the Cloud Storage panel
// says the transforms ran first, which messages the files hold, and shows
// the files' contents as transformed.
func TestStoragePipeline(t *testing.T) {
	const config = `name: projects/my-project/subscriptions/archive
topic: projects/my-project/topics/orders
cloudStorageConfig:
  bucket: my-archive-bucket
  maxDuration: 300s
messageTransforms:
  - javascriptUdf:
      functionName: dropRefunds
      code: |
        function dropRefunds(message, metadata) {
          if (message.attributes.kind === "refund") return null;
          message.data = message.data.toUpperCase();
          return message;
        }
`
	tb := newTab(t)
	tb.open("")
	tb.setConfig(config)
	tb.clickTab("storage")
	n := tb.rendered()
	tb.run(chromedp.Click(chromedp.CSS(`#panel-storage input[type=radio][value=messages]`)))
	tb.waitRender(n)
	var got struct {
		Written  string   `json:"written"`
		Heading  string   `json:"heading"`
		Outcomes []string `json:"outcomes"`
		Held     []string `json:"held"`
		Contents []string `json:"contents"`
	}
	tb.eval(`(() => {
		const p = document.querySelector("#panel-storage");
		const pipe = p.querySelector(".pipeline");
		return {
			written: pipe ? pipe.dataset.written : "",
			heading: pipe ? pipe.querySelector("h4, h3, h5").textContent : "",
			outcomes: pipe ? [...pipe.querySelectorAll("li")].map((li) => li.dataset.outcome) : [],
			held: [...p.querySelectorAll("table.files td[data-messages]")].map((td) => td.dataset.messages),
			contents: [...p.querySelectorAll(".contents pre")].map((x) => x.textContent),
		};
	})()`, &got)
	tb.screenshot("page-storage-pipeline")
	if got.Written != "0,1,3" {
		t.Fatalf("written %q, want 0,1,3 (the refund dropped): %s", got.Written, tb.text("#panel-storage .summary"))
	}
	if !strings.Contains(strings.ToLower(got.Heading), "transforms") {
		t.Errorf("the note's heading %q does not say the transforms ran first", got.Heading)
	}
	if want := []string{"delivered", "delivered", "dropped", "delivered"}; !slices.Equal(got.Outcomes, want) {
		t.Errorf("outcomes %v, want %v", got.Outcomes, want)
	}
	if !slices.Equal(got.Held, []string{"1, 2, 4"}) {
		t.Errorf("the files hold sample messages %v, want [1, 2, 4]", got.Held)
	}
	if len(got.Contents) != 1 || got.Contents[0] != "ORDER 1\nORDER 2\nNO ATTRIBUTES" {
		t.Errorf("file contents %q, want the transformed messages", got.Contents)
	}
}
