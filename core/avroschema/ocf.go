package avroschema

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hamba/avro/v2"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/stop"
)

// Sample holds what the service knows that a sample message may not say.
type Sample struct {
	// Subscription is the subscription's full name, written as
	// subscription_name.
	Subscription string
	// Now is the publish time of messages that have none.
	Now time.Time
	// Origin, when set, is the sample message each of msgs comes from
	// (msgs are then what came through the subscription's transforms and
	// filter): diagnostics and made-up message ids name it.
	Origin []int
}

// index is the sample message msgs[i] comes from.
func (s Sample) index(i int) int {
	if i < len(s.Origin) {
		return s.Origin[i]
	}
	return i
}

// Block limits: a container file is written in blocks, each ending in the
// sync marker. These bounds keep a block small enough for any reader to
// hold, and the file's layout independent of the machine writing it.
const (
	blockRecords = 1000
	blockBytes   = 1 << 20
)

// Records returns the records the subscription writes for msgs, values
// WriteOCF encodes, and a diagnostic for each message that cannot be
// written (its path is "/<index>/data"); those are left out.
func (o *Output) Records(msgs []message.Message, s Sample) ([]any, []diag.Diagnostic) {
	out, _, ds, _ := o.records(context.Background(), msgs, s)
	return out, ds
}

// records is Records with the index of the message each record came from.
// Once ctx is done it stops with ctx's error.
func (o *Output) records(ctx context.Context, msgs []message.Message, s Sample) ([]any, []int, []diag.Diagnostic, error) {
	var ds []diag.Diagnostic
	out := make([]any, 0, len(msgs))
	from := make([]int, 0, len(msgs))
	for j := range msgs {
		if err := stop.Check(ctx, j); err != nil {
			return nil, nil, nil, err
		}
		i := s.index(j)
		from = append(from, i)
		m := &msgs[j]
		switch {
		case o.Shape == ShapePlain:
			out = append(out, plainRecord{m.Data})
		case o.Shape == ShapeMetadata:
			r := metadataRecord{Data: m.Data}
			r.SubscriptionName, r.MessageID, r.PublishTime, r.Attributes = s.metadata(m, i)
			out = append(out, r)
		default:
			v, err := DecodeData(o.topic.Schema, m.Data)
			if err == nil && o.Metadata {
				rec, ok := v.(map[string]any)
				if !ok {
					err = errNotRecord
				} else {
					name, id, t, attrs := s.metadata(m, i)
					rec["subscription_name"], rec["message_id"], rec["publish_time"] = name, id, t
					am := make(map[string]any, len(attrs))
					for k, v := range attrs {
						am[k] = v
					}
					rec["attributes"] = am
				}
			}
			if err != nil {
				ds = append(ds, diag.Diagnostic{Severity: diag.Error, Code: "avro-message-mismatch",
					Input: diag.InputMessages, MessageIndex: &i, Path: "/" + strconv.Itoa(i) + "/data",
					Message: "message " + strconv.Itoa(i) + " does not fit the topic schema: " + err.Error(),
					Hint:    "the topic would have refused it on publish; write the data in Avro's JSON encoding of the topic schema"})
				from = from[:len(from)-1]
				continue
			}
			out = append(out, v)
		}
	}
	return out, from, ds, nil
}

type constError string

func (e constError) Error() string { return string(e) }

const errNotRecord = constError("the data is not a record")

// metadata returns the metadata the service writes for message i: the
// subscription name, the message ID (one made from the position when the
// sample has none), the publish time in microseconds, and the attributes
// with the ordering key added as an entry.
func (s Sample) metadata(m *message.Message, i int) (string, string, int64, map[string]string) {
	id := m.MessageID
	if id == "" {
		id = strconv.Itoa(i + 1)
	}
	t, ok := m.Time()
	if !ok {
		t = s.Now
	}
	attrs := m.Attributes
	if m.OrderingKey != "" {
		attrs = maps.Clone(attrs)
		if attrs == nil {
			attrs = map[string]string{}
		}
		attrs[OrderingKeyAttribute] = m.OrderingKey
	}
	if attrs == nil {
		attrs = map[string]string{}
	}
	return s.Subscription, id, t.UnixMicro(), attrs
}

// EncodeOCF writes msgs as the Avro object container file the subscription
// would write: the schema and the "null" codec in the header, records in
// blocks. The sync marker is derived from the schema and the subscription
// rather than drawn at random, so the same input gives the same bytes.
// Messages that cannot be written are left out, each with a diagnostic.
func (o *Output) EncodeOCF(msgs []message.Message, s Sample) ([]byte, []diag.Diagnostic) {
	b, ds, _ := o.EncodeOCFContext(context.Background(), msgs, s)
	return b, ds
}

