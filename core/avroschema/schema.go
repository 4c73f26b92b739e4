package avroschema

import (
	"strconv"
	"strings"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
)

// Kind names an Avro type.
type Kind string

// The Avro types. Union is a list of types; the others are spelled as the
// specification spells them.
const (
	Null    Kind = "null"
	Boolean Kind = "boolean"
	Int     Kind = "int"
	Long    Kind = "long"
	Float   Kind = "float"
	Double  Kind = "double"
	Bytes   Kind = "bytes"
	String  Kind = "string"
	Record  Kind = "record"
	Enum    Kind = "enum"
	Array   Kind = "array"
	Map     Kind = "map"
	Fixed   Kind = "fixed"
	Union   Kind = "union"
)

var primitives = map[string]Kind{
	"null": Null, "boolean": Boolean, "int": Int, "long": Long, "float": Float,
	"double": Double, "bytes": Bytes, "string": String,
}

// Type is one type of a topic schema and where it was written. A named type
// used twice is the same *Type, so a recursive record is a cycle: walk it
// with a visited set.
type Type struct {
	Kind Kind
	// Logical is the logical type when it is valid for Kind ("timestamp-
	// micros", "decimal", ...); an Avro reader ignores any other, and so
	// does this model.
	Logical          string
	Name             string   // full name of a record, enum or fixed
	Fields           []*Field // record
	Items            *Type    // array
	Values           *Type    // map
	Branches         []*Type  // union
	Symbols          []string // enum
	Size             int      // fixed
	Precision, Scale int      // decimal

	Path string    // JSON pointer to where the type was defined
	Span diag.Span // in the schema text
}

// Field is one field of a record.
type Field struct {
	Name       string
	Type       *Type
	HasDefault bool
	Path       string    // JSON pointer to the field object
	Span       diag.Span // of the field's name
}

// Optional reports whether t is a union of null and exactly one other type,
// and returns that type: what BigQuery calls NULLABLE.
func (t *Type) Optional() (*Type, bool) {
	if t == nil || t.Kind != Union || len(t.Branches) != 2 {
		return nil, false
	}
	a, b := t.Branches[0], t.Branches[1]
	switch {
	case a.Kind == Null && b.Kind != Null:
		return b, true
	case b.Kind == Null && a.Kind != Null:
		return a, true
	}
	return nil, false
}

