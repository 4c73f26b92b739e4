package subscription

import (
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/storage"
)

// Config is a decoded configuration: the typed subscription, the document
// it came from, and where each field sits in that document.
type Config struct {
	Doc *doc.Doc
	Sub *Subscription // nil when the text could not be decoded into an object

	// Positioned is false when the configuration came as a JSON object
	// rather than the user's text: diagnostics then carry paths only.
	Positioned bool

	nodes  map[string]*doc.Node // value node by JSON pointer
	keys   map[string]diag.Span // key span by JSON pointer
	ds     []diag.Diagnostic    // decoding findings (unlocated)
	bad    map[string]bool      // paths whose value could not be decoded
	rules  *Table               // the rule table every computation reads
	layout *storage.Layout      // the Cloud Storage layout validation compiled (integrations.go)
	// unknown counts unknown fields; past diag.MaxCollected they are only
	// counted (dropped), so a megabyte of unknown keys costs a few hundred
	// findings and their did-you-mean searches, not a hundred thousand.
	unknown, dropped int

	reading Reading // from the reader of a document FromDoc was given

	validated []diag.Diagnostic
	once      sync.Once
	effective *Effective
	effOnce   sync.Once
}

// Decode reads a configuration from text in format f ("" to detect). It
// never fails: problems become diagnostics, returned by Validate.
func Decode(name, text string, f doc.Format) *Config {
	return decodeWith(rules, name, text, f)
}

// decodeWith decodes against the rule table t: tests use tables whose
// defaults and bounds differ from the package's.
func decodeWith(t *Table, name, text string, f doc.Format) *Config {
	d, ds := doc.Parse(name, text, f)
	c := &Config{Doc: d, Positioned: true, ds: ds, rules: t}
	c.decodeRoot()
	return c
}

// Reading is what the reader of a document FromDoc is given says beside
// it.
type Reading struct {
	// Diagnostics are the reader's own findings, which Validate reports
	// beside the rules'.
	Diagnostics []diag.Diagnostic
	// Judged, when not nil, says which paths the text gives a value for:
	// a rule finding at any other path would judge a value nobody wrote
	// (a shell variable's), so Validate leaves it out rather than report
	// a false error.
	Judged func(path string) bool
	// Changes is true when the document holds only what an update
	// changes: the rest is the existing subscription's, so there are no
	// effective settings to show.
	Changes bool
	// UpdateMask lists the fields an update sends, dotted as the API's
	// updateMask writes them; Config.UpdateMask hands it on.
	UpdateMask []string
}

// FromDoc builds a configuration from a document another reader (a gcloud
// command's) has already parsed and positioned, with the same decoding and
// rules as Decode.
func FromDoc(d *doc.Doc, r Reading) *Config {
	c := &Config{Doc: d, Positioned: true, rules: rules, reading: r}
	c.decodeRoot()
	return c
}

// UpdateMask is the update mask of the update command c was read from,
// nil for any other configuration.
func (c *Config) UpdateMask() []string { return c.reading.UpdateMask }

// table returns the rule table c was decoded against.
func (c *Config) table() *Table {
	if c.rules == nil {
		return rules
	}
	return c.rules
}

// DecodeObject reads a configuration given as a JSON object (not text the
// user typed): findings carry paths but no lines and columns.
func DecodeObject(raw []byte) *Config {
	c := Decode("", string(raw), doc.JSON)
	c.Positioned = false
	return c
}

// Node returns the value node at a JSON pointer, or nil.
func (c *Config) Node(path string) *doc.Node { return c.nodes[path] }

// Has reports whether the field at path was written in the input.
func (c *Config) Has(path string) bool { _, ok := c.nodes[path]; return ok }

