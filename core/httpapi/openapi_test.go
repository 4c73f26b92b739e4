package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/httpapi"
	"github.com/subplay/subplay/core/playground"
)

// testOpenAPI checks the served document against the server's behaviour:
// every route it lists answers, with a status it lists, a body its schema
// accepts; every request sample fits the request schema; and no route is
// missing from it.
func testOpenAPI(t *testing.T, tg *target) {
	r := tg.do(t, http.MethodGet, "/v1/openapi.json", nil, nil)
	if r.status != 200 {
		t.Fatalf("GET /v1/openapi.json: status %d", r.status)
	}
	doc, ok := decode(t, r.body).(map[string]any)
	if !ok {
		t.Fatalf("the document is not an object")
	}
	v := &validator{doc: doc}
	checkRefs(t, doc, doc, "")

	paths, _ := doc["paths"].(map[string]any)
	want := []string{"/healthz", "/v1/openapi.json"}
	for _, op := range playground.Ops() {
		want = append(want, "/v1/"+op.Name)
	}
	sort.Strings(want)
	var got []string
	for p := range paths {
		got = append(got, p)
	}
	sort.Strings(got)
	if !slices.Equal(got, want) {
		t.Errorf("the document lists %v; the server has %v", got, want)
	}

	for _, path := range got {
		item, _ := paths[path].(map[string]any)
		for method, o := range item {
			opDoc, _ := o.(map[string]any)
			t.Run(method+" "+path, func(t *testing.T) {
				switch method {
				case "get":
					r := tg.do(t, http.MethodGet, path, nil, nil)
					v.checkReply(t, opDoc, r)
				case "post":
					name := strings.TrimPrefix(path, "/v1/")
					body := sample(t, name)
					reqSchema := dig(opDoc, "requestBody", "content", "application/json", "schema")
					if errs := v.validate(reqSchema, decode(t, []byte(body)), ""); len(errs) > 0 {
						t.Errorf("the sample request does not fit the documented request schema:\n%s", strings.Join(errs, "\n"))
					}
					for _, req := range []struct{ ct, body string }{
						{"application/json", body},
						{"application/json", `{"`},
						{"text/plain", body},
					} {
						r := tg.do(t, http.MethodPost, path, map[string]string{"Content-Type": req.ct}, strings.NewReader(req.body))
						v.checkReply(t, opDoc, r)
					}
				default:
					t.Errorf("unexpected method %q in the document", method)
				}
			})
		}
	}

	t.Run("413 is documented", func(t *testing.T) {
		big := append([]byte("{}"), bytes.Repeat([]byte(" "), httpapi.MaxBody)...)
		r := tg.postOverLimit(t, "/v1/version", big, false)
		v.checkReply(t, dig(doc, "paths", "/v1/version", "post").(map[string]any), r)
	})
}

// checkReply checks that a reply's status is one the operation documents
// and that its body fits the documented schema.
func (v *validator) checkReply(t *testing.T, opDoc map[string]any, r reply) {
	t.Helper()
	resp := dig(opDoc, "responses", fmt.Sprint(r.status))
	if resp == nil {
		t.Errorf("status %d is not documented (body %.200s)", r.status, r.body)
		return
	}
	resp = v.resolve(resp)
	schema := dig(resp, "content", "application/json", "schema")
	if schema == nil {
		t.Errorf("status %d has no documented JSON schema", r.status)
		return
	}
	if errs := v.validate(schema, decode(t, r.body), ""); len(errs) > 0 {
		t.Errorf("the status %d body does not fit its documented schema:\n%s\nbody: %.500s", r.status, strings.Join(errs, "\n"), r.body)
	}
}

func checkRefs(t *testing.T, doc map[string]any, node any, at string) {
	t.Helper()
	switch n := node.(type) {
	case map[string]any:
		if ref, ok := n["$ref"].(string); ok {
			if (&validator{doc: doc}).pointer(ref) == nil {
				t.Errorf("%s: $ref %q does not resolve", at, ref)
			}
		}
		for k, c := range n {
			checkRefs(t, doc, c, at+"/"+k)
		}
	case []any:
		for i, c := range n {
			checkRefs(t, doc, c, fmt.Sprintf("%s/%d", at, i))
		}
	}
}

