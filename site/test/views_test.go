//go:build browser

package sitetest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// A view is one screen a user can reach: each tab of the page, the page
// showing errors, each embed, an embed with a broken link.
type view struct {
	name string
	path string
	// tab is clicked after loading (the page's views).
	tab string
	// config, when set, replaces the editor's text (the page's views).
	config string
	// ready: no core to wait for (a broken embed link stops before).
	noCore bool
}

// errorConfig has errors and warnings of several kinds at once, and a long
// resource name (the settings table must wrap it between its parts).
const errorConfig = `{
  "name": "projects/my-very-long-project-name/subscriptions/a-subscription-with-a-rather-long-name",
  "topic": "projects/my-very-long-project-name/topics/orders",
  "ackDeadlineSeconds": 5,
  "messageRetentionDuration": "7d",
  "labels": {"team": "payments", "env": "prod"},
  "filter": "attributes.a = \"x\" AND attributes.b = \"y\" OR attributes.c = \"z\""
}
`

var views = []view{
	{name: "page-settings", tab: "settings"},
	{name: "page-filter", tab: "filter"},
	{name: "page-storage", tab: "storage", config: storageConfig},
	{name: "page-schema", tab: "schema"},
	{name: "page-examples", tab: "examples"},
	{name: "page-errors", tab: "settings", config: errorConfig},
	{name: "page-errors-storage", tab: "storage", config: errorConfig},
	{name: "page-transforms", tab: "transforms", config: udfConfig},
	{name: "page-export", tab: "export", config: exportConfig},
	{name: "embed-filter", path: widgets[0].frag},
	{name: "embed-names", path: widgets[1].frag},
	{name: "embed-schema", path: widgets[2].frag},
	{name: "embed-settings", path: fragment("widget", "settings", "config", errorConfig)},
	{name: "embed-transforms", path: fragment("widget", "transforms", "config", udfConfig)},
	{name: "embed-export", path: fragment("widget", "export", "format", "gcloud", "config", "gcloud pubsub subscriptions create orders --topic=projects/my-project/topics/orders --ack-deadline=45")},
	{name: "embed-broken", path: "embed.html#widget=nope", noCore: true},
}

var (
	axeOnce sync.Once
	axeJS   string
	axeErr  error
)

// axeSource is axe-core as site/package-lock.json pins it.
func axeSource(t *testing.T) string {
	axeOnce.Do(func() {
		var b []byte
		b, axeErr = os.ReadFile(filepath.Join(repoRoot, "site", "node_modules", "axe-core", "axe.min.js"))
		axeJS = string(b)
	})
	if axeErr != nil {
		t.Fatalf("axe-core is not installed (scripts/setup runs npm ci in site/): %v", axeErr)
	}
	return axeJS
}

type axeViolation struct {
	ID    string `json:"id"`
	Help  string `json:"help"`
	Nodes []struct {
		Target  []any  `json:"target"`
		Summary string `json:"failureSummary"`
	} `json:"nodes"`
}

// TestViews opens every view at desktop and phone width in the light and
// the dark theme, saves a screenshot of each (site/test/screenshots/), runs
// axe-core in it and fails on any violation, and checks that nothing is
// wider than the screen. With -short (scripts/test's smoke test) each view
// opens once, light and at desktop width.
func TestViews(t *testing.T) {
	axe := axeSource(t)
	widths := []struct {
		name          string
		width, height int64
		mobile        bool
	}{{"desktop", 1280, 900, false}, {"phone", 390, 844, true}}
	themes := []string{"light", "dark"}
	if testing.Short() {
		widths, themes = widths[:1], themes[:1]
	}
	for _, v := range views {
		for _, theme := range themes {
			t.Run(v.name+"-"+theme, func(t *testing.T) {
				tb := newTab(t)
				if _, err := chromedp.Call(tb.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}},
				}); err != nil {
					t.Fatal(err)
				}
				for i, w := range widths {
					opts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1)}
					if w.mobile {
						opts = append(opts, chromedp.EmulateMobile)
					}
					tb.run(chromedp.EmulateViewport(w.width, w.height, opts...))
					if i == 0 {
						if v.noCore {
							tb.run(chromedp.Navigate(tb.base+v.path), chromedp.WaitVisible(chromedp.CSS("[role=alert]")))
						} else {
							tb.open(v.path)
							if v.config != "" {
								tb.setConfig(v.config)
							}
							if v.tab != "" {
								tb.clickTab(v.tab)
							}
						}
					}
					// Two frames: the new width is laid out.
					tb.eval(`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, nil)
					name := fmt.Sprintf("%s-%s-%s", v.name, theme, w.name)
					var fit struct{ Scroll, Inner int }
					tb.eval(`({Scroll: document.documentElement.scrollWidth, Inner: window.innerWidth})`, &fit)
					if fit.Scroll > fit.Inner {
						t.Errorf("%s: the view is %d px wide in a %d px viewport", name, fit.Scroll, fit.Inner)
					}
					tb.screenshot(name)
					var violations []axeViolation
					tb.eval(axe+`; axe.run(document, {resultTypes: ["violations"]}).then((r) => r.violations)`, &violations)
					for _, x := range violations {
						var where []string
						for _, n := range x.Nodes {
							b, _ := json.Marshal(n.Target)
							where = append(where, string(b))
						}
						if len(where) > 5 {
							where = append(where[:5], fmt.Sprintf("and %d more", len(where)-5))
						}
						t.Errorf("%s: axe %s: %s (%d): %s\n  %s", name, x.ID, x.Help, len(x.Nodes), strings.Join(where, " "), x.Nodes[0].Summary)
					}
				}
			})
		}
	}
}
