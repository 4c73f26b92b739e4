package httpapi

import (
	"bufio"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Site serves the playground built in dir (scripts/build-site) and the
// API beside it. A missing build is an error that says how to make it.
func Site(dir string) (http.Handler, error) {
	if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
		return nil, fmt.Errorf("the playground is not built (%s is missing); run scripts/build-site, or scripts/serve, which builds what is missing and then serves", filepath.Join(dir, "index.html"))
	}
	return SiteFS(os.DirFS(dir), dir)
}

// SiteFS serves a built playground held in fsys (a folder, or the copy a
// release binary embeds) and the API beside it: /v1/ and /healthz go to
// Handler, everything else to the static files. name says where fsys
// came from, for errors.
func SiteFS(fsys fs.FS, name string) (http.Handler, error) {
	st, err := newStatic(fsys, name)
	if err != nil {
		return nil, err
	}
	return withAPI(st), nil
}

// APIOnly serves the API alone, for a binary that has no built page: every
// other path answers 404 with a note saying where the page is and how to
// get it.
func APIOnly(note string) http.Handler {
	return withAPI(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintln(w, note)
	}))
}

func withAPI(rest http.Handler) http.Handler {
	api := Handler()
	mux := http.NewServeMux()
	mux.Handle("/v1/", api)
	mux.Handle("/healthz", api)
	mux.Handle("/", rest)
	return mux
}

// static serves a folder built by scripts/build-site: the headers its
// _headers file lists, and the .br or .gz twin of a file when the client
// accepts that encoding.
type static struct {
	fsys  fs.FS
	rules []headerRule
	// tags caches the ETag of files without a modification time (an
	// embedded copy), computed from their content once.
	tags sync.Map
}

func newStatic(fsys fs.FS, name string) (*static, error) {
	if _, err := fs.Stat(fsys, "index.html"); err != nil {
		return nil, fmt.Errorf("the playground is not built (%s has no index.html); run scripts/build-site, or scripts/serve, which builds what is missing and then serves", name)
	}
	rules, err := readHeaders(fsys, name)
	if err != nil {
		return nil, err
	}
	return &static{fsys: fsys, rules: rules}, nil
}

// contentTypes are set explicitly rather than from the system's MIME table,
// which differs between machines; a browser refuses to stream-compile a
// module that is not application/wasm.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".wasm": "application/wasm",
	".json": "application/json",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".ico":  "image/x-icon",
	".txt":  "text/plain; charset=utf-8",
}

// encodings in order of preference, with the suffix of their files.
var encodings = []struct{ name, ext string }{{"br", ".br"}, {"gzip", ".gz"}}

func (s *static) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := path.Clean("/" + r.URL.Path)
	switch p {
	case "/":
		p = "/index.html"
	case "/embed":
		p = "/embed.html"
	}
	base := path.Base(p)
	ctype, known := contentTypes[path.Ext(p)]
	// Build bookkeeping (_headers, the compressed twins) is not content.
	if !known || strings.HasPrefix(base, "_") || strings.HasPrefix(base, ".") {
		http.NotFound(w, r)
		return
	}
	file := strings.TrimPrefix(p, "/")
	info, err := fs.Stat(s.fsys, file)
	if err != nil || info.IsDir() {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	for _, rule := range s.rules {
		if rule.matches(p) {
			rule.apply(h)
		}
	}
	h.Set("Content-Type", ctype)

	served, encoding := file, ""
	vary := false
	for _, e := range encodings {
		ei, err := fs.Stat(s.fsys, file+e.ext)
		if err != nil || ei.IsDir() {
			continue
		}
		vary = true
		if encoding == "" && accepts(r.Header.Get("Accept-Encoding"), e.name) {
			served, encoding, info = file+e.ext, e.name, ei
		}
	}
	if vary {
		h.Add("Vary", "Accept-Encoding")
	}
	if encoding != "" {
		h.Set("Content-Encoding", encoding)
	}
	f, err := s.fsys.Open(served)
	if err != nil {
		http.Error(w, "cannot read "+p, http.StatusInternalServerError)
		return
	}
	defer f.Close()
	rs, ok := f.(io.ReadSeeker)
	if !ok {
		http.Error(w, "cannot read "+p, http.StatusInternalServerError)
		return
	}
	// A strong validator per variant, so a cache never mixes encodings.
	h.Set("ETag", strconv.Quote(s.version(served, info, rs)+"-"+encoding))
	http.ServeContent(w, r, "", info.ModTime(), rs)
}

