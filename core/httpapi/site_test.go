package httpapi

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// writeSite lays out a small built site like scripts/build-site's.
func writeSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"index.html":              "<!doctype html><title>index</title>",
		"embed.html":              "<!doctype html><title>embed</title>",
		"app.0123456789.js":       "console.log('app')",
		"subplay.0123abcdef.wasm": "\x00asm\x01\x00\x00\x00",
		"subplay.js":              "export const version = 'x'",
		"_headers": "/*\n  Content-Security-Policy: default-src 'none'; frame-ancestors 'none'\n  Cache-Control: no-cache\n  X-Content-Type-Options: nosniff\n\n" +
			"/embed.html\n  ! Content-Security-Policy\n  Content-Security-Policy: default-src 'none'; frame-ancestors *\n\n" +
			"/app.0123456789.js\n  ! Cache-Control\n  Cache-Control: public, max-age=31536000, immutable\n\n" +
			"/subplay.0123abcdef.wasm\n  ! Cache-Control\n  Cache-Control: public, max-age=31536000, immutable\n",
	}
	for name, body := range files {
		write(t, filepath.Join(dir, name), []byte(body))
	}
	// Precompressed twins with recognisable bodies.
	write(t, filepath.Join(dir, "app.0123456789.js.br"), []byte("BROTLI"))
	write(t, filepath.Join(dir, "app.0123456789.js.gz"), gz(t, "console.log('app')"))
	write(t, filepath.Join(dir, "subplay.0123abcdef.wasm.gz"), gz(t, "\x00asm\x01\x00\x00\x00"))
	return dir
}

func write(t *testing.T, file string, b []byte) {
	t.Helper()
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func gz(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	io.WriteString(w, s)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestServeStatic(t *testing.T) {
	h, err := Site(writeSite(t))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, method, path, accept string
		status                     int
		ctype, encoding, cache     string
		csp                        string // a substring of the CSP; "" = no check
		body                       string // the body must contain it
		vary                       bool
	}{
		{name: "root is the page", path: "/", status: 200, ctype: "text/html; charset=utf-8", cache: "no-cache", csp: "frame-ancestors 'none'", body: "<title>index"},
		{name: "embed may be framed", path: "/embed.html", status: 200, ctype: "text/html; charset=utf-8", cache: "no-cache", csp: "frame-ancestors *", body: "embed"},
		{name: "embed without extension", path: "/embed", status: 200, csp: "frame-ancestors *", body: "embed"},
		{name: "brotli preferred", path: "/app.0123456789.js", accept: "gzip, deflate, br", status: 200, ctype: "text/javascript; charset=utf-8", encoding: "br", cache: "public, max-age=31536000, immutable", body: "BROTLI", vary: true},
		{name: "gzip when no brotli", path: "/app.0123456789.js", accept: "gzip", status: 200, encoding: "gzip", vary: true},
		{name: "br refused with q=0", path: "/app.0123456789.js", accept: "br;q=0, gzip", status: 200, encoding: "gzip", vary: true},
		{name: "identity when nothing accepted", path: "/app.0123456789.js", status: 200, body: "console.log('app')", vary: true},
		{name: "star accepts br", path: "/app.0123456789.js", accept: "*", status: 200, encoding: "br", vary: true},
		{name: "wasm type", path: "/subplay.0123abcdef.wasm", accept: "gzip, br", status: 200, ctype: "application/wasm", encoding: "gzip", cache: "public, max-age=31536000, immutable", vary: true},
		{name: "loader is revalidated", path: "/subplay.js", status: 200, ctype: "text/javascript; charset=utf-8", cache: "no-cache"},
		{name: "head", method: "HEAD", path: "/", status: 200},
		{name: "headers file is not served", path: "/_headers", status: 404},
		{name: "compressed twin is not served directly", path: "/app.0123456789.js.br", status: 404},
		{name: "missing file", path: "/nope.js", status: 404},
		{name: "dot dot is cleaned by the mux", path: "/../../etc/passwd", status: http.StatusTemporaryRedirect},
		{name: "post is refused", method: "POST", path: "/", status: 405},
		{name: "api is mounted", path: "/healthz", status: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			method := tt.method
			if method == "" {
				method = "GET"
			}
			req := httptest.NewRequest(method, tt.path, nil)
			if tt.accept != "" {
				req.Header.Set("Accept-Encoding", tt.accept)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			res := rec.Result()
			if res.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", res.StatusCode, tt.status)
			}
			check := func(header, want string) {
				t.Helper()
				if want != "" && res.Header.Get(header) != want {
					t.Errorf("%s = %q, want %q", header, res.Header.Get(header), want)
				}
			}
			check("Content-Type", tt.ctype)
			check("Cache-Control", tt.cache)
			if got := res.Header.Get("Content-Encoding"); got != tt.encoding && tt.status == 200 && tt.path != "/healthz" {
				t.Errorf("Content-Encoding = %q, want %q", got, tt.encoding)
			}
			if tt.csp != "" && !strings.Contains(res.Header.Get("Content-Security-Policy"), tt.csp) {
				t.Errorf("CSP %q lacks %q", res.Header.Get("Content-Security-Policy"), tt.csp)
			}
			if got := strings.Contains(res.Header.Get("Vary"), "Accept-Encoding"); got != tt.vary && tt.status == 200 && tt.path != "/healthz" {
				t.Errorf("Vary has Accept-Encoding = %v, want %v", got, tt.vary)
			}
			body, _ := io.ReadAll(res.Body)
			if tt.body != "" && !strings.Contains(string(body), tt.body) {
				t.Errorf("body %q lacks %q", body, tt.body)
			}
			if method == "HEAD" && len(body) != 0 {
				t.Errorf("HEAD answered with a body")
			}
		})
	}
}

