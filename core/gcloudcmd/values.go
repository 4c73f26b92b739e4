package gcloudcmd

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
)

// gcloud's value syntaxes, as gcloud 528 reads them.

// parseInt reads an integer the way Python's int() does for a flag value:
// surrounding spaces and a sign are allowed, a unit or fraction is not.
func parseInt(s string) (int64, bool) {
	t := strings.TrimSpace(s)
	t = strings.TrimPrefix(t, "+")
	if t == "" || t == "-" {
		return 0, false
	}
	n, err := strconv.ParseInt(t, 10, 64)
	return n, err == nil
}

// parseDuration reads a gcloud duration into seconds: a bare integer is in
// unit; otherwise an ISO 8601 duration with the "P" and "T" optional and
// any case (1d, 1d12h, 90m, PT36H, 2w, 1.5h, 500ms). Years and months
// are refused, as gcloud refuses them for these flags.
func parseDuration(s, unit string) (float64, string) {
	if _, ok := parseInt(s); ok && unit != "" {
		s = strings.TrimSpace(s) + unit
	}
	t := asciiUpper(s)
	sign := 1.0
	if strings.HasPrefix(t, "-") {
		sign, t = -1, t[1:]
	} else {
		t = strings.TrimPrefix(t, "+")
	}
	explicitP := strings.HasPrefix(t, "P")
	t = strings.TrimPrefix(t, "P")
	timePart := !explicitP // without P, M means minutes
	var total float64
	var num []byte
	sawUnit := false
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= '0' && c <= '9':
			num = append(num, c)
		case c == '.' || c == ',':
			num = append(num, '.')
		case c == 'T':
			timePart = true
		default:
			if len(num) == 0 {
				return 0, "a unit must follow a number"
			}
			n, err := strconv.ParseFloat(string(num), 64)
			if err != nil {
				return 0, "not a number"
			}
			num = num[:0]
			sawUnit = true
			if (c == 'M' || c == 'U' || c == 'N') && i+2 == len(t) && t[i+1] == 'S' {
				div := map[byte]float64{'M': 1e3, 'U': 1e6, 'N': 1e9}[c]
				total += n / div
				i++
				continue
			}
			switch c {
			case 'W':
				total += n * 7 * day
			case 'D':
				total += n * day
			case 'H':
				total += n * 3600
				timePart = true
			case 'M':
				if !timePart {
					return 0, "months are not a duration gcloud accepts here"
				}
				total += n * 60
			case 'S':
				total += n
				timePart = true
			case 'Y':
				return 0, "years are not a duration gcloud accepts here"
			default:
				return 0, "unknown unit " + strconv.Quote(string(s[len(s)-len(t)+i]))
			}
		}
	}
	if len(num) != 0 {
		return 0, "a number needs a unit (s, m, h or d)"
	}
	if !sawUnit && t != "" {
		return 0, "not a duration"
	}
	return sign * total, ""
}

// asciiUpper upper-cases ASCII letters only, byte for byte: strings.ToUpper
// turns an invalid byte into a 3-byte U+FFFD, and parseDuration needs its
// upper-cased text to keep the offsets of s.
func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// formatSeconds writes seconds as gcloud puts them in a request: an
// integer, or a fraction rounded to 4 places, followed by "s".
func formatSeconds(v float64) string {
	r := math.Round(v*1e4) / 1e4
	if r == math.Trunc(r) && math.Abs(r) < 1e15 {
		return strconv.FormatInt(int64(r), 10) + "s"
	}
	return strconv.FormatFloat(r, 'f', -1, 64) + "s"
}

// binaryScales are gcloud's size units: every prefix is a power of 1024,
// "KB" included.
var binaryScales = map[string]int64{
	"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40, "P": 1 << 50,
	"KI": 1 << 10, "MI": 1 << 20, "GI": 1 << 30, "TI": 1 << 40, "PI": 1 << 50,
}

// parseSize reads a gcloud binary size ("10MB", "64KiB", "1.5MB", a bare
// number in unit) into bytes. A fraction must come out as whole bytes.
func parseSize(s, unit string) (int64, string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, "a size starts with a number"
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	amount, suffix := s[:i], s[i:]
	for _, c := range suffix {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '/') {
			return 0, "a size is a number and a unit such as KB or MiB"
		}
	}
	if suffix == "" {
		suffix = unit
	}
	u := strings.ToUpper(suffix)
	u = strings.TrimSuffix(u, "B")
	scale, ok := binaryScales[u]
	if !ok {
		return 0, "unknown unit " + diag.Quote(suffix) + ": use B, KB, KiB, MB, MiB, GB or GiB"
	}
	n, ok := scaleAmount(amount, uint64(scale))
	if !ok {
		return 0, "the size is not a whole number of bytes"
	}
	return n, ""
}

// scaleAmount multiplies a decimal "digits[.digits]" by scale, and says
// whether the product is a whole number that fits an int64. It works in
// integers (128-bit products): math/big would do, but it adds 150 KB to
// every WebAssembly build for this one use.
func scaleAmount(amount string, scale uint64) (int64, bool) {
	whole, frac, _ := strings.Cut(amount, ".")
	frac = strings.TrimRight(frac, "0")
	w, err := strconv.ParseUint(whole, 10, 63)
	if err != nil {
		return 0, false
	}
	hi, total := bits.Mul64(w, scale)
	if hi != 0 || total > math.MaxInt64 {
		return 0, false
	}
	if frac == "" {
		return int64(total), true
	}
	if len(frac) > 19 { // 10^19 is the largest power of ten below 2^64
		return 0, false
	}
	f, err := strconv.ParseUint(frac, 10, 64)
	if err != nil {
		return 0, false
	}
	div := uint64(1)
	for range len(frac) {
		div *= 10
	}
	hi, lo := bits.Mul64(f, scale)
	if hi >= div {
		return 0, false
	}
	q, rem := bits.Div64(hi, lo, div)
	if rem != 0 || q > math.MaxInt64-total {
		return 0, false
	}
	return int64(total + q), true
}

// labelText reports whether s is made only of what gcloud lets a label
// key or value hold: lowercase and other letters without case, digits,
// "-" and "_", at most 63 characters; a key also starts with a letter.
func labelText(s string, key bool) bool {
	if utf8.RuneCountInString(s) > 63 || key && s == "" {
		return false
	}
	for i, c := range s {
		letter := unicode.IsLower(c) || unicode.Is(unicode.Lo, c)
		if key && i == 0 && !letter {
			return false
		}
		if !letter && !unicode.IsNumber(c) && c != '-' && c != '_' {
			return false
		}
	}
	return true
}
