package playground

import (
	"context"
	"encoding/base64"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/pipeline"
	"github.com/subplay/subplay/core/stop"
	"github.com/subplay/subplay/core/storage"
	"github.com/subplay/subplay/core/subscription"
)

// NamesRequest previews what a Cloud Storage subscription writes.
//
// Without messages or a stream it returns Count names, for files created
// at Time, Time + maxDuration, Time + 2*maxDuration, ...: an assumption
// (the earliest each file can roll over by duration alone), which the
// response states in Spacing. With sample messages or a
// synthetic stream it simulates the batching, and the names are those of
// the files written.
type NamesRequest struct {
	ConfigInput
	// Time is when the first file is created, RFC 3339; the current time
	// when empty. Sample messages without a publishTime arrive at it.
	Time string `json:"time,omitempty"`
	// UUID is the uuid of the first file; the others derive from it (see
	// storage.UUIDs). Random when empty, as the service does.
	UUID string `json:"uuid,omitempty"`
	// Count is how many names to preview without messages (default 1).
	Count int `json:"count,omitempty"`
	MessagesInput
	// Stream is a synthetic message stream, instead of messages.
	Stream *StreamInput `json:"stream,omitempty"`
}

// StreamInput is a synthetic stream: Rate messages per second, evenly
// spaced from Time, of Size bytes each, for Duration ("600s").
type StreamInput struct {
	Rate     float64 `json:"rate"`
	Size     int64   `json:"size"`
	Duration string  `json:"duration"`
}

// NamesResponse lists names, folders and simulated files.
type NamesResponse struct {
	// Valid says whether the Cloud Storage settings have no errors.
	Valid bool     `json:"valid"`
	Names []string `json:"names"`
	// Template is the layout with its variable parts in braces, and Glob a
	// wildcard pattern matching every name (for downstream jobs).
	Template string           `json:"template,omitempty"`
	Glob     string           `json:"glob,omitempty"`
	Folders  []storage.Folder `json:"folders"`
	// Limits are the effective batching settings the simulation used.
	Limits *NamesLimits `json:"limits,omitempty"`
	// Files and Summary come from a simulation (messages or a stream).
	// Files holds the first MaxPreviewFiles files; Summary counts all.
	Files    []storage.File   `json:"files"`
	Summary  *storage.Summary `json:"summary,omitempty"`
	Contents *FileContents    `json:"contents,omitempty"`
	// Spacing, in a preview of names alone (no messages, no stream, more
	// than one name), says that the names' times are an assumption: one
	// maxDuration apart, as if every file rolled over by duration the
	// moment it could.
	Spacing string `json:"spacing,omitempty"`
	// Pipeline, present when the configuration has enabled JavaScript UDFs
	// or a filter and the request sample messages, says what they did: the
	// files hold only the messages that came through, as the transforms
	// left them, and Pipeline.Written names the sample message at each
	// position of the batched stream.
	Pipeline *Pipeline `json:"pipeline,omitempty"`
	// Diagnostics are the configuration's Cloud Storage findings (all of
	// its findings when it cannot be decoded).
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
	// MessageDiagnostics are about the sample messages, located in their
	// text, with paths into it ("/0/data").
	MessageDiagnostics []diag.Diagnostic `json:"messageDiagnostics,omitempty"`
}

// NamesLimits are the effective settings of a simulation.
type NamesLimits struct {
	MaxDuration string         `json:"maxDuration"`
	MaxBytes    int64          `json:"maxBytes,omitempty"`
	MaxMessages int64          `json:"maxMessages,omitempty"`
	Output      storage.Output `json:"output"`
}

// FileContents shows what the files of sample messages hold: the text of
// text files, or a summary of Avro ones.
type FileContents struct {
	Format storage.Output        `json:"format"`
	Text   []TextFile            `json:"text,omitempty"`
	Avro   []storage.AvroSummary `json:"avro,omitempty"`
	// Truncated says some files were left out to bound the response.
	Truncated bool `json:"truncated,omitempty"`
}

// TextFile is the content of one text file: Text when it is UTF-8,
// otherwise Base64.
type TextFile struct {
	Index  int    `json:"index"`
	Text   string `json:"text,omitempty"`
	Base64 string `json:"base64,omitempty"`
	Bytes  int    `json:"bytes"`
}

