package subscription

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/storage"
)

// What the previews (core/playground) read from a configuration, so that
// they hold no rules of their own: the delivery types, the paths of
// repeated settings, the Cloud Storage layout and batching, the findings
// about one part of the configuration.

// DeliveryTypes lists every delivery type, in the order the page shows them.
func DeliveryTypes() []DeliveryType {
	return []DeliveryType{Pull, Push, BigQuery, CloudStorage, Bigtable}
}

// Locate places diagnostics whose paths are JSON pointers into the
// configuration and whose spans, when they have one, are in bytes of the
// string value at that path (as core/storage and core/filter report them):
// the spans are carried into the document, and lines and columns filled in
// when the configuration was text.
func (c *Config) Locate(ds []diag.Diagnostic) []diag.Diagnostic {
	for i := range ds {
		d := &ds[i]
		n := c.nodes[d.Path]
		switch {
		case n == nil:
			d.Span = diag.Span{}
		case d.Span.IsValid():
			d.Span = c.Doc.SourceSpan(n, d.Span)
		default:
			d.Span = diag.Span{} // located from its path
		}
	}
	return c.locate(ds)
}

// FindingsUnder returns the findings of Validate whose path is one of
// prefixes or lies under it.
func (c *Config) FindingsUnder(prefixes ...string) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range c.Validate() {
		for _, p := range prefixes {
			if d.Path == p || strings.HasPrefix(d.Path, p+"/") {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// StorageLayout returns the object-name layout of a Cloud Storage
// subscription, as validation compiled it, and the findings about its
// Cloud Storage settings, located. The layout is nil when the
// configuration cannot be decoded, does not write to Cloud Storage (a
// finding says so), or its names are invalid.
func (c *Config) StorageLayout() (*storage.Layout, []diag.Diagnostic) {
	if c.Sub == nil {
		return nil, c.Validate()
	}
	if c.Sub.CloudStorageConfig == nil {
		return nil, c.Locate([]diag.Diagnostic{{Severity: diag.Error, Code: "not-cloud-storage", Path: "/cloudStorageConfig",
			Message: "the subscription does not write to Cloud Storage, so it names no objects",
			Hint:    `add "cloudStorageConfig": {"bucket": "..."}`}})
	}
	ds := c.FindingsUnder("/cloudStorageConfig")
	if c.layout == nil {
		return nil, ds
	}
	return c.layout, ds
}

// Expand turns a rule-table path with "*" segments
// ("/messageTransforms/*/enabled") into the paths of the elements the
// effective settings have (none when the list is empty).
func (e *Effective) Expand(pattern string) []string {
	before, after, ok := strings.Cut(pattern, "/*")
	if !ok {
		return []string{pattern}
	}
	v, ok := e.Value(before)
	if !ok {
		return nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice {
		return nil
	}
	var out []string
	for i := range rv.Len() {
		out = append(out, e.Expand(before+"/"+strconv.Itoa(i)+after)...)
	}
	return out
}

// Batching is how a Cloud Storage subscription batches messages into files.
type Batching struct {
	Limits         storage.Limits
	Output         storage.Output
	WriteMetadata  bool // Avro files carry the message metadata
	UseTopicSchema bool // Avro files are written with the topic's schema
}

// Batching returns the effective batching of a Cloud Storage subscription
// (nil otherwise): every value comes from the effective settings, which
// hold the defaults.
func (e *Effective) Batching() *Batching {
	cs := e.Subscription.CloudStorageConfig
	if cs == nil {
		return nil
	}
	b := &Batching{Output: storage.Text}
	if cs.MaxDuration != nil {
		b.Limits.MaxDuration = cs.MaxDuration.Std()
	}
	if cs.MaxBytes != nil {
		b.Limits.MaxBytes = int64(*cs.MaxBytes)
	}
	if cs.MaxMessages != nil {
		b.Limits.MaxMessages = int64(*cs.MaxMessages)
	}
	if av := cs.AvroConfig; av != nil {
		b.Output = storage.Avro
		b.WriteMetadata = av.WriteMetadata != nil && *av.WriteMetadata
		b.UseTopicSchema = av.UseTopicSchema != nil && *av.UseTopicSchema
	}
	return b
}

// BigQueryOptionsInError reports whether validation found an error in the
// options that decide a BigQuery table's columns (both schema options at
// once, say): no table can then be compatible.
func (c *Config) BigQueryOptionsInError() bool {
	for _, d := range c.FindingsUnder("/bigqueryConfig/useTopicSchema", "/bigqueryConfig/useTableSchema",
		"/bigqueryConfig/writeMetadata", "/bigqueryConfig/dropUnknownFields") {
		if d.Severity == diag.Error {
			return true
		}
	}
	return false
}

// DurationOf writes a Go duration in the API's form.
func DurationOf(d time.Duration) Duration {
	return Duration{Seconds: int64(d / time.Second), Nanos: int32(d % time.Second)}
}

// UnmarshalJSON reads a duration as MarshalJSON writes it ("600s"), so
// that a response of the contract decodes back into its types (the CLI
// does, to print text from the same bytes --format json prints).
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := ParseDuration(s)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// UnmarshalJSON reads an Int64 as MarshalJSON writes it (a quoted
// decimal), or as a plain number.
func (v *Int64) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return err
	}
	*v = Int64(n)
	return nil
}
