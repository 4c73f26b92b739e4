package avroschema

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/hamba/avro/v2"

	"github.com/subplay/subplay/core/doc"
)

// decoder reads Avro binary data into the values fromJSON makes. hamba/avro
// would do, but it prints the schema before it decodes anything, and its
// printing is quadratic in the fields of a record and the symbols of an
// enum (see encode). This costs the data's size: every value read takes
// at least a byte or counts against a budget of the data's length, and
// nesting stops at the depth JSON data may have.
type decoder struct {
	data   []byte
	at     int
	budget int // values that may still be read
}

var errBinary = errors.New("the data is not Avro binary of the topic schema")

// decodeBinary reads data as one value of s, all of it.
func decodeBinary(s avro.Schema, data []byte) (any, error) {
	d := &decoder{data: data, budget: len(data) + 1024}
	v, err := d.value(s, 0)
	if err != nil {
		return nil, err
	}
	if d.at != len(data) {
		return nil, errBinary
	}
	return v, nil
}

func (d *decoder) long() (int64, error) {
	v, n := binary.Varint(d.data[d.at:])
	if n <= 0 {
		return 0, errBinary
	}
	d.at += n
	return v, nil
}

func (d *decoder) raw(n int64) ([]byte, error) {
	if n < 0 || n > int64(len(d.data)-d.at) {
		return nil, errBinary
	}
	b := d.data[d.at : d.at+int(n)]
	d.at += int(n)
	return b, nil
}

// count reads an array or map block's count; a negative count is followed
// by the block's size in bytes.
// blocks reads the blocks of an array or a map, calling item once for each
// item, until the empty block that ends them.
func (d *decoder) blocks(item func() error) error {
	for {
		n, err := d.count()
		if err != nil || n == 0 {
			return err
		}
		for ; n > 0; n-- {
			if err := item(); err != nil {
				return err
			}
		}
	}
}

func (d *decoder) count() (int64, error) {
	n, err := d.long()
	if err != nil {
		return 0, err
	}
	if n < 0 {
		if _, err := d.long(); err != nil {
			return 0, err
		}
		n = -n
	}
	if n < 0 || n > int64(d.budget) {
		return 0, errBinary
	}
	return n, nil
}

func (d *decoder) value(s avro.Schema, depth int) (any, error) {
	if d.budget--; d.budget < 0 || depth > doc.DefaultLimits.MaxDepth {
		return nil, errBinary
	}
	s = deref(s)
	switch s.Type() {
	case avro.Null:
		return nil, nil
	case avro.Boolean:
		b, err := d.raw(1)
		if err != nil || b[0] > 1 {
			return nil, errBinary
		}
		return b[0] == 1, nil
	case avro.Int:
		v, err := d.long()
		if err != nil || v < math.MinInt32 || v > math.MaxInt32 {
			return nil, errBinary
		}
		return int(v), nil
	case avro.Long:
		return d.long()
	case avro.Float:
		b, err := d.raw(4)
		if err != nil {
			return nil, err
		}
		return math.Float32frombits(binary.LittleEndian.Uint32(b)), nil
	case avro.Double:
		b, err := d.raw(8)
		if err != nil {
			return nil, err
		}
		return math.Float64frombits(binary.LittleEndian.Uint64(b)), nil
	case avro.String, avro.Bytes:
		n, err := d.long()
		if err != nil {
			return nil, err
		}
		b, err := d.raw(n)
		if err != nil {
			return nil, err
		}
		if s.Type() == avro.String {
			return string(b), nil
		}
		return append([]byte(nil), b...), nil
	case avro.Fixed:
		b, err := d.raw(int64(s.(*avro.FixedSchema).Size()))
		if err != nil {
			return nil, err
		}
		return append([]byte(nil), b...), nil
	case avro.Enum:
		i, err := d.long()
		syms := s.(*avro.EnumSchema).Symbols()
		if err != nil || i < 0 || i >= int64(len(syms)) {
			return nil, errBinary
		}
		return syms[i], nil
	case avro.Array:
		out := []any{}
		err := d.blocks(func() error {
			v, err := d.value(s.(*avro.ArraySchema).Items(), depth+1)
			out = append(out, v)
			return err
		})
		if err != nil {
			return nil, err
		}
		return out, nil
	case avro.Map:
		out := map[string]any{}
		err := d.blocks(func() error {
			kn, err := d.long()
			if err != nil {
				return err
			}
			k, err := d.raw(kn)
			if err != nil {
				return err
			}
			v, err := d.value(s.(*avro.MapSchema).Values(), depth+1)
			out[string(k)] = v
			return err
		})
		if err != nil {
			return nil, err
		}
		return out, nil
	case avro.Record:
		fields := s.(*avro.RecordSchema).Fields()
		out := make(map[string]any, len(fields))
		for _, f := range fields {
			v, err := d.value(f.Type(), depth+1)
			if err != nil {
				return nil, err
			}
			out[f.Name()] = v
		}
		return out, nil
	case avro.Union:
		i, err := d.long()
		types := s.(*avro.UnionSchema).Types()
		if err != nil || i < 0 || i >= int64(len(types)) {
			return nil, errBinary
		}
		t := types[i]
		v, err := d.value(t, depth+1)
		if err != nil || t.Type() == avro.Null {
			return nil, err
		}
		return map[string]any{branchName(t): v}, nil
	}
	return nil, errBinary
}
