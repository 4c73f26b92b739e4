package doc

import (
	"strings"

	"github.com/subplay/subplay/core/diag"
)

// The fast reader decodes the YAML that configurations are written in
// (what gcloud's --format=yaml prints, and what people write by hand in
// that shape) straight into the tree, without yaml.v3: block mappings and
// sequences indented with spaces, plain scalars on one line, quoted
// scalars without escapes, {} and [], and comments. It gives up on
// anything else (anchors, tags, block scalars, flow collections with
// content, multi-line scalars, escapes, empty values, tabs, CR, non-ASCII
// text, duplicate keys, several documents, anything malformed) and
// parseYAML then reads the text with yaml.v3 as before. So the fast reader
// never reports a finding: it either builds the very tree the yaml.v3 walk
// would build, spans included, or declines. The differential tests
// (yamlfast_test.go) hold it to that.
//
// On a typical configuration it is several times faster than yaml.v3 and
// allocates a handful of times per document instead of a few times per
// value: nodes, members and items come out of shared slabs (BenchmarkYAML
// compares the two).

// fastYAMLGiveUp unwinds the fast reader when the text is not in its subset.
type fastYAMLGiveUp struct{}

type fastYAML struct {
	s        string
	maxDepth int
	nodes    int

	// The current line: where it starts, the offset of its first
	// non-space byte (i), and its indentation; i is len(s) at the end.
	ls, i, ind int

	slab    []Node
	members []Member // the open mappings' members, a stack
	marena  []Member
	iarena  []*Node
	items   []*Node // the open sequences' items, a stack
	chunk   int
}

// parseYAMLFast returns the tree of text, or false when text is not in the
// subset the fast reader takes.
func parseYAMLFast(text string, maxDepth int) (root *Node, ok bool) {
	if !fastYAMLBytes(text) {
		return nil, false
	}
	p := &fastYAML{s: text, maxDepth: maxDepth}
	// A value per line at most, and rarely fewer: one slab usually holds
	// the whole tree.
	p.chunk = min(strings.Count(text, "\n")+2, 512)
	defer func() {
		if r := recover(); r != nil {
			if _, giveUp := r.(fastYAMLGiveUp); !giveUp {
				panic(r)
			}
			root, ok = nil, false
		}
	}()
	p.next(0)
	if p.i >= len(p.s) {
		p.giveUp() // nothing but comments: the walk words that
	}
	root = p.block(0)
	if p.i < len(p.s) {
		p.giveUp()
	}
	return root, true
}

// fastYAMLBytes reports whether text has only the bytes the fast reader
// takes: printable ASCII, space and line feed.
func fastYAMLBytes(text string) bool {
	for i := 0; i < len(text); i++ {
		if c := text[i]; (c < 0x20 && c != '\n') || c >= 0x7f {
			return false
		}
	}
	return true
}

func (p *fastYAML) giveUp() { panic(fastYAMLGiveUp{}) }

// next moves to the first line at or after from (a line start) that holds
// more than spaces and a comment.
func (p *fastYAML) next(from int) {
	s := p.s
	for from < len(s) {
		j := from
		for j < len(s) && s[j] == ' ' {
			j++
		}
		if j == len(s) || s[j] == '\n' || s[j] == '#' {
			from = p.eol(j) + 1
			continue
		}
		if j == from && (strings.HasPrefix(s[j:], "---") || strings.HasPrefix(s[j:], "...")) {
			p.giveUp() // a document marker, or a plain scalar too like one
		}
		p.ls, p.i, p.ind = from, j, j-from
		return
	}
	p.ls, p.i, p.ind = len(s), len(s), -1
}

// eol is the offset of the line break ending the line that holds i, or
// len(s).
func (p *fastYAML) eol(i int) int {
	if k := strings.IndexByte(p.s[i:], '\n'); k >= 0 {
		return i + k
	}
	return len(p.s)
}

func (p *fastYAML) node(kind Kind, start, end int) *Node {
	p.nodes++
	if p.nodes > maxYAMLNodes {
		p.giveUp() // the walk words that
	}
	if len(p.slab) == cap(p.slab) {
		// A new slab, not a grown one: the nodes handed out stay put.
		p.slab = make([]Node, 0, p.chunk)
	}
	p.slab = p.slab[:len(p.slab)+1]
	n := &p.slab[len(p.slab)-1]
	n.Kind, n.Span = kind, diag.SpanOf(start, end)
	return n
}

// collection checks the depth of a mapping or sequence whose parent holds
// depth collections, as the walk does.
func (p *fastYAML) collection(depth int) {
	if depth+1 > p.maxDepth {
		p.giveUp()
	}
}

