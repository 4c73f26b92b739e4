package stop

import (
	"context"
	"sync/atomic"
)

// The process-wide pause below is what the worker installed before each
// request's context carried its own. No program sets it any more
// (scripts/check-imports fails if one outside a test does); it stays only
// for tests that have not moved to WithPause yet, and goes with the last
// of them.
var (
	legacy      atomic.Pointer[legacySetting]
	legacyLooks atomic.Uint32
)

type legacySetting struct {
	f     func(ctx context.Context, heavy bool)
	every uint32
}

// SetPause makes the looks of every context without a pause of its own
// call f: Check once every every looks, Heavy at each; or no longer when f
// is nil.
//
// Deprecated: give the call's context its pause with WithPause. Only
// tests still call SetPause.
func SetPause(f func(ctx context.Context, heavy bool), every int) {
	if f == nil || every < 1 {
		legacy.Store(nil)
		return
	}
	legacyLooks.Store(0)
	legacy.Store(&legacySetting{f: f, every: uint32(every)})
}

// legacyPause returns the pause SetPause installed, adapted to count its
// looks, or nil.
func legacyPause() Pause {
	s := legacy.Load()
	if s == nil {
		return nil
	}
	return func(ctx context.Context, heavy bool) {
		if heavy || legacyLooks.Add(1)%s.every == 0 {
			s.f(ctx, heavy)
		}
	}
}
