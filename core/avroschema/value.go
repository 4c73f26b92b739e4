package avroschema

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hamba/avro/v2"

	"github.com/subplay/subplay/core/doc"
)

// maxDataBytes bounds the JSON text of one message read as a record: the
// service's own limit on data (rules.md D8).
const maxDataBytes = 10_000_000

// DecodeData reads a message's data as a value of schema s, in the form
// hamba/avro encodes: first as Avro's JSON encoding (what a topic with JSON
// encoding carries), then as Avro binary. The error describes the JSON
// mismatch, the likelier mistake.
func DecodeData(s avro.Schema, data []byte) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, fmt.Errorf("the data could not be read: %v", r)
		}
	}()
	text := strings.TrimSpace(string(data))
	if looksJSON(text) {
		d, ds := doc.ParseLimits("data", text, doc.JSON, doc.Limits{MaxBytes: maxDataBytes, MaxDepth: doc.DefaultLimits.MaxDepth})
		if d.Root != nil {
			return fromJSON(s, d.Root, "")
		}
		err = errors.New("the data is not valid JSON: " + ds[0].Message)
	}
	var out any
	if berr := avro.Unmarshal(s, data, &out); berr == nil {
		return out, nil
	}
	if err == nil {
		err = errors.New("the data is neither JSON nor Avro binary of the topic schema")
	}
	return nil, err
}

func looksJSON(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case '{', '[', '"', 't', 'f', 'n', '-':
		return true
	}
	return s[0] >= '0' && s[0] <= '9'
}

// mismatch is the error of a value that does not fit its schema; at is a
// JSON pointer into the data.
func mismatch(at, want string, n *doc.Node) error {
	where := ""
	if at != "" {
		where = " at " + at
	}
	return fmt.Errorf("expected %s%s, found %s", want, where, describe(n))
}

func describe(n *doc.Node) string {
	switch n.Kind {
	case doc.Null:
		return "null"
	case doc.String:
		if len(n.Value) > 40 {
			return "a string"
		}
		return "the string " + strconv.Quote(n.Value)
	case doc.Number, doc.Bool:
		return n.Value
	}
	return "an " + n.Kind.String()
}

func deref(s avro.Schema) avro.Schema {
	for s.Type() == avro.Ref {
		s = s.(*avro.RefSchema).Schema()
	}
	return s
}

