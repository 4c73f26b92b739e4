package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// subplayCalls returns the argument lists of each "subplay validate"
// command line of a shell script, with "${paths[@]}" (the action's
// paths) standing for path.
func subplayCalls(script, path string) [][]string {
	var calls [][]string
	for _, line := range strings.Split(script, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "subplay" {
			continue
		}
		var args []string
		for _, w := range f[1:] {
			if strings.HasPrefix(w, ">") || w == "||" {
				break
			}
			if w == `"${paths[@]}"` {
				w = path
			}
			args = append(args, w)
		}
		calls = append(calls, args)
	}
	return calls
}

// TestAction: action.yml is a composite action whose steps run subplay
// with arguments the CLI accepts, write SARIF for the upload step, and
// upload it with github/codeql-action/upload-sarif.
func TestAction(t *testing.T) {
	b, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct{ Default string } `yaml:"inputs"`
		Runs   struct {
			Using string `yaml:"using"`
			Steps []struct {
				ID   string            `yaml:"id"`
				Uses string            `yaml:"uses"`
				Run  string            `yaml:"run"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(b, &action); err != nil {
		t.Fatal(err)
	}
	if action.Runs.Using != "composite" {
		t.Fatalf("runs.using is %q, want composite", action.Runs.Using)
	}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"infra/a.json": `{"name": "projects/shop-prod/subscriptions/orders", "topic": "projects/shop-prod/topics/orders", "ackDeadlineSeconds": 5}`})
	var calls [][]string
	upload := false
	for _, s := range action.Runs.Steps {
		calls = append(calls, subplayCalls(s.Run, "infra")...)
		if strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@") {
			upload = strings.Contains(s.With["sarif_file"], "steps.validate.outputs.sarif")
		}
	}
	if !upload {
		t.Error("no step uploads the SARIF file with github/codeql-action/upload-sarif")
	}
	if len(calls) < 2 {
		t.Fatalf("the action runs subplay %d times, want a SARIF run and an annotations run", len(calls))
	}
	formats := map[string]bool{}
	for _, args := range calls {
		code, out, errs := inDir(t, dir, args...)
		if code != exitFound {
			t.Errorf("subplay %s: exit %d, want %d (an error in the file): %s", strings.Join(args, " "), code, exitFound, errs)
		}
		for i, a := range args {
			if a == "--format" && i+1 < len(args) {
				formats[args[i+1]] = true
			}
		}
		if strings.Contains(strings.Join(args, " "), "sarif") && !strings.Contains(out, `"uri": "infra/a.json"`) {
			t.Errorf("the SARIF run does not name the file relative to the working directory:\n%s", out)
		}
	}
	if !formats["sarif"] || !formats["github"] {
		t.Errorf("the action's formats are %v, want sarif and github", formats)
	}
	if action.Inputs["paths"].Default != "." {
		t.Errorf("the paths input defaults to %q, want .", action.Inputs["paths"].Default)
	}
}

// TestPreCommitHook: each hook of .pre-commit-hooks.yaml runs a command
// the CLI accepts on the files its pattern picks, and passes over a
// changed file that holds no subscription.
func TestPreCommitHook(t *testing.T) {
	b, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID            string   `yaml:"id"`
		Entry         string   `yaml:"entry"`
		Args          []string `yaml:"args"`
		Files         string   `yaml:"files"`
		PassFilenames *bool    `yaml:"pass_filenames"`
	}
	if err := yaml.Unmarshal(b, &hooks); err != nil {
		t.Fatal(err)
	}
	if len(hooks) == 0 {
		t.Fatal("no hook")
	}
	for _, h := range hooks {
		files := regexp.MustCompile(h.Files)
		for name, want := range map[string]bool{"infra/main.tf": true, "live/prod/terragrunt.hcl": true, "subs.yaml": true, "deploy.sh": true, "a.json": true,
			"README.md": false, "main.go": false, "x.hcl": false} {
			if files.MatchString(name) != want {
				t.Errorf("%s: files pattern picks %s: %v, want %v", h.ID, name, !want, want)
			}
		}
		entry := strings.Fields(h.Entry)
		if len(entry) < 2 || entry[0] != "subplay" {
			t.Fatalf("%s: entry %q does not run subplay", h.ID, h.Entry)
		}
		dir := t.TempDir()
		writeTree(t, dir, map[string]string{
			"package.json": `{"name": "tools"}`,
			"subs.yaml":    "name: projects/shop-prod/subscriptions/orders\ntopic: projects/shop-prod/topics/orders\nackDeadlineSeconds: 5\n",
		})
		for _, changed := range [][]string{{"package.json"}, {"package.json", "subs.yaml"}} {
			args := append(append(entry[1:len(entry):len(entry)], h.Args...), changed...)
			code, out, errs := inDir(t, dir, args...)
			want := exitOK
			if len(changed) > 1 {
				want = exitFound
			}
			if code != want {
				t.Errorf("%s on %v: exit %d, want %d:\n%s%s", h.ID, changed, code, want, out, errs)
			}
		}
		if h.PassFilenames != nil && !*h.PassFilenames {
			t.Errorf("%s: pass_filenames is false, but the entry checks the files it is given", h.ID)
		}
	}
}
