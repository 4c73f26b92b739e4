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

// TestPause checks that a pause carried by the context runs at every
// look, in contexts derived from it too, that a cancellation made during
// a pause is seen by the look it belongs to, and that a context without
// one makes plain looks.
func TestPause(t *testing.T) {
	tests := []struct {
		name        string
		items       int
		cancelAfter int // the pause cancels the context at its nth call; 0 never
		wantPauses  int
		wantItems   int // items the loop handles before it stops
	}{
		{"every look", 5 * Every, 0, 5, 5 * Every},
		{"between looks, none", Every, 0, 1, Every},
		{"a cancel during a pause stops the loop at that look", 40 * Every, 3, 3, 2 * Every},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, cancel := context.WithCancel(context.Background())
			defer cancel()
			pauses := 0
			var ctx context.Context
			paused := WithPause(base, func(c context.Context, heavy bool) {
				if c != ctx || heavy {
					t.Errorf("the pause got another context than the loop's, or heavy %v", heavy)
				}
				pauses++
				if pauses == tt.cancelAfter {
					cancel()
				}
			})
			ctx = context.WithValue(paused, struct{}{}, "a context derived from the call's")
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
	if pauseOf(context.Background()) != nil {
		t.Fatal("a context without a pause has one")
	}
}

// BenchmarkCheck measures a look with and without a pause in the context
// that does nothing: the cost an ordinary call pays for the worker's hook.
func BenchmarkCheck(b *testing.B) {
	for _, bb := range []struct {
		name string
		ctx  context.Context
	}{
		{"no-pause", context.Background()},
		{"pause-in-context", WithPause(context.Background(), func(context.Context, bool) {})},
	} {
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if err := Check(bb.ctx, i); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestHeavy checks that Heavy calls the context's pause at once, marked
// heavy, and then looks at its context; without a pause it only looks.
func TestHeavy(t *testing.T) {
	base, cancel := context.WithCancel(context.Background())
	if err := Heavy(base); err != nil {
		t.Fatalf("Heavy without a pause, live context: %v", err)
	}
	var got []bool
	var ctx context.Context
	ctx = WithPause(base, func(c context.Context, heavy bool) {
		if c != ctx {
			t.Errorf("the pause got another context than Heavy's")
		}
		got = append(got, heavy)
		cancel()
	})
	if err := Heavy(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Heavy after a pause that cancelled: %v, want context.Canceled", err)
	}
	if len(got) != 1 || !got[0] {
		t.Errorf("the pause was called %v (heavy flags), want once with true", got)
	}
}
