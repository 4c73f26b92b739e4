package bigquery

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/subplay/subplay/core/avroschema"
	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/schemaresult"
	"github.com/subplay/subplay/core/stop"
)

// Row is what one sample message becomes in the table (in
// core/schemaresult, so that builds without Avro can describe it).
type Row = schemaresult.Row

// Sample holds what the service knows that a sample message may not say.
type Sample struct {
	Subscription string    // the subscription's full name
	Now          time.Time // publish time of messages that have none
	// Origin, when set, is the sample message each of msgs comes from
	// (msgs are then what came through the subscription's transforms and
	// filter): rows, diagnostics and made-up message ids name it.
	Origin []int
}

// index is the sample message msgs[i] comes from.
func (s Sample) index(i int) int {
	if i < len(s.Origin) {
		return s.Origin[i]
	}
	return i
}

// Preview returns the row each message becomes, for a subscription without
// a schema option or with useTableSchema (useTopicSchema rows are not
// previewed: the result is nil). A message that would not be written gets
// an error diagnostic at "/messages/<i>/data".
func Preview(opts Options, table *Table, msgs []message.Message, s Sample) ([]Row, []diag.Diagnostic) {
	rows, ds, _ := PreviewContext(context.Background(), opts, table, msgs, s)
	return rows, ds
}

// PreviewContext is Preview for a caller that may stop waiting: once ctx
// is done it returns ctx's error and no rows.
func PreviewContext(ctx context.Context, opts Options, table *Table, msgs []message.Message, s Sample) ([]Row, []diag.Diagnostic, error) {
	if table == nil || opts.UseTopicSchema || (opts.UseTopicSchema && opts.UseTableSchema) {
		return nil, nil, nil
	}
	var rows []Row
	var ds []diag.Diagnostic
	for j := range msgs {
		if err := stop.Check(ctx, j); err != nil {
			return nil, nil, err
		}
		i := s.index(j)
		r := previewOne(opts, table, &msgs[j], i, s)
		if !r.Written {
			ds = append(ds, diag.Diagnostic{Severity: diag.Error, Code: "bq-row-rejected",
				Input: diag.InputMessages, MessageIndex: &i, Path: MessagePath + "/" + strconv.Itoa(i) + "/data",
				Message: "message " + strconv.Itoa(i) + " would not be written and stays in the backlog: " + r.Problem,
				Hint:    "fix the message or the table; a dead-letter topic would receive such messages"})
		}
		rows = append(rows, r)
	}
	return rows, ds, nil
}

func previewOne(opts Options, table *Table, m *message.Message, i int, s Sample) Row {
	cols := table.Columns
	r := Row{Message: i}
	c := &converter{row: &r, notes: map[string]bool{}}
	var b strings.Builder
	b.WriteByte('{')
	first := true
	field := func(name string) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		doc.QuoteJSON(&b, name)
		b.WriteByte(':')
	}
	var err error
	if opts.UseTableSchema {
		err = c.message(m.Data, table, opts, &b, &first)
	} else if col := columnNamed(cols, dataColumn.Name); col != nil {
		field(col.Name)
		err = dataValue(m.Data, col, &b)
	}
	if err == nil && opts.WriteMetadata {
		for _, mc := range MetadataColumns {
			col := columnNamed(cols, mc.Name)
			if col == nil {
				continue
			}
			field(col.Name)
			metadataValue(mc.Name, col, m, i, s, &b)
		}
	}
	b.WriteByte('}')
	if err != nil {
		r.Problem = err.Error()
		r.Dropped = nil
		return r
	}
	r.Written = true
	r.Values = json.RawMessage(b.String())
	return r
}

// dataValue writes the message data into the data column.
func dataValue(data []byte, col *Column, b *strings.Builder) error {
	switch col.Type {
	case String:
		if !utf8.Valid(data) {
			return errors.New("the data is not UTF-8 text, which a STRING column needs")
		}
		doc.QuoteJSON(b, string(data))
	case JSON:
		if !json.Valid(data) {
			return errors.New("the data is not valid JSON, which a JSON column needs")
		}
		var compact strings.Builder
		d, _ := doc.ParseLimits("data", string(data), doc.JSON, doc.Limits{MaxBytes: message.MaxDataBytes, MaxDepth: 500})
		if d.Root == nil {
			return errors.New("the data is JSON nested too deep to preview")
		}
		d.Root.WriteJSON(&compact)
		b.WriteString(compact.String())
	default:
		doc.QuoteJSON(b, base64.StdEncoding.EncodeToString(data))
	}
	return nil
}

