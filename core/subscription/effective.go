package subscription

import (
	"reflect"

	"github.com/subplay/subplay/core/storage"
	"strconv"
	"strings"
)

// DefaultDatetimeFormat is the object-name time format used when
// filenameDatetimeFormat is absent (rules.md D12); core/storage owns it.
const DefaultDatetimeFormat = storage.DefaultFormat

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
	if c.Sub == nil {
		return nil
	}
	c.effOnce.Do(func() { c.effective = computeEffective(c) })
	return c.effective
}

type filler struct {
	origins map[string]Origin
}

func (f *filler) mark(path string, o Origin) { f.origins[path] = o }

func computeEffective(c *Config) *Effective {
	in := c.Sub
	e := *in // shallow: nested structs are copied before they change
	f := &filler{origins: make(map[string]Origin, 24)}
	for path := range c.nodes {
		g := genericPath(path)
		if fl := FieldAt(path); path != "" && fl != nil && !fl.OutputOnly && !strings.HasPrefix(g, "/labels/") &&
			!strings.HasPrefix(g, "/tags/") && !strings.HasPrefix(g, "/pushConfig/attributes/") {
			f.mark(path, Set)
		}
	}
	for _, p := range []string{"/labels", "/tags", "/pushConfig/attributes"} {
		if c.Has(p) {
			f.mark(p, Set)
		}
	}

	e.TopicMessageRetentionDuration, e.State, e.AnalyticsHubSubscriptionInfo = nil, nil, nil
	if e.AckDeadlineSeconds == nil || *e.AckDeadlineSeconds == 0 {
		e.AckDeadlineSeconds = ptr(Int32(10))
		f.mark("/ackDeadlineSeconds", Default)
	}
	defBool(&e.RetainAckedMessages, f, "/retainAckedMessages")
	if e.MessageRetentionDuration == nil {
		e.MessageRetentionDuration = Seconds(604800)
		f.mark("/messageRetentionDuration", Default)
	}
	defBool(&e.EnableMessageOrdering, f, "/enableMessageOrdering")
	if e.ExpirationPolicy == nil {
		e.ExpirationPolicy = &ExpirationPolicy{TTL: Seconds(2678400)}
		f.mark("/expirationPolicy", Default)
		f.mark("/expirationPolicy/ttl", Default)
	}
	if e.Filter == nil {
		e.Filter = ptr("")
		f.mark("/filter", Default)
	}
	if dl := e.DeadLetterPolicy; dl != nil && (dl.MaxDeliveryAttempts == nil || *dl.MaxDeliveryAttempts == 0) {
		cp := *dl
		cp.MaxDeliveryAttempts = ptr(Int32(5))
		e.DeadLetterPolicy = &cp
		f.mark("/deadLetterPolicy/maxDeliveryAttempts", Default)
	}
	if rp := e.RetryPolicy; rp != nil {
		cp := *rp
		if cp.MinimumBackoff == nil {
			cp.MinimumBackoff = Seconds(10)
			f.mark("/retryPolicy/minimumBackoff", Default)
		}
		if cp.MaximumBackoff == nil {
			cp.MaximumBackoff = Seconds(600)
			f.mark("/retryPolicy/maximumBackoff", Default)
		}
		e.RetryPolicy = &cp
	}
	defBool(&e.Detached, f, "/detached")
	defBool(&e.EnableExactlyOnceDelivery, f, "/enableExactlyOnceDelivery")

	switch e.DeliveryType() {
	case Push:
		pc := *e.PushConfig
		if pc.Attributes == nil {
			pc.Attributes = map[string]string{"x-goog-version": "v1"}
			f.mark("/pushConfig/attributes", Default)
		}
		if pc.OidcToken != nil && pc.OidcToken.Audience == nil {
			tok := *pc.OidcToken
			tok.Audience = pc.PushEndpoint
			pc.OidcToken = &tok
			f.mark("/pushConfig/oidcToken/audience", Derived)
		}
		if pc.PubsubWrapper == nil && pc.NoWrapper == nil {
			pc.PubsubWrapper = &PubsubWrapper{}
			f.mark("/pushConfig/pubsubWrapper", Default)
		}
		if nw := pc.NoWrapper; nw != nil && nw.WriteMetadata == nil {
			pc.NoWrapper = &NoWrapper{WriteMetadata: ptr(false)}
			f.mark("/pushConfig/noWrapper/writeMetadata", Default)
		}
		e.PushConfig = &pc
	case BigQuery:
		bq := *e.BigQueryConfig
		bq.State = nil
		defBool(&bq.UseTopicSchema, f, "/bigqueryConfig/useTopicSchema")
		defBool(&bq.UseTableSchema, f, "/bigqueryConfig/useTableSchema")
		defBool(&bq.WriteMetadata, f, "/bigqueryConfig/writeMetadata")
		defBool(&bq.DropUnknownFields, f, "/bigqueryConfig/dropUnknownFields")
		e.BigQueryConfig = &bq
	case CloudStorage:
		cs := *e.CloudStorageConfig
		cs.State = nil
		if cs.FilenameDatetimeFormat == nil {
			cs.FilenameDatetimeFormat = ptr(DefaultDatetimeFormat)
			f.mark("/cloudStorageConfig/filenameDatetimeFormat", Default)
		}
		if cs.MaxDuration == nil {
			cs.MaxDuration = Seconds(300)
			f.mark("/cloudStorageConfig/maxDuration", Default)
		}
		if cs.TextConfig == nil && cs.AvroConfig == nil {
			cs.TextConfig = &TextConfig{}
			f.mark("/cloudStorageConfig/textConfig", Default)
		}
		if av := cs.AvroConfig; av != nil {
			cp := *av
			defBool(&cp.WriteMetadata, f, "/cloudStorageConfig/avroConfig/writeMetadata")
			defBool(&cp.UseTopicSchema, f, "/cloudStorageConfig/avroConfig/useTopicSchema")
			cs.AvroConfig = &cp
		}
		e.CloudStorageConfig = &cs
	case Bigtable:
		bt := *e.BigtableConfig
		bt.State = nil
		defBool(&bt.WriteMetadata, f, "/bigtableConfig/writeMetadata")
		e.BigtableConfig = &bt
	}
	if len(e.MessageTransforms) > 0 {
		ts := make([]MessageTransform, len(e.MessageTransforms))
		copy(ts, e.MessageTransforms)
		for i := range ts {
			if ts[i].Disabled == nil {
				defBool(&ts[i].Disabled, f, "/messageTransforms/"+strconv.Itoa(i)+"/disabled")
			}
		}
		e.MessageTransforms = ts
	}
	return &Effective{Subscription: &e, DeliveryType: e.DeliveryType(), Origins: f.origins}
}

func defBool(p **bool, f *filler, path string) {
	if *p == nil {
		*p = ptr(false)
		f.mark(path, Default)
	}
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
