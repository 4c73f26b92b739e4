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
// process's compiled code from the Go instance's WebAssembly memory.
type memSplit struct {
	// CodeKiB: anonymous executable mappings, V8's compiled code
	// (JavaScript and WebAssembly).
	CodeKiB int `json:"codeKiB"`
	// WasmKiB: the anonymous read-write mapping exactly as large as the Go
	// instance's WebAssembly memory (V8 reserves a memory with guard
	// regions around it, so its accessible part is a mapping of its own).
	// Zero when that size is unknown or no mapping has it.
	WasmKiB int `json:"wasmKiB"`
	// AnonKiB: every other anonymous mapping: V8's JavaScript heap,
	// malloc's arenas, workerd's own.
	AnonKiB int `json:"anonKiB"`
	// FileKiB: mappings of files (the workerd binary, libraries).
	FileKiB int `json:"fileKiB"`
}

// splitRSS reads /proc/PID/smaps; wasmBytes is the WebAssembly memory's
// size, or 0.
func splitRSS(pid int, wasmBytes int64) (memSplit, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps", pid))
	if err != nil {
		return memSplit{}, err
	}
	return parseSmaps(b, wasmBytes), nil
}

// parseSmaps sums each mapping's Rss into its kind. A mapping's header is
// "START-END PERMS OFFSET DEV INODE [PATH]"; its fields follow, one a line.
func parseSmaps(b []byte, wasmBytes int64) memSplit {
	var s memSplit
	var kind *int
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		if len(f) >= 5 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":") {
			kind = &s.AnonKiB
			lo, hi, _ := strings.Cut(f[0], "-")
			start, err1 := strconv.ParseUint(lo, 16, 64)
			end, err2 := strconv.ParseUint(hi, 16, 64)
			path := ""
			if len(f) >= 6 {
				path = f[5]
			}
			switch {
			case err1 != nil || err2 != nil:
			case path != "" && !strings.HasPrefix(path, "["):
				kind = &s.FileKiB
			case strings.Contains(f[1], "x"):
				kind = &s.CodeKiB
			case wasmBytes > 0 && f[1][:2] == "rw" && int64(end-start) == wasmBytes:
				kind = &s.WasmKiB
			}
			continue
		}
		if v, ok := strings.CutPrefix(line, "Rss:"); ok && kind != nil {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			*kind += n
		}
	}
	return s
}