// Bounds of one names request.
const (
	MaxPreviewNames   = limits.PreviewNames
	MaxPreviewFiles   = limits.PreviewFiles
	MaxStreamMessages = limits.StreamMessages
	maxContentBytes   = limits.FileContentBytes
	maxUUIDBytes      = limits.UUIDBytes
)

// ObjectNames previews object names and simulates batching.
func ObjectNames(req *NamesRequest) (*NamesResponse, error) {
	return ObjectNamesContext(context.Background(), req)
}

// ObjectNamesContext is ObjectNames that stops, with ctx's error, once ctx
// is done.
func ObjectNamesContext(ctx context.Context, req *NamesRequest) (*NamesResponse, error) {
	in, err := readNamesInput(req)
	if err != nil {
		return nil, err
	}
	cfg, err := req.ConfigInput.Load()
	if err != nil {
		return nil, err
	}
	decoded, msgDs, err := req.MessagesInput.LoadContext(ctx)
	if err != nil {
		return nil, err
	}
	msgDs, err = checkMessages(ctx, decoded, msgDs)
	if err != nil {
		return nil, err
	}
	resp := &NamesResponse{Names: []string{}, Folders: []storage.Folder{}, Files: []storage.File{},
		MessageDiagnostics: msgDs}
	layout, ds := cfg.StorageLayout()
	resp.Diagnostics, resp.Valid = ds, layout != nil && !diag.HasErrors(ds)
	if layout == nil {
		return resp, nil
	}
	resp.Template, resp.Glob = layout.Template(), layout.Glob()
	b := cfg.Effective().Batching()
	lim := b.Limits
	resp.Limits = &NamesLimits{MaxDuration: subscription.DurationOf(lim.MaxDuration).String(),
		MaxBytes: lim.MaxBytes, MaxMessages: lim.MaxMessages, Output: b.Output}

	uuids := storage.NewUUIDs(req.UUID)
	var res *storage.Result
	var written []message.Message
	if decoded != nil {
		p, through, _, err := downstream(ctx, cfg, decoded, msgDs, pipeline.UDFClock(req.Time, in.start))
		if err != nil {
			return nil, err
		}
		resp.Pipeline, written = p, decoded.Messages
		if p != nil {
			written = through
		}
	}
	switch {
	case decoded != nil:
		bt := storage.NewBatcher(lim, b.Output, MaxPreviewFiles)
		at := in.start
		for i := range written {
			if err := stop.Check(ctx, i); err != nil {
				return nil, err
			}
			if t, ok := written[i].Time(); ok {
				at = t
			}
			bt.Add(at, int64(len(written[i].Data)))
		}
		r := bt.Result()
		res = &r
	case in.stream != nil:
		r, err := in.stream.SimulateContext(ctx, in.start, lim, b.Output, MaxPreviewFiles)
		if err != nil {
			return nil, err
		}
		res = &r
	default:
		// One name per file, each O(the layout's length): linear in count,
		// which readNamesInput bounds by MaxPreviewNames.
		for i := 0; i < in.count; i++ {
			resp.Names = append(resp.Names, layout.Name(in.start.Add(time.Duration(i)*lim.MaxDuration), uuids.At(i)))
		}
		if in.count > 1 {
			resp.Spacing = spacingNote(resp.Limits.MaxDuration)
		}
	}
	first := in.start
	if res != nil {
		layout.NameFiles(res.Files, uuids)
		resp.Files, resp.Summary = append(resp.Files, res.Files...), &res.Summary
		for _, f := range res.Files {
			resp.Names = append(resp.Names, f.Name)
		}
		if len(res.Files) > 0 {
			first = res.Files[0].FirstMessage
		}
		if decoded != nil {
			resp.Contents = contentsOf(res.Files, written, b)
		}
	}
	resp.Folders = append(resp.Folders, layout.Folders(first, uuids.At(0))...)
	return resp, nil
}

// spacingNote says how names alone are spaced, and that it is assumed:
// without messages nothing says when a file really closes or when the
// next one starts.
func spacingNote(maxDuration string) string {
	return "the names are one maxDuration (" + maxDuration + ") apart, an assumption: the earliest each file can roll over by duration; " +
		"a file closes sooner when it reaches maxBytes or maxMessages, and the next starts only when a message arrives, " +
		"so give sample messages or a stream to see real times"
}

