//go:build browser

package sitetest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The payloads run code if any of them is ever parsed as HTML.
const (
	xssImg    = `<img src=x onerror="window.__xss=(window.__xss||0)+1">`
	xssScript = `<script>window.__xss=(window.__xss||0)+1</script>`
)

func TestXSSIsText(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	cfg := `{
  "name": "projects/my-project/subscriptions/` + strings.ReplaceAll(xssImg, `"`, `\"`) + `",
  "topic": "projects/my-project/topics/orders",
  "labels": {"` + strings.ReplaceAll(xssScript, `"`, `\"`) + `": "x"},
  "filter": "attributes.a = \"` + strings.ReplaceAll(strings.ReplaceAll(xssImg, `\`, `\\`), `"`, `\\\"`) + `\""
}
`
	tb.setConfig(cfg)
	n := tb.rendered()
	msgs := `[{"text": "` + strings.ReplaceAll(xssScript, `"`, `\"`) + `", "attributes": {"` + strings.ReplaceAll(xssScript, `"`, `\"`) + `": "` + strings.ReplaceAll(xssImg, `"`, `\"`) + `"}}]`
	tb.run(chromedp.Click(chromedp.CSS(`#tab-filter`)))
	tb.waitRender(n)
	// Type the messages into their editor.
	n = tb.rendered()
	tb.eval(`window.subplayPage.setMessages(`+jsString(msgs)+`), true`, nil)
	tb.waitRender(n)
	tb.clickTab("settings")

	var xss any
	tb.eval(`window.__xss ?? null`, &xss)
	if xss != nil {
		t.Fatalf("a payload ran: window.__xss = %v", xss)
	}
	var imgs, scripts int
	// CodeMirror's own empty images (cm-widgetBuffer) are not from input.
	tb.eval(`document.querySelectorAll("img:not(.cm-widgetBuffer), [onerror]").length`, &imgs)
	tb.eval(`document.querySelectorAll("body script").length`, &scripts)
	if imgs != 0 || scripts != 0 {
		t.Errorf("the page grew %d img and %d script elements", imgs, scripts)
	}
	// The payloads are on the page, as text.
	var body string
	tb.eval(`document.getElementById("panel-settings").textContent + document.getElementById("diagnostics").textContent`, &body)
	if !strings.Contains(body, "<img src=x") {
		t.Errorf("the name with markup is not shown as text")
	}
	tb.clickTab("filter")
	var results string
	tb.eval(`document.querySelector("#panel-filter").textContent`, &results)
	if !strings.Contains(results, "<script>") {
		t.Errorf("the attribute with markup is not shown as text: %q", results)
	}
	tb.screenshot("page-xss")
}

func TestXSSInEmbed(t *testing.T) {
	tb := newTab(t)
	tb.open(fragment("widget", "filter", "filter", `attributes.a = "`+strings.ReplaceAll(xssImg, `"`, `\"`)+`"`,
		"messages", `[{"text":"x","attributes":{"`+strings.ReplaceAll(xssScript, `"`, `\"`)+`":"v"}}]`, "title", xssImg))
	var xss any
	tb.eval(`window.__xss ?? null`, &xss)
	if xss != nil {
		t.Fatalf("a payload ran: window.__xss = %v", xss)
	}
	if title := tb.text(".widget-title"); title != xssImg {
		t.Errorf("title %q, want the payload as text", title)
	}
}

// TestCSPBlocksInlineCode checks that the policy is really in force: an
// injected inline script and eval are refused.
func TestCSPBlocksInlineCode(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	var res struct {
		Inline any  `json:"inline"`
		Eval   bool `json:"eval"`
	}
	tb.evalStrict(`(() => {
		const s = document.createElement("script");
		s.textContent = "window.__inline = 1";
		document.head.append(s);
		let evalRan = false;
		try { eval("evalRan = true"); } catch (e) {}
		return {inline: window.__inline ?? null, eval: evalRan};
	})()`, &res)
	if res.Inline != nil || res.Eval {
		t.Errorf("the CSP let code run: %+v", res)
	}
	// The refusals are logged as errors; they are the point of this test.
	if p := tb.takeProblems(); len(p) == 0 {
		t.Error("no CSP violation was reported")
	}
}

func TestSecurityHeaders(t *testing.T) {
	tests := []struct {
		path           string
		frameAncestors string
	}{
		{"", "frame-ancestors 'none'"},
		{"embed.html", "frame-ancestors *"},
	}
	for _, tt := range tests {
		t.Run("/"+tt.path, func(t *testing.T) {
			res, err := http.Get(baseURL + tt.path)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			csp := res.Header.Get("Content-Security-Policy")
			for _, want := range []string{"default-src 'none'", "script-src 'self' 'wasm-unsafe-eval'", tt.frameAncestors} {
				if !strings.Contains(csp, want) {
					t.Errorf("CSP %q lacks %q", csp, want)
				}
			}
			for _, bad := range []string{"'unsafe-eval'", "script-src 'self' 'wasm-unsafe-eval' 'unsafe-inline'", "*.", "http:"} {
				if strings.Contains(csp, bad) {
					t.Errorf("CSP %q allows %q", csp, bad)
				}
			}
			if res.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Error("no X-Content-Type-Options: nosniff")
			}
			if cc := res.Header.Get("Cache-Control"); cc != "no-cache" {
				t.Errorf("HTML Cache-Control %q", cc)
			}
			// Cross-origin isolation (the page shares memory with the core's
			// worker; an embed gets it only inside an isolated parent).
			for h, want := range map[string]string{"Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp"} {
				if got := res.Header.Get(h); got != want {
					t.Errorf("%s %q, want %q", h, got, want)
				}
			}
		})
	}
}

func jsString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
