package storage

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
)

// MaxObjectName is the longest object name Cloud Storage accepts, in bytes
// of UTF-8 (rules.md table 7, [GCSo]).
const MaxObjectName = 1024

// acmePrefix is reserved by Cloud Storage for domain validation.
const acmePrefix = ".well-known/acme-challenge/"

// maxCharFindings caps the findings about single characters of one field
// (see limits.CharFindings).
const maxCharFindings = limits.CharFindings

// checkPart checks the characters of a prefix or suffix, which become part
// of every object name. Spans are byte offsets into s.
func checkPart(s string) []diag.Diagnostic {
	var ds []diag.Diagnostic
	add := func(sev diag.Severity, start, end int, code, msg, hint string) {
		ds = append(ds, diag.Diagnostic{Severity: sev, Code: code, Message: msg, Hint: hint, Span: diag.SpanOf(start, end)})
	}
	// Errors and warnings are capped apart: ten awkward "#" before an
	// invalid byte must not hide the error that makes the layout unusable.
	var errs, warns int
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		var sev diag.Severity
		var code, msg, hint string
		switch {
		case r == utf8.RuneError && n == 1:
			sev, code, msg, hint = diag.Error, "object-name-utf8", "object names must be valid UTF-8", "remove the byte "+strconv.Quote(s[i:i+1])
		case r == '\r' || r == '\n':
			sev, code, msg, hint = diag.Error, "object-name-newline", "object names cannot contain a line break", "remove it"
		case r < 0x20 || r >= 0x7f && r <= 0x9f:
			sev, code, msg, hint = diag.Warning, "object-name-control", "the control character "+strconv.QuoteRune(r)+" makes objects hard to name in tools and the XML API", "remove it"
		case r == '#':
			sev, code, msg, hint = diag.Warning, "object-name-awkward", "\"#\" in object names breaks URLs and gcloud storage paths", "use - or _ instead"
		case r == '[' || r == ']' || r == '*' || r == '?':
			sev, code, msg, hint = diag.Warning, "object-name-awkward", strconv.QuoteRune(r)+" is a wildcard in gcloud storage commands, so these objects are awkward to name", "use - or _ instead"
		}
		if code != "" {
			count := &warns
			if sev == diag.Error {
				count = &errs
			}
			if *count++; *count <= maxCharFindings {
				add(sev, i, i+n, code, msg, hint)
			}
		}
		i += n
	}
	return ds
}

// CheckObjectName checks one complete object name, such as a previewed
// name with a user-given uuid. Spans are byte offsets into name.
func CheckObjectName(name string) []diag.Diagnostic {
	var ds []diag.Diagnostic
	add := func(start, end int, code, msg string) {
		ds = append(ds, diag.Diagnostic{Severity: diag.Error, Code: code, Message: msg, Span: diag.SpanOf(start, end)})
	}
	switch {
	case name == "":
		add(0, 0, "object-name-empty", "an object name cannot be empty")
	case name == "." || name == "..":
		add(0, len(name), "object-name-dots", "an object cannot be named "+strconv.Quote(name))
	case strings.HasPrefix(name, acmePrefix):
		add(0, len(acmePrefix), "object-name-reserved", "object names cannot start with "+strconv.Quote(acmePrefix))
	}
	if len(name) > MaxObjectName {
		add(0, len(name), "object-name-length", "the object name is "+strconv.Itoa(len(name))+" bytes; at most 1024 are allowed")
	}
	if !utf8.ValidString(name) {
		add(0, len(name), "object-name-utf8", "object names must be valid UTF-8")
	}
	if i := strings.IndexAny(name, "\r\n"); i >= 0 {
		add(i, i+1, "object-name-newline", "object names cannot contain a line break")
	}
	return ds
}