type namesInput struct {
	start  time.Time
	count  int
	stream *storage.Stream
}

// readNamesInput checks the request's own fields: they are not part of the
// configuration, so a mistake in them is a bad request.
func readNamesInput(req *NamesRequest) (namesInput, error) {
	bad := func(msg string) (namesInput, error) {
		return namesInput{}, &Error{Code: "bad-request", Message: msg}
	}
	in := namesInput{start: time.Now().UTC().Truncate(time.Second), count: req.Count}
	if req.Time != "" {
		t, err := time.Parse(time.RFC3339Nano, req.Time)
		if err != nil {
			return bad(`"time" must be an RFC 3339 time such as "2023-09-25T04:10:00Z", not ` + quote(req.Time))
		}
		in.start = t
	}
	if len(req.UUID) > maxUUIDBytes || strings.ContainsFunc(req.UUID, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '/' }) || !utf8.ValidString(req.UUID) {
		return bad(`"uuid" must be at most 64 bytes of UTF-8 without "/" or control characters`)
	}
	switch {
	case in.count == 0:
		in.count = 1
	case in.count < 0 || in.count > MaxPreviewNames:
		return bad(`"count" must be between 1 and ` + strconv.Itoa(MaxPreviewNames))
	}
	hasMessages := req.MessagesInput.Has()
	if req.Stream == nil {
		return in, nil
	}
	if hasMessages {
		return bad(`give either sample messages or a "stream", not both`)
	}
	s := req.Stream
	if s.Rate <= 0 || math.IsNaN(s.Rate) || math.IsInf(s.Rate, 0) {
		return bad(`"stream.rate" must be a positive number of messages per second`)
	}
	if s.Size < 0 || s.Size > message.MaxDataBytes {
		return bad(`"stream.size" must be between 0 and ` + strconv.Itoa(message.MaxDataBytes) + " bytes, the largest message the service accepts")
	}
	d, err := subscription.ParseDuration(s.Duration)
	if err != nil || d.Seconds < 0 || d.Nanos < 0 || d.Cmp(subscription.Duration{}) == 0 {
		return bad(`"stream.duration" must be a positive duration in seconds such as "600s", not ` + quote(s.Duration))
	}
	st := storage.Stream{Rate: s.Rate, Size: s.Size, Duration: d.Std()}
	if n := st.Count(); n > MaxStreamMessages {
		return bad("the stream holds " + strconv.FormatInt(n, 10) + " messages; at most " + strconv.Itoa(MaxStreamMessages) + " are simulated")
	}
	in.stream = &st
	return in, nil
}

// checkMessages gathers the problems of the sample messages, including
// the limits the service enforces on publish. Once ctx is done it stops
// with ctx's error.
func checkMessages(ctx context.Context, d *message.Decoded, ds []diag.Diagnostic) ([]diag.Diagnostic, error) {
	if d == nil {
		return ds, nil
	}
	for i := range d.Messages {
		if err := stop.Check(ctx, i); err != nil {
			return nil, err
		}
		ds = append(ds, d.Check(i)...)
	}
	return diag.Finish(ds), nil
}

// contentsOf shows the files of sample messages, within maxContentBytes.
func contentsOf(files []storage.File, msgs []message.Message, b *subscription.Batching) *FileContents {
	c := &FileContents{Format: b.Output}
	total := 0
	for _, f := range files {
		if b.Output == storage.Avro {
			c.Avro = append(c.Avro, storage.SummarizeAvro(f, b.WriteMetadata, b.UseTopicSchema))
			continue
		}
		payloads := make([][]byte, 0, f.Messages)
		for i := f.FirstIndex; i < f.FirstIndex+f.Messages && i < int64(len(msgs)); i++ {
			payloads = append(payloads, msgs[i].Data)
		}
		text := storage.AppendText(nil, payloads)
		if total += len(text); total > maxContentBytes {
			c.Truncated = true
			break
		}
		tf := TextFile{Index: f.Index, Bytes: len(text)}
		if utf8.Valid(text) {
			tf.Text = string(text)
		} else {
			tf.Base64 = base64.StdEncoding.EncodeToString(text)
		}
		c.Text = append(c.Text, tf)
	}
	return c
}

func init() {
	registerContext("names", "preview the object names of a Cloud Storage subscription, its folders, and how messages are batched into files", ObjectNamesContext)
}