// FieldNamed returns the field of a record called name, or nil.
func (t *Type) FieldNamed(name string) *Field {
	if t == nil {
		return nil
	}
	for _, f := range t.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// TypeName is how the type is shown in messages: "string", "long
// (timestamp-micros)", "record com.example.Order", "union".
func (t *Type) TypeName() string {
	switch {
	case t == nil:
		return "nothing"
	case t.Logical != "":
		return string(t.Kind) + " (" + t.Logical + ")"
	case t.Name != "":
		return string(t.Kind) + " " + t.Name
	}
	return string(t.Kind)
}

// walker builds the Type tree from a decoded schema text and reports every
// problem it can place.
type walker struct {
	named map[string]*Type
	ds    []diag.Diagnostic
}

func (w *walker) add(sev diag.Severity, code, path string, span diag.Span, msg, hint string) {
	w.ds = append(w.ds, diag.Diagnostic{Severity: sev, Code: code, Path: path, Span: span, Message: msg, Hint: hint})
}

func (w *walker) errorf(code string, n *doc.Node, path, msg, hint string) {
	w.add(diag.Error, code, path, n.Span, msg, hint)
}

// typ reads the type written at n. ns is the enclosing namespace.
func (w *walker) typ(n *doc.Node, ns, path string) *Type {
	switch n.Kind {
	case doc.String:
		return w.reference(n, ns, path)
	case doc.Array:
		return w.union(n, ns, path)
	case doc.Object:
		return w.complex(n, ns, path)
	}
	w.errorf("avro-type-shape", n, path, "an Avro type is a name, an object or a list (a union), not a "+n.Kind.String(),
		`write e.g. "string", {"type": "array", "items": "long"} or ["null", "string"]`)
	return &Type{Kind: Null, Path: path, Span: n.Span}
}

func (w *walker) reference(n *doc.Node, ns, path string) *Type {
	if k, ok := primitives[n.Value]; ok {
		return &Type{Kind: k, Path: path, Span: n.Span}
	}
	for _, full := range candidates(n.Value, ns) {
		if t := w.named[full]; t != nil {
			return t
		}
	}
	hint := "use a primitive type (null, boolean, int, long, float, double, bytes, string) or a record, enum or fixed defined earlier in the schema"
	switch n.Value {
	case "record", "enum", "array", "map", "fixed":
		hint = `a ` + n.Value + ` is written as an object: {"type": "` + n.Value + `", ...}`
	case "integer", "bool", "str", "float64", "int64", "int32":
		hint = "Avro's primitive types are null, boolean, int, long, float, double, bytes and string"
	}
	w.errorf("avro-unknown-type", n, path, "unknown type "+diag.Quote(n.Value), hint)
	return &Type{Kind: Null, Path: path, Span: n.Span}
}

// candidates lists the full names a reference may mean: qualified by the
// enclosing namespace first, then as written.
func candidates(name, ns string) []string {
	if strings.Contains(name, ".") || ns == "" {
		return []string{name}
	}
	return []string{ns + "." + name, name}
}

func (w *walker) union(n *doc.Node, ns, path string) *Type {
	t := &Type{Kind: Union, Path: path, Span: n.Span}
	seen := map[string]bool{}
	if len(n.Items) == 0 {
		w.errorf("avro-union-empty", n, path, "a union needs at least one type", `write e.g. ["null", "string"]`)
	}
	for i, it := range n.Items {
		p := path + "/" + strconv.Itoa(i)
		b := w.typ(it, ns, p)
		if b.Kind == Union {
			w.errorf("avro-union-nested", it, p, "a union cannot contain another union", "list the types of the inner union in the outer one")
			continue
		}
		key := string(b.Kind)
		if b.Name != "" {
			key = b.Name
		}
		if seen[key] {
			w.errorf("avro-union-duplicate", it, p, "the union lists "+diag.Quote(key)+" twice",
				"a union may hold each type once (named types once per name)")
			continue
		}
		seen[key] = true
		t.Branches = append(t.Branches, b)
	}
	return t
}

func (w *walker) complex(n *doc.Node, ns, path string) *Type {
	tn := n.Get("type")
	if tn == nil {
		w.errorf("avro-type-missing", n, path, `this schema object has no "type"`,
			`add "type": "record" (or enum, array, map, fixed, or a primitive type)`)
		return &Type{Kind: Null, Path: path, Span: n.Span}
	}
	tp := path + "/type"
	if tn.Kind != doc.String {
		if tn.Kind == doc.Array || tn.Kind == doc.Object {
			// {"type": ["null", "string"]} or {"type": {...}}: Avro
			// libraries accept the wrapper, so read what it wraps.
			return w.typ(tn, ns, tp)
		}
		w.errorf("avro-type-shape", tn, tp, `"type" must be a string, found a `+tn.Kind.String(), "")
		return &Type{Kind: Null, Path: path, Span: n.Span}
	}
	switch tn.Value {
	case "record", "error":
		return w.record(n, ns, path)
	case "enum":
		return w.enum(n, ns, path)
	case "array":
		t := &Type{Kind: Array, Path: path, Span: n.Span}
		if it := n.Get("items"); it != nil {
			t.Items = w.typ(it, ns, path+"/items")
		} else {
			w.errorf("avro-array-items", n, path, `an array needs "items", the type of its elements`, `add e.g. "items": "string"`)
			t.Items = &Type{Kind: Null, Path: path, Span: n.Span}
		}
		return t
	case "map":
		t := &Type{Kind: Map, Path: path, Span: n.Span}
		if v := n.Get("values"); v != nil {
			t.Values = w.typ(v, ns, path+"/values")
		} else {
			w.errorf("avro-map-values", n, path, `a map needs "values", the type of its values`, `add e.g. "values": "string"`)
			t.Values = &Type{Kind: Null, Path: path, Span: n.Span}
		}
		return t
	case "fixed":
		return w.fixed(n, ns, path)
	}
	if k, ok := primitives[tn.Value]; ok {
		t := &Type{Kind: k, Path: path, Span: n.Span}
		w.logical(n, t, path)
		return t
	}
	// {"type": "com.example.Named"} refers to a named type.
	t := w.reference(tn, ns, tp)
	return t
}

// define reads the name and namespace of a named type and registers it.
func (w *walker) define(n *doc.Node, t *Type, ns, path string) (newNS string) {
	nn := n.Get("name")
	if nn == nil || nn.Kind != doc.String || nn.Value == "" {
		at := n
		if nn != nil {
			at = nn
		}
		w.errorf("avro-name-missing", at, path+"/name", "a "+string(t.Kind)+" needs a name", `add e.g. "name": "Order"`)
		return ns
	}
	name := nn.Value
	if nsn := n.Get("namespace"); nsn != nil && nsn.Kind == doc.String && !strings.Contains(name, ".") {
		ns = nsn.Value
		if ns != "" && !validNamespace(ns) {
			w.errorf("avro-invalid-namespace", nsn, path+"/namespace", "namespace "+diag.Quote(ns)+" is not valid",
				"a namespace is names joined by dots; each starts with a letter or _ and holds letters, digits and _")
		}
	}
	full := name
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		ns = name[:i]
		if !validNamespace(ns) {
			w.errorf("avro-invalid-namespace", nn, path+"/name", "namespace "+diag.Quote(ns)+" is not valid",
				"a namespace is names joined by dots; each starts with a letter or _ and holds letters, digits and _")
		}
		name = name[i+1:]
	} else if ns != "" {
		full = ns + "." + name
	}
	if !validName(name) {
		w.errorf("avro-invalid-name", nn, path+"/name", "name "+diag.Quote(name)+" is not a valid Avro name",
			"a name starts with a letter or _ and holds only letters, digits and _")
	}
	if _, prim := primitives[name]; prim && !strings.Contains(nn.Value, ".") {
		w.errorf("avro-invalid-name", nn, path+"/name", "a named type cannot be called "+diag.Quote(name)+", a primitive type", "")
	}
	if w.named[full] != nil {
		w.errorf("avro-duplicate-name", nn, path+"/name", "the type "+diag.Quote(full)+" is defined twice",
			"define it once, then refer to it by name")
	} else {
		w.named[full] = t
	}
	t.Name = full
	return ns
}

