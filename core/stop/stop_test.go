package stop

import (
	"context"
	"errors"
	"testing"
)

func TestCheck(t *testing.T) {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		i    int
		want error
	}{
		{"live context, first item", context.Background(), 0, nil},
		{"live context, a checked item", context.Background(), Every * 3, nil},
		{"cancelled, first item", done, 0, context.Canceled},
		{"cancelled, a checked item", done, Every * 2, context.Canceled},
		{"cancelled, between checks", done, Every + 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Check(tt.ctx, tt.i); !errors.Is(got, tt.want) || (got == nil) != (tt.want == nil) {
				t.Errorf("Check(%d) = %v, want %v", tt.i, got, tt.want)
			}
			if got := Check(tt.ctx, int64(tt.i)); (got == nil) != (tt.want == nil) {
				t.Errorf("Check(int64 %d) = %v, want %v", tt.i, got, tt.want)
			}
		})
	}
}

// TestCheckStopsALoop runs a loop the way the core writes them and checks
// that a cancellation in the middle ends it within Every items.
func TestCheckStopsALoop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const n, cancelAt = 10_000, 1000
	done := 0
	var err error
	for i := range n {
		if err = Check(ctx, i); err != nil {
			break
		}
		if i == cancelAt {
			cancel()
		}
		done++
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("the loop ended with %v, want context.Canceled", err)
	}
	if done <= cancelAt || done > cancelAt+Every {
		t.Errorf("the loop did %d items after a cancel at item %d; want at most %d more", done, cancelAt, Every)
	}
}

// TestPause checks that an installed pause runs once every so many looks,
// that a cancellation made during a pause is seen by the look it belongs
// to, and that removing it restores plain looks.
func TestPause(t *testing.T) {
	tests := []struct {
		name        string
		every       int
		items       int
		cancelAfter int // the pause cancels the context at its nth call; 0 never
		wantPauses  int
		wantItems   int // items the loop handles before it stops
	}{
		{"never within a short loop", 4, 3 * Every, 0, 0, 3 * Every},
		{"once every four looks", 4, 40 * Every, 0, 10, 40 * Every},
		{"every look", 1, 5 * Every, 0, 5, 5 * Every},
		{"a cancel during a pause stops the loop at that look", 2, 40 * Every, 3, 3, 5 * Every},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			pauses := 0
			SetPause(func(c context.Context, _ bool) {
				if c != ctx {
					t.Errorf("the pause got another context than the loop's")
				}
				pauses++
				if pauses == tt.cancelAfter {
					cancel()
				}
			}, tt.every)
			defer SetPause(nil, 0)
			items := 0
			for i := range tt.items {
				if Check(ctx, i) != nil {
					break
				}
				items++
			}
			if pauses != tt.wantPauses || items != tt.wantItems {
				t.Errorf("%d pauses and %d items handled, want %d and %d", pauses, items, tt.wantPauses, tt.wantItems)
			}
		})
	}
	SetPause(nil, 0)
	if pause != nil {
		t.Fatal("SetPause(nil) left a pause installed")
	}
}

// BenchmarkCheck measures a look with and without an installed pause that
// does nothing: the cost an ordinary call pays for the worker's hook.
func BenchmarkCheck(b *testing.B) {
	ctx := context.Background()
	for _, bb := range []struct {
		name  string
		pause func(context.Context, bool)
	}{{"no-pause", nil}, {"pause-installed", func(context.Context, bool) {}}} {
		b.Run(bb.name, func(b *testing.B) {
			SetPause(bb.pause, 64)
			defer SetPause(nil, 0)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if err := Check(ctx, i); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestHeavy checks that Heavy calls the installed pause at once, marked
// heavy, and then looks at its context; without a pause it only looks.
func TestHeavy(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	if err := Heavy(ctx); err != nil {
		t.Fatalf("Heavy without a pause, live context: %v", err)
	}
	var got []bool
	SetPause(func(c context.Context, heavy bool) {
		if c != ctx {
			t.Errorf("the pause got another context than Heavy's")
		}
		got = append(got, heavy)
		cancel()
	}, 1000)
	defer SetPause(nil, 0)
	if err := Heavy(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Heavy after a pause that cancelled: %v, want context.Canceled", err)
	}
	if len(got) != 1 || !got[0] {
		t.Errorf("the pause was called %v (heavy flags), want once with true", got)
	}
}
