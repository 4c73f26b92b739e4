package storage

import (
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/diag/diagtest"
)

// FuzzCheck feeds arbitrary settings to Check and checks what every caller
// relies on: findings point inside the field they name, a layout comes
// back exactly when the name-making fields have no errors, and its names
// obey the object rules and match its glob.
func FuzzCheck(f *testing.F) {
	seeds := [][4]string{
		{"my-archive", "prod_", "_archive", ""},
		{"gs://My-Bucket/x", "a\nb#", "x/", "YYYY-MMM"},
		{"192.168.5.4", "./../", "/part", "YYYY-MM-DD/hh_mm_ssZ"},
		{"goog-g00gle", ".well-known/acme-challenge", "", "/YYYY-MM-DDThh:mm:ss"},
		{"a." + strings.Repeat("b", 70), strings.Repeat("p", 1000), "", "YYYY-MM-DDThh_mm_ss-"},
		{"", "", "", "%Y-%m-%d"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, bucket, prefix, suffix, format string) {
		s := Settings{Bucket: &bucket, FilenamePrefix: &prefix, FilenameSuffix: &suffix, FilenameDatetimeFormat: &format}
		l, ds := Compile(s)
		values := map[string]string{PathBucket: bucket, PathPrefix: prefix, PathSuffix: suffix, PathFormat: format}
		nameErrors := false
		for _, d := range ds {
			v, ok := values[d.Path]
			if !ok {
				t.Fatalf("finding %s has path %q", d.Code, d.Path)
			}
			if p := diagtest.Problem(v, d); p != "" {
				t.Fatalf("finding %s about %q: %s", d.Code, v, p)
			}
			if d.Severity == diag.Error && d.Path != PathBucket {
				nameErrors = true
			}
		}
		if (l == nil) != nameErrors {
			t.Fatalf("layout %v with name errors %v: %s", l != nil, nameErrors, findings(ds))
		}
		if l == nil {
			return
		}
		name := l.Name(seedTime, RandomUUID())
		if len(name) != l.MaxLen() {
			t.Fatalf("name %q is %d bytes, MaxLen %d", name, len(name), l.MaxLen())
		}
		if nds := CheckObjectName(name); len(nds) > 0 {
			t.Fatalf("a valid layout made the bad name %q: %s", name, findings(nds))
		}
		if !globMatch(l.Glob(), name) {
			t.Fatalf("glob %q does not match %q", l.Glob(), name)
		}
		if got, want := len(l.Folders(seedTime, "u")), strings.Count(name, "/"); got != want {
			t.Fatalf("%d folders for %q", got, name)
		}
	})
}
