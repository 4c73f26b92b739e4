package httpapi

import (
	"encoding"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"time"
)

// Schema is a JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as a
// plain map, so that it encodes with sorted keys and tests can walk it.
type Schema = map[string]any

// schemaSet derives JSON Schemas from Go types the way encoding/json
// encodes them. Named structs become components (reached by $ref), which
// also ends recursion; everything else is written inline.
type schemaSet struct {
	components map[string]Schema
	names      map[reflect.Type]string
	taken      map[string]reflect.Type
}

func newSchemaSet() *schemaSet {
	return &schemaSet{
		components: map[string]Schema{},
		names:      map[reflect.Type]string{},
		taken:      map[string]reflect.Type{},
	}
}

var (
	typeTime          = reflect.TypeFor[time.Time]()
	typeRawMessage    = reflect.TypeFor[json.RawMessage]()
	typeMarshaler     = reflect.TypeFor[json.Marshaler]()
	typeTextMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// ref returns the schema of t, registering named structs as components.
func (s *schemaSet) ref(t reflect.Type) Schema {
	switch {
	case t == typeRawMessage:
		return Schema{} // any JSON value
	case t == typeTime:
		return Schema{"type": "string", "format": "date-time"}
	case t.Kind() == reflect.Pointer:
		return s.ref(t.Elem())
	case implements(t, typeMarshaler):
		return marshalerSchema(t)
	case implements(t, typeTextMarshaler):
		return Schema{"type": "string"}
	}
	switch t.Kind() {
	case reflect.Bool:
		return Schema{"type": "boolean"}
	case reflect.String:
		return Schema{"type": "string"}
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint8, reflect.Uint16:
		return Schema{"type": "integer", "format": "int32"}
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return Schema{"type": "integer", "format": "int64"}
	case reflect.Float32, reflect.Float64:
		return Schema{"type": "number"}
	case reflect.Interface:
		return Schema{}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice && !implements(t.Elem(), typeMarshaler) {
			return Schema{"type": "string", "contentEncoding": "base64"}
		}
		return Schema{"type": "array", "items": s.nullable(t.Elem())}
	case reflect.Map:
		return Schema{"type": "object", "additionalProperties": s.nullable(t.Elem())}
	case reflect.Struct:
		if t.Name() == "" {
			return s.object(t)
		}
		name, ok := s.names[t]
		if !ok {
			name = s.nameFor(t)
			s.names[t] = name
			s.components[name] = nil // reserved: a recursive field refers to it
			s.components[name] = s.object(t)
		}
		return Schema{"$ref": "#/components/schemas/" + name}
	}
	// Channels, functions and complex numbers cannot be encoded at all;
	// encoding/json fails on them, so no response can hold one.
	return Schema{"not": Schema{}}
}

// nullable is the schema of a value that encoding/json may write as null:
// a nil pointer, slice, map or interface that is not left out.
func (s *schemaSet) nullable(t reflect.Type) Schema {
	sch := s.ref(t)
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map:
	default:
		return sch
	}
	if t == typeRawMessage {
		return sch
	}
	if typ, ok := sch["type"].(string); ok {
		out := Schema{}
		for k, v := range sch {
			out[k] = v
		}
		out["type"] = []any{typ, "null"}
		return out
	}
	return Schema{"anyOf": []any{sch, Schema{"type": "null"}}}
}

// object is the schema of a struct: its encoded fields, every one of them
// required unless omitempty or omitzero may leave it out, and nothing else
// (the playground decodes requests with DisallowUnknownFields, and its
// responses are these structs).
func (s *schemaSet) object(t reflect.Type) Schema {
	props := Schema{}
	var required []string
	for _, f := range jsonFields(t) {
		var sch Schema
		switch {
		case f.quoted:
			sch = Schema{"type": "string"}
		case f.omit:
			sch = s.ref(f.typ)
		default:
			sch = s.nullable(f.typ)
		}
		if !f.omit {
			required = append(required, f.name)
		}
		props[f.name] = sch
	}
	out := Schema{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		sort.Strings(required)
		out["required"] = required
	}
	return out
}