func (c *Config) decodeRoot() {
	c.nodes = make(map[string]*doc.Node, 32)
	c.keys = make(map[string]diag.Span, 32)
	root := c.Doc.Root
	if root == nil {
		return
	}
	if root.Kind != doc.Object {
		c.ds = append(c.ds, diag.Diagnostic{Severity: diag.Error, Code: "not-an-object",
			Message: "a subscription is an object of fields, but this is " + article(root.Kind.String()),
			Hint:    "start with {\"name\": \"projects/p/subscriptions/s\", \"topic\": \"projects/p/topics/t\"}", Span: root.Span})
		return
	}
	// A subscription wrapped as {"subscription": {...}} is the body of
	// some REST calls (UpdateSubscription adds "updateMask" beside it), a
	// common paste: read the inner object. The note points at the wrapper's
	// key, wherever it stands among the members.
	if inner := root.Get("subscription"); inner != nil && inner.Kind == doc.Object && len(root.Members) <= 2 {
		for _, m := range root.Members {
			if m.Key == "subscription" {
				c.ds = append(c.ds, diag.Diagnostic{Severity: diag.Info, Code: "wrapped-subscription",
					Message: "reading the subscription inside the \"subscription\" field", Span: m.KeySpan})
			}
		}
		root = inner
	}
	c.Sub = new(Subscription)
	c.nodes[""] = root
	c.decodeStruct(root, "", reflect.ValueOf(c.Sub).Elem())
}

func article(kind string) string {
	if strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// structInfo maps the JSON names of a struct type to its fields.
type structInfo struct {
	byName map[string]int
	names  []string // in declaration order, for suggestions
}

var structCache sync.Map // reflect.Type -> *structInfo

func infoOf(t reflect.Type) *structInfo {
	if v, ok := structCache.Load(t); ok {
		return v.(*structInfo)
	}
	si := &structInfo{byName: map[string]int{}}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		si.byName[name] = i
		si.names = append(si.names, name)
	}
	structCache.Store(t, si)
	return si
}

// camel turns a proto field name (ack_deadline_seconds) into its JSON name
// (ackDeadlineSeconds); the API accepts both.
func camel(s string) string {
	if !strings.Contains(s, "_") {
		return s
	}
	var b strings.Builder
	up := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_':
			up = true
		case up && c >= 'a' && c <= 'z':
			b.WriteByte(c - 'a' + 'A')
			up = false
		default:
			b.WriteByte(c)
			up = false
		}
	}
	return b.String()
}