func (w *walker) record(n *doc.Node, ns, path string) *Type {
	t := &Type{Kind: Record, Path: path, Span: n.Span}
	ns = w.define(n, t, ns, path)
	fn := n.Get("fields")
	if fn == nil || fn.Kind != doc.Array {
		at := n
		if fn != nil {
			at = fn
		}
		w.errorf("avro-record-fields", at, path+"/fields", `a record needs "fields", a list of fields`,
			`add "fields": [{"name": "id", "type": "string"}]`)
		return t
	}
	seen := map[string]bool{}
	for i, f := range fn.Items {
		p := path + "/fields/" + strconv.Itoa(i)
		if f.Kind != doc.Object {
			w.errorf("avro-field-shape", f, p, "a field is an object with a name and a type, found a "+f.Kind.String(),
				`write {"name": "id", "type": "string"}`)
			continue
		}
		nn := f.Get("name")
		if nn == nil || nn.Kind != doc.String {
			w.errorf("avro-field-name", f, p, "this field has no name", `add "name": "..."`)
			continue
		}
		if !validName(nn.Value) {
			w.errorf("avro-invalid-name", nn, p+"/name", "field name "+diag.Quote(nn.Value)+" is not a valid Avro name",
				"a name starts with a letter or _ and holds only letters, digits and _")
		}
		if seen[nn.Value] {
			w.errorf("avro-duplicate-field", nn, p+"/name", "the record has two fields called "+diag.Quote(nn.Value), "")
			continue
		}
		seen[nn.Value] = true
		field := &Field{Name: nn.Value, Path: p, Span: nn.Span, HasDefault: f.Get("default") != nil}
		if ft := f.Get("type"); ft != nil {
			field.Type = w.typ(ft, ns, p+"/type")
		} else {
			w.errorf("avro-field-type", nn, p, "field "+diag.Quote(nn.Value)+" has no type", `add e.g. "type": "string"`)
			field.Type = &Type{Kind: Null, Path: p, Span: f.Span}
		}
		t.Fields = append(t.Fields, field)
	}
	return t
}

func (w *walker) enum(n *doc.Node, ns, path string) *Type {
	t := &Type{Kind: Enum, Path: path, Span: n.Span}
	w.define(n, t, ns, path)
	sn := n.Get("symbols")
	if sn == nil || sn.Kind != doc.Array {
		at := n
		if sn != nil {
			at = sn
		}
		w.errorf("avro-enum-symbols", at, path+"/symbols", `an enum needs "symbols", a list of names`, `add "symbols": ["RED", "GREEN"]`)
		return t
	}
	seen := map[string]bool{}
	for i, s := range sn.Items {
		p := path + "/symbols/" + strconv.Itoa(i)
		if s.Kind != doc.String || !validName(s.Value) {
			w.errorf("avro-enum-symbol", s, p, "enum symbols must be names (letters, digits and _, not starting with a digit)", "")
			continue
		}
		if seen[s.Value] {
			w.errorf("avro-enum-symbol", s, p, "the symbol "+diag.Quote(s.Value)+" is listed twice", "")
			continue
		}
		seen[s.Value] = true
		t.Symbols = append(t.Symbols, s.Value)
	}
	if d := n.Get("default"); d != nil && (d.Kind != doc.String || !seen[d.Value]) {
		w.errorf("avro-enum-default", d, path+"/default", "the enum default must be one of its symbols", "")
	}
	return t
}

