//go:build browser

package sitetest

import (
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func fragment(kv ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	// URLSearchParams reads "+" as a space, as url.Values writes it.
	return "embed.html#" + v.Encode()
}

var widgets = []struct {
	name string
	// module is the build the widget must load: only the filter tester
	// pays for cel-go, only the schema widget for hamba/avro.
	module string
	frag   string
	// check is a JS expression that is true once the widget shows what it
	// should.
	check string
}{
	{
		name:   "filter",
		module: "cel",
		frag: fragment("widget", "filter", "filter", `attributes.region = "eu"`,
			"messages", `[{"text":"a","attributes":{"region":"eu"}},{"text":"b","attributes":{"region":"us"}}]`),
		check: `[...document.querySelectorAll("tbody tr")].map((tr) => tr.dataset.match).join() === "true,false"`,
	},
	{
		name:   "names",
		module: "min",
		frag:   fragment("widget", "names", "config", storageConfig, "time", "2024-05-01T12:00:00Z", "uuid", "abc", "count", "3"),
		check:  `document.querySelector("ol.names li") && document.querySelector("ol.names li").textContent === "orders/2024-05-01/12_00_00Z_abc.txt"`,
	},
	{
		name:   "schema",
		module: "avro",
		frag: fragment("widget", "schema", "config", `name: projects/my-project/subscriptions/avro
topic: projects/my-project/topics/orders
cloudStorageConfig:
  bucket: my-archive-bucket
  avroConfig:
    writeMetadata: true
`),
		check: `!!document.querySelector("pre.code")`,
	},
	{
		name:   "settings",
		module: "min",
		frag:   fragment("widget", "settings", "config", validConfig),
		check:  `document.querySelectorAll("tbody tr").length > 5`,
	},
	{
		// Only this widget starts with the JavaScript engine.
		name:   "transforms",
		module: "extra",
		frag:   fragment("widget", "transforms", "config", udfConfig),
		check:  `[...document.querySelectorAll(".msg-through")].map((m) => m.dataset.outcome).join() === "delivered,acked,dropped,acked"`,
	},
	{
		name:   "export",
		module: "min",
		frag:   fragment("widget", "export", "config", validConfig),
		check:  `/resource "google_pubsub_subscription"/.test((document.querySelector("pre[data-form=terraform]") || {}).textContent)`,
	},
}

func TestEmbedWidgets(t *testing.T) {
	m := readSiteManifest(t)
	for _, w := range widgets {
		t.Run(w.name, func(t *testing.T) {
			mark := served.mark()
			// A context of its own: another widget's module in the shared
			// cache would not be fetched again.
			tb := newTab(t, chromedp.WithNewBrowserContext())
			tb.open(w.frag)
			var ok bool
			tb.eval(`new Promise((resolve) => { const t0 = Date.now(); const f = () => (`+w.check+`) ? resolve(true) : Date.now() - t0 > 10000 ? resolve(false) : setTimeout(f, 25); f(); })`, &ok)
			if !ok {
				t.Errorf("the %s widget does not show its result; body: %s", w.name, tb.text("#widget"))
			}
			var chrome int
			tb.eval(`document.querySelectorAll("header, footer, [role=tablist]").length`, &chrome)
			if chrome != 0 {
				t.Errorf("the embed has %d pieces of page chrome", chrome)
			}
			tb.screenshot("embed-" + w.name)
			// Each widget fetches its own build only, and the state in the
			// fragment never reaches the server.
			if got := m.WidgetModules[w.name]; got != w.module {
				t.Errorf("the build lists the %s build for the widget, want %s", got, w.module)
			}
			checkRequests(t, served.since(mark), m, m.Pages["embed.html#widget="+w.name], []string{w.module})
		})
	}
}

// TestEmbedReportsHeight frames each widget in a page of another origin
// (a docs page, played by a second server) and checks that the parent
// hears each widget's height and can size its frame with it, as the
// README snippet does.
func TestEmbedReportsHeight(t *testing.T) {
	var frames strings.Builder
	for i, w := range widgets {
		fmt.Fprintf(&frames, "<iframe data-subplay src=\"%s&id=w%d\" title=\"%s\" style=\"width:640px;height:50px;border:0\"></iframe>\n",
			html.EscapeString(baseURL+w.frag), i, w.name)
	}
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>docs</title><link rel="icon" href="data:,"><h1>A docs page</h1>
<script>
window.heights = {};
addEventListener("message", (e) => {
  if (!e.data || e.data.type !== "subplay:height") return;
  window.heights[e.data.id] = {h: e.data.height, widget: e.data.widget, origin: e.origin, rendered: e.data.rendered};
  for (const f of document.querySelectorAll("iframe[data-subplay]")) if (f.contentWindow === e.source) f.style.height = e.data.height + "px";
});
</script>
%s`, frames.String())
	}))
	defer host.Close()

	tb := newTab(t)
	tb.run(chromedp.Navigate(host.URL))
	deadline := time.Now().Add(60 * time.Second)
	var heights map[string]struct {
		H        int    `json:"h"`
		Widget   string `json:"widget"`
		Origin   string `json:"origin"`
		Rendered bool   `json:"rendered"`
	}
	// Wait until every widget has rendered its preview and said so.
	for {
		tb.eval(`window.heights`, &heights)
		all := len(heights) == len(widgets)
		for _, h := range heights {
			all = all && h.Rendered
		}
		if all || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // the host applies the last report
	tb.eval(`window.heights`, &heights)
	for i, w := range widgets {
		got, ok := heights[fmt.Sprintf("w%d", i)]
		if !ok {
			t.Errorf("the %s widget reported no height", w.name)
			continue
		}
		if got.Widget != w.name || got.H < 100 || got.Origin+"/" != baseURL || !got.Rendered {
			t.Errorf("the %s widget reported %+v", w.name, got)
		}
		var frameHeight int
		tb.eval(fmt.Sprintf(`document.querySelectorAll("iframe")[%d].getBoundingClientRect().height`, i), &frameHeight)
		if frameHeight != got.H {
			t.Errorf("the %s frame is %d px high, the widget said %d", w.name, frameHeight, got.H)
		}
	}
	tb.screenshot("embed-host")
}

func TestEmbedDarkTheme(t *testing.T) {
	tb := newTab(t)
	tb.open(widgets[3].frag + "&theme=dark")
	var bg string
	tb.eval(`getComputedStyle(document.documentElement).backgroundColor`, &bg)
	if bg != "rgb(21, 24, 30)" {
		t.Errorf("dark theme background %q", bg)
	}
	tb.screenshot("embed-settings-dark")
}

// TestEmbedBrokenLink: a link that cannot work says why at once, with no
// loading bar above the message and no core downloaded.
func TestEmbedBrokenLink(t *testing.T) {
	tests := []struct{ name, frag, want string }{
		{"unknown widget", "embed.html#widget=nope", "Unknown widget"},
		{"state that does not decode", "embed.html#widget=names&z=bm90LWRlZmxhdGU", "could not be read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := newTab(t)
			tb.run(chromedp.Navigate(baseURL+tt.frag), chromedp.WaitVisible(chromedp.CSS(`[role=alert]`)))
			if s := tb.text("[role=alert]"); !strings.Contains(s, tt.want) {
				t.Errorf("alert %q, want it to say %q", s, tt.want)
			}
			var loadingShown bool
			tb.eval(`!document.getElementById("loading").hidden`, &loadingShown)
			if loadingShown {
				t.Error("the loading bar is still above the message")
			}
			for _, u := range tb.requestsSince(0) {
				if strings.HasSuffix(u, ".wasm") {
					t.Errorf("a broken link downloaded %s", u)
				}
			}
		})
	}
}
