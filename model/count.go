package model

import (
	"math/bits"
	"slices"
	"sync"
)

// Counting is how a run evaluates a source.
// It tallies which (subscriber, period) pairs survive the stages, without
// generating a record.
// The outputs never read a meter value.
// The pairs follow from the faults alone.
// TestCountMatchesScan holds this against Scan and Pipeline.
//
//   - A subscriber no missing draw touched has one row in every period but
//     the first, on the worker of its key.
//   - A record without its index is screened out, with every copy of it.
//     The subscriber's next record is then unpaired.
//     So a missing record removes the rows of its period and of the next.
//   - Duplicates never change the rows.
//     A copy of a record with its index is deduplicated.
//     A copy of one without is screened out with it.
//
// So a subscriber partitioned by subscriber costs the hash of its name.
// Partitioned by region or type, it costs its first draws.
// It costs nothing when only the whole stream is asked for.

// faultBlock is the most records whose faults Count holds at once.
// It holds them as one bit each, 2 MiB in all.
// Count redraws the fault sequences once per block and keeps the draws that fall into it.
// So its memory is bounded, whatever the numbers of missing and duplicates draws.
// The price is drawing them N·P / faultBlock times in all.
// Counted through a FaultIndex, a block reads its draws from the index instead.
const faultBlock = 1 << 24

// FaultBlockSubscribers returns how many subscribers of the source one fault
// block covers.
// Pieces of this size or less draw the faults only once.
func (s Source) FaultBlockSubscribers() int {
	return max(1, faultBlock/max(1, s.Periods))
}

// Count adds subscribers lo..hi-1 of the source to t.
// It adds their stream rows per period, for the whole stream and every partitioning.
// It adds the records each stage drops.
// The counts are those a Scan of the same subscribers gives.
// Count takes O(hi-lo) time per partitioning.
// It adds one pass over the fault draws per block of FaultBlockSubscribers.
// Its memory is at most one bit per record of a block.
// A FaultIndex counts a large source without the passes.
func (s Source) Count(t *Tally, lo, hi int) { s.count(t, lo, hi, nil) }

// count is Count, reading the faults from f if not nil.
func (s Source) count(t *Tally, lo, hi int, f *FaultIndex) {
	c := newCounter(s, t)
	defer c.release()
	if s.Missing == 0 && s.Duplicates == 0 {
		c.clean(lo, hi)
		return
	}
	step := s.FaultBlockSubscribers()
	for b := lo; b < hi; b += step {
		c.block(b, min(b+step, hi), f)
	}
}

// counter holds the scratch space of one Count.
type counter struct {
	s        Source
	t        *Tally
	byName   bool // some partitioning is by subscriber
	draws    int  // subscriber draws needed: 1 for region, 2 for type
	hashes   []uint32
	regions  []int64  // subscribers per region of the last clean
	types    []int64  // subscribers per type of the last clean
	fastmod  []uint64 // per partitioning, Lemire's constant for % workers
	fold     *foldPlan
	bins     []uint32 // the bins of the fold group at hand
	bits     []uint64
	missing  []int // missing periods of the subscriber at hand
	lostRows []int
	workers  []int32
	name     []byte // the name of the faulted subscriber at hand
	// touched[p][w] is lostOf(p, w) of the tally, once the count has
	// touched worker w of partitioning p: a slice index instead of a map
	// look-up per faulted subscriber, for the first touchedWorkers workers
	// of the partitionings in order.
	touched [][][]int64
}

// scratchPool keeps the scratch of finished counts.
// That is the name hashes, fold bins, fold plan and fault bits.
// A run counts thousands of pieces, and each would otherwise make them anew.
var scratchPool sync.Pool

type scratch struct {
	hashes []uint32
	bins   []uint32
	bits   []uint64
	parts  []Partitioning // the partitionings fold was planned for
	fold   *foldPlan
}

func (c *counter) release() {
	scratchPool.Put(&scratch{hashes: c.hashes[:0], bins: c.bins, bits: c.bits[:0], parts: c.t.parts, fold: c.fold})
}

