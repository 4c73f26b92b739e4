// Package message is the sample message every preview runs on: the REST
// PubsubMessage shape (data in base64, attributes, ordering key, message ID,
// publish time), decoded with positions, and checked against the limits the
// service enforces on publish.
package message

import (
	"context"
	"encoding/base64"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/stop"
)

// Message is a Pub/Sub message as the REST API writes it.
type Message struct {
	Data        []byte            `json:"data,omitempty"` // base64 in JSON, as in the API
	Attributes  map[string]string `json:"attributes,omitempty"`
	MessageID   string            `json:"messageId,omitempty"`
	PublishTime string            `json:"publishTime,omitempty"` // RFC 3339
	OrderingKey string            `json:"orderingKey,omitempty"`
}

// Limits the service enforces on a published message (docs/decisions.md D8).
const (
	MaxDataBytes      = 10_000_000
	MaxAttributes     = 100
	MaxKeyBytes       = 256
	MaxValueBytes     = 1024
	MaxOrderingKey    = 1024
	MaxSampleMessages = limits.SampleMessages // subplay's bound, not the service's
)

// Time returns the publish time, and false when it is absent or malformed.
func (m *Message) Time() (time.Time, bool) {
	if m.PublishTime == "" {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, m.PublishTime)
	return t, err == nil
}

// Decoded is a list of messages read from a text, with where each field was
// written, so checks can point into it.
type Decoded struct {
	Doc      *doc.Doc
	Messages []Message
	nodes    []*doc.Node // the object of each message
	paths    []string    // the JSON pointer of each message
}

// Path returns the JSON pointer of message i in the text ("" for a single
// message written as the whole document), the prefix of the paths of its
// diagnostics.
func (d *Decoded) Path(i int) string {
	if d == nil || i < 0 || i >= len(d.paths) {
		return ""
	}
	return d.paths[i]
}

// Node returns the object node of message i (nil when the messages did not
// come from a text).
func (d *Decoded) Node(i int) *doc.Node {
	if d == nil || i < 0 || i >= len(d.nodes) {
		return nil
	}
	return d.nodes[i]
}

// Parse reads messages from JSON or YAML text: an array of messages, a
// single message, or an object {"messages": [...]} as a pull response
// prints. Diagnostics are located in text; paths are "/<i>/<field>".
func Parse(name, text string, f doc.Format) (*Decoded, []diag.Diagnostic) {
	out, ds, _ := ParseContext(context.Background(), name, text, f)
	return out, ds
}

// ParseContext is Parse for a caller that may stop waiting: once ctx is
// done it returns ctx's error and nothing else.
func ParseContext(ctx context.Context, name, text string, f doc.Format) (*Decoded, []diag.Diagnostic, error) {
	d, ds := doc.Parse(name, text, f)
	out := &Decoded{Doc: d}
	if d.Root == nil {
		return out, ds, nil
	}
	root := d.Root
	prefix := ""
	if root.Kind == doc.Object {
		if list := root.Get("messages"); list != nil {
			root, prefix = list, "/messages"
		} else if rm := root.Get("receivedMessages"); rm != nil {
			root, prefix = rm, "/receivedMessages"
		}
	}
	var items []*doc.Node
	switch root.Kind {
	case doc.Array:
		items = root.Items
	case doc.Object:
		items = []*doc.Node{root}
		prefix = "-"
	default:
		ds = append(ds, diag.Diagnostic{Severity: diag.Error, Code: "messages-shape",
			Message: "expected a list of messages, found a " + root.Kind.String(),
			Hint:    `write [{"data": "aGVsbG8=", "attributes": {"k": "v"}}]`, Span: root.Span})
	}
	if len(items) > MaxSampleMessages {
		ds = append(ds, diag.Diagnostic{Severity: diag.Error, Code: "too-many-messages",
			Message: strconv.Itoa(len(items)) + " sample messages; at most " + strconv.Itoa(MaxSampleMessages) + " are read",
			Span:    root.Span})
		items = items[:MaxSampleMessages]
	}
	for i, n := range items {
		if err := stop.Check(ctx, i); err != nil {
			return nil, nil, err
		}
		path := prefix + "/" + strconv.Itoa(i)
		if prefix == "-" {
			path = ""
		}
		if n.Kind == doc.Object {
			if inner := n.Get("message"); inner != nil && n.Get("ackId") != nil {
				n = inner // a receivedMessage of a pull response
				path += "/message"
			}
		}
		m, mds := decodeOne(n, path)
		ds = append(ds, diag.OfMessage(i, mds)...)
		out.Messages = append(out.Messages, m)
		out.nodes = append(out.nodes, n)
		out.paths = append(out.paths, path)
	}
	d.Source.Locate(ds)
	return out, diag.Finish(diag.In(diag.InputMessages, ds)), nil
}

