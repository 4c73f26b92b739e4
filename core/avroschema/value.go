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

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/limits"
)

// maxDataBytes bounds the JSON text of one message read as a record: the
// service's own limit on data (docs/decisions.md D8).
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
			c := &converter{records: map[*avro.RecordSchema]*recordIndex{}, enums: map[*avro.EnumSchema]map[string]bool{}}
			return c.fromJSON(s, d.Root, nil)
		}
		err = errors.New("the data is not valid JSON: " + ds[0].Message)
	}
	if out, berr := decodeBinary(s, data); berr == nil {
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

// pointer is a JSON pointer into the data, kept as links to its parent
// and written out only for an error: built for every value, a path would
// cost its length once per value, and deep data with long keys makes that
// quadratic.
type pointer struct {
	up    *pointer
	key   string
	index int
	isKey bool
}

func (p *pointer) key1(k string) *pointer { return &pointer{up: p, key: k, isKey: true} }
func (p *pointer) item(i int) *pointer    { return &pointer{up: p, index: i} }
func (p *pointer) String() string {
	var parts []string
	for q := p; q != nil; q = q.up {
		if len(parts) == maxPointerParts {
			parts = append(parts, "…")
			break
		}
		if q.isKey {
			parts = append(parts, diag.Clip(diag.PointerKey(q.key)))
		} else {
			parts = append(parts, strconv.Itoa(q.index))
		}
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(parts[i])
	}
	return b.String()
}

// maxPointerParts is the most segments a pointer in a message shows, the
// innermost ones: with each key clipped, a message about deep data with
// long keys stays short.
const maxPointerParts = 8

// mismatch is the error of a value that does not fit its schema; at is a
// JSON pointer into the data.
func mismatch(at *pointer, want string, n *doc.Node) error {
	where := ""
	if at != nil {
		where = " at " + at.String()
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
		return diag.Clip(n.Value)
	}
	return "an " + n.Kind.String()
}

func deref(s avro.Schema) avro.Schema {
	for s.Type() == avro.Ref {
		s = s.(*avro.RefSchema).Schema()
	}
	return s
}

// converter turns JSON values into what hamba/avro encodes, with an index
// of each record's fields and each enum's symbols built once, so that a
// value costs its own size, however many fields its record has.
type converter struct {
	records map[*avro.RecordSchema]*recordIndex
	enums   map[*avro.EnumSchema]map[string]bool
}

type recordIndex struct {
	fields   map[string]*avro.Field
	required []*avro.Field // fields without a default
}

func (c *converter) record(rs *avro.RecordSchema) *recordIndex {
	if ix := c.records[rs]; ix != nil {
		return ix
	}
	ix := &recordIndex{fields: make(map[string]*avro.Field, len(rs.Fields()))}
	for _, f := range rs.Fields() {
		ix.fields[f.Name()] = f
		if !f.HasDefault() {
			ix.required = append(ix.required, f)
		}
	}
	c.records[rs] = ix
	return ix
}

func (c *converter) symbols(es *avro.EnumSchema) map[string]bool {
	if set := c.enums[es]; set != nil {
		return set
	}
	set := make(map[string]bool, len(es.Symbols()))
	for _, sym := range es.Symbols() {
		set[sym] = true
	}
	c.enums[es] = set
	return set
}

const maxListed = limits.ListedSymbols

func listSymbols(syms []string) string {
	if len(syms) <= maxListed {
		return strings.Join(syms, ", ")
	}
	return strings.Join(syms[:maxListed], ", ") + " and " + strconv.Itoa(len(syms)-maxListed) + " more"
}

// fromJSON converts one JSON value to the Go value hamba/avro encodes for
// schema s.
func (c *converter) fromJSON(s avro.Schema, n *doc.Node, at *pointer) (any, error) {
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
		es := s.(*avro.EnumSchema)
		if n.Kind == doc.String && c.symbols(es)[n.Value] {
			return n.Value, nil
		}
		return nil, mismatch(at, "one of the symbols "+listSymbols(es.Symbols()), n)
	case avro.Array:
		if n.Kind != doc.Array {
			return nil, mismatch(at, "an array", n)
		}
		out := make([]any, len(n.Items))
		for i, it := range n.Items {
			v, err := c.fromJSON(s.(*avro.ArraySchema).Items(), it, at.item(i))
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
			v, err := c.fromJSON(s.(*avro.MapSchema).Values(), m.Value, at.key1(m.Key))
			if err != nil {
				return nil, err
			}
			out[m.Key] = v
		}
		return out, nil
	case avro.Record:
		return c.recordFromJSON(s.(*avro.RecordSchema), n, at)
	case avro.Union:
		return c.unionFromJSON(s.(*avro.UnionSchema), n, at)
	}
	return nil, fmt.Errorf("the type %s is not supported here", s.Type())
}

