package subscription

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// Duration is a google.protobuf.Duration: whole seconds and nanoseconds of
// the same sign.
type Duration struct {
	Seconds int64
	Nanos   int32
}

// maxDurationSeconds is the range protobuf allows (10,000 years).
const maxDurationSeconds = 315_576_000_000

// Seconds returns a Duration of whole seconds.
func Seconds(s int64) *Duration { return &Duration{Seconds: s} }

// Std converts d to a time.Duration, saturating at its range.
func (d Duration) Std() time.Duration {
	if d.Seconds > math.MaxInt64/int64(time.Second)-1 {
		return math.MaxInt64
	}
	if d.Seconds < math.MinInt64/int64(time.Second)+1 {
		return math.MinInt64
	}
	return time.Duration(d.Seconds)*time.Second + time.Duration(d.Nanos)
}

// Cmp compares two durations.
func (d Duration) Cmp(o Duration) int {
	switch {
	case d.Seconds < o.Seconds:
		return -1
	case d.Seconds > o.Seconds:
		return 1
	case d.Nanos < o.Nanos:
		return -1
	case d.Nanos > o.Nanos:
		return 1
	}
	return 0
}

// String writes d in the REST form the proto JSON mapping uses: "600s",
// "3.500s" (fractions in groups of three digits).
func (d Duration) String() string {
	neg := d.Seconds < 0 || d.Nanos < 0
	s, n := d.Seconds, int64(d.Nanos)
	if neg {
		s, n = -s, -n
	}
	out := strconv.FormatInt(s, 10)
	if n != 0 {
		frac := strconv.FormatInt(n+1e9, 10)[1:] // nine digits
		switch {
		case n%1e6 == 0:
			frac = frac[:3]
		case n%1e3 == 0:
			frac = frac[:6]
		}
		out += "." + frac
	}
	if neg {
		out = "-" + out
	}
	return out + "s"
}

// Human writes d for people: "7d", "10m", "1h30m", "3.5s".
func (d Duration) Human() string {
	if d.Nanos != 0 {
		return strings.TrimRight(strings.TrimSuffix(d.String(), "s"), "0") + "s"
	}
	if d.Seconds < 60 {
		return d.String()
	}
	s := d.Seconds
	var b strings.Builder
	for _, u := range []struct {
		n    int64
		name string
	}{{86400, "d"}, {3600, "h"}, {60, "m"}, {1, "s"}} {
		if s >= u.n {
			b.WriteString(strconv.FormatInt(s/u.n, 10) + u.name)
			s %= u.n
		}
	}
	return b.String()
}

// Long writes d in words for help texts: "7 days", "10 minutes", "1 second".
func (d Duration) Long() string {
	if d.Nanos != 0 || d.Seconds < 0 {
		return d.Human()
	}
	for _, u := range []struct {
		n    int64
		name string
	}{{86400, "day"}, {3600, "hour"}, {60, "minute"}} {
		if d.Seconds >= u.n && d.Seconds%u.n == 0 {
			return plural(d.Seconds/u.n, u.name)
		}
	}
	return plural(d.Seconds, "second")
}

func plural(n int64, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.FormatInt(n, 10) + " " + unit + "s"
}

// MarshalJSON writes the REST form.
func (d Duration) MarshalJSON() ([]byte, error) { return []byte(`"` + d.String() + `"`), nil }

// Errors of ParseDuration; callers turn them into diagnostics.
var (
	errDurationSuffix = errors.New(`a duration must end in "s"`)
	errDurationSyntax = errors.New("not a duration")
	errDurationRange  = errors.New("duration out of range")
)

// ParseDuration reads the REST form: an optional "-", decimal seconds with
// at most nine fractional digits, and "s". Nothing else: the API rejects
// "7d", "10m" and "PT5M", and the proto JSON mapping rejects leading zeros
// ("01s").
func ParseDuration(s string) (Duration, error) {
	body, ok := strings.CutSuffix(s, "s")
	if !ok {
		return Duration{}, errDurationSuffix
	}
	neg := strings.HasPrefix(body, "-")
	body = strings.TrimPrefix(body, "-")
	whole, frac, hasFrac := strings.Cut(body, ".")
	if whole == "" || !allDigits(whole) || (len(whole) > 1 && whole[0] == '0') || (hasFrac && (frac == "" || len(frac) > 9 || !allDigits(frac))) {
		return Duration{}, errDurationSyntax
	}
	sec, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || sec > maxDurationSeconds {
		return Duration{}, errDurationRange
	}
	var nanos int64
	if hasFrac {
		nanos, _ = strconv.ParseInt((frac + "000000000")[:9], 10, 64)
	}
	if neg {
		sec, nanos = -sec, -nanos
	}
	return Duration{Seconds: sec, Nanos: int32(nanos)}, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// durationHint suggests the REST form for a duration written another way:
// "7d" -> "604800s", 604800 -> "604800s", "10m" -> "600s", "PT5M" -> "300s".
func durationHint(s string) string {
	t := strings.TrimSpace(strings.ToLower(s))
	if allDigits(t) {
		return `write "` + t + `s": durations are strings of seconds ending in "s"`
	}
	if n, err := strconv.ParseFloat(t, 64); err == nil && n >= 0 {
		return `write "` + strconv.FormatFloat(n, 'f', -1, 64) + `s": durations are strings of seconds ending in "s"`
	}
	iso := strings.HasPrefix(t, "pt") || strings.HasPrefix(t, "p")
	t = strings.TrimPrefix(strings.TrimPrefix(t, "p"), "t")
	t = strings.ReplaceAll(t, "t", "")
	var total float64
	units := map[byte]float64{'w': 604800, 'd': 86400, 'h': 3600, 'm': 60, 's': 1}
	num := ""
	ok := t != ""
	for i := 0; i < len(t) && ok; i++ {
		c := t[i]
		switch {
		case c >= '0' && c <= '9' || c == '.':
			num += string(c)
		case units[c] != 0 && num != "":
			if c == 'm' && i+1 < len(t) && t[i+1] == 's' { // "ms"
				n, _ := strconv.ParseFloat(num, 64)
				total += n / 1000
				i++
			} else {
				n, err := strconv.ParseFloat(num, 64)
				ok = err == nil
				total += n * units[c]
			}
			num = ""
		default:
			ok = false
		}
	}
	if ok && num == "" {
		_ = iso
		return `write "` + strconv.FormatFloat(total, 'f', -1, 64) + `s": the API takes durations as seconds ending in "s"`
	}
	return `write the duration as seconds ending in "s", e.g. "600s" or "3.5s"`
}

// Int32 is an int32 field; JSON input may give it as a number or a string.
type Int32 int32

// Int64 is an int64 field. The proto JSON mapping writes it as a string;
// input may give a number or a string.
type Int64 int64

// MarshalJSON writes the proto JSON form: a quoted decimal.
func (v Int64) MarshalJSON() ([]byte, error) {
	return []byte(`"` + strconv.FormatInt(int64(v), 10) + `"`), nil
}

func ptr[T any](v T) *T { return &v }