// Check runs the publish limits of Check on message i, located in the
// text the messages came from.
func (d *Decoded) Check(i int) []diag.Diagnostic {
	ds := diag.OfMessage(i, Check(&d.Messages[i], d.Node(i), d.Path(i)))
	if d.Doc != nil && d.Doc.Source != nil {
		d.Doc.Source.Locate(ds)
	}
	return ds
}

// Payload returns where the payload of message i is written: the path and
// span of its "data", "text" or "json" member, or of the message itself
// when it has none. Findings about a message's data (from the Avro and
// BigQuery previews) point there.
func (d *Decoded) Payload(i int) (string, diag.Span) {
	n := d.Node(i)
	if n == nil {
		return d.Path(i) + "/data", diag.Span{}
	}
	for _, key := range []string{"data", "text", "json"} {
		if v := n.Get(key); v != nil {
			return d.Path(i) + "/" + key, v.Span
		}
	}
	return d.Path(i), n.Span
}

func decodeOne(n *doc.Node, path string) (Message, []diag.Diagnostic) {
	var m Message
	var ds []diag.Diagnostic
	bad := func(node *doc.Node, p, code, msg, hint string) {
		ds = append(ds, diag.Diagnostic{Severity: diag.Error, Code: code, Path: p, Message: msg, Hint: hint, Span: node.Span})
	}
	if n.Kind != doc.Object {
		bad(n, path, "message-shape", "a message must be an object, found a "+n.Kind.String(), `write {"data": "...", "attributes": {...}}`)
		return m, ds
	}
	// str reads a string field; name is what a finding calls it: the
	// field's key, or an attribute with its key quoted (a key is the
	// user's text, of any length and case).
	str := func(v *doc.Node, p, name string) (string, bool) {
		if v.Kind != doc.String {
			bad(v, p, "message-field-type", name+" must be a string, found a "+v.Kind.String(), "")
			return "", false
		}
		return v.Value, true
	}
	for _, mem := range n.Members {
		p := path + "/" + mem.Key
		v := mem.Value
		switch mem.Key {
		case "data":
			s, ok := str(v, p, mem.Key)
			if !ok {
				continue
			}
			b, err := decodeBase64(s)
			if err != nil {
				bad(v, p, "message-data-base64", "data is not base64", "the REST API carries data as base64; use \"text\" for plain text, e.g. {\"text\": \"hello\"}")
				continue
			}
			m.Data = b
		case "text", "json":
			// A convenience of subplay's own: the payload written as
			// plain text, or as any JSON value, instead of base64.
			if mem.Key == "json" {
				m.Data = []byte(v.JSON())
			} else if s, ok := str(v, p, mem.Key); ok {
				m.Data = []byte(s)
			}
		case "attributes":
			if v.Kind == doc.Null {
				continue
			}
			if v.Kind != doc.Object {
				bad(v, p, "message-field-type", "attributes must be an object of strings, found a "+v.Kind.String(), "")
				continue
			}
			m.Attributes = make(map[string]string, len(v.Members))
			for _, a := range v.Members {
				if s, ok := str(a.Value, p+"/"+diag.PointerKey(a.Key), "attribute "+diag.Quote(a.Key)); ok {
					m.Attributes[a.Key] = s
				}
			}
		case "messageId", "message_id":
			m.MessageID, _ = str(v, p, mem.Key)
		case "orderingKey", "ordering_key":
			m.OrderingKey, _ = str(v, p, mem.Key)
		case "publishTime", "publish_time":
			if s, ok := str(v, p, mem.Key); ok {
				if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
					bad(v, p, "message-publish-time", "publishTime is not an RFC 3339 time", `write e.g. "2024-05-01T12:00:00Z"`)
					continue
				}
				m.PublishTime = s
			}
		default:
			ds = append(ds, diag.Diagnostic{Severity: diag.Warning, Code: "message-unknown-field", Path: p,
				Message: "unknown message field " + diag.Quote(mem.Key),
				Hint:    "a message has data (or text/json), attributes, orderingKey, messageId and publishTime", Span: mem.KeySpan})
		}
	}
	return m, ds
}

func decodeBase64(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if b, err := base64.StdEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	if b, err := base64.URLEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	// Proto's JSON mapping accepts either alphabet, padded or not.
	s = strings.TrimRight(s, "=")
	if b, err := base64.RawStdEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	return base64.RawURLEncoding.DecodeString(s)
}

