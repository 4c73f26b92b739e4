//go:build !js

package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// celExtras are parts of cel-go that core/filter/celfilter avoids: the
// cel package and the standard library it builds on pull in protobuf's
// descriptor tooling and text/template, about 2 MB of module and a third
// of the module's start-up.
var celExtras = []string{"github.com/google/cel-go/cel", "github.com/google/cel-go/common/stdlib",
	"google.golang.org/protobuf/reflect/protodesc", "text/template"}

// engines are the heavy engines only the extra build links: the
// JavaScript engine of UDFs (core/jsengine, QuickJS-ng's binary; tag noudf
// leaves it out) and Terraform's HCL (tag nohcl). They are left out of
// every other build, and the extra build must link each.
var engines = []string{"github.com/subplay/subplay/core/jsengine", "github.com/hashicorp/hcl/v2"}

// lean are packages no page build but extra links: log came only through
// modern-go/concurrent's loggers (json-iterator's dependency), which
// scripts/build-wasm drops (concurrent_map).
var lean = []string{"net/http", "log"}

// patchedOut are modules scripts/build-wasm's patches take out of every
// build: json-iterator, which hamba/avro used to read and write schema
// JSON (avro_json: encoding/json does it, about 0.1 MB brotli less in each
// build with hamba/avro), and with it modern-go/concurrent; mapstructure,
// which hamba/avro's parser decoded each schema object with (avro_decode:
// a written-out decoder does it); protojson, which only structpb's JSON
// methods and cel-go's message-to-JSON conversion linked
// (protobuf_structpb, cel_object_json).
var patchedOut = []string{"github.com/json-iterator/", "github.com/modern-go/concurrent", "github.com/go-viper/mapstructure/",
	"google.golang.org/protobuf/encoding/protojson"}

// builds are the modules the site ships (scripts/build-wasm --list), with
// import path prefixes each must leave out and some it must have.
var builds = []struct {
	name   string
	tags   string
	banned []string
	needed []string
	// onlyVia holds packages the build lists but must import only from
	// the packages given, whose uses of them the linker drops.
	onlyVia map[string][]string
}{
	{"full", "noudf,nohcl", slices.Concat(lean, patchedOut, celExtras, engines),
		[]string{"github.com/google/cel-go/", "github.com/hamba/avro/"}, celRegexp},
	{"cel", "noavro,noudf,nohcl",
		slices.Concat(lean, patchedOut, []string{"github.com/hamba/avro/", "github.com/modern-go/reflect2"}, celExtras, engines),
		[]string{"github.com/google/cel-go/"}, celRegexp},
	{"avro", "nocel,noudf,nohcl", slices.Concat(lean, patchedOut, []string{"github.com/google/cel-go/", "google.golang.org/protobuf/", "regexp"}, engines),
		[]string{"github.com/hamba/avro/"}, nil},
	{"min", "nocel,noavro,noudf,nohcl",
		// regexp: only go-yaml's initialiser used it, and the patch
		// (patch/yaml_floats.go.txt) takes that out.
		slices.Concat(lean, patchedOut, []string{"github.com/google/cel-go/", "google.golang.org/protobuf/", "github.com/hamba/avro/", "github.com/modern-go/reflect2", "regexp"}, engines),
		nil, nil},
	{"extra", "", slices.Concat([]string{"net/http"}, patchedOut, celExtras),
		slices.Concat([]string{"github.com/google/cel-go/", "github.com/hamba/avro/"}, engines), nil},
}

// celRegexp: cel-go's parser and protobuf's JSON tokenizer compiled
// regular expressions in their initialisers, which kept regexp and the
// unicode tables in every build with cel-go; scripts/build-wasm patches
// them out (patch/cel_parser.go.txt, patch/protobuf_json_token.go.txt).
// What still imports regexp is the CEL function matches() (in
// common/types and the interpreter's optimisation of it), which
// subplay's filters never call, so the linker drops it.
var celRegexp = map[string][]string{
	"regexp": {"github.com/google/cel-go/common/types", "github.com/google/cel-go/interpreter"},
}

// TestBuildsLeaveOutHeavyPackages checks what each build of the module
// links, because that is what its users download: the docs embeds load the
// smaller builds only as long as these packages stay out of them.
// It lists them with the patched modules scripts/build-wasm builds with.
func TestBuildsLeaveOutHeavyPackages(t *testing.T) {
	modfile := patchedModFile(t)
	for _, tt := range builds {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command("go", "list", "-modfile", modfile, "-deps", "-tags", tt.tags,
				"-f", "{{.ImportPath}} {{join .Imports \" \"}}", ".")
			cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("go list: %v", err)
			}
			var deps []string
			for line := range strings.Lines(string(out)) {
				pkg, imports, _ := strings.Cut(strings.TrimSpace(line), " ")
				deps = append(deps, pkg)
				for _, imp := range strings.Fields(imports) {
					if via, ok := tt.onlyVia[imp]; ok && !slices.Contains(via, pkg) {
						t.Errorf("the %s build links %s through %s (only %v may import it)", tt.name, imp, pkg, via)
					}
				}
			}
			has := func(prefix string) bool {
				return slices.ContainsFunc(deps, func(d string) bool { return strings.HasPrefix(d, prefix) })
			}
			for _, b := range tt.banned {
				if has(b) {
					t.Errorf("the %s build links %s", tt.name, b)
				}
			}
			for _, n := range tt.needed {
				if !has(n) {
					t.Errorf("the %s build does not link %s; is the operation that needs it gone?", tt.name, n)
				}
			}
		})
	}
}

// TestShippedBuildsAreChecked keeps the table above and the builds
// scripts/build-wasm ships in step.
func TestShippedBuildsAreChecked(t *testing.T) {
	out, err := exec.Command("../../scripts/build-wasm", "--list").Output()
	if err != nil {
		t.Fatalf("scripts/build-wasm --list: %v", err)
	}
	var want []string
	for _, b := range builds {
		want = append(want, b.name+":"+b.tags)
	}
	if got := strings.Fields(string(out)); !slices.Equal(got, want) {
		t.Errorf("scripts/build-wasm ships %v; this test checks %v", got, want)
	}
}
