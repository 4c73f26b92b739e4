//go:build unix && !js

package jsengine

import (
	"context"
	"syscall"

	"github.com/tetratelabs/wazero/experimental"
)

// withReservedMemory gives each instance its memory from an address range
// reserved once at its maximum size: growing it maps no new range and
// copies nothing. wazero's own allocator grows a Go slice, which for a
// moment holds the old memory and the new, twice the engine's limit in the
// Go heap (core/playground TestHostile with -tags quickjs saw 300 MB for a
// 64 MiB limit). Pages the engine never touches cost nothing.
func withReservedMemory(ctx context.Context) context.Context {
	return experimental.WithMemoryAllocator(ctx, experimental.MemoryAllocatorFunc(func(_, max uint64) experimental.LinearMemory {
		b, err := syscall.Mmap(-1, 0, int(max), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
		if err != nil {
			return nil
		}
		return &reserved{buf: b}
	}))
}

type reserved struct{ buf []byte }

func (r *reserved) Reallocate(size uint64) []byte {
	if r.buf == nil || size > uint64(len(r.buf)) {
		return nil
	}
	return r.buf[:size]
}

func (r *reserved) Free() {
	if r.buf != nil {
		_ = syscall.Munmap(r.buf)
		r.buf = nil
	}
}
