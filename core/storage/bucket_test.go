package storage

import (
	"strings"
	"testing"
)

func TestCheckBucket(t *testing.T) {
	a63 := strings.Repeat("a", 63)
	tests := []struct{ name, bucket, want string }{
		{"plain", "my-archive", ""},
		{"all allowed characters", "a-b_c.d9", "info bucket-name-dots 0-8"},
		{"shortest", "abc", ""},
		{"too short", "ab", "error bucket-name-length 0-2"},
		{"one character", "a", "error bucket-name-length 0-1"},
		{"63 without dots", a63, ""},
		{"64 without dots", a63 + "a", "error bucket-name-length 0-64"},
		{"dotted up to 222", a63 + "." + a63 + "." + a63 + "." + strings.Repeat("b", 30), "info bucket-name-dots 0-222"},
		{"dotted 223", a63 + "." + a63 + "." + a63 + "." + strings.Repeat("b", 31), "error bucket-name-length 0-223"},
		{"dotted component of 64", "a." + a63 + "a", "error bucket-name-component 2-66"},
		{"dotted component of 63", "a." + a63, "info bucket-name-dots 0-65"},
		{"upper case", "My-Bucket", "error bucket-name-uppercase 0-1"},
		{"space and plus", "my bucket+x", "error bucket-name-character 2-3\nerror bucket-name-character 9-10"},
		{"run of bad characters", "a!!!b", "error bucket-name-character 1-4"},
		{"non-ASCII", "bücket", "error bucket-name-character 1-3"},
		{"starts with a dash", "-bucket", "error bucket-name-start 0-1"},
		{"starts with an underscore", "_bucket", "error bucket-name-start 0-1"},
		{"ends with a dot", "bucket.", "error bucket-name-end 6-7"},
		{"ends with an underscore", "bucket_", "error bucket-name-end 6-7"},
		{"starts with a digit", "1bucket", ""},
		{"IP address", "192.168.5.4", "error bucket-name-ip 0-11"},
		{"not an IP", "192.168.5.400", "info bucket-name-dots 0-13"},
		{"goog prefix", "goog-bucket", "error bucket-name-goog 0-4"},
		{"goog in the middle is fine", "my-goog", ""},
		{"google", "my-google-bucket", "error bucket-name-google 3-9"},
		{"google at the start", "google", "error bucket-name-goog 0-4\nerror bucket-name-google 0-6"},
		{"g00gle", "my-g00gle", "warning bucket-name-google-like 3-9"},
		{"goog1e", "goog1e-x", "error bucket-name-goog 0-4\nwarning bucket-name-google-like 0-6"},
		{"gooogle", "x-gooogle", "warning bucket-name-google-like 2-9"},
		{"9oogle", "x9oogle", "warning bucket-name-google-like 1-7"},
		{"goggles are fine", "goggles-x", ""},
		{"gs scheme", "gs://my-bucket", "error bucket-name-scheme 0-5"},
		{"gs scheme upper case", "GS://my-bucket", "error bucket-name-scheme 0-5"},
		{"gs scheme with a path", "gs://my-bucket/logs/", "error bucket-name-scheme 0-5\nerror bucket-name-path 14-20"},
		{"path without scheme", "b/logs", "error bucket-name-length 0-1\nerror bucket-name-path 1-6"},
		{"gs scheme alone", "gs://", "error bucket-name-scheme 0-5"},
		{"gs scheme and a bad name", "gs://B", "error bucket-name-scheme 0-5\nerror bucket-name-uppercase 5-6\nerror bucket-name-length 5-6"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ds := Check(Settings{Bucket: &tc.bucket})
			for i := range ds {
				if ds[i].Path != PathBucket {
					t.Errorf("path %q, want %q", ds[i].Path, PathBucket)
				}
				ds[i].Path = ""
			}
			if got := findings(ds); got != tc.want {
				t.Errorf("Check(bucket %q):\n%s\nwant:\n%s", tc.bucket, got, tc.want)
			}
		})
	}
}

func TestEmptyBucket(t *testing.T) {
	// CheckBucket reports it; Check leaves it to the rule table, for which
	// "" is a missing required field.
	if got := findings(CheckBucket("")); got != "error bucket-name-empty 0-0" {
		t.Errorf("CheckBucket(\"\") = %s", got)
	}
	if ds := Check(Settings{Bucket: ptr("")}); len(ds) != 0 {
		t.Errorf("Check(empty bucket) = %s", findings(ds))
	}
}

func TestBucketHints(t *testing.T) {
	tests := []struct{ bucket, hint string }{
		{"gs://my-bucket", `write "my-bucket"`},
		{"gs://my-bucket/", `write "my-bucket"`},
		{"My-Bucket", `write "my-bucket"`},
	}
	for _, tc := range tests {
		ds := CheckBucket(tc.bucket)
		if len(ds) == 0 || ds[0].Hint != tc.hint {
			t.Errorf("CheckBucket(%q) first hint = %v, want %q", tc.bucket, ds, tc.hint)
		}
	}
}

// TestBucketInvalidUTF8 is FuzzCheck's find: an invalid byte before a
// "google"-like word shifted the offsets of the lowered name, and the
// finding sliced past the end of the name.
func TestBucketInvalidUTF8(t *testing.T) {
	for _, name := range []string{"\xb79091e", "\xffg00gle", "a\xc3google"} {
		ds := CheckBucket(name)
		if len(ds) == 0 {
			t.Errorf("CheckBucket(%q): no finding", name)
		}
		for _, d := range ds {
			if d.Span.IsValid() && d.Span.End.Offset() > len(name) {
				t.Errorf("CheckBucket(%q): %s span %v past the name", name, d.Code, d.Span)
			}
		}
	}
}
