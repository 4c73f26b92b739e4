package celfilter

import (
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"

	"github.com/subplay/subplay/core/filter"
)

// The property test builds random filters as trees of its own, writes them
// in random but valid spellings (NOT or -, spacing, extra parentheses,
// quoted and escaped keys), and checks that CEL evaluation agrees with a
// direct evaluation of the generated tree, written here independently of
// both the parser and the CEL compiler.

type gen struct {
	kind     string // has, eq, ne, prefix, not, and, or
	key, val string
	kids     []*gen
}

var (
	propKeys   = []string{"a", "b", "is-even", "iana.org/x", "みんな", "k_2", "null", "with space", ""}
	propValues = []string{"", "v", "va", "V", `x"y`, "é", "a\\b", "v\n"}
)

func randGen(r *rand.Rand, depth int) *gen {
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	if depth <= 0 || r.IntN(3) == 0 {
		switch r.IntN(4) {
		case 0:
			return &gen{kind: "has", key: pick(propKeys)}
		case 1:
			return &gen{kind: "eq", key: pick(propKeys), val: pick(propValues)}
		case 2:
			return &gen{kind: "ne", key: pick(propKeys), val: pick(propValues)}
		default:
			return &gen{kind: "prefix", key: pick(propKeys), val: pick(propValues[:5])}
		}
	}
	switch r.IntN(3) {
	case 0:
		return &gen{kind: "not", kids: []*gen{randGen(r, depth-1)}}
	default:
		kind := "and"
		if r.IntN(2) == 0 {
			kind = "or"
		}
		n := 2 + r.IntN(3)
		g := &gen{kind: kind}
		for i := 0; i < n; i++ {
			g.kids = append(g.kids, randGen(r, depth-1))
		}
		return g
	}
}

// eval is the reference semantics (reference/filter.md, D10).
func (g *gen) eval(a map[string]string) bool {
	v, ok := a[g.key]
	switch g.kind {
	case "has":
		return ok
	case "eq":
		return ok && v == g.val
	case "ne":
		return !ok || v != g.val
	case "prefix":
		return ok && strings.HasPrefix(v, g.val)
	case "not":
		return !g.kids[0].eval(a)
	case "and":
		for _, k := range g.kids {
			if !k.eval(a) {
				return false
			}
		}
		return true
	}
	for _, k := range g.kids {
		if k.eval(a) {
			return true
		}
	}
	return false
}

// write spells g at random; parens says g sits where a chain needs them.
func (g *gen) write(r *rand.Rand, b *strings.Builder, parens bool) {
	sp := func() {
		switch r.IntN(4) {
		case 0:
		case 1:
			b.WriteString("  ")
		case 2:
			b.WriteString("\n\t")
		default:
			b.WriteString(" ")
		}
	}
	extra := r.IntN(8) == 0
	if parens || extra {
		b.WriteString("(")
		sp()
	}
	switch g.kind {
	case "has":
		b.WriteString("attributes:" + spellKey(r, g.key))
	case "eq", "ne":
		b.WriteString("attributes." + spellKey(r, g.key))
		if r.IntN(2) == 0 {
			b.WriteString(" ")
		}
		if g.kind == "eq" {
			b.WriteString("=")
		} else {
			b.WriteString("!=")
		}
		sp()
		b.WriteString(spellString(r, g.val))
	case "prefix":
		b.WriteString("hasPrefix(")
		sp()
		b.WriteString("attributes." + spellKey(r, g.key) + ",")
		sp()
		b.WriteString(spellString(r, g.val) + ")")
	case "not":
		if r.IntN(2) == 0 {
			b.WriteString("-")
		} else {
			b.WriteString("NOT ")
		}
		sp()
		g.kids[0].write(r, b, len(g.kids[0].kids) > 1)
	default:
		op := " AND "
		if g.kind == "or" {
			op = " OR "
		}
		for i, k := range g.kids {
			if i > 0 {
				b.WriteString(op)
				sp()
			}
			k.write(r, b, len(k.kids) > 1)
		}
	}
	if parens || extra {
		sp()
		b.WriteString(")")
	}
}

func spellKey(r *rand.Rand, k string) string {
	if filter.ValidBareKey(k) && r.IntN(2) == 0 {
		return k
	}
	return spellString(r, k)
}