func metadataValue(name string, col *Column, m *message.Message, i int, s Sample, b *strings.Builder) {
	switch name {
	case "subscription_name":
		doc.QuoteJSON(b, s.Subscription)
	case "message_id":
		id := m.MessageID
		if id == "" {
			id = strconv.Itoa(i + 1)
		}
		doc.QuoteJSON(b, id)
	case "publish_time":
		t, ok := m.Time()
		if !ok {
			t = s.Now
		}
		doc.QuoteJSON(b, t.UTC().Format("2006-01-02T15:04:05.999999Z"))
	case "attributes":
		attrs := maps.Clone(m.Attributes)
		if m.OrderingKey != "" {
			if attrs == nil {
				attrs = map[string]string{}
			}
			attrs[avroschema.OrderingKeyAttribute] = m.OrderingKey
		}
		var obj strings.Builder
		obj.WriteByte('{')
		for j, k := range slices.Sorted(maps.Keys(attrs)) {
			if j > 0 {
				obj.WriteByte(',')
			}
			doc.QuoteJSON(&obj, k)
			obj.WriteByte(':')
			doc.QuoteJSON(&obj, attrs[k])
		}
		obj.WriteByte('}')
		if col.Type == JSON {
			b.WriteString(obj.String())
		} else {
			doc.QuoteJSON(b, obj.String())
		}
	}
}

// converter turns a JSON message into a row under useTableSchema.
type converter struct {
	row   *Row
	notes map[string]bool // Notes already in row, to add each once
}

func (c *converter) note(s string) {
	if !c.notes[s] {
		c.notes[s] = true
		c.row.Notes = append(c.row.Notes, s)
	}
}

func (c *converter) message(data []byte, table *Table, opts Options, b *strings.Builder, first *bool) error {
	d, ds := doc.ParseLimits("data", string(data), doc.JSON, doc.Limits{MaxBytes: message.MaxDataBytes, MaxDepth: doc.DefaultLimits.MaxDepth})
	if d.Root == nil {
		msg := "the data is empty"
		if len(ds) > 0 {
			msg = ds[0].Message
		}
		return errors.New("with useTableSchema messages must be JSON, and this one is not: " + msg)
	}
	if d.Root.Kind != doc.Object {
		return errors.New("with useTableSchema a message must be a JSON object, not " + article(d.Root.Kind.String()))
	}
	skip := func(col *Column) bool { return opts.WriteMetadata && isMetadata(col.Name) }
	return c.fields(d.Root, table.Columns, table.byName, "", opts.DropUnknownFields, skip, b, first)
}

// fields writes the columns of one object level.
func (c *converter) fields(obj *doc.Node, cols []*Column, byName map[string]*Column, at string, drop bool, skip func(*Column) bool, b *strings.Builder, first *bool) error {
	// The value of each column is the last member whose key matches its
	// name regardless of case.
	values := make(map[string]*doc.Node, len(obj.Members))
	for _, m := range obj.Members {
		values[foldName(m.Key)] = m.Value
		if col := findColumn(cols, byName, m.Key); col == nil || (skip != nil && skip(col)) {
			p := at + "/" + diag.PointerKey(m.Key)
			if !drop {
				return fmt.Errorf("the field %s has no column (set dropUnknownFields to drop it)", p)
			}
			c.row.Dropped = append(c.row.Dropped, p)
		}
	}
	for _, col := range cols {
		if skip != nil && skip(col) {
			continue
		}
		v := values[foldName(col.Name)]
		if !*first {
			b.WriteByte(',')
		}
		*first = false
		doc.QuoteJSON(b, col.Name)
		b.WriteByte(':')
		p := at + "/" + diag.PointerKey(col.Name)
		if v == nil {
			if col.Mode == Required {
				return fmt.Errorf("the message has no field %s, which the REQUIRED column needs", p)
			}
			if col.Mode == Repeated {
				b.WriteString("[]")
			} else {
				b.WriteString("null")
			}
			continue
		}
		if err := c.value(v, col, p, drop, b); err != nil {
			return err
		}
	}
	return nil
}

func (c *converter) value(n *doc.Node, col *Column, at string, drop bool, b *strings.Builder) error {
	if n.Kind == doc.Null {
		switch col.Mode {
		case Required:
			return fmt.Errorf("%s is null, but its column is REQUIRED", at)
		case Repeated:
			b.WriteString("[]")
		default:
			b.WriteString("null")
		}
		return nil
	}
	if col.Mode == Repeated {
		if n.Kind != doc.Array {
			return fmt.Errorf("%s is %s, but its column is REPEATED and takes an array", at, describe(n))
		}
		b.WriteByte('[')
		for i, it := range n.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			p := at + "/" + strconv.Itoa(i)
			if it.Kind == doc.Null {
				return fmt.Errorf("%s is null; a REPEATED column holds no nulls", p)
			}
			if err := c.single(it, col, p, drop, b); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	}
	return c.single(n, col, at, drop, b)
}