// snake turns a JSON name (ackDeadlineSeconds) into its proto field name
// (ack_deadline_seconds): the only other spelling the mapping accepts.
func snake(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b.WriteByte('_')
			b.WriteByte(c - 'A' + 'a')
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

func (c *Config) errorf(n *doc.Node, path, code, msg, hint string) {
	if c.bad == nil {
		c.bad = map[string]bool{}
	}
	c.bad[path] = true
	c.ds = append(c.ds, diag.Diagnostic{Severity: diag.Error, Code: code, Path: path, Message: msg, Hint: hint, Span: n.Span})
}

func (c *Config) decodeStruct(n *doc.Node, path string, v reflect.Value) {
	si := infoOf(v.Type())
	seen := make(map[string]string, len(n.Members)) // JSON name -> key as written
	for _, m := range n.Members {
		name := camel(m.Key)
		idx, ok := si.byName[name]
		if ok && name != m.Key && snake(name) != m.Key {
			ok = false // ack_deadlineSeconds is neither spelling the API takes
		}
		fpath := path + "/" + name
		if !ok {
			c.unknownField(m, path, si)
			continue
		}
		if prev, dup := seen[name]; dup {
			c.ds = append(c.ds, diag.Diagnostic{Severity: diag.Error, Code: "duplicate-key", Path: fpath,
				Message: diag.Quote(m.Key) + " and " + diag.Quote(prev) + " name the same field",
				Hint:    "the API accepts either spelling, not both; keep one", Span: m.KeySpan})
			continue
		}
		seen[name] = m.Key
		if m.Value.Kind == doc.Null {
			// The proto JSON mapping reads null as "not set".
			continue
		}
		c.nodes[fpath] = m.Value
		c.keys[fpath] = m.KeySpan
		c.decodeValue(m.Value, fpath, v.Field(idx))
	}
}

var (
	typString   = reflect.TypeFor[*string]()
	typBool     = reflect.TypeFor[*bool]()
	typInt32    = reflect.TypeFor[*Int32]()
	typInt64    = reflect.TypeFor[*Int64]()
	typDuration = reflect.TypeFor[*Duration]()
	typStrMap   = reflect.TypeFor[map[string]string]()
	typAnyMap   = reflect.TypeFor[map[string]any]()
	typStrings  = reflect.TypeFor[[]string]()
)

func (c *Config) decodeValue(n *doc.Node, path string, f reflect.Value) {
	name := path[strings.LastIndexByte(path, '/')+1:]
	switch f.Type() {
	case typString:
		if n.Kind != doc.String {
			c.typeError(n, path, name, "a string")
			return
		}
		s := n.Value
		f.Set(reflect.ValueOf(&s))
	case typBool:
		if n.Kind != doc.Bool {
			hint := ""
			if n.Kind == doc.String && (n.Value == "true" || n.Value == "false") {
				hint = "write " + n.Value + " without quotes"
			}
			c.typeErrorHint(n, path, name, "true or false", hint)
			return
		}
		b := n.Value == "true"
		f.Set(reflect.ValueOf(&b))
	case typInt32:
		if v, ok := c.integer(n, path, name, math.MinInt32, math.MaxInt32); ok {
			i := Int32(v)
			f.Set(reflect.ValueOf(&i))
		}
	case typInt64:
		if v, ok := c.integer(n, path, name, math.MinInt64, math.MaxInt64); ok {
			i := Int64(v)
			f.Set(reflect.ValueOf(&i))
		}
	case typDuration:
		if d, ok := c.duration(n, path, name); ok {
			f.Set(reflect.ValueOf(&d))
		}
	case typStrMap:
		if n.Kind != doc.Object {
			c.typeError(n, path, name, "an object of strings")
			return
		}
		m := make(map[string]string, len(n.Members))
		for _, mem := range n.Members {
			p := path + "/" + diag.PointerKey(mem.Key)
			c.nodes[p] = mem.Value
			c.keys[p] = mem.KeySpan
			if mem.Value.Kind != doc.String {
				hint := ""
				if mem.Value.Kind == doc.Number || mem.Value.Kind == doc.Bool {
					hint = `quote it: "` + mem.Value.Value + `"`
				}
				c.typeErrorHint(mem.Value, p, name+" value", "a string", hint)
				continue
			}
			m[mem.Key] = mem.Value.Value
		}
		f.Set(reflect.ValueOf(m))
	case typStrings:
		if n.Kind != doc.Array {
			c.typeError(n, path, name, "an array of strings")
			return
		}
		out := make([]string, 0, len(n.Items))
		for i, it := range n.Items {
			p := path + "/" + strconv.Itoa(i)
			c.nodes[p] = it
			if it.Kind != doc.String {
				c.typeError(it, p, name+" item", "a string")
				continue
			}
			out = append(out, it.Value)
		}
		f.Set(reflect.ValueOf(out))
	case typAnyMap:
		if n.Kind != doc.Object {
			c.typeError(n, path, name, "an object")
			return
		}
		if c.finiteNumbers(n, path) {
			f.Set(reflect.ValueOf(toAny(n).(map[string]any)))
		}
	default:
		switch f.Kind() {
		case reflect.Pointer: // a nested message
			if n.Kind != doc.Object {
				c.typeError(n, path, name, "an object")
				return
			}
			p := reflect.New(f.Type().Elem())
			f.Set(p)
			c.decodeStruct(n, path, p.Elem())
		case reflect.Slice:
			if n.Kind != doc.Array {
				c.typeError(n, path, name, "an array")
				return
			}
			s := reflect.MakeSlice(f.Type(), len(n.Items), len(n.Items))
			for i, it := range n.Items {
				p := path + "/" + strconv.Itoa(i)
				c.nodes[p] = it
				if it.Kind != doc.Object {
					c.typeError(it, p, name+" item", "an object")
					continue
				}
				c.decodeStruct(it, p, s.Index(i))
			}
			f.Set(s)
		}
	}
}

// finiteNumbers reports whether every number under n is one a
// google.protobuf.Value holds (a finite float64), reporting those that are
// not: 1e400 would otherwise become +Inf, and YAML's .nan and .inf likewise.
func (c *Config) finiteNumbers(n *doc.Node, path string) bool {
	ok := true
	switch n.Kind {
	case doc.Number:
		f, err := strconv.ParseFloat(n.Value, 64)
		switch {
		case math.IsInf(f, 0):
			c.errorf(n, path, "number-overflow", diag.Quote(n.Value)+" is beyond what a parameter can hold", "parameters hold double-precision numbers")
			ok = false
		case err != nil || math.IsNaN(f):
			c.errorf(n, path, "wrong-type", diag.Quote(n.Value)+" is not a number a parameter can hold", "parameters hold finite double-precision numbers")
			ok = false
		}
	case doc.Array:
		for i, it := range n.Items {
			ok = c.finiteNumbers(it, path+"/"+strconv.Itoa(i)) && ok
		}
	case doc.Object:
		for _, m := range n.Members {
			ok = c.finiteNumbers(m.Value, path+"/"+diag.PointerKey(m.Key)) && ok
		}
	}
	return ok
}

func toAny(n *doc.Node) any {
	switch n.Kind {
	case doc.Bool:
		return n.Value == "true"
	case doc.Number:
		v, _ := strconv.ParseFloat(n.Value, 64)
		return v
	case doc.String:
		return n.Value
	case doc.Array:
		out := make([]any, len(n.Items))
		for i, it := range n.Items {
			out[i] = toAny(it)
		}
		return out
	case doc.Object:
		out := make(map[string]any, len(n.Members))
		for _, m := range n.Members {
			out[m.Key] = toAny(m.Value)
		}
		return out
	}
	return nil
}

func (c *Config) typeError(n *doc.Node, path, name, want string) {
	c.typeErrorHint(n, path, name, want, "")
}

func (c *Config) typeErrorHint(n *doc.Node, path, name, want, hint string) {
	found := article(n.Kind.String())
	if n.Kind == doc.String || n.Kind == doc.Number {
		found += " (" + diag.Quote(n.Value) + ")"
	}
	c.errorf(n, path, "wrong-type", name+" must be "+want+", not "+found, hint)
}

// integer reads an integer field as the proto JSON mapping does: a number,
// or a string holding exactly one JSON number, whose value is whole (1e3
// and 10.0 are, 1.5 is not). The digits are shifted, not run through a
// float, so every int64 stays exact.
func (c *Config) integer(n *doc.Node, path, name string, lo, hi int64) (int64, bool) {
	text := n.Value
	switch n.Kind {
	case doc.Number:
	case doc.String:
		text = strings.TrimSpace(text)
		if text != n.Value || text == "" {
			c.errorf(n, path, "wrong-type", name+" must be a whole number, not the string "+diag.Quote(n.Value), "")
			return 0, false
		}
	default:
		c.typeError(n, path, name, "a whole number")
		return 0, false
	}
	v, class := intValue(text, n.Kind == doc.Number)
	switch class {
	case notNumber:
		if strings.HasSuffix(text, "s") && allDigits(strings.TrimSuffix(text, "s")) {
			c.errorf(n, path, "wrong-type", name+" is a number of "+c.unitOf(path)+", not a duration", "write "+strings.TrimSuffix(text, "s"))
		} else {
			c.errorf(n, path, "wrong-type", name+" must be a whole number, not "+diag.Quote(text), "")
		}
		return 0, false
	case fraction:
		c.errorf(n, path, "wrong-type", name+" must be a whole number, not "+diag.Quote(text), "")
		return 0, false
	}
	if class == tooLarge || v < lo || v > hi {
		c.errorf(n, path, "number-overflow", name+" is beyond what the field can hold", "")
		return 0, false
	}
	return v, true
}

// intValue reads the text of an integer field (see integer); yaml allows
// the number forms YAML has and JSON has not.
func intValue(text string, yaml bool) (int64, numberClass) {
	digits, class := wholeNumber(text)
	if class == notNumber && yaml {
		digits, class = yamlWholeNumber(text)
	}
	if class != whole {
		return 0, class
	}
	v, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, tooLarge
	}
	return v, whole
}

