//go:build !nohcl

package terraform

import (
	"maps"
	"math"
	"math/big"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// HCL evaluates an expression with no bound on its work: a few lines of
// nested for expressions over a list of a thousand numbers build a
// billion values, and twelve locals each quadrupling the previous one's
// text build gigabytes (4 KB of text that ran out of memory, 1 KB that
// took 17 s and 3 GB: the terraform-eval cases of the hostile corpus).
// Before an expression is evaluated, estimate gives an upper bound of what it builds and of the
// work of building it, from its syntax and from the bounds of the locals
// and variables it reads; the reader refuses to evaluate past
// limits.TerraformEvalBytes for the whole text.

// nodeBytes is what a value counts besides its text: a number, a
// boolean, null, or an element of a collection.
const nodeBytes = 64

// convertBytes is the work of converting a value to a string, counted
// wherever HCL or the reader may convert one: cty writes a number with its
// 512 bits however small it is (30-60 µs natively, the work of building
// several KB).
const convertBytes = 8 << 10

// saturated is where the bounds stop growing; anything there is refused.
const saturated = math.MaxInt64 / 4

// bound is an upper bound of a value and of the work of making it, in
// bytes: each value counts nodeBytes, and a scalar the length of its text
// too.
type bound struct {
	size int64 // the value
	elem int64 // each of its elements (a collection's), else 0
	n    int64 // its elements (a collection's), else 0
	cost int64 // the work of evaluating the expression
}

func add(a, b int64) int64 { return min(a+b, saturated) }

func mul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a >= saturated/b {
		return saturated
	}
	return a * b
}

// scalar is the bound of a value of size bytes that holds no elements.
func scalar(size int64) bound { return bound{size: size, cost: nodeBytes} }

// of is the bound of an element of b: its size is b's elements', and its
// own elements are no more than that size holds.
func (b bound) of() bound {
	e := max(b.elem, nodeBytes)
	return bound{size: e, elem: e, n: e / nodeBytes}
}

// valueBound measures a value that was read, not built: a variable's
// default or a topic's names (the estimates bounded them before they were
// evaluated).
func valueBound(v cty.Value) bound {
	if v.IsNull() || !v.IsKnown() {
		return scalar(nodeBytes)
	}
	t := v.Type()
	switch {
	case t == cty.String:
		return scalar(add(nodeBytes, int64(len(v.AsString()))))
	case t == cty.Number:
		return scalar(numberBytes(v.AsBigFloat()))
	case t == cty.Bool:
		return scalar(nodeBytes + int64(len("false")))
	case t.IsCollectionType() || t.IsTupleType() || t.IsObjectType():
		// A map's or an object's keys count; a list's indexes do not.
		keyed := t.IsMapType() || t.IsObjectType()
		b := bound{size: nodeBytes, cost: nodeBytes}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			s := valueBound(e).size
			if keyed {
				s = add(s, valueBound(k).size)
			}
			b.size = add(b.size, s)
			b.elem = max(b.elem, s)
			b.n++
		}
		return b
	}
	return scalar(nodeBytes)
}

// numberBytes bounds a number written as text: a sign, a point, and its
// digits, which are no more than its binary exponent's (before the point)
// or its mantissa's bits (after it), a bit making at most 0.302 digits.
func numberBytes(f *big.Float) int64 {
	exp := int64(f.MantExp(nil))
	bits := max(exp, -exp, int64(f.MinPrec()))
	return nodeBytes + 3 + bits*30103/100000 + 1
}

// estimator bounds the expressions of one evaluation: roots holds the
// bounds of the variables, locals and topics it reads ("local.NAME"), and
// the for expressions and splats in it bind more while their bodies are
// walked.
type estimator struct {
	roots map[string]bound
	names map[string]bound // a for expression's key and value
	anon  map[*hclsyntax.AnonSymbolExpr]bound
}

