package bigquery

// readableNumber reports whether s is a decimal number BigQuery reads as
// NUMERIC text: what `^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$` matches,
// written out so that the page's avro module links no regexp (about
// 0.45 MB of it; wasm/browser/patch/yaml_floats.go.txt does the same for
// go-yaml).
func readableNumber(s string) bool {
	i := sign(s, 0)
	var n int
	if i < len(s) && s[i] == '.' {
		if i, n = digits(s, i+1); n == 0 {
			return false
		}
	} else {
		if i, n = digits(s, i); n == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i, _ = digits(s, i+1)
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		if i, n = digits(s, sign(s, i+1)); n == 0 {
			return false
		}
	}
	return i == len(s)
}

// sign returns i moved past a '+' or '-' at s[i], if there is one.
func sign(s string, i int) int {
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		return i + 1
	}
	return i
}

// digits returns i moved past the ASCII digits starting at s[i], and how
// many there were.
func digits(s string, i int) (int, int) {
	start := i
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i, i - start
}
