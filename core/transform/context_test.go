//go:build !noudf && !quickjs

package transform

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/stop"
)

// TestContextPauses checks what the call's context does to a UDF: its
// steps pause as a loop over user input does (the worker lets its other
// requests in there) without changing the verdict, and a cancel stops it
// within stop.Every steps, with a result that is never cached.
func TestContextPauses(t *testing.T) {
	const loop = "function f(m) { let n = 0; while (true) { n++; } return m; }"
	const top = "let n = 0; while (true) { n++; }\nfunction f(m) { return m; }"
	pauses := 0
	var cancelAt int
	var cancel context.CancelFunc
	pause := stop.Pause(func(context.Context, bool) {
		pauses++
		if pauses == cancelAt {
			cancel()
		}
	})

	t.Run("same verdict, with pauses", func(t *testing.T) {
		var ctx context.Context
		ctx, cancel = context.WithCancel(context.Background())
		ctx = stop.WithPause(ctx, pause)
		defer cancel()
		pauses, cancelAt = 0, 0
		outcome := func(opts Options) ([]Step, int) {
			p, err := Compile([]UDF{{FunctionName: "f", Code: loop}}, opts)
			if err != nil {
				t.Fatal(err)
			}
			steps := p.Run(message.Message{Data: []byte("a")})
			return steps, p.steps
		}
		plain, plainSteps := outcome(Options{})
		if pauses != 0 {
			t.Fatalf("%d pauses without a context", pauses)
		}
		paused, pausedSteps := outcome(Options{Ctx: ctx})
		if want := limits.UDFCallSteps / stop.Every; pauses < want {
			t.Errorf("%d pauses in a call of %d steps, want at least %d", pauses, limits.UDFCallSteps, want)
		}
		if !reflect.DeepEqual(plain, paused) || plainSteps != pausedSteps {
			t.Errorf("with a context: %+v after %d steps; without: %+v after %d", paused, pausedSteps, plain, plainSteps)
		}
	})

	t.Run("a cancel stops it, not cached", func(t *testing.T) {
		withCache(true, func() {
			var ctx context.Context
			ctx, cancel = context.WithCancel(context.Background())
			ctx = stop.WithPause(ctx, pause)
			defer cancel()
			pauses, cancelAt = 0, 3
			u := UDF{FunctionName: "f", Code: top}
			opts := Options{Ctx: ctx}
			p, err := Compile([]UDF{u}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.udfs[0].topSteps; got > cancelAt*stop.Every {
				t.Errorf("the top-level code took %d steps after a cancel at step %d", got, cancelAt*stop.Every)
			}
			if !p.udfs[0].stopped || len(p.Diagnostics[0]) == 0 {
				t.Errorf("the cancelled code: stopped %v, findings %v", p.udfs[0].stopped, p.Diagnostics[0])
			}
			if cacheGet(cacheKey(u, opts)) != nil {
				t.Error("a compile cut short by a cancel was cached")
			}
		})
	})
}

// TestHeavyStepsPause checks that a UDF whose few steps each allocate a
// lot pauses by what it allocates (stop.Heavy, limits.WorkerPauseBytes),
// where a count of its steps would not pause it at all, and that a light
// UDF never makes such a look.
func TestHeavyStepsPause(t *testing.T) {
	heavy, light := 0, 0
	ctx := stop.WithPause(context.Background(), func(_ context.Context, h bool) {
		if h {
			heavy++
		} else {
			light++
		}
	})
	run := func(code string) Step {
		t.Helper()
		p, err := Compile([]UDF{{FunctionName: "f", Code: code}}, Options{Ctx: ctx})
		if err != nil {
			t.Fatal(err)
		}
		return p.Run(message.Message{Data: []byte("a")})[0]
	}
	// 20 steps, each keeping a 1 MiB string: 20 MiB, far under a count
	// of steps that would pause (limits.WorkerPauseLooks looks of
	// stop.Every steps each).
	st := run("function f(m) { var a = [], k = 'x'.repeat(1024); for (var i = 0; i < 20; i++) a.push(k.repeat(1024)); return m; }")
	if st.Outcome != Unchanged {
		t.Fatalf("the heavy UDF: %+v", st)
	}
	if heavy < 10 {
		t.Errorf("a UDF that allocated 20 MiB in 20 steps made %d heavy looks, want one per %d KiB or so", heavy, limits.WorkerPauseBytes>>10)
	}
	heavy = 0
	if st := run("function f(m) { var n = 0; for (var i = 0; i < 1000; i++) n += i; m.attributes.n = String(n); return m; }"); st.Outcome != Changed {
		t.Fatalf("the light UDF: %+v", st)
	}
	if heavy != 0 {
		t.Errorf("a light UDF made %d heavy looks", heavy)
	}
}

// TestContextLooksWithWeightedSteps checks that a call looks at its
// context every stop.Every steps also when its steps count more than one
// each: a function's step (1) and then a loop whose body counts 2 kept the
// count odd, never a multiple of stop.Every, and such a loop never looked.
func TestContextLooksWithWeightedSteps(t *testing.T) {
	light := 0
	ctx := stop.WithPause(context.Background(), func(_ context.Context, h bool) {
		if !h {
			light++
		}
	})
	body := strings.Repeat("y = 1; ", 30) // 90 nodes and more: 2 steps
	code := fmt.Sprintf("function f(m) { var y; for (var i = 0; i < 10000; i++) { %s} return m }", body)
	p, err := Compile([]UDF{{FunctionName: "f", Code: code}}, Options{Ctx: ctx})
	if err != nil {
		t.Fatal(err)
	}
	light = 0
	if st := p.Run(message.Message{Data: []byte("a")})[0]; st.Outcome != Unchanged {
		t.Fatalf("%+v", st)
	}
	if want := 20000/stop.Every - 1; light < want {
		t.Errorf("%d looks in a call of %d steps, want at least %d", light, p.steps, want)
	}
}
