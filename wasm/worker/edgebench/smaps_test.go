package main

import "testing"

func TestParseSmaps(t *testing.T) {
	// Three mappings of a made-up process: the binary, compiled code, and
	// a WebAssembly memory of 2 MiB (0x200000 bytes) between its guards.
	const smaps = `55d0c0000000-55d0c1000000 r-xp 00000000 08:01 1234 /usr/bin/workerd
Size:              16384 kB
Rss:                9000 kB
7f0000000000-7f0000100000 rwxp 00000000 00:00 0
Size:               1024 kB
Rss:                 700 kB
7f1000000000-7f1000200000 rw-p 00000000 00:00 0
Size:               2048 kB
Rss:                2048 kB
7f1000200000-7f1100000000 ---p 00000000 00:00 0
Size:            4192256 kB
Rss:                   0 kB
7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0                          [stack]
Size:                132 kB
Rss:                  40 kB
`
	tests := []struct {
		name      string
		wasmBytes int64
		want      memSplit
	}{
		{"memory size known", 2 << 20, memSplit{CodeKiB: 700, WasmKiB: 2048, AnonKiB: 40, FileKiB: 9000}},
		{"memory size unknown: all anonymous", 0, memSplit{CodeKiB: 700, AnonKiB: 2088, FileKiB: 9000}},
		{"no mapping of that size", 3 << 20, memSplit{CodeKiB: 700, AnonKiB: 2088, FileKiB: 9000}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := parseSmaps([]byte(smaps), tc.wasmBytes); got != tc.want {
				t.Errorf("parseSmaps = %+v, want %+v", got, tc.want)
			}
		})
	}
}