// single converts one non-null value for a column, following the JSON
// conversions of the product page.
func (c *converter) single(n *doc.Node, col *Column, at string, drop bool, b *strings.Builder) error {
	bad := func(takes string) error {
		return fmt.Errorf("%s is %s, but a %s column takes %s", at, describe(n), col.Type, takes)
	}
	switch col.Type {
	case Record:
		if n.Kind != doc.Object {
			return bad("an object")
		}
		b.WriteByte('{')
		first := true
		if err := c.fields(n, col.Fields, col.byName, at, drop, nil, b, &first); err != nil {
			return err
		}
		b.WriteByte('}')
	case JSON:
		n.WriteJSON(b)
	case String, Geography, Interval:
		if n.Kind != doc.String {
			return bad("a string")
		}
		doc.QuoteJSON(b, n.Value)
	case Bytes:
		if n.Kind != doc.String {
			return bad("a base64 string")
		}
		if _, err := base64.StdEncoding.DecodeString(n.Value); err != nil {
			return bad("a base64 string")
		}
		doc.QuoteJSON(b, n.Value)
	case Boolean:
		if n.Kind != doc.Bool {
			return bad("true or false")
		}
		b.WriteString(n.Value)
	case Integer:
		if n.Kind != doc.Number {
			return bad("a whole number")
		}
		i, ok := integer(n.Value)
		if !ok {
			return bad("a whole number within 64 bits")
		}
		b.WriteString(strconv.FormatInt(i, 10))
	case Float:
		if n.Kind != doc.Number {
			return bad("a number")
		}
		b.WriteString(n.Value)
	case Numeric, BigNumeric:
		return c.numeric(n, col, at, bad, b)
	case Date, Time, DateTime, Timestamp:
		return c.temporal(n, col, at, bad, b)
	case Range:
		n.WriteJSON(b)
	default:
		return bad("a value this preview does not know")
	}
	return nil
}

// Integer digits NUMERIC and BIGNUMERIC hold: precision minus scale.
var integerDigits = map[string]int{Numeric: 29, BigNumeric: 38}

func (c *converter) numeric(n *doc.Node, col *Column, at string, bad func(string) error, b *strings.Builder) error {
	switch n.Kind {
	case doc.Number:
		if significantDigits(n.Value) > 15 {
			c.note(at + ": a JSON number converted to " + col.Type + " keeps only double precision (about 15 digits); write it as a string to keep every digit")
		}
		f, _ := strconv.ParseFloat(n.Value, 64)
		if math.IsInf(f, 0) {
			return bad("a number within range")
		}
	case doc.String:
		if !readableNumber(strings.TrimSpace(n.Value)) {
			c.note(at + ": the string is not a readable number, so it is read as bytes encoded by BigDecimalByteStringEncoder")
			doc.QuoteJSON(b, n.Value)
			return nil
		}
	default:
		return bad("a number or a numeric string")
	}
	r, ok := new(big.Rat).SetString(strings.TrimSpace(n.Value))
	if !ok {
		return bad("a number")
	}
	whole := new(big.Int).Quo(r.Num(), r.Denom())
	if len(whole.Abs(whole).String()) > integerDigits[col.Type] {
		return fmt.Errorf("%s is %s, outside the range of %s (%d integer digits)", at, describe(n), col.Type, integerDigits[col.Type])
	}
	if n.Kind == doc.String {
		doc.QuoteJSON(b, n.Value)
	} else {
		b.WriteString(n.Value)
	}
	return nil
}

func significantDigits(num string) int {
	mant, _, _ := strings.Cut(strings.ToLower(num), "e")
	digits := strings.TrimLeft(strings.ReplaceAll(strings.TrimLeft(mant, "+-"), ".", ""), "0")
	if strings.Contains(mant, ".") {
		return len(digits)
	}
	return len(strings.TrimRight(digits, "0"))
}

func integer(s string) (int64, bool) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i, true
	}
	// 1e3 and 2.0 are whole numbers written another way.
	r, ok := new(big.Rat).SetString(s)
	if !ok || !r.IsInt() || !r.Num().IsInt64() {
		return 0, false
	}
	return r.Num().Int64(), true
}

// Layouts BigQuery reads in strings (canonical forms, "T" or space).
var (
	dateLayouts     = []string{"2006-1-2"}
	timeLayouts     = []string{"15:04:05.999999", "15:04"}
	datetimeLayouts = []string{"2006-1-2 15:04:05.999999", "2006-1-2T15:04:05.999999", "2006-1-2 15:04", "2006-1-2T15:04", "2006-1-2"}
	timestampZones  = []string{"Z07:00", " Z07:00", "Z0700", " MST", "Z"}
)

