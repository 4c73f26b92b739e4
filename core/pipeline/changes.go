package pipeline

import (
	"maps"
	"slices"

	"github.com/subplay/subplay/core/message"
)

// Change is one difference a step made: Field is "data" or
// "attributes.KEY"; Kind is "added", "removed" or "changed". Before and
// After are an attribute's values (data is only said to have changed).
type Change struct {
	Field, Kind   string
	Before, After *string
}

// changes lists what differs from a to b, attributes in key order.
func changes(a, b *message.Message) []Change {
	var out []Change
	str := func(s string) *string { return &s }
	if string(a.Data) != string(b.Data) {
		out = append(out, Change{Field: "data", Kind: "changed"})
	}
	keys := slices.Sorted(maps.Keys(a.Attributes))
	for k := range b.Attributes {
		if _, ok := a.Attributes[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		va, ina := a.Attributes[k]
		vb, inb := b.Attributes[k]
		switch {
		case ina && !inb:
			out = append(out, Change{Field: "attributes." + k, Kind: "removed", Before: str(va)})
		case !ina && inb:
			out = append(out, Change{Field: "attributes." + k, Kind: "added", After: str(vb)})
		case va != vb:
			out = append(out, Change{Field: "attributes." + k, Kind: "changed", Before: str(va), After: str(vb)})
		}
	}
	return out
}