func newCounter(s Source, t *Tally) *counter {
	c := &counter{s: s, t: t, workers: make([]int32, len(t.parts)),
		regions: make([]int64, len(Regions)), types: make([]int64, len(Types))}
	if sc, ok := scratchPool.Get().(*scratch); ok {
		c.hashes, c.bins, c.bits = sc.hashes, sc.bins, sc.bits
		if slices.Equal(sc.parts, t.parts) {
			c.fold = sc.fold
		}
	}
	for _, part := range t.parts {
		switch part.Key {
		case BySubscriber:
			c.byName = true
		case ByRegion:
			c.draws = max(c.draws, 1)
		case ByType:
			c.draws = 2
		}
		c.fastmod = append(c.fastmod, ^uint64(0)/uint64(part.Workers)+1)
	}
	if c.byName && c.fold == nil {
		c.fold = newFoldPlan(t.parts, cleanChunk)
	}
	return c
}

// cleanChunk is the most subscribers whose name hashes clean holds at once.
// That is 256 KiB.
const cleanChunk = 1 << 16

// clean counts subscribers lo..hi-1 as if no fault touched them.
func (c *counter) clean(lo, hi int) {
	for a := lo; a < hi; a += cleanChunk {
		c.cleanChunk(a, min(a+cleanChunk, hi))
	}
}

func (c *counter) cleanChunk(lo, hi int) {
	t := c.t
	t.subs += int64(hi - lo)
	if c.byName {
		c.binNames(lo, hi)
	}
	if c.draws > 0 {
		clear(c.regions)
		clear(c.types)
		for i := lo; i < hi; i++ {
			region, typ := c.s.keys(i, c.draws)
			c.regions[region]++
			c.types[typ]++
		}
	}
	for p, part := range t.parts {
		subs := t.workerSubs[p]
		switch part.Key {
		case ByRegion:
			for r, n := range c.regions {
				subs[regionHash[r]%uint32(part.Workers)] += n
			}
		case ByType:
			for r, n := range c.types {
				subs[typeHash[r]%uint32(part.Workers)] += n
			}
		}
	}
}

// keys draws subscriber i's region and, when draws is 2, its type.
// It draws them as Subscriber does. The meter start is never needed.
func (s Source) keys(i, draws int) (region, typ int) {
	r := NewRand(uint64(s.Seed) + 37*uint64(i))
	region = r.Intn(len(Regions))
	if draws > 1 {
		typ = r.Intn(len(Types))
	}
	return region, typ
}

// mod returns h % w without a division, by Lemire's fastmod.
// m is ^uint64(0)/w + 1. The result is exact for every 32-bit h and w.
func mod(h uint32, m, w uint64) uint64 {
	hi, _ := bits.Mul64(m*uint64(h), w)
	return hi
}

var regionHash, typeHash = hashAll(Regions), hashAll(Types)

func hashAll(values []string) []uint32 {
	out := make([]uint32, len(values))
	for i, v := range values {
		out[i] = TraceID(v)
	}
	return out
}

// appendSubscriberName appends SubscriberName(i) without formatting through fmt.
// Count runs it once per subscriber, and sources have a hundred million.
func appendSubscriberName(dst []byte, i int) []byte {
	n := i + 1
	var digits [20]byte
	k := len(digits)
	for n > 0 || len(digits)-k < 3 {
		k--
		digits[k] = byte('0' + n%10)
		n /= 10
	}
	dst = append(dst, 'A')
	return append(dst, digits[k:]...)
}

// appendNameHashes appends TraceID(SubscriberName(i)) for i in lo..hi-1.
// It hashes ten names at a time (namePrefix).
func appendNameHashes(dst []uint32, lo, hi int) []uint32 {
	if lo >= hi {
		return dst
	}
	start := len(dst)
	dst = slices.Grow(dst, hi-lo)[:start+hi-lo]
	out := dst[start:]
	var p namePrefix
	p.set((lo + 1) / 10)
	for i, n := 0, lo+1; i < len(out); p.next() {
		h, d := p.hash(), n%10
		ten := out[i:min(len(out), i+10-d)]
		for k := range ten {
			ten[k] = (h ^ uint32('0'+d+k)) * 16777619
		}
		i, n = i+len(ten), n+len(ten)
	}
	return dst
}

func traceIDBytes(b []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}
