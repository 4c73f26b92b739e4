package gcloudcmd

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/subscription"
)

// gcloudView is s as a gcloud command can carry it: what no flag sets is
// dropped, and what gcloud fills in itself (the text output format, Avro's
// writeMetadata) is filled in. The writer's notes name every field dropped.
func gcloudView(s subscription.Subscription) subscription.Subscription {
	s.State, s.Detached, s.TopicMessageRetentionDuration, s.AnalyticsHubSubscriptionInfo = nil, nil, nil, nil
	s.BigtableConfig, s.Tags = nil, nil
	if p := s.PushConfig; p != nil {
		c := *p
		c.Attributes, c.PubsubWrapper = nil, nil
		if c.PushEndpoint == nil || *c.PushEndpoint == "" {
			s.PushConfig = nil
		} else {
			if c.OidcToken != nil && c.OidcToken.ServiceAccountEmail == nil {
				c.OidcToken = nil
			}
			if c.NoWrapper != nil {
				f := c.NoWrapper.WriteMetadata != nil && *c.NoWrapper.WriteMetadata
				c.NoWrapper = &subscription.NoWrapper{WriteMetadata: &f}
			}
			s.PushConfig = &c
		}
	}
	if b := s.BigQueryConfig; b != nil {
		c := *b
		c.State = nil
		s.BigQueryConfig = &c
	}
	if g := s.CloudStorageConfig; g != nil {
		c := *g
		c.State = nil
		if c.AvroConfig != nil {
			a := *c.AvroConfig
			wm := a.WriteMetadata != nil && *a.WriteMetadata
			a.WriteMetadata = &wm
			if a.UseTopicSchema != nil && !*a.UseTopicSchema {
				a.UseTopicSchema = nil
			}
			c.AvroConfig, c.TextConfig = &a, nil
		} else {
			c.TextConfig = &subscription.TextConfig{}
		}
		s.CloudStorageConfig = &c
	}
	if e := s.ExpirationPolicy; e != nil && e.TTL != nil && (*e.TTL == subscription.Duration{}) {
		s.ExpirationPolicy = &subscription.ExpirationPolicy{}
	}
	if len(s.Labels) == 0 {
		s.Labels = nil
	}
	return s
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	canon, err := canonicalJSON(string(b))
	if err != nil {
		t.Fatal(err)
	}
	return canon
}

// readBack reads a written command and decodes what it means.
func readBack(t *testing.T, c Command) (*Result, *subscription.Subscription) {
	t.Helper()
	res := Read(Request{Text: c.Text, Files: c.Files})
	if diag.HasErrors(res.Diagnostics) {
		t.Fatalf("reading the written command:\n%s%s", c.Text, diagText(res))
	}
	cfg := subscription.DecodeObject([]byte(res.Doc.Root.JSON()))
	if cfg.Sub == nil {
		t.Fatalf("the read command is not a subscription: %s", res.Doc.Root.JSON())
	}
	return res, cfg.Sub
}

func checkRoundTrip(t *testing.T, s *subscription.Subscription) {
	t.Helper()
	cmd := WriteCreate(s)
	_, got := readBack(t, cmd)
	if want, have := jsonOf(t, gcloudView(*s)), jsonOf(t, *got); want != have {
		t.Errorf("read(write(x)) != x\ncommand:\n%s\nwant %s\ngot  %s", cmd.Text, want, have)
	}
}

// TestRoundTripExamples: read(WriteCreate(x)) == x for every example.
func TestRoundTripExamples(t *testing.T) {
	paths, _ := filepath.Glob("../subscription/testdata/examples/*")
	if len(paths) == 0 {
		t.Fatal("no examples")
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			raw, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			c := subscription.Decode(p, string(raw), "")
			if c.Sub == nil {
				t.Fatal("example does not decode")
			}
			checkRoundTrip(t, c.Sub)
		})
	}
}