// Check reports where message i breaks a limit the service enforces on
// publish (path is the message's JSON pointer). The spans point at the
// offending value when node is the message's object, else there are none.
func Check(m *Message, node *doc.Node, path string) []diag.Diagnostic {
	var ds []diag.Diagnostic
	add := func(at *doc.Node, p, code, msg, hint string) {
		d := diag.Diagnostic{Severity: diag.Error, Code: code, Path: p, Message: msg, Hint: hint}
		if at != nil {
			d.Span = at.Span
		}
		ds = append(ds, d)
	}
	attrs := node.Get("attributes")
	// Data or an attribute that could not be decoded still counts as
	// written: its own diagnostic says what is wrong with it.
	dataNode := node.Get("data")
	dataWritten := len(m.Data) > 0 || dataNode != nil && dataNode.Kind != doc.Null && !(dataNode.Kind == doc.String && dataNode.Value == "")
	if !dataWritten && len(m.Attributes) == 0 && (attrs == nil || len(attrs.Members) == 0) {
		add(node, path, "message-empty", "a message needs data or at least one attribute", "the service rejects a message with neither")
	}
	if len(m.Data) > MaxDataBytes {
		add(node.Get("data"), path+"/data", "message-data-too-large",
			"data is "+strconv.Itoa(len(m.Data))+" bytes; at most "+strconv.Itoa(MaxDataBytes)+" (10 MB) are allowed", "")
	}
	if len(m.Attributes) > MaxAttributes {
		add(attrs, path+"/attributes", "message-too-many-attributes",
			strconv.Itoa(len(m.Attributes))+" attributes; at most "+strconv.Itoa(MaxAttributes)+" are allowed", "")
	}
	if attrs != nil {
		for _, a := range attrs.Members {
			p := path + "/attributes/" + diag.PointerKey(a.Key)
			if len(a.Key) > MaxKeyBytes {
				ds = append(ds, diag.Diagnostic{Severity: diag.Error, Code: "message-attribute-key-too-long", Path: p,
					Message: "attribute key is " + strconv.Itoa(len(a.Key)) + " bytes; at most " + strconv.Itoa(MaxKeyBytes) + " are allowed",
					Span:    a.KeySpan})
			}
			if a.Key == "" {
				ds = append(ds, diag.Diagnostic{Severity: diag.Error, Code: "message-attribute-key-empty", Path: p,
					Message: "attribute keys cannot be empty", Span: a.KeySpan})
			}
			if a.Value.Kind == doc.String && len(a.Value.Value) > MaxValueBytes {
				add(a.Value, p, "message-attribute-value-too-long",
					"attribute value is "+strconv.Itoa(len(a.Value.Value))+" bytes; at most "+strconv.Itoa(MaxValueBytes)+" are allowed", "")
			}
			if !utf8.ValidString(a.Key) || (a.Value.Kind == doc.String && !utf8.ValidString(a.Value.Value)) {
				add(a.Value, p, "message-attribute-utf8", "attribute keys and values must be UTF-8", "")
			}
		}
	} else {
		// A message built in code rather than decoded: the same checks,
		// with paths but no spans, in a stable order.
		keys := make([]string, 0, len(m.Attributes))
		for k := range m.Attributes {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			v := m.Attributes[k]
			p := path + "/attributes/" + diag.PointerKey(k)
			if len(k) > MaxKeyBytes {
				add(nil, p, "message-attribute-key-too-long", "attribute key is "+strconv.Itoa(len(k))+" bytes; at most "+strconv.Itoa(MaxKeyBytes)+" are allowed", "")
			}
			if k == "" {
				add(nil, p, "message-attribute-key-empty", "attribute keys cannot be empty", "")
			}
			if len(v) > MaxValueBytes {
				add(nil, p, "message-attribute-value-too-long", "attribute value is "+strconv.Itoa(len(v))+" bytes; at most "+strconv.Itoa(MaxValueBytes)+" are allowed", "")
			}
			if !utf8.ValidString(k) || !utf8.ValidString(v) {
				add(nil, p, "message-attribute-utf8", "attribute keys and values must be UTF-8", "")
			}
		}
	}
	if len(m.OrderingKey) > MaxOrderingKey {
		at := node.Get("orderingKey")
		if at == nil {
			at = node.Get("ordering_key")
		}
		add(at, path+"/orderingKey", "message-ordering-key-too-long",
			"ordering key is "+strconv.Itoa(len(m.OrderingKey))+" bytes; at most "+strconv.Itoa(MaxOrderingKey)+" are allowed", "")
	}
	return ds
}