// EncodeOCFContext is EncodeOCF for a caller that may stop waiting: once
// ctx is done it returns ctx's error and no file.
func (o *Output) EncodeOCFContext(ctx context.Context, msgs []message.Message, s Sample) ([]byte, []diag.Diagnostic, error) {
	recs, from, ds, err := o.records(ctx, msgs, s)
	if err != nil {
		return nil, nil, err
	}
	b, err := o.writeOCF(ctx, recs, s.Subscription, func(i int, err error) {
		n := strconv.Itoa(from[i])
		ds = append(ds, diag.Diagnostic{Severity: diag.Error, Code: "avro-encode", Input: diag.InputMessages, MessageIndex: &from[i], Path: "/" + n + "/data",
			Message: "message " + n + " could not be encoded: " + strings.TrimPrefix(err.Error(), "avro: ")})
	})
	if err != nil {
		return nil, nil, err
	}
	return b, ds, nil
}

// WriteOCF encodes records (values for o.Schema) into a container file;
// salt varies the sync marker. A record that does not encode is skipped
// and reported to fail with its index.
func (o *Output) WriteOCF(records []any, salt string, fail func(i int, err error)) []byte {
	b, _ := o.writeOCF(context.Background(), records, salt, fail)
	return b
}

// writeOCF is WriteOCF that stops, with ctx's error, once ctx is done.
func (o *Output) writeOCF(ctx context.Context, records []any, salt string, fail func(i int, err error)) ([]byte, error) {
	sum := sha256.Sum256([]byte(o.JSON + "\x00" + salt))
	var sync [16]byte
	copy(sync[:], sum[:])

	var out bytes.Buffer
	out.WriteString("Obj\x01")
	writeLong(&out, 2)
	writeString(&out, "avro.codec")
	writeString(&out, "null")
	writeString(&out, "avro.schema")
	writeString(&out, o.JSON)
	writeLong(&out, 0)
	out.Write(sync[:])

	var block bytes.Buffer
	n := 0
	flush := func() {
		if n == 0 {
			return
		}
		writeLong(&out, int64(n))
		writeLong(&out, int64(block.Len()))
		out.Write(block.Bytes())
		out.Write(sync[:])
		block.Reset()
		n = 0
	}
	w := avro.NewWriter(&block, 512)
	enc := &encoder{}
	for i, r := range records {
		if err := stop.Check(ctx, i); err != nil {
			return nil, err
		}
		mark := block.Len()
		var err error
		if f, ok := r.(fastRecord); ok {
			f.encode(&block)
		} else if err = enc.encode(&block, o.Schema, r); errors.Is(err, errUnsupported) {
			// A value encode does not know: hamba/avro's own.
			block.Truncate(mark)
			w.WriteVal(o.Schema, r)
			_ = w.Flush()
			err = w.Error
		}
		if err != nil {
			// Drop what the failed record wrote and start a clean writer.
			block.Truncate(mark)
			if fail != nil {
				fail(i, err)
			}
			w = avro.NewWriter(&block, 512)
			continue
		}
		n++
		if n >= blockRecords || block.Len() >= blockBytes {
			flush()
		}
	}
	flush()
	return out.Bytes(), nil
}

// writeLong writes an Avro long: zig-zag, then base-128 varint.
func writeLong(b *bytes.Buffer, v int64) {
	var buf [binary.MaxVarintLen64]byte
	b.Write(buf[:binary.PutVarint(buf[:], v)])
}

func writeString(b *bytes.Buffer, s string) {
	writeLong(b, int64(len(s)))
	b.WriteString(s)
}

// The two schemas of the product documentation are encoded by hand: they
// never change, the attributes map is written in key order so the same
// messages always give the same file (hamba/avro writes a Go map in Go's
// random order), and a sample of 10,000 messages is encoded several times
// faster than through reflection. The tests read these records back with
// hamba/avro and with avsc.
type fastRecord interface{ encode(*bytes.Buffer) }

type plainRecord struct{ Data []byte }

func (r plainRecord) encode(b *bytes.Buffer) { writeBytes(b, r.Data) }

type metadataRecord struct {
	SubscriptionName, MessageID string
	PublishTime                 int64
	Attributes                  map[string]string
	Data                        []byte
}

func (r metadataRecord) encode(b *bytes.Buffer) {
	writeString(b, r.SubscriptionName)
	writeString(b, r.MessageID)
	writeLong(b, r.PublishTime)
	if len(r.Attributes) > 0 {
		writeLong(b, int64(len(r.Attributes)))
		for _, k := range slices.Sorted(maps.Keys(r.Attributes)) {
			writeString(b, k)
			writeString(b, r.Attributes[k])
		}
	}
	writeLong(b, 0)
	writeBytes(b, r.Data)
}

func writeBytes(b *bytes.Buffer, p []byte) {
	writeLong(b, int64(len(p)))
	b.Write(p)
}