func TestStaticStaysInside(t *testing.T) {
	dir := writeSite(t)
	st, err := newStatic(os.DirFS(dir), dir)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(filepath.Dir(dir), "secret.txt"), []byte("secret"))
	for _, p := range []string{"/../secret.txt", "/a/../../secret.txt", "/..%2fsecret.txt"} {
		req := httptest.NewRequest("GET", "/", nil)
		req.URL.Path = p
		rec := httptest.NewRecorder()
		st.ServeHTTP(rec, req)
		if rec.Code != http.StatusNotFound || strings.Contains(rec.Body.String(), "secret") {
			t.Errorf("%s: status %d body %q, want 404", p, rec.Code, rec.Body.String())
		}
	}
}

func TestServeConditional(t *testing.T) {
	h, err := Site(writeSite(t))
	if err != nil {
		t.Fatal(err)
	}
	get := func(etag string) *http.Response {
		req := httptest.NewRequest("GET", "/app.0123456789.js", nil)
		req.Header.Set("Accept-Encoding", "br")
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Result()
	}
	first := get("")
	etag := first.Header.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	if got := get(etag).StatusCode; got != http.StatusNotModified {
		t.Fatalf("revalidation: status %d, want 304", got)
	}
}

func TestAccepts(t *testing.T) {
	tests := []struct {
		header, coding string
		want           bool
	}{
		{"", "br", false},
		{"br", "br", true},
		{"gzip, deflate, br, zstd", "br", true},
		{"gzip, deflate", "br", false},
		{"BR", "br", true},
		{"br;q=0", "br", false},
		{"br;q=0.5", "br", true},
		{"br; q=0.0", "br", false},
		{"*", "gzip", true},
		{"*;q=0, gzip", "br", false},
		{"*;q=0, gzip", "gzip", true},
		{"br;q=bad", "br", false},
	}
	for _, tt := range tests {
		t.Run(tt.header+"/"+tt.coding, func(t *testing.T) {
			if got := accepts(tt.header, tt.coding); got != tt.want {
				t.Fatalf("accepts(%q, %q) = %v, want %v", tt.header, tt.coding, got, tt.want)
			}
		})
	}
}

