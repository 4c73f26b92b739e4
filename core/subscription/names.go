package subscription

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
)

// nameProblem is one way a resource name can be wrong: a message, a hint,
// and the byte range inside the name it is about.
type nameProblem struct {
	msg, hint  string
	start, end int
}

// checkResourceName checks "projects/PROJECT/<collection>/ID" (kind is
// "subscription" or "topic"). It returns the project and the problems.
func checkResourceName(s, collection, kind string) (project string, probs []nameProblem) {
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
		return "", []nameProblem{{msg: "the " + kind + " name must have the form " + want, hint: hint, start: 0, end: len(s)}}
	}
	project = parts[1]
	pStart := len("projects/")
	for _, p := range checkProjectID(project) {
		p.start += pStart
		p.end += pStart
		probs = append(probs, p)
	}
	idStart := pStart + len(project) + 1 + len(collection) + 1
	for _, p := range checkID(parts[3], kind) {
		p.start += idStart
		p.end += idStart
		probs = append(probs, p)
	}
	return project, probs
}

// checkProjectID applies the project ID rules: 6 to 30 lowercase letters,
// digits and hyphens, starting with a letter and not ending with a hyphen.
// Legacy domain-scoped IDs ("example.com:proj") and project numbers are
// accepted as the API accepts them.
func checkProjectID(p string) []nameProblem {
	if p == "" {
		return []nameProblem{{msg: "the project ID is empty", hint: "put the project ID between projects/ and the next /"}}
	}
	if allDigits(p) {
		return nil // a project number
	}
	off := 0
	if i := strings.LastIndexByte(p, ':'); i >= 0 {
		off = i + 1
		p = p[i+1:]
	}
	bad := func(msg, hint string, start, end int) []nameProblem {
		return []nameProblem{{msg: msg, hint: hint, start: off + start, end: off + end}}
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

// NameProblem is one problem CheckID finds: a message, a hint (may be
// empty) and the byte range [Start, End) inside the ID.
type NameProblem struct {
	Message, Hint string
	Start, End    int
}

// CheckID applies the subscription or topic ID rules (kind is
// "subscription" or "topic") to an ID written without its project, as a
// gcloud command or a Terraform resource may leave the project to the
// user's configuration: the full name is then unknown, but its ID part is
// not, and an ID the API refuses is an error whatever the project. The
// problems are those the full name's check reports for its ID part; their
// code is "resource-name", as there.
func CheckID(id, kind string) []NameProblem {
	var out []NameProblem
	for _, p := range checkID(id, kind) {
		out = append(out, NameProblem{Message: p.msg, Hint: p.hint, Start: p.start, End: p.end})
	}
	return out
}

// checkID applies the rules for subscription and topic IDs: idMinChars to
// idMaxChars characters of [A-Za-z0-9-_.~+%], starting with a letter, not
// "goog...".
func checkID(id, kind string) []nameProblem {
	n := len(id)
	if n < idMinChars || n > idMaxChars {
		return []nameProblem{{msg: "the " + kind + " ID is " + plural(int64(n), "character") + "; IDs have " + idLength, start: 0, end: n}}
	}
	if c := id[0]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return []nameProblem{{msg: "the " + kind + " ID must start with a letter", hint: "the API answers \"Invalid resource name\" otherwise", start: 0, end: 1}}
	}
	if strings.HasPrefix(id, "goog") { // case-sensitive, as the proto says and the emulator checks (D16)
		return []nameProblem{{msg: "the " + kind + " ID cannot start with \"goog\"", hint: "Google reserves that prefix", start: 0, end: 4}}
	}
	for i := 0; i < len(id); {
		r, size := utf8.DecodeRuneInString(id[i:])
		if !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-_.~+%", r))) {
			return []nameProblem{{msg: "the " + kind + " ID contains " + strconv.QuoteRune(r) + "; IDs use letters, digits and - _ . ~ + %",
				start: i, end: i + size}}
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
