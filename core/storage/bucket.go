package storage

import (
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
)

// Bucket name limits (rules.md table 7, [GCSb]).
const (
	MinBucketLen       = 3
	MaxBucketLen       = 63  // without dots
	MaxDottedBucketLen = 222 // with dots
	MaxBucketComponent = 63  // each dot-separated part
)

// CheckBucket checks a bucket name against the Cloud Storage naming rules.
// Spans are byte offsets into name; diagnostics carry no Path.
func CheckBucket(name string) []diag.Diagnostic {
	var ds []diag.Diagnostic
	add := func(sev diag.Severity, start, end int, code, msg, hint string) {
		ds = append(ds, diag.Diagnostic{Severity: sev, Code: code, Message: msg, Hint: hint, Span: diag.SpanOf(start, end)})
	}
	if name == "" {
		add(diag.Error, 0, 0, "bucket-name-empty", "the bucket name is empty", "name an existing bucket, e.g. \"my-archive\"")
		return ds
	}
	// The rest of the checks run on the name after any "gs://", so one
	// mistake does not hide the others.
	off := 0
	if len(name) >= 5 && strings.EqualFold(name[:5], "gs://") {
		rest := strings.TrimRight(name[5:], "/")
		hint := "give the bare bucket name"
		if rest != "" && !strings.Contains(rest, "/") {
			hint = "write " + diag.Quote(strings.ToLower(rest))
		}
		add(diag.Error, 0, 5, "bucket-name-scheme", "the bucket is named without \"gs://\"", hint)
		off = 5
	}
	b := name[off:]
	if i := strings.IndexByte(b, '/'); i >= 0 {
		add(diag.Error, off+i, len(name), "bucket-name-path", "a bucket name holds no \"/\"",
			"put folders in filenamePrefix, e.g. \"logs/\"")
		b = b[:i]
	}
	if b == "" {
		return ds
	}

	if i := strings.IndexFunc(b, func(r rune) bool { return r >= 'A' && r <= 'Z' }); i >= 0 {
		add(diag.Error, off+i, off+i+1, "bucket-name-uppercase", "bucket names are lower case",
			"write "+diag.Quote(strings.ToLower(b)))
	}
	bad := 0
	for i := 0; i < len(b); {
		if bucketByte(b[i]) || b[i] >= 'A' && b[i] <= 'Z' {
			i++
			continue
		}
		j := i + 1
		for j < len(b) && !bucketByte(b[j]) && !(b[j] >= 'A' && b[j] <= 'Z') {
			j++
		}
		if bad++; bad <= 5 {
			add(diag.Error, off+i, off+j, "bucket-name-character", diag.Quote(b[i:j])+" is not allowed in a bucket name",
				"use lower-case letters, digits, dashes (-), underscores (_) and dots (.)")
		}
		i = j
	}

	dotted := strings.Contains(b, ".")
	switch {
	case len(b) < MinBucketLen:
		add(diag.Error, off, off+len(b), "bucket-name-length",
			"the bucket name has "+strconv.Itoa(len(b))+" characters; at least 3 are needed", "")
	case !dotted && len(b) > MaxBucketLen:
		add(diag.Error, off, off+len(b), "bucket-name-length",
			"the bucket name has "+strconv.Itoa(len(b))+" characters; at most 63 are allowed without dots", "names with dots may have up to 222, in parts of at most 63")
	case dotted && len(b) > MaxDottedBucketLen:
		add(diag.Error, off, off+len(b), "bucket-name-length",
			"the bucket name has "+strconv.Itoa(len(b))+" characters; at most 222 are allowed", "")
	}
	if dotted {
		start := 0
		for _, part := range strings.Split(b, ".") {
			if len(part) > MaxBucketComponent {
				add(diag.Error, off+start, off+start+len(part), "bucket-name-component",
					"this dot-separated part has "+strconv.Itoa(len(part))+" characters; at most 63 are allowed", "")
			}
			start += len(part) + 1
		}
	}
	// The span covers the whole first or last character, not one byte of it.
	if !alnum(b[0]) {
		_, n := utf8.DecodeRuneInString(b)
		add(diag.Error, off, off+n, "bucket-name-start", "a bucket name starts with a letter or digit", "")
	}
	if _, n := utf8.DecodeLastRuneInString(b); len(b) > n && !alnum(b[len(b)-1]) {
		add(diag.Error, off+len(b)-n, off+len(b), "bucket-name-end", "a bucket name ends with a letter or digit", "")
	}
	if a, err := netip.ParseAddr(b); err == nil && a.Is4() {
		add(diag.Error, off, off+len(b), "bucket-name-ip", "a bucket cannot be named like an IP address", "")
	}

	// Offsets into lower must be offsets into b: strings.ToLower would turn
	// an invalid byte into a three-byte U+FFFD and shift every one after it.
	lower := asciiLower(b)
	if strings.HasPrefix(lower, "goog") {
		add(diag.Error, off, off+4, "bucket-name-goog", "bucket names cannot start with \"goog\"", "Cloud Storage reserves them for Google")
	}
	if i := strings.Index(lower, "google"); i >= 0 {
		add(diag.Error, off+i, off+i+6, "bucket-name-google", "bucket names cannot contain \"google\"", "Cloud Storage reserves them for Google")
	} else if i, n := googleLike(lower); n > 0 {
		add(diag.Warning, off+i, off+i+n, "bucket-name-google-like",
			strconv.Quote(b[i:i+n])+" looks like \"google\"; Cloud Storage refuses close misspellings of it",
			"choose a name without it")
	}
	if dotted && !diag.HasErrors(ds) {
		add(diag.Info, off, off+len(b), "bucket-name-dots",
			"a bucket name with dots is a domain name: creating it required verifying that domain", "")
	}
	return ds
}

// asciiLower lowers ASCII letters only, byte for byte, so it keeps the
// length and every offset of s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func bucketByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
}

func alnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// googleLike finds a spelling of "google" with digits for letters ("g00gle",
// "goog1e") or a doubled or dropped letter ("gooogle", "gogle"). The
// service's list of misspellings is not published, so this is a warning.
func googleLike(s string) (at, n int) {
	for i := 0; i < len(s); i++ {
		if s[i] != 'g' && s[i] != '9' {
			continue
		}
		// Normalise the next bytes the way a misspelling would.
		var norm []byte
		j := i
		for ; j < len(s) && len(norm) < 8; j++ {
			c := s[j]
			switch c {
			case '0':
				c = 'o'
			case '1', 'i':
				c = 'l'
			case '3':
				c = 'e'
			case '9':
				c = 'g'
			}
			if c < 'a' || c > 'z' {
				break
			}
			norm = append(norm, c)
		}
		for _, w := range [...]string{"google", "gooogle", "gogle", "googel", "goolge"} {
			if strings.HasPrefix(string(norm), w) {
				return i, len(w)
			}
		}
	}
	return 0, 0
}