// spellString writes s as a literal, escaping characters at random.
func spellString(r *rand.Rand, s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			b.WriteString(`\` + string(c))
		case c == '\n':
			b.WriteString(`\n`)
		case r.IntN(4) == 0 && c < 0x80:
			b.WriteString(`\x` + hex2(byte(c)))
		case r.IntN(4) == 0:
			b.WriteString(`\u` + hex2(byte(c>>8)) + hex2(byte(c)))
		case r.IntN(8) == 0 && c < 0x100:
			b.WriteString(`\` + string(rune('0'+c>>6)) + string(rune('0'+(c>>3)&7)) + string(rune('0'+c&7)))
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func hex2(c byte) string {
	const h = "0123456789abcdef"
	return string([]byte{h[c>>4], h[c&15]})
}

func randAttrs(r *rand.Rand) map[string]string {
	a := map[string]string{}
	for _, k := range propKeys {
		if k != "" && r.IntN(2) == 0 {
			a[k] = propValues[r.IntN(len(propValues))]
		}
	}
	return a
}

// evalAST evaluates a parsed filter directly, to check each deciding
// condition Explain reports.
func evalAST(e filter.Expr, a map[string]string) bool {
	switch e := e.(type) {
	case *filter.Has:
		_, ok := a[e.Key.Name]
		return ok
	case *filter.Compare:
		v, ok := a[e.Key.Name]
		if e.Op == filter.NotEqual {
			return !ok || v != e.Value.Value
		}
		return ok && v == e.Value.Value
	case *filter.Prefix:
		v, ok := a[e.Key.Name]
		return ok && strings.HasPrefix(v, e.Prefix.Value)
	case *filter.Not:
		return !evalAST(e.X, a)
	case *filter.Logic:
		for _, x := range e.X {
			if evalAST(x, a) == (e.Op == filter.Or) {
				return e.Op == filter.Or
			}
		}
		return e.Op == filter.And
	}
	panic("unknown node")
}

func TestPropertyCELAgreesWithDirectEvaluation(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 3000
	if runtime.GOARCH == "wasm" {
		n = 300 // the same code runs the full count natively; wasm is ~15x slower
	}
	tested, skipped := 0, 0
	for tested < n {
		g := randGen(r, 4)
		var b strings.Builder
		g.write(r, &b, false)
		src := b.String()
		if len(src) > filter.MaxBytes {
			skipped++
			continue
		}
		tested++
		if !utf8.ValidString(src) {
			t.Fatalf("generator wrote invalid UTF-8: %q", src)
		}
		p := compile(t, src)
		text := textProgram(t, p)
		for range 8 {
			a := randAttrs(r)
			want := g.eval(a)
			got, err := p.Match(a)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("%s\non %v: CEL says %v, direct evaluation %v\nCEL: %s", src, a, got, want, must(p.CEL()))
			}
			if evalAST(p.Filter().Root, a) != want {
				t.Fatalf("%s\nparsed as %s, which disagrees with the generated tree on %v", src, p.Filter(), a)
			}
			if out, _, err := text.Eval(map[string]any{"attributes": a}); err != nil || out != types.Bool(want) {
				t.Fatalf("%s on %v: the CEL text %s gives %v, %v", src, a, must(p.CEL()), out, err)
			}
			res, err := p.Explain(a)
			if err != nil {
				t.Fatalf("%s on %v: %v", src, a, err)
			}
			if res.Match != want || len(res.Deciding) == 0 {
				t.Fatalf("%s on %v: Explain says %v with %d deciding conditions", src, a, res.Match, len(res.Deciding))
			}
			for _, d := range res.Deciding {
				if evalAST(d.Expr, a) != d.Value {
					t.Fatalf("%s on %v: deciding %s reported %v", src, a, filter.Format(d.Expr), d.Value)
				}
			}
		}
	}
	if skipped > tested {
		t.Errorf("the generator wrote too many over-long filters: %d skipped, %d tested", skipped, tested)
	}
}

// textProgram compiles the CEL text shown to users with a standard CEL
// environment, to check that the text means what the program does.
func textProgram(t *testing.T, p *Program) cel.Program {
	t.Helper()
	text, err := p.CEL()
	if err != nil {
		t.Fatal(err)
	}
	env, err := cel.NewEnv(cel.Variable("attributes", cel.MapType(cel.StringType, cel.StringType)), cel.EnableIdentifierEscapeSyntax())
	if err != nil {
		t.Fatal(err)
	}
	ast, iss := env.Compile(text)
	if iss.Err() != nil {
		t.Fatalf("the CEL text of %q does not compile: %s\n%v", p.Filter().Text, text, iss.Err())
	}
	prg, err := env.Program(ast)
	if err != nil {
		t.Fatal(err)
	}
	return prg
}

func must(s string, err error) string {
	if err != nil {
		return err.Error()
	}
	return s
}

// FuzzCompile checks that every filter the parser accepts compiles, prints
// as CEL, and evaluates as the direct evaluation says, on a few messages.
func FuzzCompile(f *testing.F) {
	for _, s := range []string{
		`attributes:a`, `attributes.a = "b"`, `attributes.a != "b"`, `hasPrefix(attributes.a, "b")`,
		`NOT (attributes:a OR -attributes.b = "c") AND attributes."x y" != "\u00e9"`, `attributes:"" OR attributes.null = "x"`,
		`--attributes:in`, ``, `(attributes:a AND attributes:b) OR (attributes:c AND attributes:d)`,
	} {
		f.Add(s)
	}
	messages := []map[string]string{nil, {"a": "b"}, {"a": "bc", "b": "c", "in": ""}, {"x y": "é", "null": "x", "c": "", "d": ""}}
	f.Fuzz(func(t *testing.T, src string) {
		fl, _ := filter.Parse(src)
		if fl == nil {
			return
		}
		p, err := Compile(fl)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if _, err := p.CEL(); err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		for _, a := range messages {
			r, err := p.Explain(a)
			if err != nil {
				t.Fatalf("%q on %v: %v", src, a, err)
			}
			if !fl.Empty() && r.Match != evalAST(fl.Root, a) {
				t.Fatalf("%q on %v: CEL %v, direct evaluation the opposite", src, a, r.Match)
			}
		}
	})
}
