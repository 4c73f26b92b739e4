package avroschema

import (
	"strconv"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
)

// maxDepth bounds how deep types nest along any chain of references: a
// record whose field's type is a record defined earlier, whose field's
// type is ... The text's own nesting is bounded by the JSON reader; named
// types used by name are not, so a flat list of records can chain
// thousands deep, and every reader of the schema would follow the chain.
const maxDepth = limits.SchemaDepth

// checkDepth reports a chain of types deeper than maxDepth, at the field
// (or type) where it passes the bound. Each type is measured once, from
// the first path that reaches it, and the walk never goes deeper than the
// bound, so its stack is bounded too. A type that refers back to one being
// measured is a recursion, which readers catch themselves.
func (w *walker) checkDepth(root *Type) {
	height := map[*Type]int{}
	onStack := map[*Type]bool{}
	var measure func(t *Type, depth int) bool
	measure = func(t *Type, depth int) bool {
		onStack[t] = true
		h := 0
		ok := true
		each(t, func(sub *Type, path string, span diag.Span) bool {
			if sub == nil || onStack[sub] {
				return true
			}
			sh, done := height[sub]
			if !done {
				if depth+1 > maxDepth || !measure(sub, depth+1) {
					if depth+1 > maxDepth {
						w.add(diag.Error, "avro-depth", path, span,
							"types nest more than "+strconv.Itoa(maxDepth)+" levels deep here, counting the types this one refers to by name", deepHint)
					}
					ok = false
					return false
				}
				sh = height[sub]
			} else if depth+1+sh > maxDepth {
				w.add(diag.Error, "avro-depth", path, span,
					"types nest more than "+strconv.Itoa(maxDepth)+" levels deep here: this type nests "+strconv.Itoa(sh+1)+" levels, counting the types it refers to by name", deepHint)
				ok = false
				return false
			}
			h = max(h, sh+1)
			return true
		})
		delete(onStack, t)
		height[t] = h
		return ok
	}
	measure(root, 1)
}

const deepHint = "a topic schema this deep has no BigQuery table and no reader that follows it; flatten the records"

// each calls f for every type t holds directly, with where it is written:
// a field's path and name, else the type's own. It stops when f returns
// false.
func each(t *Type, f func(sub *Type, path string, span diag.Span) bool) {
	for _, fl := range t.Fields {
		if !f(fl.Type, fl.Path, fl.Span) {
			return
		}
	}
	for _, sub := range [...]*Type{t.Items, t.Values} {
		if sub != nil && !f(sub, sub.Path, sub.Span) {
			return
		}
	}
	for _, b := range t.Branches {
		if !f(b, b.Path, b.Span) {
			return
		}
	}
}
