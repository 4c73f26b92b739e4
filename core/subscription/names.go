package subscription

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
)

// NameProblem is one way a resource name or ID can be wrong: a message, a
// hint (may be empty) and the byte range [Start, End) inside the name.
type NameProblem struct {
	Message, Hint string
	Start, End    int
}

// checkResourceName checks "projects/PROJECT/<collection>/ID" (kind is
// "subscription" or "topic"). It returns the project and the problems.
func checkResourceName(s, collection, kind string) (project string, probs []NameProblem) {
	want := "projects/PROJECT/" + collection + "/ID"
	parts := strings.Split(s, "/")
	if len(parts) != 4 || parts[0] != "projects" || parts[2] != collection {
		hint := "write it as " + want
		switch {
		case !strings.Contains(s, "/") && s != "":
			hint = "give the full name: " + diag.Quote("projects/PROJECT/"+collection+"/"+s)
		case len(parts) == 4 && parts[0] == "projects" && parts[2] != collection:
			hint = "the third part must be " + strconv.Quote(collection) + ": " + diag.Quote("projects/"+parts[1]+"/"+collection+"/"+parts[3])
		case strings.HasPrefix(s, "/") || strings.HasSuffix(s, "/"):
			hint = "remove the leading or trailing slash: " + want
		}
		return "", []NameProblem{{Message: "the " + kind + " name must have the form " + want, Hint: hint, Start: 0, End: len(s)}}
	}
	project = parts[1]
	pStart := len("projects/")
	for _, p := range checkProjectID(project) {
		p.Start += pStart
		p.End += pStart
		probs = append(probs, p)
	}
	idStart := pStart + len(project) + 1 + len(collection) + 1
	for _, p := range CheckID(parts[3], kind) {
		p.Start += idStart
		p.End += idStart
		probs = append(probs, p)
	}
	return project, probs
}

// checkProjectID applies the project ID rules: 6 to 30 lowercase letters,
// digits and hyphens, starting with a letter and not ending with a hyphen.
// Legacy domain-scoped IDs ("example.com:proj") and project numbers are
// accepted as the API accepts them.
func checkProjectID(p string) []NameProblem {
	if p == "" {
		return []NameProblem{{Message: "the project ID is empty", Hint: "put the project ID between projects/ and the next /"}}
	}
	if allDigits(p) {
		return nil // a project number
	}
	off := 0
	if i := strings.LastIndexByte(p, ':'); i >= 0 {
		off = i + 1
		p = p[i+1:]
	}
	bad := func(msg, hint string, start, end int) []NameProblem {
		return []NameProblem{{Message: msg, Hint: hint, Start: off + start, End: off + end}}
	}
	if n := len(p); n < 6 || n > 30 {
		return bad("the project ID "+diag.Quote(p)+" is "+plural(int64(n), "character")+"; project IDs have 6 to 30", "", 0, n)
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			hint := "use lowercase letters, digits and hyphens"
			if c >= 'A' && c <= 'Z' {
				hint = "project IDs are lowercase: " + strings.ToLower(p)
			}
			return bad("the project ID contains "+strconv.QuoteRune(rune(c))+", which project IDs cannot", hint, i, i+1)
		}
	}
	if c := p[0]; c < 'a' || c > 'z' {
		return bad("a project ID starts with a lowercase letter", "", 0, 1)
	}
	if strings.HasSuffix(p, "-") {
		return bad("a project ID cannot end with a hyphen", "", len(p)-1, len(p))
	}
	return nil
}

// The bounds of subscription and topic IDs (pubsub.proto) and of label
// keys and values (Google Cloud's label rules), in characters. The rule
// table's help for /name and /labels reads them too.
const (
	idMinChars    = 3
	idMaxChars    = 255
	labelMaxChars = 63
	// labelMaxBytes is the other half of the label rules: under 128 bytes.
	labelMaxBytes = 127
)

// idLength says the ID bounds for people: "3 to 255".
var idLength = strconv.Itoa(idMinChars) + " to " + strconv.Itoa(idMaxChars)

// CheckID applies the rules for subscription and topic IDs (kind is
// "subscription" or "topic"): idMinChars to idMaxChars characters of
// [A-Za-z0-9-_.~+%], starting with a letter, not "goog...". The full
// name's check uses it for its ID part; the gcloud and Terraform readers
// use it alone when the project is unknown (the ID is known, and one the
// API refuses is an error whatever the project), with the same code,
// "resource-name".
func CheckID(id, kind string) []NameProblem {
	n := len(id)
	if n < idMinChars || n > idMaxChars {
		return []NameProblem{{Message: "the " + kind + " ID is " + plural(int64(n), "character") + "; IDs have " + idLength, Start: 0, End: n}}
	}
	if c := id[0]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return []NameProblem{{Message: "the " + kind + " ID must start with a letter", Hint: "the API answers \"Invalid resource name\" otherwise", Start: 0, End: 1}}
	}
	if strings.HasPrefix(id, "goog") { // case-sensitive, as the proto says and the emulator checks (D16)
		return []NameProblem{{Message: "the " + kind + " ID cannot start with \"goog\"", Hint: "Google reserves that prefix", Start: 0, End: 4}}
	}
	for i := 0; i < len(id); {
		r, size := utf8.DecodeRuneInString(id[i:])
		if !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-_.~+%", r))) {
			return []NameProblem{{Message: "the " + kind + " ID contains " + strconv.QuoteRune(r) + "; IDs use letters, digits and - _ . ~ + %",
				Start: i, End: i + size}}
		}
		i += size
	}
	return nil
}

// checkEmail checks the form of a service account email.
func checkEmail(s string) (msg, hint string, warn bool) {
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 || strings.ContainsAny(s, " \t\r\n") || !strings.Contains(s[at:], ".") {
		return "this is not an email address", "a service account looks like NAME@PROJECT.iam.gserviceaccount.com", false
	}
	if !strings.HasSuffix(s, ".gserviceaccount.com") {
		return "this is not a service account email", "service accounts end in .gserviceaccount.com, e.g. NAME@PROJECT.iam.gserviceaccount.com", true
	}
	return "", "", false
}
