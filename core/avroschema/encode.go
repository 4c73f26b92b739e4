package avroschema

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"

	"github.com/hamba/avro/v2"

	"github.com/subplay/subplay/core/diag"
)

// errUnsupported says encode met a Go value it does not write (the
// time.Time of a logical type that hamba/avro decoded from binary data, for
// one); the caller then leaves the record to hamba/avro.
var errUnsupported = errors.New("unsupported value")

// encoder writes values in Avro's binary encoding, with each enum's
// symbols indexed once.
type encoder struct {
	enums map[*avro.EnumSchema]map[string]int
}

func (e *encoder) symbol(es *avro.EnumSchema, sym string) (int, bool) {
	ix := e.enums[es]
	if ix == nil {
		ix = make(map[string]int, len(es.Symbols()))
		for i, s := range es.Symbols() {
			ix[s] = i
		}
		if e.enums == nil {
			e.enums = map[*avro.EnumSchema]map[string]int{}
		}
		e.enums[es] = ix
	}
	i, ok := ix[sym]
	return i, ok
}

// encode writes v, a value for schema s as fromJSON makes it, in Avro's
// binary encoding. hamba/avro would do, but before it encodes anything it
// prints the schema to fingerprint it, and its printing is quadratic in
// the fields of a record, the symbols of an enum and the types of a union:
// a record of 30,000 fields took over a minute. This costs the value's
// size. Map entries are written in key order, so the same messages always
// make the same file.
func (e *encoder) encode(b *bytes.Buffer, s avro.Schema, v any) error {
	s = deref(s)
	switch s.Type() {
	case avro.Null:
		if v != nil {
			return errUnsupported
		}
		return nil
	case avro.Boolean:
		t, ok := v.(bool)
		if !ok {
			return errUnsupported
		}
		if t {
			b.WriteByte(1)
		} else {
			b.WriteByte(0)
		}
		return nil
	case avro.Int, avro.Long:
		n, ok := wholeNumber(v)
		if !ok {
			return errUnsupported
		}
		writeLong(b, n)
		return nil
	case avro.Float:
		f, ok := number(v)
		if !ok {
			return errUnsupported
		}
		b.Write(binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(f))))
		return nil
	case avro.Double:
		f, ok := number(v)
		if !ok {
			return errUnsupported
		}
		b.Write(binary.LittleEndian.AppendUint64(nil, math.Float64bits(f)))
		return nil
	case avro.String, avro.Bytes:
		switch t := v.(type) {
		case string:
			writeString(b, t)
		case []byte:
			writeBytes(b, t)
		default:
			return errUnsupported
		}
		return nil
	case avro.Fixed:
		raw, ok := fixedBytes(v)
		if !ok || len(raw) != s.(*avro.FixedSchema).Size() {
			return errUnsupported
		}
		b.Write(raw)
		return nil
	case avro.Enum:
		sym, ok := v.(string)
		if !ok {
			return errUnsupported
		}
		i, ok := e.symbol(s.(*avro.EnumSchema), sym)
		if !ok {
			return fmt.Errorf("%s is not a symbol of %s", diag.Quote(sym), s.(*avro.EnumSchema).FullName())
		}
		writeLong(b, int64(i))
		return nil
	case avro.Array, avro.Map:
		return e.container(b, s, v, e.encode)
	case avro.Record:
		m, ok := v.(map[string]any)
		if !ok {
			return errUnsupported
		}
		for _, f := range s.(*avro.RecordSchema).Fields() {
			fv, ok := m[f.Name()]
			if !ok {
				if !f.HasDefault() {
					return fmt.Errorf("the field %q of %s is missing and has no default", f.Name(), s.(*avro.RecordSchema).FullName())
				}
				if err := e.encodeDefault(b, f.Type(), f.Default()); err != nil {
					return err
				}
				continue
			}
			if err := e.encode(b, f.Type(), fv); err != nil {
				return err
			}
		}
		return nil
	case avro.Union:
		types := s.(*avro.UnionSchema).Types()
		if v == nil {
			for i, t := range types {
				if t.Type() == avro.Null {
					writeLong(b, int64(i))
					return nil
				}
			}
			return errUnsupported
		}
		m, ok := v.(map[string]any)
		if !ok || len(m) != 1 {
			return errUnsupported
		}
		for k, bv := range m {
			for i, t := range types {
				if branchName(t) == k {
					writeLong(b, int64(i))
					return e.encode(b, t, bv)
				}
			}
		}
		return errUnsupported
	}
	return errUnsupported
}

// container writes an array or a map as one block (a count, the items,
// then the empty block that ends it), each item by next: encode for a
// message's values, encodeDefault for a field's default. Map keys are
// written sorted, so the same message gives the same bytes.
func (e *encoder) container(b *bytes.Buffer, s avro.Schema, v any, next func(*bytes.Buffer, avro.Schema, any) error) error {
	if s.Type() == avro.Array {
		items, ok := v.([]any)
		if !ok {
			return errUnsupported
		}
		if len(items) > 0 {
			writeLong(b, int64(len(items)))
			for _, it := range items {
				if err := next(b, s.(*avro.ArraySchema).Items(), it); err != nil {
					return err
				}
			}
		}
		writeLong(b, 0)
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return errUnsupported
	}
	if len(m) > 0 {
		writeLong(b, int64(len(m)))
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			writeString(b, k)
			if err := next(b, s.(*avro.MapSchema).Values(), m[k]); err != nil {
				return err
			}
		}
	}
	writeLong(b, 0)
	return nil
}

// encodeDefault writes a field's default, as hamba/avro parsed it: a
// union's default is a value of its first type, bytes are a string.
func (e *encoder) encodeDefault(b *bytes.Buffer, s avro.Schema, v any) error {
	s = deref(s)
	switch s.Type() {
	case avro.Union:
		writeLong(b, 0)
		return e.encodeDefault(b, s.(*avro.UnionSchema).Types()[0], v)
	case avro.Record:
		m, ok := v.(map[string]any)
		if !ok {
			return errUnsupported
		}
		for _, f := range s.(*avro.RecordSchema).Fields() {
			fv, ok := m[f.Name()]
			if !ok {
				fv = f.Default()
			}
			if err := e.encodeDefault(b, f.Type(), fv); err != nil {
				return err
			}
		}
		return nil
	case avro.Array, avro.Map:
		return e.container(b, s, v, e.encodeDefault)
	case avro.Bytes, avro.Fixed:
		if str, ok := v.(string); ok {
			raw := make([]byte, 0, len(str))
			for _, r := range str {
				raw = append(raw, byte(r))
			}
			v = raw
		}
	}
	return e.encode(b, s, v)
}

func wholeNumber(v any) (int64, bool) {
	switch t := v.(type) {
	case int:
		return int64(t), true
	case int32:
		return int64(t), true
	case int64:
		return t, true
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<63 {
			return int64(t), true
		}
	}
	return 0, false
}

func number(v any) (float64, bool) {
	switch t := v.(type) {
	case float32:
		return float64(t), true
	case float64:
		return t, true
	case int:
		return float64(t), true
	case int32:
		return float64(t), true
	case int64:
		return float64(t), true
	}
	return 0, false
}

// fixedBytes reads the [N]byte fromJSON makes for a fixed, or a []byte.
func fixedBytes(v any) ([]byte, bool) {
	if raw, ok := v.([]byte); ok {
		return raw, true
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Array || rv.Type().Elem().Kind() != reflect.Uint8 {
		return nil, false
	}
	raw := make([]byte, rv.Len())
	reflect.Copy(reflect.ValueOf(raw), rv)
	return raw, true
}