// numberClass says what wholeNumber found.
type numberClass uint8

const (
	notNumber numberClass = iota
	fraction              // a number that is not whole
	tooLarge              // whole, with more digits than an int64 has
	whole
)

// wholeNumber reads s as a JSON number (RFC 8259 grammar, nothing else:
// the mapping rejects "+5", "010" and "0x10" even inside a string) and,
// when its value is whole, returns that value as plain decimal digits:
// "1.5e3" gives "1500", "-0.0" gives "0".
func wholeNumber(s string) (string, numberClass) {
	i, neg := 0, strings.HasPrefix(s, "-")
	if neg {
		i++
	}
	digitsFrom := func() string {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return s[start:i]
	}
	intp := digitsFrom()
	if intp == "" || (len(intp) > 1 && intp[0] == '0') {
		return "", notNumber
	}
	frac := ""
	if i < len(s) && s[i] == '.' {
		i++
		if frac = digitsFrom(); frac == "" {
			return "", notNumber
		}
	}
	expText := ""
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		sign := i
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digitsFrom() == "" {
			return "", notNumber
		}
		expText = s[sign:i]
	}
	if i != len(s) {
		return "", notNumber
	}
	// The value is mant × 10^shift, with mant free of leading and trailing zeros.
	mant := strings.TrimLeft(intp+frac, "0")
	if mant == "" {
		return "0", whole
	}
	trimmed := strings.TrimRight(mant, "0")
	shift := int64(len(mant) - len(trimmed) - len(frac))
	if expText != "" {
		exp, err := strconv.ParseInt(expText, 10, 32)
		switch {
		case err != nil && expText[0] == '-':
			return "", fraction
		case err != nil:
			return "", tooLarge
		}
		shift += exp
	}
	switch {
	case shift < 0:
		return "", fraction
	case int64(len(trimmed))+shift > 19:
		return "", tooLarge
	}
	out := trimmed + strings.Repeat("0", int(shift))
	if neg {
		out = "-" + out
	}
	return out, whole
}

