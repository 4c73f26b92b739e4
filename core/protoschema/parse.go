package protoschema

import (
	"strconv"
	"strings"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
)

// Label is how often a field occurs.
type Label uint8

const (
	Singular Label = iota // proto3 without a label: always present, zero by default
	Optional              // "optional": may be absent
	Required              // proto2 "required"
	Repeated              // "repeated", and every map
)

// File is a parsed .proto text.
type File struct {
	Syntax   string // "proto2", "proto3", or "editions"
	Package  string
	Messages []*Message // top level, in order
	Enums    []*Enum
}

// Root is the message a topic's messages are validated against: the first
// top-level message.
func (f *File) Root() *Message {
	if f == nil || len(f.Messages) == 0 {
		return nil
	}
	return f.Messages[0]
}

// Message is a message declaration.
type Message struct {
	Name     string
	Fields   []*Field
	Messages []*Message
	Enums    []*Enum
	Span     diag.Span // of the name
	scope

	// nested holds the messages and enums declared inside, by name;
	// byName and byNumber the fields, so that each check is one lookup.
	nested   map[string]any
	byName   map[string]*Field
	byNumber map[int]*Field
}

// scope is where a declaration is: its enclosing message (nil at the top
// level) and the file's package.
type scope struct {
	parent *Message
	pkg    string
}

// fullName joins the package, the enclosing messages and name. It is built
// only when a message needs it: kept on every declaration, deep scopes of
// long names would cost their length once per declaration.
func (s scope) fullName(name string) string {
	parts := []string{name}
	for m := s.parent; m != nil; m = m.parent {
		parts = append(parts, m.Name)
	}
	if s.pkg != "" {
		parts = append(parts, s.pkg)
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteString(parts[i])
		if i > 0 {
			b.WriteByte('.')
		}
	}
	return b.String()
}

// FullName is the message's name with the package and enclosing messages.
func (m *Message) FullName() string { return m.fullName(m.Name) }

// Field is a field of a message, or of a oneof inside it.
type Field struct {
	Name   string
	Number int
	Label  Label
	// Type is the type as written: a scalar ("int64", "string", ...) or a
	// message or enum name. For a map it is the value type, and MapKey the
	// key type.
	Type   string
	MapKey string
	Oneof  string // the oneof the field belongs to, or ""
	// Message or Enum is the type the name resolves to (nil for scalars).
	Message *Message
	Enum    *Enum
	Span    diag.Span // of the name
	TypeAt  diag.Span // of the type
}

// IsMap reports whether the field is a map.
func (f *Field) IsMap() bool { return f.MapKey != "" }

// Enum is an enum declaration.
type Enum struct {
	Name   string
	Values []string
	Span   diag.Span
	scope
}

// FullName is the enum's name with the package and enclosing messages.
func (e *Enum) FullName() string { return e.fullName(e.Name) }

// Scalars are the scalar types of the language.
var Scalars = map[string]bool{
	"double": true, "float": true, "int32": true, "int64": true, "uint32": true, "uint64": true,
	"sint32": true, "sint64": true, "fixed32": true, "fixed64": true, "sfixed32": true, "sfixed64": true,
	"bool": true, "string": true, "bytes": true,
}

// maxDepth bounds nesting of messages, of skipped blocks, of package
// names and of message fields along references, so hostile input cannot
// exhaust the stack.
const maxDepth = limits.SchemaDepth

// maxBytes bounds the text read, like every other input.
const maxBytes = limits.SchemaBytes

type parser struct {
	lex   *lexer
	tok   token // the next token (peek)
	prev  token // the one before it
	file  *File
	ds    []diag.Diagnostic
	depth int
	top   map[string]any // top-level messages and enums by name
	pkg   []string       // the package's parts
}

type stop struct{}

