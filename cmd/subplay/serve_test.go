package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
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
