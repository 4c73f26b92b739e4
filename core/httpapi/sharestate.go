package httpapi

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// The worker's share (see share) lives in one Go instance, and the extra
// worker starts a fresh instance after each call that grew its memory
// past its bound (limits.WorkerRetireMemoryMB): often after every costly
// call under hostile load (25 retirements in 20 s of costly Terraform
// requests). A fresh share starts with a full allowance and nothing
// learnt, so the share never refused anything there: the costly requests
// that grow memory are the ones it exists for. ShareState and RestoreShare
// carry it over from an instance to its successor in the same isolate.

// shareState is the share's state as JSON.
type shareState struct {
	Tokens   time.Duration `json:"tokens"`
	Refilled time.Time     `json:"refilled"`
	Busy     time.Time     `json:"busy"`
	Classes  []classState  `json:"classes"`
	// Bodies are the recent costs of the small bodies seen lately, the
	// older generation first.
	Bodies []classState `json:"bodies,omitempty"`
	// Open is the call being measured: the one that made the instance
	// retire, whose cost the clock that stood still left to the next
	// call's start (share.begin) to measure.
	Open *openState `json:"open,omitempty"`
}

type classState struct {
	Op       string           `json:"op"`
	SizeBits int              `json:"sizeBits"`
	Sum      string           `json:"sum,omitempty"` // a body's, in hex
	Recent   [4]time.Duration `json:"recent"`
	N        int              `json:"n"`
}

type openState struct {
	Op       string        `json:"op"`
	SizeBits int           `json:"sizeBits"`
	Large    bool          `json:"large,omitempty"`
	Sum      string        `json:"sum,omitempty"`
	Start    time.Time     `json:"start"`
	Spent    time.Duration `json:"spent,omitempty"`
	Costly   bool          `json:"costly"`
	Counted  bool          `json:"counted,omitempty"`
	// Unmeasured: a stretch of the call went unmeasured (openCall).
	Unmeasured bool `json:"unmeasured,omitempty"`
}

// maxSharedClasses bounds the classes RestoreShare accepts: they are the
// operations times the powers of two up to the body limit, far fewer. The
// bodies are at most two generations.
const maxSharedClasses = 1024

// sumText and sumOf write and read a body's sum in the state.
func sumText(sum bodySum) string {
	if sum == (bodySum{}) {
		return ""
	}
	return hex.EncodeToString(sum[:])
}

func sumOf(text string) (bodySum, error) {
	var sum bodySum
	if text == "" {
		return sum, nil
	}
	b, err := hex.DecodeString(text)
	if err != nil || len(b) != len(sum) {
		return sum, fmt.Errorf("the share's state has a body sum %.40q that is not %d bytes in hex", text, len(sum))
	}
	copy(sum[:], b)
	return sum, nil
}

// ShareState returns the state of h's share as JSON, or nil when h is not
// this package's handler or has no share (the native server).
func ShareState(h http.Handler) []byte {
	hh, ok := h.(*handler)
	if !ok || hh.share == nil {
		return nil
	}
	s := hh.share
	s.mu.Lock()
	defer s.mu.Unlock()
	st := shareState{Tokens: s.tokens, Refilled: s.refilled, Busy: s.busy}
	for class, c := range s.classes.m {
		st.Classes = append(st.Classes, classState{Op: class.op, SizeBits: class.sizeBits, Recent: c.recent, N: c.n})
	}
	for _, gen := range []map[costKey]*classCost{s.classes.older, s.classes.bodies} {
		for k, c := range gen {
			st.Bodies = append(st.Bodies, classState{Op: k.class.op, SizeBits: k.class.sizeBits, Sum: sumText(k.sum), Recent: c.recent, N: c.n})
		}
	}
	if o := s.open; o != nil {
		k := o.key
		st.Open = &openState{Op: k.class.op, SizeBits: k.class.sizeBits, Large: k.large, Sum: sumText(k.sum),
			Start: o.start, Spent: o.spent, Costly: o.costly, Counted: o.counted, Unmeasured: o.unmeasured}
	}
	b, err := json.Marshal(st)
	if err != nil {
		return nil // times and durations always encode
	}
	return b
}

// RestoreShare sets h's share to a state ShareState returned, as it comes
// (a fresh instance has had no call yet). State that does not fit a share
// is refused whole, and the share stays as it was.
func RestoreShare(h http.Handler, state []byte) error {
	hh, ok := h.(*handler)
	if !ok || hh.share == nil {
		return errors.New("this handler has no share")
	}
	var st shareState
	if err := json.Unmarshal(state, &st); err != nil {
		return fmt.Errorf("reading the share's state: %w", err)
	}
	if len(st.Classes) > maxSharedClasses {
		return fmt.Errorf("the share's state has %d classes, more than %d", len(st.Classes), maxSharedClasses)
	}
	if len(st.Bodies) > 2*maxBodies {
		return fmt.Errorf("the share's state has %d bodies, more than %d", len(st.Bodies), 2*maxBodies)
	}
	if o := st.Open; o != nil && o.Spent < 0 {
		return fmt.Errorf("the share's state has an open call that spent %v", o.Spent)
	}
	s := hh.share
	s.mu.Lock()
	defer s.mu.Unlock()
	classes := newCostClasses(s.classes.costly)
	for _, c := range st.Classes {
		if err := c.check(); err != nil {
			return err
		}
		classes.m[costClass{c.Op, c.SizeBits}] = &classCost{recent: c.Recent, n: c.N}
	}
	for _, c := range st.Bodies {
		sum, err := sumOf(c.Sum)
		if err == nil && sum == (bodySum{}) {
			err = fmt.Errorf("the share's state has a body of %q without its sum", c.Op)
		}
		if err == nil {
			err = c.check()
		}
		if err != nil {
			return err
		}
		classes.keep(costKey{class: costClass{c.Op, c.SizeBits}, sum: sum}, &classCost{recent: c.Recent, n: c.N})
	}
	var open *openCall
	if o := st.Open; o != nil {
		sum, err := sumOf(o.Sum)
		if err != nil {
			return err
		}
		// The instance retires once a call has ended, so the open call
		// has: the next call's start measures its last stretch.
		open = &openCall{key: costKey{class: costClass{o.Op, o.SizeBits}, large: o.Large, sum: sum},
			start: o.Start, spent: o.Spent, costly: o.Costly, counted: o.Counted, unmeasured: o.Unmeasured, ended: true}
	}
	s.tokens = min(st.Tokens, s.burst)
	s.refilled, s.busy, s.classes, s.open = st.Refilled, st.Busy, classes, open
	return nil
}

func (c classState) check() error {
	if c.N < 0 || c.SizeBits < 0 || c.SizeBits > 64 {
		return fmt.Errorf("the share's state has a class %q of size bits %d with %d calls", c.Op, c.SizeBits, c.N)
	}
	return nil
}