const (
	minMicros = -62135596800000000 // 0001-01-01T00:00:00Z
	maxMicros = 253402300799999999 // 9999-12-31T23:59:59.999999Z
)

func (c *converter) temporal(n *doc.Node, col *Column, at string, bad func(string) error, b *strings.Builder) error {
	switch n.Kind {
	case doc.String:
		if _, ok := parseTemporal(col.Type, strings.TrimSpace(n.Value)); !ok {
			return bad("a string in BigQuery's " + col.Type + " format (" + temporalExample[col.Type] + ")")
		}
		doc.QuoteJSON(b, n.Value)
		return nil
	case doc.Number:
	default:
		return bad("a string or a number")
	}
	v, ok := integer(n.Value)
	if !ok {
		return bad("a whole number")
	}
	var out string
	switch col.Type {
	case Date:
		if v < -719162 || v > 2932896 {
			return fmt.Errorf("%s: %d days from 1970-01-01 is outside the DATE range", at, v)
		}
		out = time.Unix(v*86400, 0).UTC().Format("2006-01-02")
	case Timestamp:
		if v < minMicros || v > maxMicros {
			return fmt.Errorf("%s: %d microseconds from the epoch is outside the TIMESTAMP range", at, v)
		}
		out = time.UnixMicro(v).UTC().Format("2006-01-02T15:04:05.999999Z")
	case Time:
		s, ok := decodePackedTime(v)
		if !ok {
			return fmt.Errorf("%s: %d is not a TIME encoded by CivilTimeEncoder (hour<<32 | minute<<26 | second<<20 | microseconds)", at, v)
		}
		out = s
	case DateTime:
		s, ok := decodePackedDateTime(v)
		if !ok {
			return fmt.Errorf("%s: %d is not a DATETIME encoded by CivilTimeEncoder", at, v)
		}
		out = s
	}
	doc.QuoteJSON(b, out)
	return nil
}

var temporalExample = map[string]string{
	Date: "2024-05-01", Time: "12:30:00.5", DateTime: "2024-05-01 12:30:00", Timestamp: "2024-05-01T12:30:00Z",
}

func parseTemporal(typ, s string) (time.Time, bool) {
	var layouts []string
	switch typ {
	case Date:
		layouts = dateLayouts
	case Time:
		layouts = timeLayouts
	case DateTime:
		layouts = datetimeLayouts
	case Timestamp:
		s = strings.TrimSuffix(s, " UTC")
		for _, base := range datetimeLayouts[:4] {
			layouts = append(layouts, base)
			for _, z := range timestampZones {
				layouts = append(layouts, base+z)
			}
		}
		layouts = append(layouts, "2006-1-2")
	}
	for _, l := range layouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// decodePackedTime reads CivilTimeEncoder's 64-bit TIME: the hour, minute
// and second packed as hour<<12 | minute<<6 | second, shifted above 20 bits
// of microseconds.
func decodePackedTime(v int64) (string, bool) {
	if v < 0 {
		return "", false
	}
	micros := v & 0xfffff
	secs := v >> 20
	h, m, s := secs>>12, secs>>6&0x3f, secs&0x3f
	if h > 23 || m > 59 || s > 59 || micros > 999999 {
		return "", false
	}
	return fmt.Sprintf("%02d:%02d:%02d.%06d", h, m, s, micros), true
}

// decodePackedDateTime reads CivilTimeEncoder's 64-bit DATETIME: year<<26
// | month<<22 | day<<17 | hour<<12 | minute<<6 | second, shifted above 20
// bits of microseconds.
func decodePackedDateTime(v int64) (string, bool) {
	if v < 0 {
		return "", false
	}
	micros := v & 0xfffff
	secs := v >> 20
	y, mo, d := secs>>26, secs>>22&0xf, secs>>17&0x1f
	h, mi, s := secs>>12&0x1f, secs>>6&0x3f, secs&0x3f
	if y < 1 || y > 9999 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59 || micros > 999999 {
		return "", false
	}
	if t := time.Date(int(y), time.Month(mo), int(d), 0, 0, 0, 0, time.UTC); t.Day() != int(d) {
		return "", false
	}
	return fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02d.%06d", y, mo, d, h, mi, s, micros), true
}

func describe(n *doc.Node) string {
	switch n.Kind {
	case doc.String:
		if len(n.Value) > 40 {
			return "a string"
		}
		return strconv.Quote(n.Value)
	case doc.Number, doc.Bool:
		return n.Value
	case doc.Null:
		return "null"
	}
	return article(n.Kind.String())
}
