package celfilter

import (
	"fmt"
	"strings"

	"github.com/subplay/subplay/core/filter"
)

// matcher decides one message from its attributes.
type matcher func(attrs map[string]string) bool

// direct compiles a filter into a tree of Go closures that decides a
// message as the checked CEL program does, without the interpreter: no
// activation, no execution frame, no boxing of values into CEL types. The
// filter language is four conditions under NOT, AND and OR, each of which
// the CEL program guards against a missing key (see the package comment),
// so none of them can fail and the closures need no error path. Match
// runs this tree; Explain still runs CEL, whose recorded node values it
// reads. The differential tests (direct_test.go) hold the two to the same
// verdicts.
//
// The tree is as deep as the filter, which the parser bounds
// (limits.FilterDepth), so the recursion here is bounded too.
func direct(e filter.Expr) matcher {
	switch e := e.(type) {
	case *filter.Has:
		k := e.Key.Name
		return func(a map[string]string) bool {
			_, ok := a[k]
			return ok
		}
	case *filter.Compare:
		k, v := e.Key.Name, e.Value.Value
		if e.Op == filter.NotEqual {
			return func(a map[string]string) bool {
				got, ok := a[k]
				return !ok || got != v
			}
		}
		return func(a map[string]string) bool {
			got, ok := a[k]
			return ok && got == v
		}
	case *filter.Prefix:
		k, p := e.Key.Name, e.Prefix.Value
		return func(a map[string]string) bool {
			got, ok := a[k]
			return ok && strings.HasPrefix(got, p)
		}
	case *filter.Not:
		x := direct(e.X)
		return func(a map[string]string) bool { return !x(a) }
	case *filter.Logic:
		xs := make([]matcher, len(e.X))
		for i, x := range e.X {
			xs[i] = direct(x)
		}
		// Operands in the order written, stopping at the first that
		// settles the chain, as the left-deep CEL program does.
		if e.Op == filter.Or {
			return func(a map[string]string) bool {
				for _, x := range xs {
					if x(a) {
						return true
					}
				}
				return false
			}
		}
		return func(a map[string]string) bool {
			for _, x := range xs {
				if !x(a) {
					return false
				}
			}
			return true
		}
	}
	panic(fmt.Sprintf("celfilter: unknown filter node %T", e))
}

func always(map[string]string) bool { return true }