// block reads the mapping or sequence that starts at p.i.
func (p *fastYAML) block(depth int) *Node {
	if p.dash() {
		return p.sequence(depth)
	}
	if p.keyOnLine() {
		return p.mapping(depth)
	}
	p.giveUp() // a scalar where a collection was expected
	return nil
}

// dash reports whether p.i is at a "- " sequence entry.
func (p *fastYAML) dash() bool {
	s, i := p.s, p.i
	return i < len(s) && s[i] == '-' && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n')
}

// keyOnLine reports whether the line from p.i holds "key:" followed by a
// space or the line's end, before any comment.
func (p *fastYAML) keyOnLine() bool {
	_, ok := p.colon()
	return ok
}

// colon finds the ':' that ends a plain key starting at p.i.
func (p *fastYAML) colon() (int, bool) {
	s := p.s
	for j := p.i; j < len(s) && s[j] != '\n'; j++ {
		switch s[j] {
		case ':':
			if j+1 == len(s) || s[j+1] == ' ' || s[j+1] == '\n' {
				return j, true
			}
		case '#':
			if j > p.i && s[j-1] == ' ' {
				return 0, false
			}
		}
	}
	return 0, false
}

// indicator reports whether c cannot start a plain scalar the fast reader
// takes (YAML's indicators, most of which start something else).
func indicator(c byte) bool {
	return strings.IndexByte("-?:,[]{}#&*!|>'\"%@`", c) >= 0
}

func (p *fastYAML) mapping(depth int) *Node {
	p.collection(depth)
	col := p.i - p.ls
	n := p.node(Object, p.i, charEnd(p.s, p.i))
	base := len(p.members)
	for {
		ks := p.i
		colon, ok := p.colon()
		if !ok || indicator(p.s[ks]) {
			p.giveUp()
		}
		key := strings.TrimRight(p.s[ks:colon], " ")
		if key == "<<" || len(key) > 1000 {
			p.giveUp() // a merge key; yaml.v3 refuses implicit keys over 1024 bytes
		}
		open := p.members[base:]
		if len(open) > 64 {
			p.giveUp() // keep the duplicate check below linear in effect
		}
		for i := range open {
			if open[i].Key == key {
				p.giveUp() // the walk reports duplicates
			}
		}
		p.i = colon + 1
		v := p.value(col, depth+1)
		p.members = append(p.members, Member{Key: key, KeySpan: diag.SpanOf(ks, ks+len(key)), Value: v})
		if p.i >= len(p.s) || p.ind < col {
			break
		}
		if p.ind > col || p.dash() {
			p.giveUp()
		}
	}
	n.Members = p.keepMembers(base)
	return n
}

func (p *fastYAML) sequence(depth int) *Node {
	p.collection(depth)
	col := p.i - p.ls
	n := p.node(Array, p.i, min(p.i+1, len(p.s)))
	base := len(p.items)
	for {
		p.i++ // the dash
		for p.i < len(p.s) && p.s[p.i] == ' ' {
			p.i++
		}
		var item *Node
		switch {
		case p.i == len(p.s) || p.s[p.i] == '\n' || p.s[p.i] == '#':
			p.next(p.eol(p.i) + 1)
			if p.i >= len(p.s) || p.ind <= col {
				p.giveUp() // an empty item
			}
			item = p.block(depth + 1)
		case p.dash():
			p.giveUp() // "- - x"
		case p.keyOnLine():
			item = p.mapping(depth + 1)
		default:
			item = p.inline(col, depth+1)
		}
		p.items = append(p.items, item)
		if p.i >= len(p.s) || p.ind < col || !p.dash() {
			break
		}
		if p.ind > col {
			p.giveUp()
		}
	}
	n.Items = p.keepItems(base)
	return n
}

// value reads the value after a key of the mapping at column col.
func (p *fastYAML) value(col, depth int) *Node {
	s := p.s
	for p.i < len(s) && s[p.i] == ' ' {
		p.i++
	}
	if p.i < len(s) && s[p.i] != '\n' && s[p.i] != '#' {
		return p.inline(col, depth)
	}
	p.next(p.eol(p.i) + 1)
	switch {
	case p.i < len(s) && p.ind > col:
		return p.block(depth)
	case p.i < len(s) && p.ind == col && p.dash():
		return p.sequence(depth) // a sequence indented like its key
	}
	p.giveUp() // an empty value: the walk places its null
	return nil
}