// yamlWholeNumber reads the numbers YAML writes and JSON does not (+1.5e3,
// .5, 1.) through a float, as the YAML library does.
func yamlWholeNumber(s string) (string, numberClass) {
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case math.IsNaN(f) || (err != nil && !errors.Is(err, strconv.ErrRange)):
		return "", notNumber
	case f >= 1<<63 || f < -(1<<63):
		return "", tooLarge
	case f != math.Trunc(f):
		return "", fraction
	}
	return strconv.FormatInt(int64(f), 10), whole
}

func (c *Config) unitOf(path string) string {
	if f := c.table().At(path); f != nil && f.Unit != "" {
		return f.Unit
	}
	return "units"
}

func (c *Config) duration(n *doc.Node, path, name string) (Duration, bool) {
	switch n.Kind {
	case doc.String:
	case doc.Number:
		c.errorf(n, path, "duration-format", name+" is a duration, written as a string of seconds ending in \"s\"", durationHint(n.Value))
		return Duration{}, false
	default:
		c.typeError(n, path, name, `a duration such as "600s"`)
		return Duration{}, false
	}
	d, err := ParseDuration(n.Value)
	switch err {
	case nil:
		return d, true
	case errDurationRange:
		c.errorf(n, path, "duration-format", name+" is beyond the range of a duration", "")
	default:
		c.errorf(n, path, "duration-format", name+" is not a duration the API accepts: "+diag.Quote(n.Value), durationHint(n.Value))
	}
	return Duration{}, false
}