// genSubscription makes a random subscription within the bounds gcloud
// accepts client-side (the API's bounds do not matter to a round trip).
func genSubscription(r *rand.Rand) *subscription.Subscription {
	pick := func() bool { return r.IntN(2) == 0 }
	str := func(p string) *string { v := p + strconv.Itoa(r.IntN(1000)); return &v }
	b := func() *bool { v := pick(); return &v }
	dur := func(lo, hi int64) *subscription.Duration { return subscription.Seconds(lo + r.Int64N(hi-lo+1)) }
	s := &subscription.Subscription{Name: ptrTo("projects/p" + strconv.Itoa(r.IntN(9)) + "/subscriptions/s" + strconv.Itoa(r.IntN(99)))}
	if pick() {
		s.Topic = ptrTo("projects/p1/topics/t")
	} else {
		s.Topic = ptrTo("projects/other/topics/t" + strconv.Itoa(r.IntN(9)))
	}
	if pick() {
		v := subscription.Int32(r.IntN(700))
		s.AckDeadlineSeconds = &v
	}
	if pick() {
		s.RetainAckedMessages = b()
	}
	if pick() {
		s.MessageRetentionDuration = dur(600, 31*day)
	}
	if pick() {
		s.Labels = map[string]string{"env": "prod", "k" + strconv.Itoa(r.IntN(9)): "v_" + strconv.Itoa(r.IntN(9))}
	}
	if pick() {
		s.EnableMessageOrdering = b()
	}
	if pick() {
		s.EnableExactlyOnceDelivery = b()
	}
	switch r.IntN(3) {
	case 0:
		s.ExpirationPolicy = &subscription.ExpirationPolicy{}
	case 1:
		s.ExpirationPolicy = &subscription.ExpirationPolicy{TTL: dur(day, 400*day)}
	}
	if pick() {
		f := []string{`attributes.region = "eu"`, `attributes:x AND NOT hasPrefix(attributes.c, "it's")`, "attributes.a != \"b c\""}[r.IntN(3)]
		s.Filter = &f
	}
	if pick() {
		v := subscription.Int32(5 + r.IntN(96))
		s.DeadLetterPolicy = &subscription.DeadLetterPolicy{DeadLetterTopic: ptrTo("projects/p/topics/dl"), MaxDeliveryAttempts: &v}
	}
	if pick() {
		s.RetryPolicy = &subscription.RetryPolicy{MinimumBackoff: dur(0, 600)}
		if pick() {
			s.RetryPolicy.MaximumBackoff = dur(0, 600)
		}
	}
	switch r.IntN(4) {
	case 0:
		p := &subscription.PushConfig{PushEndpoint: ptrTo("https://example.com/push?x=" + strconv.Itoa(r.IntN(9)))}
		if pick() {
			p.OidcToken = &subscription.OidcToken{ServiceAccountEmail: str("sa@p.iam.gserviceaccount.com#")}
			if pick() {
				p.OidcToken.Audience = str("aud ")
			}
		}
		if pick() {
			p.NoWrapper = &subscription.NoWrapper{WriteMetadata: b()}
		}
		s.PushConfig = p
	case 1:
		s.BigQueryConfig = &subscription.BigQueryConfig{Table: ptrTo("p.d.t"), WriteMetadata: b(), DropUnknownFields: b()}
		if pick() {
			s.BigQueryConfig.UseTopicSchema = b()
		} else {
			s.BigQueryConfig.UseTableSchema = b()
		}
	case 2:
		g := &subscription.CloudStorageConfig{Bucket: ptrTo("bucket-" + strconv.Itoa(r.IntN(9)))}
		if pick() {
			g.FilenamePrefix, g.FilenameSuffix = str("pre-"), str(".s")
		}
		if pick() {
			v := subscription.Int64(1000 + r.Int64N(10*gib-1000))
			g.MaxBytes = &v
		}
		if pick() {
			g.MaxDuration = dur(60, 600)
		}
		if pick() {
			v := subscription.Int64(1000 + r.Int64N(1e6))
			g.MaxMessages = &v
		}
		if pick() {
			g.AvroConfig = &subscription.AvroConfig{WriteMetadata: b(), UseTopicSchema: b()}
		}
		s.CloudStorageConfig = g
	}
	return s
}

func ptrTo(s string) *string { return &s }

// TestRoundTripGenerated: read(WriteCreate(x)) == x for generated
// configurations.
func TestRoundTripGenerated(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 528))
	for i := range 400 {
		s := genSubscription(r)
		t.Run(strconv.Itoa(i), func(t *testing.T) { checkRoundTrip(t, s) })
	}
}

// applyUpdate applies a read update to old, as the API would.
func applyUpdate(t *testing.T, old *subscription.Subscription, res *Result) *subscription.Subscription {
	t.Helper()
	var oldMap, patch map[string]any
	b, _ := json.Marshal(old)
	json.Unmarshal(b, &oldMap)
	json.Unmarshal([]byte(res.Doc.Root.JSON()), &patch)
	for _, f := range res.UpdateMask {
		top, sub, nested := strings.Cut(f, ".")
		if nested {
			if m, ok := oldMap[top].(map[string]any); ok {
				delete(m, sub)
			}
			continue
		}
		if v, ok := patch[top]; ok {
			oldMap[top] = v
		} else {
			delete(oldMap, top)
		}
	}
	b, _ = json.Marshal(oldMap)
	return subscription.DecodeObject(b).Sub
}

// TestRoundTripUpdate: an update written from old to new, read and
// applied to old, gives new (labels aside: gcloud edits them against the
// server's copy, which the command does not show).
func TestRoundTripUpdate(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 528))
	for i := range 300 {
		old, new := genSubscription(r), genSubscription(r)
		new.Name, new.Topic, new.Filter, new.EnableMessageOrdering = old.Name, old.Topic, old.Filter, old.EnableMessageOrdering
		new.Labels = old.Labels
		if new.PushConfig == nil && old.PushConfig != nil {
			new.PushConfig = old.PushConfig // update cannot turn push off
		}
		if new.ExpirationPolicy == nil {
			new.ExpirationPolicy = old.ExpirationPolicy // nor unset the expiration
		}
		if new.AckDeadlineSeconds == nil && old.AckDeadlineSeconds != nil {
			v := subscription.Int32(10)
			new.AckDeadlineSeconds = &v
		}
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			cmd := WriteUpdate(old, new)
			res := Read(Request{Text: cmd.Text, Files: cmd.Files})
			if jsonOf(t, gcloudView(*old)) == jsonOf(t, gcloudView(*new)) {
				return
			}
			if diag.HasErrors(res.Diagnostics) {
				t.Fatalf("reading the written command:\n%s%s", cmd.Text, diagText(res))
			}
			got := applyUpdate(t, old, res)
			if want, have := jsonOf(t, falseIsUnset(gcloudView(*new))), jsonOf(t, falseIsUnset(gcloudView(*got))); want != have {
				t.Errorf("update does not give new\ncommand:\n%s\nmask %v\nwant %s\ngot  %s", cmd.Text, res.UpdateMask, want, have)
			}
		})
	}
}

// falseIsUnset treats an update's explicit false like the field left out:
// both mean false to the API.
func falseIsUnset(s subscription.Subscription) subscription.Subscription {
	for _, b := range []**bool{&s.RetainAckedMessages, &s.EnableExactlyOnceDelivery} {
		if *b != nil && !**b {
			*b = nil
		}
	}
	return s
}
