package golden

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// The contract corpus: one txtar archive per request, in
// core/playground/testdata/contract, run through every entry (the
// playground, the HTTP handler natively and in workerd, the WebAssembly
// bridge, the CLI), so all answer a request with the same bytes.
//
// An archive holds:
//
//	-- op --             the operation
//	-- request.json --   the request; a string "@NAME" is replaced by the
//	                     text of the archive's file NAME (the user's input)
//	-- response.json --  the response, indented (written by -update)
//	-- NAME --           input files
//
//	-- cli --            optionally, the arguments of the subplay command
//	                     that makes the same request (a JSON array), run
//	                     in a directory holding the input files
//
// Its comment says what the case shows; a line "volatile: KEY ..." names
// top-level keys of the response whose values depend on the build (the
// version), compared as "*".

// ContractDir is the directory of the corpus.
func ContractDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "core", "playground", "testdata", "contract")
}

// Case is one request of the corpus.
type Case struct {
	Name     string
	Op       string
	Request  []byte // with the input files in place
	Response []byte // as the archive has it (indented JSON)
	CLI      []string
	Files    map[string]string // every file of the archive
	volatile []string
	path     string
	archive  *txtar.Archive
}

// Cases reads the corpus.
func Cases(t testing.TB) []*Case {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(ContractDir(), "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no contract cases in %s (%v)", ContractDir(), err)
	}
	sort.Strings(paths)
	var cases []*Case
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		c := &Case{Name: strings.TrimSuffix(filepath.Base(p), ".txtar"), path: p, archive: a}
		files := map[string]string{}
		for _, f := range a.Files {
			files[f.Name] = string(f.Data)
		}
		c.Files = files
		for _, line := range strings.Split(string(a.Comment), "\n") {
			if v, ok := strings.CutPrefix(line, "volatile:"); ok {
				c.volatile = strings.Fields(v)
			}
		}
		if cli, ok := files["cli"]; ok {
			if err := json.Unmarshal([]byte(cli), &c.CLI); err != nil {
				t.Fatalf("%s: cli: %v", p, err)
			}
		}
		c.Op = strings.TrimSpace(files["op"])
		if c.Op == "" {
			t.Fatalf("%s: no op", p)
		}
		var req any
		if err := json.Unmarshal([]byte(files["request.json"]), &req); err != nil {
			t.Fatalf("%s: request.json: %v", p, err)
		}
		if c.Request, err = json.Marshal(substitute(req, files)); err != nil {
			t.Fatal(err)
		}
		c.Response = []byte(files["response.json"])
		cases = append(cases, c)
	}
	return cases
}

// substitute puts the archive's files in place of "@NAME" strings.
func substitute(v any, files map[string]string) any {
	switch v := v.(type) {
	case string:
		if name, ok := strings.CutPrefix(v, "@"); ok {
			if text, ok := files[name]; ok {
				return text
			}
		}
	case map[string]any:
		for k, x := range v {
			v[k] = substitute(x, files)
		}
	case []any:
		for i, x := range v {
			v[i] = substitute(x, files)
		}
	}
	return v
}

// Indent writes a response as the archives hold it.
func Indent(t testing.TB, got []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := json.Indent(&b, bytes.TrimSpace(got), "", "  "); err != nil {
		t.Fatalf("the response is not JSON: %v\n%s", err, got)
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// Check compares a response with the case's, or writes it into the archive
// with -update. Responses are compared after indenting, which is one to
// one: equal indented texts mean equal bytes.
func (c *Case) Check(t testing.TB, got []byte) {
	t.Helper()
	ind := Indent(t, c.mask(t, got))
	if *update {
		found := false
		for i := range c.archive.Files {
			if c.archive.Files[i].Name == "response.json" {
				c.archive.Files[i].Data, found = ind, true
			}
		}
		if !found {
			c.archive.Files = append(c.archive.Files, txtar.File{Name: "response.json", Data: ind})
		}
		if err := os.WriteFile(c.path, txtar.Format(c.archive), 0o644); err != nil {
			t.Fatal(err)
		}
		c.Response = ind
		return
	}
	compare(t, c.path, string(ind), string(c.Response))
}

// mask replaces the values of the case's volatile keys with "*".
func (c *Case) mask(t testing.TB, got []byte) []byte {
	if len(c.volatile) == 0 {
		return got
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(got, &m); err != nil {
		t.Fatalf("the response is not a JSON object: %v\n%s", err, got)
	}
	for _, k := range c.volatile {
		if _, ok := m[k]; !ok {
			t.Fatalf("the response has no volatile key %q", k)
		}
		m[k] = json.RawMessage(`"*"`)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
