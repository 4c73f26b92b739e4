//go:build !unix && !js

package jsengine

import "context"

// withReservedMemory leaves wazero's own allocator in place where mmap is
// not at hand.
func withReservedMemory(ctx context.Context) context.Context { return ctx }
