package subscription

import (
	"reflect"
	"strconv"
	"strings"
)

// Origin says where an effective value comes from.
type Origin string

const (
	Set     Origin = "set"     // written in the configuration
	Default Origin = "default" // the service's default
	Derived Origin = "derived" // computed from other fields (the push audience)
)

// Effective is what a subscription will really do: the configuration with
// every default filled in, in the same REST shape, and where each value
// came from.
type Effective struct {
	Subscription *Subscription     `json:"subscription"`
	DeliveryType DeliveryType      `json:"deliveryType"`
	Origins      map[string]Origin `json:"origins"` // JSON pointer -> origin, for every field with a value
}

// Effective returns the effective settings (nil when nothing could be
// decoded). Output-only fields are left out: they are not settings. The
// result is shared: callers must not modify it.
func (c *Config) Effective() *Effective {
	if c.Sub == nil || c.reading.Changes {
		return nil
	}
	c.effOnce.Do(func() { c.effective = computeEffective(c) })
	return c.effective
}

// computeEffective fills every default by walking the rule table: a row
// with a default fills its field wherever the enclosing object is present
// (or, for onlyWithParent rows, stands for the absent object). The one
// value written here is derived, not a default: the push audience.
func computeEffective(c *Config) *Effective {
	t := c.table()
	e := deepCopy(reflect.ValueOf(c.Sub)).Interface().(*Subscription)
	origins := make(map[string]Origin, 24)
	for path := range c.nodes {
		if path == "" {
			continue
		}
		if f := t.At(path); f != nil && !f.OutputOnly && genericPath(path) == f.Path {
			origins[path] = Set // a map's entries belong to the map
		}
	}
	w := &walker{t: t, origins: origins, dt: e.DeliveryType()}
	root := reflect.ValueOf(e).Elem()
	for _, f := range t.fields {
		if f.OutputOnly || f.def != nil || f.ZeroMeansDefault {
			w.row = f
			w.visit(root, strings.Split(f.Path[1:], "/"), "")
		}
	}
	if pc := e.PushConfig; w.dt == Push && pc.OidcToken != nil && pc.OidcToken.Audience == nil {
		pc.OidcToken.Audience = pc.PushEndpoint
		origins["/pushConfig/oidcToken/audience"] = Derived
	}
	return &Effective{Subscription: e, DeliveryType: w.dt, Origins: origins}
}

// walker applies one row of the table to every instance of its field.
type walker struct {
	t       *Table
	row     *Field
	origins map[string]Origin
	dt      DeliveryType
}

// visit walks v (a struct) along the remaining segments of the row's path.
func (w *walker) visit(v reflect.Value, segs []string, path string) {
	idx, ok := infoOf(v.Type()).byName[segs[0]]
	if !ok {
		panic("subscription: the rule table names a field the model lacks: " + w.row.Path)
	}
	fv, path := v.Field(idx), path+"/"+segs[0]
	if len(segs) == 1 {
		w.apply(v, fv, path)
		return
	}
	if segs[1] == "*" {
		for i := range fv.Len() {
			w.visit(fv.Index(i), segs[2:], path+"/"+strconv.Itoa(i))
		}
		return
	}
	if fv.IsNil() {
		if !w.row.onlyWithParent || len(segs) != 2 || !w.applies() {
			return
		}
		fv.Set(reflect.New(fv.Type().Elem()))
		w.origins[path] = Default
	} else if w.row.onlyWithParent {
		return
	}
	w.visit(fv.Elem(), segs[1:], path)
}

// applies reports whether the row's default holds for this subscription:
// the settings of a delivery type only when the subscription delivers that
// way (a pushConfig without endpoint is pull, and gets no push defaults).
// A top-level field has its value whatever the delivery: a push
// subscription has exactly-once delivery off, not unset.
func (w *walker) applies() bool {
	return w.row.Delivery == "" || w.row.Delivery == w.dt || parentOf(w.row.Path) == ""
}

// apply fills field fv of struct parent, at path, from the row.
func (w *walker) apply(parent, fv reflect.Value, path string) {
	f := w.row
	switch {
	case f.OutputOnly:
		fv.SetZero()
		return
	case !w.applies():
		return
	case !fv.IsNil() && !(f.ZeroMeansDefault && fv.Elem().Int() == 0):
		return
	}
	for _, g := range w.siblings(f) {
		if idx := infoOf(parent.Type()).byName[g.Name]; !parent.Field(idx).IsNil() {
			return // another member of the oneof is set
		}
	}
	if f.def == nil { // 0 stands for "unset", and unset has no value
		fv.SetZero()
		delete(w.origins, path)
		return
	}
	fv.Set(typed(f.def, fv.Type()))
	w.origins[path] = Default
}

// siblings returns the other rows of f's oneof group.
func (w *walker) siblings(f *Field) []*Field {
	if f.oneof == "" {
		return nil
	}
	var out []*Field
	for _, g := range w.t.fields {
		if g != f && g.oneof == f.oneof && parentOf(g.Path) == parentOf(f.Path) {
			out = append(out, g)
		}
	}
	return out
}

// typed turns a parsed default into a value of the model's field type t.
func typed(def any, t reflect.Type) reflect.Value {
	switch d := def.(type) {
	case map[string]string:
		m := make(map[string]string, len(d))
		for k, v := range d {
			m[k] = v
		}
		return reflect.ValueOf(m)
	case struct{}:
		return reflect.New(t.Elem())
	}
	p := reflect.New(t.Elem())
	p.Elem().Set(reflect.ValueOf(def).Convert(t.Elem()))
	return p
}

// deepCopy copies the pointers, structs and slices of a decoded
// subscription, so filling defaults leaves the decoded one alone. Maps are
// shared: the walk replaces absent maps and never writes into one.
func deepCopy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(deepCopy(v.Elem()))
		return p
	case reflect.Struct:
		out := reflect.New(v.Type()).Elem()
		for i := range v.NumField() {
			out.Field(i).Set(deepCopy(v.Field(i)))
		}
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(deepCopy(v.Index(i)))
		}
		return out
	}
	return v
}

// Value returns the effective value at a JSON pointer as it would be
// encoded (a *string, *bool, *Duration, map...), and whether there is one.
func (e *Effective) Value(path string) (any, bool) {
	v := reflect.ValueOf(e.Subscription).Elem()
	for _, part := range strings.Split(strings.TrimPrefix(path, "/"), "/") {
		if part == "" {
			continue
		}
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return nil, false
			}
			v = v.Elem()
		}
		switch v.Kind() {
		case reflect.Struct:
			idx, ok := infoOf(v.Type()).byName[part]
			if !ok {
				return nil, false
			}
			v = v.Field(idx)
		case reflect.Slice:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= v.Len() {
				return nil, false
			}
			v = v.Index(i)
		case reflect.Map:
			mv := v.MapIndex(reflect.ValueOf(part))
			if !mv.IsValid() {
				return nil, false
			}
			v = mv
		default:
			return nil, false
		}
	}
	if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Map || v.Kind() == reflect.Slice) && v.IsNil() {
		return nil, false
	}
	return v.Interface(), true
}
