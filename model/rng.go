package model

// Rand is the lesson's rng(t).
// t is hashed to a 32-bit state, which a linear congruential generator advances.
// All arithmetic is modulo 2^32, as the lesson's masks with 0xFFFFFFFF make it.
type Rand struct{ s uint32 }

// NewRand returns the generator the lesson's rng(t) returns.
// Only the low 48 bits of t reach the state, as in the lesson.
// The lesson computes t ^ t>>16, then masks it.
func NewRand(t uint64) Rand {
	x := uint32(t^t>>16) * 2246822507
	x = (x ^ x>>13) * 3266489909
	return Rand{s: x ^ x>>16}
}

// Next returns the next value in [0, 1), the lesson's next_value().
func (r *Rand) Next() float64 {
	r.s = r.s*1664525 + 1013904223
	return float64(r.s) / 4294967296
}

// Intn returns int(r() * n), the lesson's way to draw from 0..n-1.
// The product is a float64, and the conversion truncates, as Python's int() does.
func (r *Rand) Intn(n int) int {
	return int(r.Next() * float64(n))
}

// step advances the generator and returns its new state.
// It is Next without the division, for callers that compare states, not values.
func (r *Rand) step() uint32 {
	r.s = r.s*1664525 + 1013904223
	return r.s
}

// statesBatch is how many states statesIn draws at a time.
// That is 16 KiB of them, which stay in the first-level cache.
const statesBatch = 4096

// statesIn advances the generator len(buf) times, at most statesBatch.
// It keeps in buf, in order, the states in sLo..sHi-1, with sHi <= 1<<32.
// It returns how many it kept.
// Every state is written, and the comparison advances the count, without a branch.
// A fault draw falls into a window of records with a probability of about a fifth.
// A branch would mispredict for a fifth of the draws, at more than a step costs.
// Where every state is kept (allStates), using each state as it is stepped costs less.
func (r *Rand) statesIn(buf []uint32, sLo, sHi uint64) int {
	lo, width := uint32(sLo), sHi-sLo
	s, n := r.s, 0
	for range buf {
		s = s*1664525 + 1013904223
		buf[n] = s
		if uint64(s-lo) < width {
			n++
		}
	}
	r.s = s
	return n
}

// allStates reports whether sLo..sHi-1 is every state of the generator.
func allStates(sLo, sHi uint64) bool { return sLo == 0 && sHi == 1<<32 }
