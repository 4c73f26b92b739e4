// Package costclass keeps the recent cost of each class of request (an
// operation and its body size, to a power of two), so that a server can
// tell a costly request by what the last ones of its kind cost: a UDF
// that loops until its step budget stops it is a few hundred bytes, so
// the size alone does not tell. The native server's gate (core/httpapi)
// and the worker's share (wasm/worker/admit) both read it.
package costclass

import (
	"iter"
	"math/bits"
	"time"

	"github.com/subplay/subplay/core/limits"
)

// Class is a kind of request: an operation and the bit length of its body
// size. The classes are few (the operations times the powers of two up to
// the body limit).
type Class struct {
	Op       string
	SizeBits int
}

// Of returns the class of a request for op with a body of size bytes.
func Of(op string, size int) Class { return Class{op, bits.Len(uint(size))} }

// Cost is a class's last few costs, Recent[N%len(Recent)] the next to be
// replaced.
type Cost struct {
	Recent [4]time.Duration
	N      int
}

func (c *Cost) add(d time.Duration) {
	c.Recent[c.N%len(c.Recent)] = d
	c.N++
}

// Cheapest is the least of the costs kept. A class is costly when even
// its cheapest call was: a machine that stalls now and then makes a cheap
// call look costly once, never every time.
func (c Cost) Cheapest() time.Duration {
	low := c.Recent[0]
	for _, d := range c.Recent[1:min(c.N, len(c.Recent))] {
		low = min(low, d)
	}
	return low
}

// Classes keeps the recent costs of each class. The zero value is not
// ready; use New. It does no locking: its owner does.
type Classes struct {
	costly time.Duration
	m      map[Class]*Cost
}

// New returns an empty Classes in which a call of costly or more is costly.
func New(costly time.Duration) Classes {
	return Classes{costly: costly, m: map[Class]*Cost{}}
}

// Costly is the cost from which a call is costly.
func (cc Classes) Costly() time.Duration { return cc.costly }

// Add counts a call of class that cost d.
func (cc Classes) Add(class Class, d time.Duration) {
	c := cc.m[class]
	if c == nil {
		c = &Cost{}
		cc.m[class] = c
	}
	c.add(d)
}

// IsCostly says whether a request of class with a body of size bytes is
// costly: a large body (limits.HTTPLargeBody), or a class whose recent
// calls all were.
func (cc Classes) IsCostly(class Class, size int) bool {
	if size >= limits.HTTPLargeBody {
		return true
	}
	c := cc.m[class]
	return c != nil && c.Cheapest() >= cc.costly
}

// Get returns what is known of class.
func (cc Classes) Get(class Class) (Cost, bool) {
	c := cc.m[class]
	if c == nil {
		return Cost{}, false
	}
	return *c, true
}

// Set replaces what is known of class (a state carried over from another
// instance).
func (cc Classes) Set(class Class, c Cost) { cc.m[class] = &c }

// All yields every class known, in no order.
func (cc Classes) All() iter.Seq2[Class, Cost] {
	return func(yield func(Class, Cost) bool) {
		for class, c := range cc.m {
			if !yield(class, *c) {
				return
			}
		}
	}
}

// Len is how many classes are known.
func (cc Classes) Len() int { return len(cc.m) }