// Parse reads a .proto text. Diagnostics carry spans into text (callers
// locate them); parsing stops at the first syntax error, since past it the
// structure is a guess, but name resolution reports every unknown type.
func Parse(text string) (f *File, ds []diag.Diagnostic) {
	if len(text) > maxBytes {
		return &File{}, []diag.Diagnostic{{Severity: diag.Error, Code: "input-too-large",
			Message: "the schema is " + strconv.Itoa(len(text)) + " bytes; at most " + strconv.Itoa(maxBytes) + " are read"}}
	}
	// The parser reads only a text that lexes without error, as when
	// every token was lexed first: lexed once to find such an error, the
	// text is lexed again for the parser, token by token.
	lds := lexErrors(text)
	lx := &lexer{text: text}
	p := &parser{lex: lx, tok: lx.next(), file: &File{Syntax: "proto2"}, ds: lds, top: map[string]any{}}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(stop); !ok {
					panic(r)
				}
			}
		}()
		if len(lds) == 0 {
			p.parseFile()
		}
	}()
	if !diag.HasErrors(p.ds) {
		p.resolveAll()
	}
	if !diag.HasErrors(p.ds) {
		p.checkDepth()
	}
	return p.file, p.ds
}

func (p *parser) peek() token { return p.tok }

func (p *parser) next() token {
	t := p.tok
	if t.kind != tEOF {
		p.prev, p.tok = t, p.lex.next()
	}
	return t
}

func (p *parser) fail(t token, msg, hint string) {
	p.ds = append(p.ds, diag.Diagnostic{Severity: diag.Error, Code: "proto-syntax", Span: t.span(), Message: msg, Hint: hint})
	panic(stop{})
}

func (p *parser) expect(sym string) token {
	t := p.next()
	if t.kind != tSymbol || t.text != sym {
		p.fail(t, "expected \""+sym+"\", found "+t.describe(), "")
	}
	return t
}

func (p *parser) accept(sym string) bool {
	if t := p.peek(); t.kind == tSymbol && t.text == sym {
		p.next()
		return true
	}
	return false
}

func (p *parser) ident(what string) token {
	t := p.next()
	if t.kind != tIdent {
		p.fail(t, "expected "+what+", found "+t.describe(), "")
	}
	return t
}

func (p *parser) parseFile() {
	first := true
	for {
		t := p.peek()
		if t.kind == tEOF {
			return
		}
		if t.kind == tSymbol && t.text == ";" {
			p.next()
			continue
		}
		if t.kind != tIdent {
			p.fail(t, "expected a declaration (message, enum, syntax, package, import, option), found "+t.describe(), "")
		}
		switch t.text {
		case "syntax", "edition":
			p.next()
			if !first {
				p.fail(t, t.text+" must be the first statement", "")
			}
			p.expect("=")
			v := p.next()
			if v.kind != tString {
				p.fail(v, "expected the syntax as a string, e.g. \"proto3\"", "")
			}
			switch {
			case t.text == "edition":
				p.file.Syntax = "editions"
			case v.text == "proto2" || v.text == "proto3":
				p.file.Syntax = v.text
			default:
				p.fail(v, "unknown syntax "+diag.Quote(v.text), `write syntax = "proto3";`)
			}
			p.expect(";")
		case "package":
			p.next()
			name := p.ident("a package name")
			p.file.Package = name.text
			p.pkg = strings.Split(name.text, ".")
			if len(p.pkg) > maxDepth {
				p.fail(name, "the package name has "+strconv.Itoa(len(p.pkg))+" parts; at most "+strconv.Itoa(maxDepth)+" are read", "")
			}
			p.expect(";")
		case "import":
			p.next()
			for p.peek().kind == tIdent { // weak, public
				p.next()
			}
			v := p.next()
			if v.kind != tString {
				p.fail(v, "expected the imported file as a string", "")
			}
			p.expect(";")
			p.ds = append(p.ds, diag.Diagnostic{Severity: diag.Warning, Code: "proto-import", Span: diag.SpanOf(t.start, v.end),
				Message: "imports are not followed; types from " + diag.Quote(v.text) + " are unknown here",
				Hint:    "a Pub/Sub schema is one self-contained definition; declare the types it uses in it"})
		case "option":
			p.next()
			p.skipStatement()
		case "message":
			p.next()
			p.file.Messages = append(p.file.Messages, p.message(nil))
		case "enum":
			p.next()
			p.file.Enums = append(p.file.Enums, p.enum(nil))
		case "service", "extend":
			p.next()
			p.skipToBlock()
		default:
			p.fail(t, "unexpected "+t.describe()+" at the top level", "a schema declares messages and enums")
		}
		first = false
	}
}