func (es *estimator) estimate(e hclsyntax.Expression) bound {
	switch e := e.(type) {
	case nil:
		return bound{}
	case *hclsyntax.LiteralValueExpr:
		return valueBound(e.Val)
	case *hclsyntax.ParenthesesExpr:
		return es.estimate(e.Expression)
	case *hclsyntax.TemplateWrapExpr:
		return es.estimate(e.Wrapped)
	case *hclsyntax.ObjectConsKeyExpr:
		return es.estimate(e.Wrapped)
	case *hclsyntax.TemplateExpr:
		// A part's text is at most its size less the nodeBytes a value
		// counts (strings, numbers and booleans are sized so): a string
		// made of strings made of strings counts nodeBytes once.
		b := bound{size: nodeBytes}
		for _, p := range e.Parts {
			pb := es.estimate(p)
			b.size = add(b.size, max(pb.size-nodeBytes, 0))
			b.cost = add(b.cost, pb.cost)
			if l, ok := p.(*hclsyntax.LiteralValueExpr); !ok || l.Val.Type() != cty.String {
				b.cost = add(b.cost, convertBytes)
			}
		}
		b.cost = add(b.cost, b.size)
		return b
	case *hclsyntax.TemplateJoinExpr:
		t := es.estimate(e.Tuple)
		return bound{size: add(nodeBytes, t.size), cost: add(add(t.cost, t.size), mul(t.n, convertBytes))}
	case *hclsyntax.ScopeTraversalExpr:
		return es.traverse(es.root(e.Traversal), e.Traversal)
	case *hclsyntax.RelativeTraversalExpr:
		src := es.estimate(e.Source)
		return es.traverse(src, e.Traversal)
	case *hclsyntax.AnonSymbolExpr:
		if b, ok := es.anon[e]; ok {
			return b
		}
		return scalar(nodeBytes)
	case *hclsyntax.IndexExpr:
		c, k := es.estimate(e.Collection), es.estimate(e.Key)
		b := c.of()
		b.cost = add(add(c.cost, k.cost), convertBytes) // a number key of a map is converted
		return b
	case *hclsyntax.SplatExpr:
		src := es.estimate(e.Source)
		n := max(src.n, 1)
		if es.anon == nil {
			es.anon = map[*hclsyntax.AnonSymbolExpr]bound{}
		}
		es.anon[e.Item] = src.of() // each splat has its own symbol
		each := es.estimate(e.Each)
		delete(es.anon, e.Item)
		return bound{size: add(nodeBytes, mul(n, each.size)), elem: each.size, n: n,
			cost: add(src.cost, mul(n, add(each.cost, nodeBytes)))}
	case *hclsyntax.TupleConsExpr:
		b := bound{size: nodeBytes, cost: nodeBytes, n: int64(len(e.Exprs))}
		for _, x := range e.Exprs {
			xb := es.estimate(x)
			b.size, b.cost = add(b.size, xb.size), add(b.cost, xb.cost)
			b.elem = max(b.elem, xb.size)
		}
		return b
	case *hclsyntax.ObjectConsExpr:
		b := bound{size: nodeBytes, cost: nodeBytes, n: int64(len(e.Items))}
		for _, it := range e.Items {
			k, v := es.estimate(it.KeyExpr), es.estimate(it.ValueExpr)
			b.size, b.cost = add(b.size, add(k.size, v.size)), add(b.cost, add(k.cost, v.cost))
			b.elem = max(b.elem, add(k.size, v.size))
		}
		return b
	case *hclsyntax.ForExpr:
		return es.forExpr(e)
	case *hclsyntax.ConditionalExpr:
		// HCL evaluates both results, whichever the condition picks, and
		// converts them to one type (each element, in collections).
		c, t, f := es.estimate(e.Condition), es.estimate(e.TrueResult), es.estimate(e.FalseResult)
		return bound{size: max(t.size, f.size), elem: max(t.elem, f.elem), n: max(t.n, f.n),
			cost: add(add(c.cost, add(t.cost, f.cost)), mul(add(add(t.n, f.n), 1), convertBytes))}
	case *hclsyntax.BinaryOpExpr:
		// A comparison goes through both operands; arithmetic makes a
		// number of at most both operands' digits (and cty's 512 bits).
		l, r := es.estimate(e.LHS), es.estimate(e.RHS)
		size := add(add(l.size, r.size), 160)
		return bound{size: size, cost: add(add(l.cost, r.cost), size)}
	case *hclsyntax.UnaryOpExpr:
		x := es.estimate(e.Val)
		return bound{size: add(x.size, nodeBytes), cost: add(x.cost, nodeBytes)}
	case *hclsyntax.FunctionCallExpr:
		// The reader evaluates no function; HCL refuses the call before
		// it reads the arguments, which are counted all the same.
		b := scalar(nodeBytes)
		for _, a := range e.Args {
			b.cost = add(b.cost, es.estimate(a).cost)
		}
		return b
	case *hclsyntax.ExprSyntaxError:
		return scalar(nodeBytes)
	}
	// An expression this version of HCL did not have: not evaluated.
	return bound{size: saturated, cost: saturated}
}

