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