func (w *walker) fixed(n *doc.Node, ns, path string) *Type {
	t := &Type{Kind: Fixed, Path: path, Span: n.Span}
	w.define(n, t, ns, path)
	sz := n.Get("size")
	size, err := -1, error(nil)
	if sz != nil && sz.Kind == doc.Number {
		size, err = strconv.Atoi(sz.Value)
	}
	if sz == nil || sz.Kind != doc.Number || err != nil || size < 0 {
		at := n
		if sz != nil {
			at = sz
		}
		w.errorf("avro-fixed-size", at, path+"/size", `a fixed type needs "size", a number of bytes (0 or more)`, `add e.g. "size": 16`)
		size = 0
	}
	t.Size = size
	w.logical(n, t, path)
	return t
}

// logical reads a logicalType. One that does not fit its base type is
// ignored by Avro readers, which is worth a warning: the user asked for a
// date and will get an int.
func (w *walker) logical(n *doc.Node, t *Type, path string) {
	ln := n.Get("logicalType")
	if ln == nil {
		return
	}
	p := path + "/logicalType"
	if ln.Kind != doc.String {
		w.add(diag.Warning, "avro-logical-type-ignored", p, ln.Span, "logicalType must be a string; it is ignored", "")
		return
	}
	name := ln.Value
	want, known := logicalBases[name]
	if !known {
		w.add(diag.Warning, "avro-logical-type-unknown", p, ln.Span, "unknown logical type "+diag.Quote(name)+"; readers treat the value as a plain "+string(t.Kind),
			"known logical types: decimal, uuid, date, time-millis, time-micros, timestamp-millis, timestamp-micros, local-timestamp-millis, local-timestamp-micros, duration")
		return
	}
	ok := false
	for _, k := range want {
		ok = ok || k == t.Kind
	}
	if name == "duration" && t.Size != 12 || name == "uuid" && t.Kind == Fixed && t.Size != 16 {
		ok = false
	}
	if !ok {
		w.add(diag.Warning, "avro-logical-type-ignored", p, ln.Span,
			"logical type "+diag.Quote(name)+" does not apply to "+string(t.Kind)+"; readers treat the value as a plain "+string(t.Kind),
			diag.Quote(name)+" applies to "+logicalBaseText(name))
		return
	}
	if name == "decimal" {
		prec, perr := intMember(n, "precision")
		scale, serr := intMember(n, "scale")
		switch {
		case perr != nil || prec <= 0:
			w.add(diag.Warning, "avro-logical-type-ignored", path+"/precision", spanOr(n.Get("precision"), ln),
				"a decimal needs a precision of 1 or more; without one readers ignore the logical type", `add e.g. "precision": 10`)
			return
		case serr != nil || scale < 0 || scale > prec:
			w.add(diag.Warning, "avro-logical-type-ignored", path+"/scale", spanOr(n.Get("scale"), ln),
				"a decimal's scale must be between 0 and its precision; readers ignore the logical type", "")
			return
		}
		t.Precision, t.Scale = prec, scale
	}
	t.Logical = name
}

var logicalBases = map[string][]Kind{
	"decimal":                {Bytes, Fixed},
	"uuid":                   {String, Fixed},
	"date":                   {Int},
	"time-millis":            {Int},
	"time-micros":            {Long},
	"timestamp-millis":       {Long},
	"timestamp-micros":       {Long},
	"timestamp-nanos":        {Long},
	"local-timestamp-millis": {Long},
	"local-timestamp-micros": {Long},
	"local-timestamp-nanos":  {Long},
	"duration":               {Fixed},
}

func logicalBaseText(name string) string {
	switch name {
	case "duration":
		return "a fixed of size 12"
	case "uuid":
		return "string (or a fixed of size 16)"
	}
	var parts []string
	for _, k := range logicalBases[name] {
		parts = append(parts, string(k))
	}
	return strings.Join(parts, " or ")
}

func spanOr(n, fallback *doc.Node) diag.Span {
	if n != nil {
		return n.Span
	}
	return fallback.Span
}

// intMember reads an integer member; absent means 0.
func intMember(n *doc.Node, key string) (int, error) {
	v := n.Get(key)
	if v == nil {
		return 0, nil
	}
	if v.Kind != doc.Number {
		return 0, strconv.ErrSyntax
	}
	return strconv.Atoi(v.Value)
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func validNamespace(s string) bool {
	for part := range strings.SplitSeq(s, ".") {
		if !validName(part) {
			return false
		}
	}
	return true
}
