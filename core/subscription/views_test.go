package subscription

import (
	"slices"
	"testing"
	"time"

	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/storage"
)

func TestExpand(t *testing.T) {
	cfg := Decode("c.json", `{"topic": "projects/p/topics/t", "messageTransforms": [{"disabled": true}, {}]}`, doc.JSON)
	e := cfg.Effective()
	tests := []struct {
		pattern string
		want    []string
	}{
		{"/ackDeadlineSeconds", []string{"/ackDeadlineSeconds"}},
		{"/messageTransforms/*/disabled", []string{"/messageTransforms/0/disabled", "/messageTransforms/1/disabled"}},
		{"/nothing/*/x", nil},
	}
	for _, tc := range tests {
		t.Run(tc.pattern, func(t *testing.T) {
			if got := e.Expand(tc.pattern); !slices.Equal(got, tc.want) {
				t.Errorf("Expand = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestBatchingReadsEffective checks that the batching of the names preview
// comes from the effective settings, defaults included, and restates none.
func TestBatchingReadsEffective(t *testing.T) {
	tests := []struct {
		name, text string
		check      func(t *testing.T, b *Batching, e *Effective)
	}{
		{"defaults", `{"topic": "projects/p/topics/t", "cloudStorageConfig": {"bucket": "b-1"}}`, func(t *testing.T, b *Batching, e *Effective) {
			if want := e.Subscription.CloudStorageConfig.MaxDuration.Std(); b.Limits.MaxDuration != want || want == 0 {
				t.Errorf("maxDuration %v, want the effective %v", b.Limits.MaxDuration, want)
			}
			if b.Output != storage.Text || b.Limits.MaxBytes != 0 || b.Limits.MaxMessages != 0 {
				t.Errorf("%+v", b)
			}
		}},
		{"set", `{"topic": "projects/p/topics/t", "cloudStorageConfig": {"bucket": "b-1", "maxDuration": "90s", "maxBytes": "5000",
			"maxMessages": "2000", "avroConfig": {"writeMetadata": true}}}`, func(t *testing.T, b *Batching, e *Effective) {
			want := Batching{Limits: storage.Limits{MaxDuration: 90 * time.Second, MaxBytes: 5000, MaxMessages: 2000}, Output: storage.Avro, WriteMetadata: true}
			if *b != want {
				t.Errorf("%+v, want %+v", *b, want)
			}
		}},
		{"not cloud storage", `{"topic": "projects/p/topics/t"}`, func(t *testing.T, b *Batching, e *Effective) {
			if b != nil {
				t.Errorf("%+v, want nil", b)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := Decode("c.json", tc.text, doc.JSON).Effective()
			tc.check(t, e.Batching(), e)
		})
	}
}

func TestStorageLayout(t *testing.T) {
	tests := []struct {
		name, text string
		layout     bool
		codes      []string
	}{
		{"valid", `{"topic": "projects/p/topics/t", "cloudStorageConfig": {"bucket": "b-1"}}`, true, []string{"bucket-prerequisites"}},
		{"bad suffix", `{"topic": "projects/p/topics/t", "cloudStorageConfig": {"bucket": "b-1", "filenameSuffix": "x/"}}`, false,
			[]string{"bucket-prerequisites", "filename-suffix-slash"}},
		{"pull", `{"topic": "projects/p/topics/t"}`, false, []string{"not-cloud-storage"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Decode("c.json", tc.text, doc.JSON)
			l, ds := cfg.StorageLayout()
			var codes []string
			for _, d := range ds {
				codes = append(codes, d.Code)
				if d.Input != "config" || d.Line == 0 {
					t.Errorf("%s: input %q, line %d: want a located config finding", d.Code, d.Input, d.Line)
				}
			}
			slices.Sort(codes)
			if (l != nil) != tc.layout || !slices.Equal(codes, tc.codes) {
				t.Errorf("layout %v, codes %q; want layout %v, codes %q", l != nil, codes, tc.layout, tc.codes)
			}
		})
	}
}