// inline reads a scalar, {} or [] that starts at p.i and ends its line,
// then moves to the next line, which must not continue it (be indented
// deeper than col, the column of the collection it is in).
func (p *fastYAML) inline(col, depth int) *Node {
	s, start := p.s, p.i
	var n *Node
	end := p.i
	switch c := s[start]; {
	case c == '"' || c == '\'':
		q := strings.IndexByte(s[start+1:p.eol(start)], c)
		if q < 0 {
			p.giveUp() // continued on the next line
		}
		end = start + 1 + q + 1
		v := s[start+1 : end-1]
		if c == '"' && strings.IndexByte(v, '\\') >= 0 || c == '\'' && end < len(s) && s[end] == '\'' {
			p.giveUp() // escapes
		}
		n = p.node(String, start, end)
		n.Value = v
		n.style = styleDouble
		if c == '\'' {
			n.style = styleSingle
		}
	case (c == '{' || c == '[') && start+1 < len(s) && s[start+1] == c+2: // {} or []
		p.collection(depth)
		end = start + 2
		if c == '{' {
			n = p.node(Object, start, start+1)
		} else {
			n = p.node(Array, start, start+1)
			n.Items = []*Node{}
		}
	case indicator(c):
		p.giveUp()
	default:
		e := p.eol(start)
		if k := strings.Index(s[start:e], " #"); k >= 0 {
			e = start + k
		}
		v := strings.TrimRight(s[start:e], " ")
		if strings.Contains(v, ": ") || strings.HasSuffix(v, ":") {
			p.giveUp() // yaml.v3 refuses a mapping here
		}
		end = start + len(v)
		n = p.plain(v, start, end)
	}
	// Only spaces and a comment may follow on the line.
	i := end
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if i < len(s) && s[i] != '\n' && (s[i] != '#' || i == end) {
		p.giveUp()
	}
	p.next(p.eol(i) + 1)
	if p.i < len(s) && p.ind > col {
		p.giveUp() // a continuation line, or a misplaced one
	}
	return n
}

// plain resolves a plain scalar as yaml.v3 does (its resolve table: null,
// booleans, integers, else a string), for the forms the fast reader takes;
// it gives up on floats, timestamps and other numbers.
func (p *fastYAML) plain(v string, start, end int) *Node {
	var n *Node
	switch v {
	case "~", "null", "Null", "NULL":
		n = p.node(Null, start, end)
	case "true", "True", "TRUE":
		n = p.node(Bool, start, end)
		n.Value = "true"
	case "false", "False", "FALSE":
		n = p.node(Bool, start, end)
		n.Value = "false"
	default:
		kind := String
		switch c := v[0]; {
		case c == '.' || c == '+':
			p.giveUp()
		case c >= '0' && c <= '9':
			digits := 0
			for digits < len(v) && v[digits] >= '0' && v[digits] <= '9' {
				digits++
			}
			switch {
			case digits == len(v):
				if v[0] == '0' && len(v) > 1 || len(v) > 18 {
					p.giveUp() // octal to yaml.v3, or past int64
				}
				kind = Number
			case digits == 4 && v[4] == '-':
				p.giveUp() // perhaps a timestamp
			case !durationLike(v[digits:]):
				p.giveUp()
			}
		}
		n = p.node(kind, start, end)
		n.Value = v
	}
	// The walk marks every plain scalar so, whatever it resolved to.
	n.style = stylePlain
	return n
}

// durationLike reports whether rest, what follows the leading digits of a
// plain scalar, makes it a string for yaml.v3: an "s", or a fraction and
// an "s" (600s, 3.5s, the protobuf durations configurations hold).
func durationLike(rest string) bool {
	if strings.HasPrefix(rest, ".") {
		d := 1
		for d < len(rest) && rest[d] >= '0' && rest[d] <= '9' {
			d++
		}
		if d == 1 {
			return false
		}
		rest = rest[d:]
	}
	return rest == "s"
}

func (p *fastYAML) keepMembers(base int) []Member {
	open := p.members[base:]
	if cap(p.marena)-len(p.marena) < len(open) {
		p.marena = make([]Member, 0, max(len(open), p.chunk))
	}
	at := len(p.marena)
	p.marena = append(p.marena, open...)
	p.members = p.members[:base]
	return p.marena[at:len(p.marena):len(p.marena)]
}

func (p *fastYAML) keepItems(base int) []*Node {
	open := p.items[base:]
	if cap(p.iarena)-len(p.iarena) < len(open) {
		p.iarena = make([]*Node, 0, max(len(open), p.chunk))
	}
	at := len(p.iarena)
	p.iarena = append(p.iarena, open...)
	p.items = p.items[:base]
	return p.iarena[at:len(p.iarena):len(p.iarena)]
}