// version identifies one file's content: its modification time and size,
// or for an embedded file (which has no time) a hash of its bytes.
func (s *static) version(name string, info fs.FileInfo, rs io.ReadSeeker) string {
	if !info.ModTime().IsZero() {
		return strconv.FormatInt(info.ModTime().UnixNano(), 36) + "-" + strconv.FormatInt(info.Size(), 36)
	}
	if v, ok := s.tags.Load(name); ok {
		return v.(string)
	}
	hash := fnv.New64a()
	if _, err := io.Copy(hash, rs); err != nil {
		return strconv.FormatInt(info.Size(), 36)
	}
	rs.Seek(0, io.SeekStart)
	v := strconv.FormatUint(hash.Sum64(), 36) + "-" + strconv.FormatInt(info.Size(), 36)
	s.tags.Store(name, v)
	return v
}

// accepts reports whether an Accept-Encoding header allows coding, honouring
// q=0 and "*".
func accepts(header, coding string) bool {
	star := false
	for part := range strings.SplitSeq(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		ok := true
		for p := range strings.SplitSeq(params, ";") {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.TrimSpace(k) == "q" {
				q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				ok = err == nil && q > 0
			}
		}
		switch name {
		case coding:
			return ok
		case "*":
			star = ok
		}
	}
	return star
}

// headerRule is one block of a _headers file (the format Cloudflare Pages
// and Netlify read): a path, exact or ending in "*", and the headers to set
// ("Name: value") or to drop ("! Name") on responses for it.
type headerRule struct {
	pattern string
	set     [][2]string
	drop    []string
}

func (r headerRule) matches(p string) bool {
	if prefix, ok := strings.CutSuffix(r.pattern, "*"); ok {
		return strings.HasPrefix(p, prefix)
	}
	return p == r.pattern
}

func (r headerRule) apply(h http.Header) {
	for _, d := range r.drop {
		h.Del(d)
	}
	for _, kv := range r.set {
		h.Set(kv[0], kv[1])
	}
}

func readHeaders(fsys fs.FS, name string) ([]headerRule, error) {
	file := path.Join(filepath.ToSlash(name), "_headers")
	f, err := fsys.Open("_headers")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s is missing: the build is incomplete; run scripts/build-site again", file)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseHeaders(f, file)
}

func parseHeaders(r io.Reader, name string) ([]headerRule, error) {
	var rules []headerRule
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		case line[0] != ' ' && line[0] != '\t':
			if !strings.HasPrefix(trimmed, "/") {
				return nil, fmt.Errorf("%s:%d: a rule starts with a path, not %q", name, n, trimmed)
			}
			rules = append(rules, headerRule{pattern: trimmed})
		case len(rules) == 0:
			return nil, fmt.Errorf("%s:%d: a header before any path", name, n)
		case strings.HasPrefix(trimmed, "!"):
			r := &rules[len(rules)-1]
			r.drop = append(r.drop, strings.TrimSpace(trimmed[1:]))
		default:
			k, v, ok := strings.Cut(trimmed, ":")
			if !ok || strings.TrimSpace(k) == "" {
				return nil, fmt.Errorf("%s:%d: expected \"Name: value\", found %q", name, n, trimmed)
			}
			r := &rules[len(rules)-1]
			r.set = append(r.set, [2]string{strings.TrimSpace(k), strings.TrimSpace(v)})
		}
	}
	return rules, sc.Err()
}