// declare registers a message or enum in the scope it is declared in.
func (p *parser) declare(s scope, name string, v any, at token) {
	names := p.top
	if s.parent != nil {
		if s.parent.nested == nil {
			s.parent.nested = map[string]any{}
		}
		names = s.parent.nested
	}
	if names[name] != nil {
		p.ds = append(p.ds, diag.Diagnostic{Severity: diag.Error, Code: "proto-duplicate-type", Span: at.span(),
			Message: diag.Quote(s.fullName(name)) + " is declared twice"})
		return
	}
	names[name] = v
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.fail(p.peek(), "declarations are nested more than "+strconv.Itoa(maxDepth)+" deep", "")
	}
}

func (p *parser) message(parent *Message) *Message {
	p.enter()
	defer func() { p.depth-- }()
	name := p.ident("a message name")
	m := &Message{Name: name.text, Span: name.span(), scope: scope{parent, p.file.Package},
		byName: map[string]*Field{}, byNumber: map[int]*Field{}}
	p.declare(m.scope, m.Name, m, name)
	p.expect("{")
	p.body(m, "")
	return m
}

// body reads the declarations of a message, or of a oneof inside it.
func (p *parser) body(m *Message, oneof string) {
	for {
		t := p.peek()
		switch {
		case t.kind == tSymbol && t.text == "}":
			p.next()
			return
		case t.kind == tSymbol && t.text == ";":
			p.next()
			continue
		case t.kind == tEOF:
			p.fail(t, "the message "+diag.Quote(m.Name)+" is never closed", "end it with }")
		case t.kind != tIdent:
			p.fail(t, "expected a field, found "+t.describe(), "")
		}
		switch t.text {
		case "message":
			if oneof != "" {
				break
			}
			p.next()
			m.Messages = append(m.Messages, p.message(m))
			continue
		case "enum":
			if oneof != "" {
				break
			}
			p.next()
			m.Enums = append(m.Enums, p.enum(m))
			continue
		case "oneof":
			if oneof != "" {
				break
			}
			p.next()
			name := p.ident("a oneof name")
			p.expect("{")
			p.enter()
			p.body(m, name.text)
			p.depth--
			continue
		case "option", "reserved", "extensions":
			p.next()
			p.skipStatement()
			continue
		case "extend":
			p.next()
			p.skipToBlock()
			continue
		case "group":
			p.fail(t, "groups are not supported", "declare a nested message and a field of that type")
		}
		p.field(m, oneof)
	}
}

func (p *parser) field(m *Message, oneof string) {
	f := &Field{Oneof: oneof}
	t := p.peek()
	if t.kind == tIdent {
		switch t.text {
		case "repeated":
			f.Label = Repeated
		case "optional":
			f.Label = Optional
		case "required":
			f.Label = Required
		}
		if f.Label != Singular {
			if oneof != "" {
				p.fail(t, "fields of a oneof take no label", "remove "+diag.Quote(t.text))
			}
			p.next()
		}
	}
	if p.file.Syntax == "proto2" && f.Label == Singular && oneof == "" && p.peek().text != "map" {
		p.fail(p.peek(), "a proto2 field needs a label: optional, required or repeated",
			`add one, or start the schema with syntax = "proto3";`)
	}
	typ := p.ident("a field type")
	if typ.text == "group" {
		p.fail(typ, "groups are not supported", "declare a nested message and a field of that type")
	}
	f.TypeAt = typ.span()
	if typ.text == "map" && p.peek().text == "<" {
		p.expect("<")
		key := p.ident("a map key type")
		p.expect(",")
		val := p.ident("a map value type")
		p.expect(">")
		if f.Label != Singular {
			p.fail(typ, "a map field takes no label", "")
		}
		if !Scalars[key.text] || key.text == "double" || key.text == "float" || key.text == "bytes" {
			p.fail(key, "a map key must be an integer, bool or string type, not "+diag.Quote(key.text), "")
		}
		f.MapKey, f.Type, f.Label = key.text, val.text, Repeated
		f.TypeAt = diag.SpanOf(typ.start, p.prev.end)
	} else {
		f.Type = typ.text
	}
	name := p.ident("a field name")
	f.Name, f.Span = name.text, name.span()
	p.expect("=")
	num := p.next()
	n, err := strconv.Atoi(num.text)
	if num.kind != tNumber || err != nil {
		p.fail(num, "expected a field number, found "+num.describe(), "")
	}
	if n < 1 || n > 536870911 || (n >= 19000 && n <= 19999) {
		p.ds = append(p.ds, diag.Diagnostic{Severity: diag.Error, Code: "proto-field-number", Span: num.span(),
			Message: "field number " + num.text + " is out of range",
			Hint:    "use 1 to 536870911, except 19000 to 19999, which protobuf reserves"})
	}
	f.Number = n
	if p.accept("[") {
		p.skipBalanced("[", "]")
	}
	p.expect(";")
	if g := m.byName[f.Name]; g != nil {
		p.ds = append(p.ds, diag.Diagnostic{Severity: diag.Error, Code: "proto-duplicate-field", Span: f.Span,
			Message: "the message " + diag.Quote(m.Name) + " has two fields called " + diag.Quote(f.Name)})
	} else if g := m.byNumber[f.Number]; g != nil {
		p.ds = append(p.ds, diag.Diagnostic{Severity: diag.Error, Code: "proto-duplicate-field", Span: num.span(),
			Message: "fields " + diag.Quote(g.Name) + " and " + diag.Quote(f.Name) + " share the number " + num.text})
	}
	if m.byName[f.Name] == nil {
		m.byName[f.Name] = f
	}
	if m.byNumber[f.Number] == nil {
		m.byNumber[f.Number] = f
	}
	m.Fields = append(m.Fields, f)
}

