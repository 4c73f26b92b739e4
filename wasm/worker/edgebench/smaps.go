package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// memSplit is a process's resident memory by kind of mapping, from
// /proc/PID/smaps (Linux): what lets edgebench cost tell a workerd
// process's compiled code from the Go instances' WebAssembly memories.
type memSplit struct {
	// CodeKiB: anonymous executable mappings, V8's compiled code
	// (JavaScript and WebAssembly).
	CodeKiB int `json:"codeKiB"`
	// WasmKiB: the WebAssembly memories, every one still mapped (a retired
	// instance's too, until V8 frees it). V8 reserves 4 GiB for each
	// memory and makes the part in use read-write, so a memory is an
	// anonymous read-write mapping followed at once by the inaccessible
	// rest of its reservation, the two spanning exactly 4 GiB. (Found by
	// its size alone before, a fresh instance's memory was missed.)
	WasmKiB int `json:"wasmKiB"`
	// AnonKiB: every other anonymous mapping: V8's JavaScript heap,
	// malloc's arenas, workerd's own.
	AnonKiB int `json:"anonKiB"`
	// FileKiB: mappings of files (the workerd binary, libraries).
	FileKiB int `json:"fileKiB"`
}

// wasmReservation is what V8 reserves for a 32-bit WebAssembly memory:
// its pages in use, then a guard, 4 GiB in all (seen in workerd's smaps).
const wasmReservation = 4 << 30

// splitRSS reads /proc/PID/smaps.
func splitRSS(pid int) (memSplit, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps", pid))
	if err != nil {
		return memSplit{}, err
	}
	return parseSmaps(b), nil
}

// mapping is one entry of smaps: its header is "START-END PERMS OFFSET DEV
// INODE [PATH]", and its fields follow, one a line.
type mapping struct {
	start, end uint64
	perms      string
	path       string
	rssKiB     int
}

// parseSmaps sums each mapping's Rss into its kind.
func parseSmaps(b []byte) memSplit {
	var maps []mapping
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		if len(f) >= 5 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":") {
			lo, hi, _ := strings.Cut(f[0], "-")
			start, err1 := strconv.ParseUint(lo, 16, 64)
			end, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 != nil || err2 != nil || end < start {
				start, end = 0, 0
			}
			m := mapping{start: start, end: end, perms: f[1]}
			if len(f) >= 6 {
				m.path = f[5]
			}
			maps = append(maps, m)
			continue
		}
		if v, ok := strings.CutPrefix(line, "Rss:"); ok && len(maps) > 0 {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			maps[len(maps)-1].rssKiB += n
		}
	}
	var s memSplit
	for i, m := range maps {
		anon := m.path == "" || strings.HasPrefix(m.path, "[")
		switch {
		case !anon:
			s.FileKiB += m.rssKiB
		case strings.Contains(m.perms, "x"):
			s.CodeKiB += m.rssKiB
		case strings.HasPrefix(m.perms, "rw") && m.path == "" && i+1 < len(maps) && guards(m, maps[i+1]):
			s.WasmKiB += m.rssKiB
		default:
			s.AnonKiB += m.rssKiB
		}
	}
	return s
}

// guards says whether next is the inaccessible rest of a WebAssembly
// memory's reservation that m begins.
func guards(m, next mapping) bool {
	return next.path == "" && strings.HasPrefix(next.perms, "---") &&
		next.start == m.end && next.end-m.start == wasmReservation
}
