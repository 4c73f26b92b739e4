package admit

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/subplay/subplay/core/costclass"
)

// The worker's share (see Share) lives in one Go instance, and the extra
// worker starts a fresh instance after each call that grew its memory
// past its bound (limits.WorkerRetireMemoryMB): often after every costly
// call under hostile load (25 retirements in 20 s of costly Terraform
// requests). A fresh share starts with a full allowance and nothing
// learnt, so the share never refused anything there: the costly requests
// that grow memory are the ones it exists for. State and Restore carry it
// over from an instance to its successor in the same isolate
// (TestShareCarriedOver).

// shareState is the share's state as JSON.
type shareState struct {
	Tokens   time.Duration `json:"tokens"`
	Refilled time.Time     `json:"refilled"`
	Busy     time.Time     `json:"busy"`
	Classes  []classState  `json:"classes"`
	// Open is the call being measured: the one that made the instance
	// retire, whose cost the clock that stood still left to the next
	// call's start (share.begin) to measure.
	Open *openState `json:"open,omitempty"`
}

type classState struct {
	Op       string           `json:"op"`
	SizeBits int              `json:"sizeBits"`
	Recent   [4]time.Duration `json:"recent"`
	N        int              `json:"n"`
}

type openState struct {
	Op       string        `json:"op"`
	SizeBits int           `json:"sizeBits"`
	Start    time.Time     `json:"start"`
	Spent    time.Duration `json:"spent,omitempty"`
	Costly   bool          `json:"costly"`
	Counted  bool          `json:"counted,omitempty"`
	// Unmeasured: a stretch of the call went unmeasured (openCall).
	Unmeasured bool `json:"unmeasured,omitempty"`
}

// maxSharedClasses bounds what Restore accepts: the classes are the
// operations times the powers of two up to the body limit, far fewer.
const maxSharedClasses = 1024

// State returns the share's state as JSON.
func (s *Share) State() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := shareState{Tokens: s.tokens, Refilled: s.refilled, Busy: s.busy}
	for class, c := range s.classes.All() {
		st.Classes = append(st.Classes, classState{Op: class.Op, SizeBits: class.SizeBits, Recent: c.Recent, N: c.N})
	}
	if o := s.open; o != nil {
		st.Open = &openState{Op: o.class.Op, SizeBits: o.class.SizeBits, Start: o.start, Spent: o.spent, Costly: o.costly, Counted: o.counted, Unmeasured: o.unmeasured}
	}
	b, err := json.Marshal(st)
	if err != nil {
		return nil // times and durations always encode
	}
	return b
}

// Restore sets the share to a state State returned, as it comes (a fresh
// instance has had no call yet). State that does not fit a share is
// refused whole, and the share stays as it was.
func (s *Share) Restore(state []byte) error {
	var st shareState
	if err := json.Unmarshal(state, &st); err != nil {
		return fmt.Errorf("reading the share's state: %w", err)
	}
	if len(st.Classes) > maxSharedClasses {
		return fmt.Errorf("the share's state has %d classes, more than %d", len(st.Classes), maxSharedClasses)
	}
	if o := st.Open; o != nil && o.Spent < 0 {
		return fmt.Errorf("the share's state has an open call that spent %v", o.Spent)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	classes := costclass.New(s.classes.Costly())
	for _, c := range st.Classes {
		if c.N < 0 || c.SizeBits < 0 || c.SizeBits > 64 {
			return fmt.Errorf("the share's state has a class %q of size bits %d with %d calls", c.Op, c.SizeBits, c.N)
		}
		classes.Set(costclass.Class{Op: c.Op, SizeBits: c.SizeBits}, costclass.Cost{Recent: c.Recent, N: c.N})
	}
	s.tokens = min(st.Tokens, s.burst)
	s.refilled, s.busy, s.classes, s.open = st.Refilled, st.Busy, classes, nil
	if o := st.Open; o != nil {
		// The instance retires once a call has ended, so the open call
		// has: the next call's start measures its last stretch.
		s.open = &openCall{class: costclass.Class{Op: o.Op, SizeBits: o.SizeBits}, start: o.Start, spent: o.Spent, costly: o.Costly, counted: o.Counted, unmeasured: o.Unmeasured, ended: true}
	}
	return nil
}