func (p *parser) enum(parent *Message) *Enum {
	name := p.ident("an enum name")
	e := &Enum{Name: name.text, Span: name.span(), scope: scope{parent, p.file.Package}}
	p.declare(e.scope, e.Name, e, name)
	p.expect("{")
	for {
		t := p.next()
		switch {
		case t.kind == tSymbol && t.text == "}":
			if len(e.Values) == 0 {
				p.ds = append(p.ds, diag.Diagnostic{Severity: diag.Error, Code: "proto-enum-empty", Span: name.span(),
					Message: "the enum " + diag.Quote(e.Name) + " has no values"})
			}
			return e
		case t.kind == tSymbol && t.text == ";":
		case t.kind == tIdent && (t.text == "option" || t.text == "reserved"):
			p.skipStatement()
		case t.kind == tIdent:
			p.expect("=")
			if v := p.next(); v.kind != tNumber {
				p.fail(v, "expected the value's number, found "+v.describe(), "")
			}
			if p.accept("[") {
				p.skipBalanced("[", "]")
			}
			p.expect(";")
			e.Values = append(e.Values, t.text)
		default:
			p.fail(t, "expected an enum value, found "+t.describe(), "")
		}
	}
}

// skipStatement skips to the ";" that ends a statement, over any braces.
func (p *parser) skipStatement() {
	for {
		t := p.next()
		switch {
		case t.kind == tEOF:
			p.fail(t, "expected \";\", found the end of the schema", "")
		case t.kind == tSymbol && t.text == ";":
			return
		case t.kind == tSymbol && t.text == "{":
			p.skipBalanced("{", "}")
		}
	}
}

// skipToBlock skips a declaration whose body is a block: service, extend.
func (p *parser) skipToBlock() {
	for {
		t := p.next()
		switch {
		case t.kind == tEOF:
			p.fail(t, "expected \"{\", found the end of the schema", "")
		case t.kind == tSymbol && t.text == "{":
			p.skipBalanced("{", "}")
			return
		}
	}
}

// skipBalanced skips past the close that matches an open already read.
func (p *parser) skipBalanced(open, close string) {
	depth := 1
	for depth > 0 {
		t := p.next()
		switch {
		case t.kind == tEOF:
			p.fail(t, "expected \""+close+"\", found the end of the schema", "")
		case t.kind == tSymbol && t.text == open:
			depth++
			if depth > maxDepth {
				p.fail(t, "brackets are nested too deep", "")
			}
		case t.kind == tSymbol && t.text == close:
			depth--
		}
	}
}

func (p *parser) resolveAll() {
	var walk func(ms []*Message)
	walk = func(ms []*Message) {
		for _, m := range ms {
			for _, f := range m.Fields {
				p.resolve(m, f)
			}
			walk(m.Messages)
		}
	}
	walk(p.file.Messages)
}