func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// validator checks JSON values against the JSON Schema keywords the
// document uses. It is deliberately small: a keyword it does not know
// fails the check, so the generator cannot start using one unnoticed.
type validator struct{ doc map[string]any }

var knownKeywords = map[string]bool{
	"$ref": true, "type": true, "properties": true, "required": true, "additionalProperties": true,
	"items": true, "anyOf": true, "enum": true, "const": true, "format": true, "contentEncoding": true,
	"not": true, "description": true,
}

func (v *validator) pointer(ref string) any {
	if !strings.HasPrefix(ref, "#/") {
		return nil
	}
	var node any = v.doc
	for _, k := range strings.Split(ref[2:], "/") {
		node = dig(node, strings.ReplaceAll(strings.ReplaceAll(k, "~1", "/"), "~0", "~"))
	}
	return node
}

func (v *validator) resolve(node any) any {
	for i := 0; i < 10; i++ {
		ref, ok := dig(node, "$ref").(string)
		if !ok {
			return node
		}
		node = v.pointer(ref)
	}
	return node
}

func (v *validator) validate(schema, value any, at string) []string {
	s, ok := schema.(map[string]any)
	if !ok {
		return []string{fmt.Sprintf("%s: the schema is not an object: %v", at, schema)}
	}
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, at+": "+fmt.Sprintf(format, args...)) }
	for k := range s {
		if !knownKeywords[k] {
			fail("unknown keyword %q", k)
		}
	}
	if ref, ok := s["$ref"].(string); ok {
		target := v.pointer(ref)
		if target == nil {
			fail("$ref %q does not resolve", ref)
			return errs
		}
		return append(errs, v.validate(target, value, at)...)
	}
	if _, ok := s["not"]; ok && len(v.validate(s["not"], value, at)) == 0 {
		fail("matches a schema it must not")
	}
	if c, ok := s["const"]; ok && !reflect.DeepEqual(c, value) {
		fail("want %v, got %v", c, value)
	}
	if enum, ok := s["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return reflect.DeepEqual(e, value) }) {
		fail("%v is not one of %v", value, enum)
	}
	if anyOf, ok := s["anyOf"].([]any); ok {
		var all []string
		matched := false
		for _, alt := range anyOf {
			e := v.validate(alt, value, at)
			if len(e) == 0 {
				matched = true
				break
			}
			all = append(all, e...)
		}
		if !matched {
			fail("matches none of anyOf: %s", strings.Join(all, "; "))
		}
	}
	if typ, ok := s["type"]; ok {
		var types []string
		switch t := typ.(type) {
		case string:
			types = []string{t}
		case []any:
			for _, x := range t {
				types = append(types, fmt.Sprint(x))
			}
		}
		if !slices.ContainsFunc(types, func(t string) bool { return hasType(value, t) }) {
			fail("want type %v, got %s", types, kindOf(value))
			return errs
		}
	}
	switch val := value.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		for _, r := range asStrings(s["required"]) {
			if _, ok := val[r]; !ok {
				fail("the required property %q is missing", r)
			}
		}
		for k, x := range val {
			if ps, ok := props[k]; ok {
				errs = append(errs, v.validate(ps, x, at+"/"+k)...)
				continue
			}
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap {
					fail("the property %q is not in the schema", k)
				}
			case map[string]any:
				errs = append(errs, v.validate(ap, x, at+"/"+k)...)
			}
		}
	case []any:
		if items, ok := s["items"]; ok {
			for i, x := range val {
				errs = append(errs, v.validate(items, x, fmt.Sprintf("%s/%d", at, i))...)
			}
		}
	}
	return errs
}

func hasType(v any, t string) bool {
	switch t {
	case "null":
		return v == nil
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "number":
		_, ok := v.(json.Number)
		return ok
	case "integer":
		n, ok := v.(json.Number)
		_, err := n.Int64()
		return ok && err == nil
	case "array":
		_, ok := v.([]any)
		return ok
	case "object":
		_, ok := v.(map[string]any)
		return ok
	}
	return false
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func asStrings(v any) []string {
	var out []string
	switch l := v.(type) {
	case []any:
		for _, x := range l {
			out = append(out, fmt.Sprint(x))
		}
	case []string:
		out = l
	}
	return out
}
