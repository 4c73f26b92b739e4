package main

import "testing"

func TestParseSmaps(t *testing.T) {
	// Mappings of a made-up process: the binary; compiled code; a
	// WebAssembly memory of 2 MiB (0x200000 bytes) at the start of its
	// 4 GiB reservation; one of a retired instance, 3 MiB; a piece of
	// V8's JavaScript heap, followed by the rest of its cage, which does
	// not span 4 GiB from it; the stack.
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
7f2000000000-7f2000300000 rw-p 00000000 00:00 0
Size:               3072 kB
Rss:                3000 kB
7f2000300000-7f2100000000 ---p 00000000 00:00 0
Size:            4191232 kB
Rss:                   0 kB
3a0000000000-3a0000180000 rw-p 00000000 00:00 0
Size:               1536 kB
Rss:                1176 kB
3a0000180000-3a00ff400000 ---p 00000000 00:00 0
Size:            4182016 kB
Rss:                   0 kB
7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0                          [stack]
Size:                132 kB
Rss:                  40 kB
`
	want := memSplit{CodeKiB: 700, WasmKiB: 5048, AnonKiB: 1216, FileKiB: 9000}
	if got := parseSmaps([]byte(smaps)); got != want {
		t.Errorf("parseSmaps = %+v, want %+v", got, want)
	}
}