// maxPathKey is the longest unknown key a diagnostic's path repeats: no
// field name comes near it.
const maxPathKey = 256

// unknownField reports a field the model lacks as an error (D13): the API
// refuses it, at any depth. The key is quoted with diag.Quote, so a huge key
// gives a short message.
func (c *Config) unknownField(m doc.Member, path string, si *structInfo) {
	if c.unknown++; c.unknown > diag.MaxCollected {
		c.dropped++
		return
	}
	d := diag.Diagnostic{Severity: diag.Error, Code: "unknown-field", Path: path + "/" + diag.PointerKey(m.Key),
		Message: "unknown field " + diag.Quote(m.Key), Span: m.KeySpan}
	if len(m.Key) > maxPathKey {
		d.Path = path // a pointer holding a huge key would be as huge; the span still finds it
	}
	where := "here"
	if path != "" {
		where = "in " + strings.TrimPrefix(path, "/")
	}
	if s := suggest(camel(m.Key), si.names); s != "" {
		d.Hint = "did you mean " + strconv.Quote(s) + "?"
	} else if other := c.table().elsewhere(camel(m.Key), path); other != "" {
		d.Hint = diag.Quote(m.Key) + " belongs in " + other
	} else {
		d.Hint = "the fields " + where + " are " + listNames(si.names)
	}
	d.Message += "; the API rejects fields it does not know"
	c.ds = append(c.ds, d)
}

// listNames joins names with commas, up to about 300 bytes, and counts the
// rest ("a, b and 12 more"): a hint names what fits on a line or two.
func listNames(names []string) string {
	const most = 300
	n := 0
	for i, name := range names {
		if n += len(name) + 2; n > most && i > 0 {
			return strings.Join(names[:i], ", ") + " and " + strconv.Itoa(len(names)-i) + " more"
		}
	}
	return strings.Join(names, ", ")
}

// elsewhere finds the field name at another level of the subscription
// (maxDuration written at the top level belongs in cloudStorageConfig).
func (t *Table) elsewhere(name, path string) string {
	for _, f := range t.fields {
		if f.Name == name && parentOf(f.Path) != path {
			return strings.TrimPrefix(strings.ReplaceAll(parentOf(f.Path), "/*", "[]"), "/")
		}
	}
	return ""
}

// parentOf returns the pointer of the enclosing value ("" for the root
// and for top-level fields).
func parentOf(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ""
	}
	return p[:i]
}

// suggest returns the candidate closest to name, if one is close enough to
// be what the user meant: the same name in another case, a prefix of one
// (ackDeadline -> ackDeadlineSeconds), or a small edit distance.
func suggest(name string, candidates []string) string {
	lname := strings.ToLower(name)
	best, bestScore := "", math.MaxInt
	for _, cand := range candidates {
		lc := strings.ToLower(cand)
		score := math.MaxInt
		switch {
		case lc == lname:
			score = 0
		case len(lname) >= 4 && (strings.HasPrefix(lc, lname) || strings.HasPrefix(lname, lc)):
			score = 1
		case len(lname) >= 5 && (strings.Contains(lc, lname) || strings.Contains(lname, lc)):
			score = 2
		default:
			if d := diag.EditDistance(lname, lc); d <= max(1, min(3, len(lname)/4)) {
				score = 2 + d
			}
		}
		if score < bestScore {
			best, bestScore = cand, score
		}
	}
	return best
}