// forExpr bounds [for k, v in C : V if W] and {for ... : K => V}: C's
// elements, each binding k and v and evaluating K, V and W.
func (es *estimator) forExpr(e *hclsyntax.ForExpr) bound {
	c := es.estimate(e.CollExpr)
	// The body sees the names the for binds over those outside it.
	body := *es
	body.names = maps.Clone(es.names)
	if body.names == nil {
		body.names = map[string]bound{}
	}
	for _, name := range []string{e.KeyVar, e.ValVar} {
		if name != "" {
			body.names[name] = c.of()
		}
	}
	k, v, w := body.estimate(e.KeyExpr), body.estimate(e.ValExpr), body.estimate(e.CondExpr)
	per := add(add(k.cost, v.cost), add(w.cost, nodeBytes))
	if e.KeyExpr != nil {
		per = add(per, convertBytes) // an object's key, made a string
	}
	b := bound{size: add(nodeBytes, mul(c.n, add(add(k.size, v.size), nodeBytes))), elem: add(add(k.size, v.size), nodeBytes), n: c.n,
		cost: add(c.cost, mul(c.n, per))}
	if e.Group {
		// Each key holds a tuple of the values given it: up to all of them.
		b.elem = add(add(k.size, nodeBytes), mul(c.n, v.size))
	}
	return b
}

// root bounds the value a traversal starts from: a name a for expression
// binds, else a variable, local or topic (two steps: var.NAME), else a
// name HCL will not know (a keyword used as an object's key, or an error).
func (es *estimator) root(t hcl.Traversal) bound {
	name := t.RootName()
	if b, ok := es.names[name]; ok {
		return b
	}
	if len(t) > 1 {
		if a, ok := t[1].(hcl.TraverseAttr); ok {
			if b, ok := es.roots[name+"."+a.Name]; ok {
				b.cost = 0 // evaluated once, before; reading it copies nothing
				return b
			}
		}
	}
	return scalar(add(nodeBytes, int64(len(name))))
}

// traverse bounds the steps of a traversal after its root (after var.NAME
// for a variable): each step reads an element.
func (es *estimator) traverse(b bound, t hcl.Traversal) bound {
	steps := t
	if len(t) > 0 {
		if _, ok := t[0].(hcl.TraverseRoot); ok {
			steps = t[1:]
			if len(t) > 1 {
				if a, ok := t[1].(hcl.TraverseAttr); ok {
					_, known := es.roots[t.RootName()+"."+a.Name]
					if _, local := es.names[t.RootName()]; known && !local {
						steps = t[2:]
					}
				}
			}
		}
	}
	cost := add(b.cost, nodeBytes)
	for range steps {
		b = b.of()
		cost = add(cost, nodeBytes)
	}
	b.cost = cost
	return b
}