// resolve finds the message or enum a field's type names, searching from
// the innermost scope outwards as protoc does. It compares the name part by
// part, scope by scope: at most maxDepth scopes of messages and as many of
// the package, so each field costs its type name's length times a bound.
func (p *parser) resolve(m *Message, f *Field) {
	if Scalars[f.Type] {
		return
	}
	var found any
	if rest, ok := strings.CutPrefix(f.Type, "."); ok {
		parts := strings.Split(rest, ".")
		if len(parts) > len(p.pkg) && equalParts(parts[:len(p.pkg)], p.pkg) {
			found = lookup(p.top, parts[len(p.pkg):])
		}
	} else {
		parts := strings.Split(f.Type, ".")
		for s := m; s != nil && found == nil; s = s.parent {
			found = lookup(s.nested, parts)
		}
		// At the top level, the name may start with the package's
		// last parts: pkg.a.b sees a.b.T and b.T as pkg.a.b.T.
		for k := len(p.pkg); k >= 0 && found == nil; k-- {
			lead := p.pkg[k:]
			if p.file.Package == "" {
				lead = nil
			}
			if len(parts) > len(lead) && equalParts(parts[:len(lead)], lead) {
				found = lookup(p.top, parts[len(lead):])
			}
			if p.file.Package == "" {
				break
			}
		}
	}
	switch v := found.(type) {
	case *Message:
		f.Message = v
	case *Enum:
		f.Enum = v
	default:
		p.ds = append(p.ds, diag.Diagnostic{Severity: diag.Error, Code: "proto-unknown-type", Span: f.TypeAt,
			Message: "unknown type " + diag.Quote(f.Type),
			Hint:    "use a scalar type (int64, string, bytes, ...) or a message or enum declared in the schema"})
	}
}

// lookup finds the declaration parts names in names, descending into
// messages for each part after the first.
func lookup(names map[string]any, parts []string) any {
	var found any
	for i, part := range parts {
		if names == nil {
			return nil
		}
		found = names[part]
		if i < len(parts)-1 {
			m, ok := found.(*Message)
			if !ok {
				return nil
			}
			names = m.nested
		}
	}
	return found
}

func equalParts(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkDepth bounds chains of message fields (a message whose field's type
// is a message whose field's type is ...): readers of the schema follow
// them recursively, and a flat text can hold a chain thousands deep. Each
// message is measured once, from the first that reaches it, and the walk
// stops at the first chain longer than maxDepth, so the stack it uses is
// bounded too. A field that refers back to a message being measured is a
// recursion, which readers catch themselves.
func (p *parser) checkDepth() {
	height := map[*Message]int{} // levels of messages below, once measured
	onStack := map[*Message]bool{}
	var measure func(m *Message, depth int) bool
	measure = func(m *Message, depth int) bool {
		onStack[m] = true
		h := 0
		for _, f := range m.Fields {
			sub := f.Message
			if sub == nil || onStack[sub] {
				continue
			}
			sh, done := height[sub]
			if !done {
				if depth+1 > maxDepth {
					p.ds = append(p.ds, diag.Diagnostic{Severity: diag.Error, Code: "proto-depth", Span: f.Span,
						Message: "message fields nest more than " + strconv.Itoa(maxDepth) + " levels deep through this field",
						Hint:    "a topic schema this deep has no BigQuery table and no reader that follows it; flatten the messages"})
					return false
				}
				if !measure(sub, depth+1) {
					return false
				}
				sh = height[sub]
			} else if depth+1+sh > maxDepth {
				p.ds = append(p.ds, diag.Diagnostic{Severity: diag.Error, Code: "proto-depth", Span: f.Span,
					Message: "message fields nest more than " + strconv.Itoa(maxDepth) + " levels deep through this field, whose type nests " + strconv.Itoa(sh+1) + " levels",
					Hint:    "a topic schema this deep has no BigQuery table and no reader that follows it; flatten the messages"})
				return false
			}
			h = max(h, sh+1)
		}
		delete(onStack, m)
		height[m] = h
		return true
	}
	var all func(ms []*Message) bool
	all = func(ms []*Message) bool {
		for _, m := range ms {
			if _, done := height[m]; !done && !measure(m, 1) {
				return false
			}
			if !all(m.Messages) {
				return false
			}
		}
		return true
	}
	all(p.file.Messages)
}
