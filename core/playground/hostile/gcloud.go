package hostile

import (
	"strconv"
	"strings"
)

// The gcloud command reader's classes: text past its bounds (64 KiB, 400
// words), quoting and continuations the lexer walks byte by byte, lists
// and maps a flag's value splits into, unknown flags each ranked against
// every known one for a hint, and values parsed as numbers, durations and
// filters.

const gcloudHead = "gcloud pubsub subscriptions create orders --project=shop-prod --topic=orders "

// fill repeats unit after head until the text is just under 64 KiB, the
// reader's bound, so each case costs the most a text read in full may.
func fill(head, unit, tail string) string {
	n := (64<<10 - len(head) - len(tail) - 1) / len(unit)
	return head + strings.Repeat(unit, n) + tail
}

func init() {
	gc := func(name string, text func() string) Case {
		return Case{Name: name, Op: "validate", Body: func() []byte { return textRequest(text(), "gcloud") }}
	}
	add(
		gc("gcloud-size/over-limit", func() string { return gcloudHead + "--labels=a=" + strings.Repeat("x", 900_000) }),
		gc("gcloud-width/words-over-limit", func() string { return fill(gcloudHead, "a ", "") }),
		gc("gcloud-width/flags-over-limit", func() string { return fill(gcloudHead, "--enable-message-ordering ", "") }),
		gc("gcloud-width/labels-in-one-flag", func() string {
			var b strings.Builder
			b.WriteString(gcloudHead + "--labels=")
			for i := 0; b.Len() < 64<<10-16; i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString("k" + strconv.Itoa(i) + "=v")
			}
			return b.String()
		}),
		gc("gcloud-width/duplicate-labels", func() string { return fill(gcloudHead+"--labels=", "k=v,", "k=v") }),
		gc("gcloud-width/labels-flags-repeated", func() string {
			var b strings.Builder
			b.WriteString(gcloudHead)
			for i := 0; i < 390; i++ {
				b.WriteString("--labels=k" + strconv.Itoa(i) + "=" + strings.Repeat("v", 100) + " ")
			}
			return b.String()
		}),
		gc("gcloud-width/update-and-remove-labels", func() string {
			var b strings.Builder
			b.WriteString("gcloud pubsub subscriptions update orders --project=shop-prod --update-labels=")
			for i := 0; i < 3_000; i++ {
				b.WriteString("k" + strconv.Itoa(i) + "=v,")
			}
			b.WriteString("z=v --remove-labels=")
			for i := 0; i < 3_000; i++ {
				b.WriteString("k" + strconv.Itoa(i) + ",")
			}
			return b.String() + "z"
		}),
		gc("gcloud-flags/unknown-64-bytes-each", func() string {
			// Each unknown flag is ranked against every known one: names of
			// 64 bytes, the longest the hint's edit distance reads.
			return fill(gcloudHead, "--"+strings.Repeat("ackdeadline", 6)[:64]+" ", "")
		}),
		gc("gcloud-flags/unknown-long-name", func() string { return fill(gcloudHead+"--", "x", "=1") }),
		gc("gcloud-quote/unclosed-single", func() string { return fill(gcloudHead+"--message-filter='", "a", "") }),
		gc("gcloud-quote/unclosed-double-escapes", func() string { return fill(gcloudHead+`--message-filter="`, `\"`, "") }),
		gc("gcloud-quote/alternating", func() string { return fill(gcloudHead+"--labels=a=", `'b'"c"\d`, "") }),
		gc("gcloud-quote/ansi-c", func() string { return fill(gcloudHead+"--labels=a=$'", `\x41\u00e9\n`, "'") }),
		gc("gcloud-lines/continuations", func() string { return fill(gcloudHead, "\\\n", "--ack-deadline=20") }),
		gc("gcloud-lines/powershell-continuations", func() string { return fill(gcloudHead, "`\r\n", "--ack-deadline=20") }),
		gc("gcloud-lines/many-commands", func() string { return fill("", "gcloud pubsub subscriptions create s --topic=t; ", "") }),
		gc("gcloud-lines/comments", func() string { return fill(gcloudHead+"\\\n", "# "+strings.Repeat("c", 60)+"\n", "") }),
		gc("gcloud-expansions/variables", func() string { return fill(gcloudHead+"--labels=a=", "${V}$W$(x)`y`", "") }),
		gc("gcloud-expansions/nested-substitutions", func() string {
			n := (64<<10 - len(gcloudHead) - 40) / 3
			return gcloudHead + "--labels=a=" + strings.Repeat("$(", n) + "x" + strings.Repeat(")", n)
		}),
		gc("gcloud-values/giant-numbers", func() string {
			return gcloudHead + "--ack-deadline=" + strings.Repeat("9", 20_000) + " --max-delivery-attempts=" + strings.Repeat("9", 20_000) +
				" --message-retention-duration=" + strings.Repeat("9", 20_000) + "d"
		}),
		gc("gcloud-values/duration-units", func() string { return fill(gcloudHead+"--message-retention-duration=", "1d1h1m1s", "") }),
		gc("gcloud-values/sizes", func() string {
			return gcloudHead + "--cloud-storage-bucket=b --cloud-storage-max-bytes=0." + strings.Repeat("0", 30_000) + "1KB" +
				" --cloud-storage-max-duration=" + strings.Repeat("1", 30_000) + "s"
		}),
		gc("gcloud-filter/deep-parentheses", func() string {
			n := (64<<10 - len(gcloudHead) - 60) / 2
			return gcloudHead + "--message-filter='" + strings.Repeat("(", n) + `attributes.a = "b"` + strings.Repeat(")", n) + "'"
		}),
		gc("gcloud-filter/long-and-chain", func() string {
			return fill(gcloudHead+`--message-filter='attributes.a = "b"`, ` AND attributes.a = "b"`, "'")
		}),
		gc("gcloud-files/transforms-file-named", func() string {
			return fill(gcloudHead, "--message-transforms-file="+strings.Repeat("f", 100)+".json ", "")
		}),
	)
}