func TestParseHeaders(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantErr string
		path    string // a path to apply the rules to
		want    map[string]string
	}{
		{name: "set and drop", in: "/*\n  A: 1\n  B: 2\n\n/x\n  ! A\n  C: 3\n", path: "/x", want: map[string]string{"A": "", "B": "2", "C": "3"}},
		{name: "splat only", in: "/*\n  A: 1\n/x\n  A: 9\n", path: "/y", want: map[string]string{"A": "1"}},
		{name: "comments and colons in values", in: "# c\n/*\n  Content-Security-Policy: a 'self'; b https://x:1\n", path: "/", want: map[string]string{"Content-Security-Policy": "a 'self'; b https://x:1"}},
		{name: "header before path", in: "  A: 1\n", wantErr: "before any path"},
		{name: "path without slash", in: "x\n  A: 1\n", wantErr: "starts with a path"},
		{name: "header without colon", in: "/*\n  A\n", wantErr: "Name: value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules, err := parseHeaders(strings.NewReader(tt.in), "_headers")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			h := http.Header{}
			for _, r := range rules {
				if r.matches(tt.path) {
					r.apply(h)
				}
			}
			for k, v := range tt.want {
				if h.Get(k) != v {
					t.Errorf("%s = %q, want %q", k, h.Get(k), v)
				}
			}
		})
	}
}

func FuzzParseHeaders(f *testing.F) {
	for _, seed := range []string{
		"/*\n  A: 1\n",
		"/x\n  ! A\n  B: 2\n\n# comment\n/y*\n\tC: d: e\n",
		"  A: 1\n",
		"x\n",
		"/*\n  A\n",
		"",
	} {
		f.Add(seed, "/x")
	}
	f.Fuzz(func(t *testing.T, in, p string) {
		rules, err := parseHeaders(strings.NewReader(in), "_headers")
		if err != nil {
			return
		}
		h := http.Header{}
		for _, r := range rules {
			if r.matches(p) {
				r.apply(h)
			}
		}
	})
}

func FuzzAccepts(f *testing.F) {
	for _, seed := range []string{"", "br", "gzip, deflate, br, zstd", "br;q=0", "*;q=0, gzip", "br;q=bad;;", ",,;"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, header string) {
		// "*" alone accepts everything; q=0 on every part accepts nothing.
		for _, c := range []string{"br", "gzip"} {
			accepts(header, c)
		}
		if header == "*" && !accepts(header, "br") {
			t.Fatal(`"*" refused br`)
		}
	})
}

func TestSiteNotBuilt(t *testing.T) {
	_, err := Site(filepath.Join(t.TempDir(), "missing"))
	if err == nil || !strings.Contains(err.Error(), "scripts/build-site") {
		t.Fatalf("error %v, want one that says how to build", err)
	}
}

// TestSiteFromMemory serves a copy without modification times (what a
// release binary embeds): the files and their compressed twins as from a
// folder, with an ETag that follows the content.
func TestSiteFromMemory(t *testing.T) {
	fsys := fstest.MapFS{
		"index.html":    {Data: []byte("<!doctype html><title>x</title>")},
		"index.html.gz": {Data: []byte("gz")},
		"_headers":      {Data: []byte("/*\n  X-Test: yes\n")},
	}
	h, err := SiteFS(fsys, "embedded")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, encoding, body, header string
		code                               int
	}{
		{"page", "/", "", "<!doctype html><title>x</title>", "yes", 200},
		{"gzip twin", "/", "gzip", "gz", "yes", 200},
		{"headers file hidden", "/_headers", "", "", "", 404},
		{"api beside it", "/healthz", "", "", "", 200},
	}
	etags := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", tt.path, nil)
			req.Header.Set("Accept-Encoding", tt.encoding)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.code {
				t.Fatalf("status %d, want %d", rec.Code, tt.code)
			}
			if tt.body != "" && rec.Body.String() != tt.body {
				t.Errorf("body %q, want %q", rec.Body.String(), tt.body)
			}
			if got := rec.Header().Get("X-Test"); got != tt.header {
				t.Errorf("X-Test %q, want %q", got, tt.header)
			}
			if tag := rec.Header().Get("ETag"); tt.path == "/" {
				if tag == "" || etags[tag] {
					t.Errorf("ETag %q empty or shared between variants", tag)
				}
				etags[tag] = true
			}
		})
	}
}

func TestAPIOnly(t *testing.T) {
	h := APIOnly("no page in this build; see --dir")
	tests := []struct {
		name, path string
		code       int
		body       string
	}{
		{"page answers with the note", "/", 404, "no page in this build"},
		{"api works", "/v1/version", 200, `"version"`},
		{"health", "/healthz", 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", tt.path, nil))
			if rec.Code != tt.code || !strings.Contains(rec.Body.String(), tt.body) {
				t.Fatalf("status %d body %q, want %d containing %q", rec.Code, rec.Body.String(), tt.code, tt.body)
			}
		})
	}
}