// fromJSON converts one JSON value to the Go value hamba/avro encodes for
// schema s.
func fromJSON(s avro.Schema, n *doc.Node, at string) (any, error) {
	s = deref(s)
	switch s.Type() {
	case avro.Null:
		if n.Kind != doc.Null {
			return nil, mismatch(at, "null", n)
		}
		return nil, nil
	case avro.Boolean:
		if n.Kind != doc.Bool {
			return nil, mismatch(at, "a boolean", n)
		}
		return n.Value == "true", nil
	case avro.Int:
		if n.Kind != doc.Number {
			return nil, mismatch(at, "an int", n)
		}
		i, err := strconv.ParseInt(n.Value, 10, 32)
		if err != nil {
			return nil, mismatch(at, "an int (32-bit whole number)", n)
		}
		return int(i), nil
	case avro.Long:
		if n.Kind != doc.Number {
			return nil, mismatch(at, "a long", n)
		}
		i, err := strconv.ParseInt(n.Value, 10, 64)
		if err != nil {
			return nil, mismatch(at, "a long (64-bit whole number)", n)
		}
		return i, nil
	case avro.Float, avro.Double:
		if n.Kind != doc.Number {
			return nil, mismatch(at, "a number", n)
		}
		f, err := strconv.ParseFloat(n.Value, 64)
		if err != nil || (s.Type() == avro.Float && math.Abs(f) > math.MaxFloat32) {
			return nil, mismatch(at, "a "+string(s.Type()), n)
		}
		if s.Type() == avro.Float {
			return float32(f), nil
		}
		return f, nil
	case avro.String:
		if n.Kind != doc.String {
			return nil, mismatch(at, "a string", n)
		}
		return n.Value, nil
	case avro.Bytes:
		b, ok := jsonBytes(n)
		if !ok {
			return nil, mismatch(at, "bytes (a string of characters U+0000 to U+00FF)", n)
		}
		return b, nil
	case avro.Fixed:
		size := s.(*avro.FixedSchema).Size()
		b, ok := jsonBytes(n)
		if !ok || len(b) != size {
			return nil, mismatch(at, "a fixed of "+strconv.Itoa(size)+" bytes", n)
		}
		arr := reflect.New(reflect.ArrayOf(size, reflect.TypeFor[byte]())).Elem()
		reflect.Copy(arr, reflect.ValueOf(b))
		return arr.Interface(), nil
	case avro.Enum:
		if n.Kind == doc.String {
			for _, sym := range s.(*avro.EnumSchema).Symbols() {
				if sym == n.Value {
					return n.Value, nil
				}
			}
		}
		return nil, mismatch(at, "one of the symbols "+strings.Join(s.(*avro.EnumSchema).Symbols(), ", "), n)
	case avro.Array:
		if n.Kind != doc.Array {
			return nil, mismatch(at, "an array", n)
		}
		out := make([]any, len(n.Items))
		for i, it := range n.Items {
			v, err := fromJSON(s.(*avro.ArraySchema).Items(), it, at+"/"+strconv.Itoa(i))
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case avro.Map:
		if n.Kind != doc.Object {
			return nil, mismatch(at, "a map (an object)", n)
		}
		out := make(map[string]any, len(n.Members))
		for _, m := range n.Members {
			v, err := fromJSON(s.(*avro.MapSchema).Values(), m.Value, at+"/"+m.Key)
			if err != nil {
				return nil, err
			}
			out[m.Key] = v
		}
		return out, nil
	case avro.Record:
		return recordFromJSON(s.(*avro.RecordSchema), n, at)
	case avro.Union:
		return unionFromJSON(s.(*avro.UnionSchema), n, at)
	}
	return nil, fmt.Errorf("the type %s is not supported here", s.Type())
}

func recordFromJSON(rs *avro.RecordSchema, n *doc.Node, at string) (any, error) {
	if n.Kind != doc.Object {
		return nil, mismatch(at, "a record (an object)", n)
	}
	out := make(map[string]any, len(rs.Fields()))
	for _, m := range n.Members {
		var f *avro.Field
		for _, cand := range rs.Fields() {
			if cand.Name() == m.Key {
				f = cand
			}
		}
		if f == nil {
			return nil, fmt.Errorf("the record %s has no field %q", rs.FullName(), m.Key)
		}
		v, err := fromJSON(f.Type(), m.Value, at+"/"+m.Key)
		if err != nil {
			return nil, err
		}
		out[m.Key] = v
	}
	for _, f := range rs.Fields() {
		if _, ok := out[f.Name()]; !ok && !f.HasDefault() {
			return nil, fmt.Errorf("the field %q of %s is missing and has no default", f.Name(), rs.FullName())
		}
	}
	return out, nil
}

// unionFromJSON reads Avro's JSON encoding of a union, null or
// {"<branch>": value}, and, as a convenience, a bare value that fits one
// branch.
func unionFromJSON(us *avro.UnionSchema, n *doc.Node, at string) (any, error) {
	types := us.Types()
	if n.Kind == doc.Null {
		for _, t := range types {
			if t.Type() == avro.Null {
				return nil, nil
			}
		}
	}
	if n.Kind == doc.Object && len(n.Members) == 1 {
		key := n.Members[0].Key
		for _, t := range types {
			if branchName(t) == key || shortName(t) == key {
				v, err := fromJSON(t, n.Members[0].Value, at+"/"+key)
				if err != nil {
					return nil, err
				}
				return map[string]any{branchName(t): v}, nil
			}
		}
	}
	for _, t := range types {
		if t.Type() == avro.Null {
			continue
		}
		if v, err := fromJSON(t, n, at); err == nil {
			return map[string]any{branchName(t): v}, nil
		}
	}
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = branchName(t)
	}
	return nil, mismatch(at, "a value of one of "+strings.Join(names, ", ")+` (written {"<type>": value})`, n)
}

// branchName is the name hamba/avro keys a union value by: the full name of
// a named type, else the type, with ".<logical type>" when there is one.
func branchName(s avro.Schema) string {
	s = deref(s)
	if ns, ok := s.(avro.NamedSchema); ok {
		return ns.FullName()
	}
	name := string(s.Type())
	if ls, ok := s.(avro.LogicalTypeSchema); ok && ls.Logical() != nil {
		name += "." + string(ls.Logical().Type())
	}
	return name
}

func shortName(s avro.Schema) string {
	s = deref(s)
	if ns, ok := s.(avro.NamedSchema); ok {
		return ns.Name()
	}
	return string(s.Type())
}

// jsonBytes reads Avro's JSON encoding of bytes: one character per byte.
func jsonBytes(n *doc.Node) ([]byte, bool) {
	if n.Kind != doc.String {
		return nil, false
	}
	b := make([]byte, 0, len(n.Value))
	for _, r := range n.Value {
		if r > 0xff || r == utf8.RuneError {
			return nil, false
		}
		b = append(b, byte(r))
	}
	return b, true
}
