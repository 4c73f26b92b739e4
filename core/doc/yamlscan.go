package doc

import (
	"math"
	"strings"
)

// yamlTooDeep estimates how deep a YAML text nests, in one pass and without
// recursion, and returns the offset where the estimate first passes limit,
// or -1. The YAML library recurses once per level, so this runs before it:
// a text nested thousands of levels deep is refused before any stack grows.
//
// The estimate is the number of open block collections (each deeper
// indentation, and each node after "- ") plus the open flow brackets, with
// quoted scalars, block scalars and comments skipped. It is within a factor
// of two of the real depth (see limits.YAMLScanDepthFactor), which is why
// the caller passes a limit above the real one.
func yamlTooDeep(s string, limit int) int {
	at, _, _ := scanYAML(s, limit, math.MaxInt, math.MaxInt)
	return at
}

// scanYAML is yamlTooDeep's pass, which also counts the entries of flow
// collections: every comma outside a quoted scalar separates two entries
// (a trailing comma, at most one per collection, separates none), so
// commas minus open brackets is a lower bound on the values the document
// holds. A one-line flow mapping of a megabyte holds a hundred thousand
// values, which yaml.v3 would build in full before the walker's own count
// (limits.YAMLNodes) could stop it: manyAt is the offset where the bound
// first passes entryLimit, or -1.
//
// It also counts the members of each mapping, so that a mapping wider than
// memberLimit (limits.ObjectMembers) is refused before yaml.v3 builds a node per key
// (the walker would refuse it only after): in block context a line whose
// first node is a key ("k: ...", a colon outside quotes) is a member of the
// collection at its indentation, and in a flow mapping each comma starts
// one. wideAt is the offset of the first key too many, or -1. Lines that
// start with "- ", "? " or ": " are not counted, so the count is a lower
// bound too. The scan stops at the first of the three.
func scanYAML(s string, limit, entryLimit, memberLimit int) (deepAt, manyAt, wideAt int) {
	var (
		entries int   // commas in flow collections, minus the brackets opened
		indents []int // columns of the open block collections
		keys    []int // members counted in each of them
		// flowKeys: per open flow bracket, the commas of a mapping so
		// far, or -1 for a sequence.
		flowKeys []int
		flow     int  // open flow brackets
		quote    byte // the quote of a scalar still open at a line end
		// nodeStart: the next character may start a node. Inside flow
		// brackets it carries over a line end, where a plain scalar may
		// go on ("[0\n\", [[[" is the scalar `0 "` and a nested list).
		nodeStart bool
	)
	i := 0
	if strings.HasPrefix(s, "\ufeff") {
		i = 3
	}
	for i < len(s) {
		lineStart := i
		keyOf := -1 // the collection (index in indents) this line's key is a member of
		keyAt := 0
		lineEnd := i
		for lineEnd < len(s) && yamlBreak(s, lineEnd) == 0 {
			lineEnd++
		}
		next := lineEnd + max(yamlBreak(s, lineEnd), 1)
		j := i
		if quote == 0 && flow == 0 {
			for j < lineEnd && s[j] == ' ' {
				j++
			}
			indent := j - lineStart
			if j == lineEnd || s[j] == '#' || s[j] == '%' {
				i = next
				continue
			}
			if indent == 0 && (hasMarker(s[j:lineEnd], "---") || hasMarker(s[j:lineEnd], "...")) {
				indents = indents[:0]
				j += 3
			}
			for len(indents) > 0 && indents[len(indents)-1] > indent {
				indents = indents[:len(indents)-1]
			}
			keys = keys[:len(indents)]
			if len(indents) == 0 || indents[len(indents)-1] < indent {
				indents = append(indents, indent)
				keys = append(keys, 0)
				if len(indents)+flow > limit {
					return j, -1, -1
				}
			}
			if j < lineEnd && s[j] != '-' && s[j] != '?' && s[j] != ':' {
				keyOf, keyAt = len(indents)-1, j
			}
			// "- - x" and "- a: 1" open a collection after each dash, and
			// so do an explicit key and value ("? - x", ": [x]"): what
			// follows them is a node as deep as after a dash.
			for j < lineEnd && (s[j] == '-' || s[j] == '?' || s[j] == ':') && (j+1 == lineEnd || s[j+1] == ' ') {
				j++
				for j < lineEnd && s[j] == ' ' {
					j++
				}
				if j < lineEnd && s[j] != '#' {
					indents = append(indents, j-lineStart)
					keys = append(keys, 0)
					if len(indents)+flow > limit {
						return j, -1, -1
					}
				}
			}
		}
		// The rest of the line: quotes, flow brackets and comments.
		i = next
		if flow == 0 {
			nodeStart = true
		}
	line:
		for ; j < lineEnd; j++ {
			c := s[j]
			if quote != 0 {
				switch {
				case c == '\\' && quote == '"':
					j++
				case c == quote && quote == '\'' && j+1 < lineEnd && s[j+1] == '\'':
					j++
				case c == quote:
					quote = 0
					nodeStart = false
				}
				continue
			}
			switch {
			case c == '#' && (j == lineStart || s[j-1] == ' ' || s[j-1] == '\t'):
				j = lineEnd
			case (c == '"' || c == '\'') && nodeStart:
				// Only at a node's start: elsewhere, in a plain scalar
				// ("{0\", {{{"), a quote is a character like any other.
				quote = c
			case c == '?' && nodeStart && flow > 0 && (j+1 == lineEnd || s[j+1] == ' '):
				// An explicit key in flow ("{? 'a': 1}") is followed by a node.
			case (c == '[' || c == '{') && (nodeStart || flow > 0):
				flow++
				entries--
				if c == '{' {
					flowKeys = append(flowKeys, 0)
				} else {
					flowKeys = append(flowKeys, -1)
				}
				nodeStart = true
				if len(indents)+flow > limit {
					return j, -1, -1
				}
			case (c == ']' || c == '}') && flow > 0:
				flow--
				flowKeys = flowKeys[:flow]
			case c == ',' && flow > 0:
				nodeStart = true
				if entries++; entries > entryLimit {
					return -1, j, -1
				}
				if top := len(flowKeys) - 1; flowKeys[top] >= 0 {
					// After the limit's comma the next member is one too
					// many, unless the comma was the trailing one.
					if flowKeys[top]++; flowKeys[top] >= memberLimit {
						k := j + 1
						for k < len(s) && isYAMLSpace(s[k]) {
							k++
						}
						if k < len(s) && strings.IndexByte("},#", s[k]) < 0 {
							return -1, -1, k
						}
					}
				}
			case c == ':' && (j+1 == lineEnd || s[j+1] == ' ' || (flow > 0 && j+1 < lineEnd && strings.IndexByte(",[]{}", s[j+1]) >= 0)):
				nodeStart = true
				if flow == 0 && keyOf >= 0 {
					if keys[keyOf]++; keys[keyOf] > memberLimit {
						return -1, -1, keyAt
					}
					keyOf = -1
				}
			case (c == '&' || c == '!') && nodeStart:
				for j+1 < lineEnd && s[j+1] != ' ' {
					j++
				}
			case c == ' ' || c == '\t':
			case c == '|' || c == '>':
				if nodeStart && flow == 0 {
					i = skipBlockScalar(s, next, lineStart)
					break line
				}
				nodeStart = false
			default:
				nodeStart = false
			}
		}
	}
	return -1, -1, -1
}

