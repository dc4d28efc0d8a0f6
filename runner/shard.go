package runner

import (
	"fmt"
	"math/bits"

	"ckptlab/model"
	"ckptlab/runner/experiment"
)

// Shard names the I-th of N parts of an experiment's work, 1-based as
// `ckptlab run --shard I/N` writes it.
type Shard struct{ I, N int }

// String returns the shard as its file is named: "I-of-N".
func (s Shard) String() string { return fmt.Sprintf("%d-of-%d", s.I, s.N) }

// maxShards is the most parts a run may be cut into: Kubernetes runs at
// most 100,000 completions of an Indexed Job, and the other engines fewer
// tasks of an array. A bound keeps merge's bookkeeping and its messages
// small whatever N a shard file or a command line names.
const maxShards = 100_000

// Valid reports whether 1 <= I <= N <= maxShards.
func (s Shard) Valid() bool { return s.N >= 1 && s.N <= maxShards && s.I >= 1 && s.I <= s.N }

// shardPart returns the pieces of the I-th of N parts of the work, at most one
// per source, in source order.
//
// The parts are balanced by work, a source of S subscribers and P periods
// weighing S×P: lay the sources end to end in SourceList order on a line
// of T = Σ S×P units, subscriber i of a source taking the P units after
// those of subscriber i-1; part I holds the subscribers whose first unit u
// has ⌊(I−1)·T/N⌋ ≤ u < ⌊I·T/N⌋. Every subscriber has one first unit, so
// it is in exactly one part; each part holds T/N units give or take one
// subscriber's periods; a source larger than a part is cut into subscriber
// ranges (whose tallies merge exactly), and a part may also start or end
// inside a smaller source. The parts depend only on the sources, so every
// machine computes the same ones. A part is empty when N exceeds the
// number of subscribers.
func shardPart(e *experiment.Experiment, s Shard) []piece { return partOf(e.SourceList(), s) }

// partOf is Part of the sources srcs.
func partOf(srcs []model.Source, s Shard) []piece {
	var total uint64
	for _, src := range srcs {
		total += uint64(src.Subscribers) * uint64(src.Periods)
	}
	from, to := cut(total, s.I-1, s.N), cut(total, s.I, s.N)
	var out []piece
	var start uint64 // the source's first unit
	for k, src := range srcs {
		p := uint64(src.Periods)
		first := func(b uint64) int { // the first subscriber whose first unit is >= b
			if b <= start {
				return 0
			}
			return int(min((b-start+p-1)/p, uint64(src.Subscribers)))
		}
		if lo, hi := first(from), first(to); lo < hi {
			out = append(out, piece{Source: k, Lo: lo, Hi: hi})
		}
		start += uint64(src.Subscribers) * p
	}
	return out
}

// cut returns ⌊k·total/n⌋ without overflow, for 0 <= k <= n.
func cut(total uint64, k, n int) uint64 {
	hi, lo := bits.Mul64(total, uint64(k))
	q, _ := bits.Div64(hi, lo, uint64(n))
	return q
}

// within returns the pieces of work that lie inside part: the work pieces,
// in source order, cut to the part's ranges (at most one per source), so
// that a shard keeps the granularity Count draws in parallel.
func within(work, part []piece) []piece {
	var out []piece
	j := 0
	for _, w := range work {
		for j < len(part) && part[j].Source < w.Source {
			j++
		}
		if j == len(part) {
			break
		}
		p := part[j]
		if p.Source != w.Source {
			continue
		}
		if lo, hi := max(w.Lo, p.Lo), min(w.Hi, p.Hi); lo < hi {
			out = append(out, piece{Source: w.Source, Lo: lo, Hi: hi})
		}
	}
	return out
}

// A shard file tallies each of its pieces in ranges of subscribers, so
// that merge can count a few of them again cheaply (Verify): shardRanges
// ranges of a piece, as equal as can be, or fewer for a piece of fewer than
// shardRanges × minRange subscribers, so that no range but the piece itself
// holds fewer than minRange.
const (
	shardRanges = 32
	minRange    = 1024
)

// rangeCount returns how many ranges a piece of n subscribers is cut into.
func rangeCount(n int) int { return min(shardRanges, max(1, n/minRange)) }

// rangesOf returns the ranges a shard file tallies its pieces in, piece by
// piece, in order.
func rangesOf(pieces []piece) []piece {
	var out []piece
	for _, p := range pieces {
		n := p.Hi - p.Lo
		k := rangeCount(n)
		for i := range k {
			out = append(out, piece{Source: p.Source, Lo: p.Lo + i*n/k, Hi: p.Lo + (i+1)*n/k})
		}
	}
	return out
}