// nameFor picks a component name: the type's own name, or with its
// package in front when two packages use the same name.
func (s *schemaSet) nameFor(t reflect.Type) string {
	name := sanitize(t.Name())
	if other, ok := s.taken[name]; ok && other != t {
		pkg := t.PkgPath()
		name = sanitize(pkg[strings.LastIndex(pkg, "/")+1:] + "." + t.Name())
	}
	s.taken[name] = t
	return name
}

// sanitize keeps the characters a component name may hold (generic
// instantiations have brackets and slashes in their names).
func sanitize(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '.' || r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, name)
}

func implements(t, iface reflect.Type) bool {
	return t.Implements(iface) || reflect.PointerTo(t).Implements(iface)
}

// marshalerSchema guesses the JSON type of a type that encodes itself by
// encoding its zero value: a Duration writes "0s", an int64 in the proto
// JSON mapping writes "0". A type whose zero value is null, or that fails,
// may be anything.
func marshalerSchema(t reflect.Type) Schema {
	b, err := json.Marshal(reflect.New(t).Interface())
	if err != nil || len(b) == 0 {
		return Schema{}
	}
	switch c := b[0]; {
	case c == '"':
		return Schema{"type": "string"}
	case c == '{':
		return Schema{"type": "object"}
	case c == '[':
		return Schema{"type": "array"}
	case c == 't' || c == 'f':
		return Schema{"type": "boolean"}
	case c == '-' || c >= '0' && c <= '9':
		return Schema{"type": "number"}
	}
	return Schema{}
}

// field is one encoded field of a struct.
type field struct {
	name   string
	typ    reflect.Type
	omit   bool // omitempty or omitzero: may be absent
	quoted bool // the ",string" option: a number or bool written as a string
	tagged bool
	depth  int
}

// jsonFields lists the fields encoding/json writes for struct type t,
// following its rules: exported fields, embedded structs promoted, the
// shallowest field winning a name, a tagged one winning a tie, and a tie
// that remains dropping the name altogether.
func jsonFields(t reflect.Type) []field {
	var all []field
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type, depth int)
	walk = func(t reflect.Type, depth int) {
		if seen[t] {
			return
		}
		seen[t] = true
		defer delete(seen, t)
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			ft := sf.Type
			if sf.Anonymous {
				et := ft
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if !sf.IsExported() && et.Kind() != reflect.Struct {
					continue
				}
				if name == "" && et.Kind() == reflect.Struct {
					walk(et, depth+1)
					continue
				}
			} else if !sf.IsExported() {
				continue
			}
			f := field{name: name, typ: ft, tagged: name != "", depth: depth}
			if f.name == "" {
				f.name = sf.Name
			}
			for _, o := range strings.Split(opts, ",") {
				switch o {
				case "omitempty", "omitzero":
					f.omit = true
				case "string":
					switch ft.Kind() {
					case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
						reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
						f.quoted = true
					}
				}
			}
			all = append(all, f)
		}
	}
	walk(t, 0)

	byName := map[string][]field{}
	var order []string
	for _, f := range all {
		if _, ok := byName[f.name]; !ok {
			order = append(order, f.name)
		}
		byName[f.name] = append(byName[f.name], f)
	}
	var out []field
	for _, name := range order {
		if f, ok := dominant(byName[name]); ok {
			out = append(out, f)
		}
	}
	return out
}

func dominant(fs []field) (field, bool) {
	min := fs[0].depth
	for _, f := range fs {
		if f.depth < min {
			min = f.depth
		}
	}
	var top []field
	for _, f := range fs {
		if f.depth == min {
			top = append(top, f)
		}
	}
	if len(top) == 1 {
		return top[0], true
	}
	var tagged []field
	for _, f := range top {
		if f.tagged {
			tagged = append(tagged, f)
		}
	}
	if len(tagged) == 1 {
		return tagged[0], true
	}
	return field{}, false
}
