package celfilter

import (
	"reflect"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// attrMap is a message's attributes as a CEL map(string, string). cel-go's
// own wrapper answers `"k" in attributes` by fetching and boxing the value;
// a filter only ever asks whether a key is there and what its value is, so
// those two answer from the Go map directly, and every other operation
// (which a filter never uses) goes to cel-go's wrapper.
type attrMap struct{ m map[string]string }

var _ traits.Mapper = (*attrMap)(nil)

func (a *attrMap) general() traits.Mapper {
	return types.NewStringStringMap(types.DefaultTypeAdapter, a.m)
}

// Contains answers the in operator.
func (a *attrMap) Contains(key ref.Val) ref.Val {
	k, ok := key.(types.String)
	if !ok {
		return a.general().Contains(key)
	}
	_, found := a.m[string(k)]
	return types.Bool(found)
}

// Find answers attributes["k"].
func (a *attrMap) Find(key ref.Val) (ref.Val, bool) {
	k, ok := key.(types.String)
	if !ok {
		return a.general().Find(key)
	}
	v, found := a.m[string(k)]
	if !found {
		return nil, false
	}
	return types.String(v), true
}

func (a *attrMap) Get(key ref.Val) ref.Val                     { return a.general().Get(key) }
func (a *attrMap) Iterator() traits.Iterator                   { return a.general().Iterator() }
func (a *attrMap) Size() ref.Val                               { return types.Int(len(a.m)) }
func (a *attrMap) ConvertToNative(t reflect.Type) (any, error) { return a.general().ConvertToNative(t) }
func (a *attrMap) ConvertToType(t ref.Type) ref.Val            { return a.general().ConvertToType(t) }
func (a *attrMap) Equal(other ref.Val) ref.Val                 { return a.general().Equal(other) }
func (a *attrMap) Type() ref.Type                              { return types.MapType }
func (a *attrMap) Value() any                                  { return a.m }
