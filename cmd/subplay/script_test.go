package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	contract "github.com/subplay/subplay/internal/golden"
)

var updateScripts = flag.Bool("update-scripts", false, "rewrite the expected output in testdata/script/*.txtar")

// TestMain lets the scripts run subplay as a program of their own, in
// this test binary.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"subplay": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the command-line scripts in testdata/script: command
// lines with their input files and expected output, in the style of Go's
// own cmd/go tests. `exec subplay` expects exit 0, `! exec subplay` exit 1
// (the input has problems); usage errors (exit 2) are checked by their
// message on stderr.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script", UpdateScripts: *updateScripts, RequireExplicitExec: true})
}

// TestContractCLI runs the cases of the contract corpus that say which
// command makes their request, and checks that --format json prints the
// very response playground.Call gives.
func TestContractCLI(t *testing.T) {
	n := 0
	for _, c := range contract.Cases(t) {
		if c.CLI == nil {
			continue
		}
		n++
		t.Run(c.Name, func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string(nil), c.CLI...)
			for i, a := range args {
				if text, ok := c.Files[a]; ok && i > 0 && a != "op" && a != "cli" && a != "request.json" && a != "response.json" {
					p := filepath.Join(dir, a)
					if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
					args[i] = p
				}
			}
			var out, errb bytes.Buffer
			code := run(args, strings.NewReader(""), &out, &errb)
			if code == exitUsage {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			if strings.Count(out.String(), "\n") != 1 {
				t.Errorf("the output is not one line of JSON:\n%s", out.String())
			}
			c.Check(t, out.Bytes())
		})
	}
	if n == 0 {
		t.Fatal("no case of the corpus names a command")
	}
}
