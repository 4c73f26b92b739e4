package avroschema

import (
	"fmt"
	"strings"

	"github.com/hamba/avro/v2"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
)

// Topic is an Avro topic schema read from its JSON text.
type Topic struct {
	Doc  *doc.Doc // the text, decoded with positions
	Root *Type    // nil when the text is not JSON
	// Schema is the schema as hamba/avro parsed it; nil when the text has
	// errors, so nothing is ever encoded with a schema a reader would refuse.
	Schema avro.Schema
}

// ParseTopic reads an Avro schema. The diagnostics are located in text and
// their paths are JSON pointers into it.
func ParseTopic(name, text string) (*Topic, []diag.Diagnostic) {
	d, ds := doc.Parse(name, text, doc.JSON)
	t := &Topic{Doc: d}
	if d.Root == nil {
		return t, ds
	}
	w := &walker{named: map[string]*Type{}}
	t.Root = w.typ(d.Root, "", "")
	if !diag.HasErrors(w.ds) {
		w.checkDepth(t.Root)
	}
	found := w.ds
	if !diag.HasErrors(found) {
		s, err := parseAvro(strings.TrimPrefix(text, "\ufeff"))
		if err != nil {
			found = append(found, t.placeError(err))
		} else {
			t.Schema = s
		}
	}
	d.Source.Locate(found)
	return t, diag.Finish(append(ds, found...))
}

// parseAvro parses with a cache of its own (see the package doc) and turns
// a panic inside the library into an error: bad input must never take the
// instance down.
func parseAvro(text string) (s avro.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("avro: the schema could not be read: %v", r)
		}
	}()
	return avro.ParseBytesWithCache([]byte(text), "", &avro.SchemaCache{})
}

// placeError turns an error of hamba/avro into a diagnostic at the field or
// named type its text mentions (the longest such name, as a whole word), or
// at the root when it mentions none.
func (t *Topic) placeError(err error) diag.Diagnostic {
	msg := strings.TrimPrefix(err.Error(), "avro: ")
	d := diag.Diagnostic{Severity: diag.Error, Code: "avro-schema-invalid", Message: "the Avro library rejects the schema: " + msg,
		Hint: "check the type and default of the field named in the message", Span: t.Doc.Root.Span}
	best := ""
	visit(t.Root, func(name, path string, span diag.Span) {
		short := name[strings.LastIndexByte(name, '.')+1:]
		for _, n := range []string{name, short} {
			if len(n) > len(best) && containsWord(msg, n) {
				best, d.Path, d.Span = n, path, span
			}
		}
	})
	return d
}

// visit calls f for every field and named type under t, once each. It
// keeps its own stack: ParseTopic bounds chains of types only when the
// schema has no other error, and this runs on schemas with errors too.
func visit(t *Type, f func(name, path string, span diag.Span)) {
	seen := map[*Type]bool{}
	stack := []*Type{t}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if t == nil || seen[t] {
			continue
		}
		seen[t] = true
		if t.Name != "" {
			f(t.Name, t.Path, t.Span)
		}
		for _, fl := range t.Fields {
			f(fl.Name, fl.Path, fl.Span)
		}
		each(t, func(sub *Type, _ string, _ diag.Span) bool {
			stack = append(stack, sub)
			return true
		})
	}
}

func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isNameByte(s[j-1])
		after := j+len(w) == len(s) || !isNameByte(s[j+len(w)])
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isNameByte(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}
