package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func TestServeNotBuilt(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"serve", "--dir", filepath.Join(t.TempDir(), "missing")}, nil, &stdout, &stderr); code != exitUsage {
		t.Fatalf("exit %d, want %d", code, exitUsage)
	}
	if !strings.Contains(stderr.String(), "not built") {
		t.Fatalf("stderr %q does not say the page is not built", stderr.String())
	}
}

func TestServeUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"unknown flag", []string{"serve", "--nope"}},
		{"extra argument", []string{"serve", "extra"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tt.args, nil, &stdout, &stderr); code != exitUsage {
				t.Fatalf("exit %d, want %d", code, exitUsage)
			}
		})
	}
}

func TestPageSource(t *testing.T) {
	built := t.TempDir()
	if err := os.MkdirAll(filepath.Join(built, "dist", "site"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(built, "dist", "site", "index.html"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		cwd      string
		dir      string
		embedded fs.FS
		want     string
	}{
		{"no page anywhere: the API alone", t.TempDir(), "", nil, ""},
		{"a clone with a build", built, "", nil, defaultSiteDir},
		{"a release binary", t.TempDir(), "", fstest.MapFS{}, embeddedName},
		{"a release binary in a clone prefers its own page", built, "", fstest.MapFS{}, embeddedName},
		{"--dir overrides the binary's page", built, "elsewhere", fstest.MapFS{}, "elsewhere"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(tt.cwd)
			saved := embeddedSite
			embeddedSite = tt.embedded
			defer func() { embeddedSite = saved }()
			if got := pageSource(tt.dir); got != tt.want {
				t.Fatalf("pageSource(%q) = %q, want %q", tt.dir, got, tt.want)
			}
		})
	}
}
