//go:build browser

package sitetest

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestFullBuildIsTheSumOfItsParts checks that the full build, which links
// both cel-go and hamba/avro, costs about what the two cost apart: the
// reflect2 patch of scripts/build-wasm is what keeps the linker from
// keeping every exported method (about 9 MB more). Raw sizes, so a quick
// build serves as well as a release one.
func TestFullBuildIsTheSumOfItsParts(t *testing.T) {
	m := readSiteManifest(t)
	size := func(name string) float64 {
		w, ok := m.Wasm[name]
		if !ok {
			t.Fatalf("the build has no %s module", name)
		}
		return float64(w.Size)
	}
	parts := size("cel") + size("avro") - size("min")
	if full := size("full"); full > 1.1*parts {
		t.Errorf("the full module is %.1f MB, more than 1.1 times its parts (cel + avro - min = %.1f MB): is the reflect2 patch of scripts/build-wasm still applied?", full/1e6, parts/1e6)
	}
}

// TestModulesRouteToTheSmallestBuild opens docs embeds whose own build
// answers part of their request with needs-module, and checks that the
// router fetches the smallest build that has what the answer's needs list
// names and what the embed's build has, never the 5 MB extra one, and that
// the widget then shows the answer. The builds' tags come from the built
// manifest (scripts/build-wasm --list); what they should pick is checked
// against their real sizes.
func TestModulesRouteToTheSmallestBuild(t *testing.T) {
	m := readSiteManifest(t)
	const filter = "filter: attributes.region = \"eu\"\n"
	filtered := storageConfig + filter
	avroFiltered := storageConfig + "  avroConfig:\n    writeMetadata: true\n" + filter
	msgs := `[{"text":"a","attributes":{"region":"eu"}},{"text":"b","attributes":{"region":"us"}}]`
	cases := []struct {
		name string
		frag string
		// fetched are the builds the embed loads: its own, then the one
		// the router picks.
		fetched []string
		check   string // a JS expression true once the answer is shown
	}{
		{
			// min (nocel) cannot say which messages the filter lets
			// through: it needs cel, and cel-go alone is in cel.
			name:    "names with a filter",
			frag:    fragment("widget", "names", "config", filtered, "messages", msgs, "mode", "messages", "time", "2024-05-01T12:00:00Z", "uuid", "abc"),
			fetched: []string{"min", "cel"},
			check:   `document.querySelectorAll("ol.names li").length > 0`,
		},
		{
			// avro (nocel) needs cel, and must keep Avro: full.
			name:    "schema with a filter",
			frag:    fragment("widget", "schema", "config", avroFiltered, "messages", msgs, "time", "2024-05-01T12:00:00Z"),
			fetched: []string{"avro", "full"},
			check:   `!!document.querySelector("pre.code")`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// The picked build is the smallest with what it needs.
			if picked := tc.fetched[1]; m.Wasm[picked].Size >= m.Wasm["extra"].Size {
				t.Fatalf("the %s build (%d bytes) is not smaller than extra (%d)", picked, m.Wasm[picked].Size, m.Wasm["extra"].Size)
			}
			mark := served.mark()
			tb := newTab(t, chromedp.WithNewBrowserContext())
			tb.open(tc.frag)
			var ok bool
			tb.eval(`new Promise((resolve) => { const t0 = Date.now(); const f = () => (`+tc.check+`) ? resolve(true) : Date.now() - t0 > 20000 ? resolve(false) : setTimeout(f, 25); f(); })`, &ok)
			if !ok {
				t.Errorf("the widget does not show its answer; body: %s", tb.text("#widget"))
			}
			var got, want []string
			for _, r := range served.since(mark) {
				if strings.HasSuffix(r.Path, ".wasm") {
					got = append(got, strings.TrimPrefix(r.Path, "/"))
				}
			}
			for _, name := range tc.fetched {
				want = append(want, m.Wasm[name].File)
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("modules fetched %v, want %v (builds %v)", got, want, tc.fetched)
			}
		})
	}
}