// skipBlockScalar returns the offset of the first line at or after i that
// is not part of a block scalar whose indicator is on the line starting at
// lineStart: its content is blank or indented deeper than that line.
func skipBlockScalar(s string, i, lineStart int) int {
	indent := 0
	for lineStart+indent < len(s) && s[lineStart+indent] == ' ' {
		indent++
	}
	for i < len(s) {
		j := i
		for j < len(s) && s[j] == ' ' {
			j++
		}
		if j < len(s) && yamlBreak(s, j) == 0 && j-i <= indent {
			return i
		}
		for j < len(s) && yamlBreak(s, j) == 0 {
			j++
		}
		i = j + max(yamlBreak(s, j), 1)
	}
	return len(s)
}

// yamlBreak returns the length of the line break at s[i], or 0. yaml.v3
// ends a line at "\n", "\r\n", a lone "\r", and at NEL, LS and PS
// (U+0085, U+2028, U+2029), so the scan must too: "\r- - - x" is a
// sequence three deep on a line of its own.
func yamlBreak(s string, i int) int {
	if i >= len(s) {
		return 0
	}
	switch c := s[i]; {
	case c == '\n':
		return 1
	case c == '\r':
		if i+1 < len(s) && s[i+1] == '\n' {
			return 2
		}
		return 1
	case c == 0xC2 && i+1 < len(s) && s[i+1] == 0x85:
		return 2
	case c == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9):
		return 3
	}
	return 0
}

// hasMarker reports whether line starts with a document marker.
func hasMarker(line, m string) bool {
	return len(line) >= 3 && line[:3] == m && (len(line) == 3 || line[3] == ' ' || line[3] == '\t')
}

// yamlKeyEnd is where the key starting at i ends: after its closing quote,
// or before the colon, comma or bracket that ends a plain one.
func yamlKeyEnd(s string, i int) int {
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		q, j := s[i], i+1
		for j < len(s) && s[j] != q && s[j] != '\n' {
			if s[j] == '\\' && q == '"' {
				j++
			}
			j++
		}
		return min(j+1, len(s))
	}
	j := i
	for j < len(s) && strings.IndexByte(",{}[]\n", s[j]) < 0 &&
		!(s[j] == ':' && (j+1 == len(s) || isYAMLSpace(s[j+1]) || strings.IndexByte(",[]{}", s[j+1]) >= 0)) {
		j++
	}
	for j > i && isYAMLSpace(s[j-1]) {
		j--
	}
	return max(j, min(i+1, len(s)))
}