func (c *converter) recordFromJSON(rs *avro.RecordSchema, n *doc.Node, at *pointer) (any, error) {
	if n.Kind != doc.Object {
		return nil, mismatch(at, "a record (an object)", n)
	}
	ix := c.record(rs)
	out := make(map[string]any, len(n.Members))
	for _, m := range n.Members {
		f := ix.fields[m.Key]
		if f == nil {
			return nil, fmt.Errorf("the record %s has no field %s", rs.FullName(), diag.Quote(m.Key))
		}
		v, err := c.fromJSON(f.Type(), m.Value, at.key1(m.Key))
		if err != nil {
			return nil, err
		}
		out[m.Key] = v
	}
	for _, f := range ix.required {
		if _, ok := out[f.Name()]; !ok {
			return nil, fmt.Errorf("the field %q of %s is missing and has no default", f.Name(), rs.FullName())
		}
	}
	return out, nil
}

// unionFromJSON reads Avro's JSON encoding of a union, null or
// {"<branch>": value}, and, as a convenience, a bare value that fits one
// branch. The branch of a bare value is chosen by a look at the value's
// top level, and only that branch is converted: trying each in full would
// be exponential in the depth of unions of records.
func (c *converter) unionFromJSON(us *avro.UnionSchema, n *doc.Node, at *pointer) (any, error) {
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
				v, err := c.fromJSON(t, n.Members[0].Value, at.key1(key))
				if err != nil {
					return nil, err
				}
				return map[string]any{branchName(t): v}, nil
			}
		}
	}
	for _, t := range types {
		if t.Type() == avro.Null || !c.fits(t, n) {
			continue
		}
		v, err := c.fromJSON(t, n, at)
		if err != nil {
			return nil, err
		}
		return map[string]any{branchName(t): v}, nil
	}
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = branchName(t)
	}
	return nil, mismatch(at, "a value of one of "+strings.Join(names, ", ")+` (written {"<type>": value})`, n)
}

// fits reports whether n fits s at its top level: the right kind of JSON
// value, a number in range, a known symbol, a record's field names.
func (c *converter) fits(s avro.Schema, n *doc.Node) bool {
	s = deref(s)
	switch s.Type() {
	case avro.Record:
		if n.Kind != doc.Object {
			return false
		}
		ix := c.record(s.(*avro.RecordSchema))
		required := 0 // keys are unique, so counting is enough
		for _, m := range n.Members {
			f := ix.fields[m.Key]
			if f == nil {
				return false
			}
			if !f.HasDefault() {
				required++
			}
		}
		return required == len(ix.required)
	case avro.Array:
		return n.Kind == doc.Array
	case avro.Map:
		return n.Kind == doc.Object
	case avro.Enum:
		return n.Kind == doc.String && c.symbols(s.(*avro.EnumSchema))[n.Value]
	case avro.Union:
		return false // a union holds no union
	}
	// Scalars cost no more to convert than to check.
	_, err := c.fromJSON(s, n, nil)
	return err == nil
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
