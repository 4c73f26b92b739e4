package bigquery

import (
	"strconv"

	"github.com/subplay/subplay/core/avroschema"
	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/protoschema"
)

// maxColumns and maxNesting are BigQuery's own limits on a table; see
// core/limits.
const (
	maxColumns = limits.BigQueryColumns
	maxNesting = limits.BigQueryNesting
)

// A topic schema can describe a table far larger than itself: a message
// with two fields of the message before it doubles the columns at every
// level, so 20 lines of .proto describe a million columns. sizer counts
// the columns and levels a topic schema makes before any of them is built,
// and stops at BigQuery's limits.
//
// It walks the schema as FromProto and FromAvro do, a record type at a
// time, remembering what each record type adds. The count is an upper
// bound of what Generate writes (fields left out, such as a recursion or a
// oneof, count as one column), so whatever passes fits. Every column
// counted is real, and the walk stops at the first over the limit: its cost
// is bounded by maxColumns whatever the schema.
type sizer struct {
	children func(key any) []sizeChild
	memo     map[any]sizeResult
	stack    map[any]int // record types being counted, by stack position
	depth    int
	total    int // columns counted so far
	over     *diag.Diagnostic
}

// sizeChild is one column of a record type: a leaf, or a record whose own
// columns come from children(record).
type sizeChild struct {
	record any
	name   string
	path   string
	span   diag.Span
}

type sizeResult struct {
	columns int // of the record type's fields, recursively
	levels  int // record levels below its fields (0 when none is a record)
}

// count measures the record type key whose fields are at level (top-level
// columns are level 1). It returns false once a limit is passed, with the
// finding in s.over. lowest is the outermost stack position a field inside
// referred back to: a count that saw a recursion above it depends on the
// path and is not remembered.
func (s *sizer) count(key any, level int) (r sizeResult, lowest int, ok bool) {
	pos := s.depth
	s.stack[key] = pos
	s.depth++
	defer func() { delete(s.stack, key); s.depth-- }()
	lowest = pos
	for _, c := range s.children(key) {
		s.total++
		r.columns++
		if s.total > maxColumns {
			s.tooMany(c, -1)
			return r, lowest, false
		}
		if c.record == nil {
			continue
		}
		if at, inStack := s.stack[c.record]; inStack {
			// A recursion: left out of the table, and counted as one.
			lowest = min(lowest, at)
			continue
		}
		if level >= maxNesting {
			s.tooDeep(c, level, -1)
			return r, lowest, false
		}
		sub, known := s.memo[c.record]
		if known {
			if level+sub.levels >= maxNesting {
				s.tooDeep(c, level, sub.levels)
				return r, lowest, false
			}
			s.total += sub.columns
			if s.total > maxColumns {
				s.tooMany(c, sub.columns)
				return r, lowest, false
			}
		} else {
			var low int
			var ok bool
			sub, low, ok = s.count(c.record, level+1)
			if !ok {
				return r, lowest, false
			}
			lowest = min(lowest, low)
			if low >= s.depth { // nothing inside referred above it
				s.memo[c.record] = sub
			}
		}
		r.columns += sub.columns
		r.levels = max(r.levels, sub.levels+1)
	}
	return r, lowest, true
}

func (s *sizer) tooMany(c sizeChild, own int) {
	msg := "the table generated from this schema has more than " + thousands(maxColumns) + " columns, BigQuery's limit; it passes it at the field " + diag.Quote(c.name)
	if own > 0 {
		msg += ", whose type holds " + thousands(own) + " columns of its own"
	}
	s.over = &diag.Diagnostic{Severity: diag.Error, Code: "bq-too-many-columns", Path: c.path, Span: c.span, Message: msg,
		Hint: "a type used by several fields adds its columns once per field; use fewer fields of large types, or write the message to a JSON or STRING column without useTopicSchema"}
}

func (s *sizer) tooDeep(c sizeChild, level, below int) {
	msg := "the field " + diag.Quote(c.name) + " is a RECORD column at level " + strconv.Itoa(level)
	if below > 0 {
		msg += " whose type nests " + strconv.Itoa(below) + " more levels"
	}
	msg += "; BigQuery nests columns at most " + strconv.Itoa(maxNesting) + " levels deep"
	s.over = &diag.Diagnostic{Severity: diag.Error, Code: "bq-record-depth", Path: c.path, Span: c.span, Message: msg,
		Hint: "flatten the nested messages or records, or write the message to a JSON or STRING column without useTopicSchema"}
}

// measure counts the columns of the root record type and returns the
// finding of the first limit passed, or nil.
func measure(root any, children func(key any) []sizeChild) *diag.Diagnostic {
	s := &sizer{children: children, memo: map[any]sizeResult{}, stack: map[any]int{}}
	s.count(root, 1)
	return s.over
}

// protoChildren lists the columns of a message, or of a map field's entry
// (keyed by the field).
func protoChildren(key any) []sizeChild {
	switch k := key.(type) {
	case *protoschema.Message:
		out := make([]sizeChild, 0, len(k.Fields))
		for _, f := range k.Fields {
			c := sizeChild{name: f.Name, path: TopicPath, span: f.Span}
			switch {
			case f.Oneof != "":
			case f.IsMap():
				c.record = f
			case f.Message != nil:
				c.record = f.Message
			}
			out = append(out, c)
		}
		return out
	case *protoschema.Field:
		val := sizeChild{name: "value", path: TopicPath, span: k.Span}
		if k.Message != nil {
			val.record = k.Message
		}
		return []sizeChild{{name: "key", path: TopicPath, span: k.Span}, val}
	}
	return nil
}

// avroChildren lists the columns of a record, or of a map's entry (keyed
// by the map type).
func avroChildren(key any) []sizeChild {
	t := key.(*avroschema.Type)
	if t.Kind == avroschema.Map {
		val := sizeChild{name: "value", path: TopicPath + t.Path, span: t.Span}
		val.record = avroRecordOf(t.Values, false)
		return []sizeChild{{name: "key", path: TopicPath + t.Path, span: t.Span}, val}
	}
	out := make([]sizeChild, 0, len(t.Fields))
	for _, f := range t.Fields {
		out = append(out, sizeChild{name: f.Name, path: TopicPath + f.Path, span: f.Span, record: avroRecordOf(f.Type, false)})
	}
	return out
}

// avroRecordOf is the record or map type whose columns a field of type t
// holds, or nil when its column is a leaf or it has none, following
// avroType's unwrapping of unions and arrays.
func avroRecordOf(t *avroschema.Type, repeated bool) any {
	if t == nil {
		return nil
	}
	if t.Kind == avroschema.Union {
		inner, ok := t.Optional()
		switch {
		case ok:
			t = inner
		case len(t.Branches) == 1:
			return avroRecordOf(t.Branches[0], repeated)
		default:
			return nil
		}
	}
	switch t.Kind {
	case avroschema.Array:
		if repeated {
			return nil
		}
		return avroRecordOf(t.Items, true)
	case avroschema.Record:
		return t
	case avroschema.Map:
		if repeated {
			return nil
		}
		return t
	}
	return nil
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
