package model

import (
	"fmt"
	"math"
	"math/bits"
	"sync"
	"unsafe"
)

// FaultIndex holds the fault draws that fall on some subscribers of a
// source, each sequence drawn once and its draws bucketed by record, so
// that the many pieces a run counts a large source in read the draws of
// their own records instead of drawing both sequences again, as Count
// does, for every block. A draw takes two bytes (its record less its
// bucket's first) and a bucket of 2^16 records eight (where its draws
// start, per sequence); FaultIndexBytes bounds the whole before any draw.
// An index holds every draw of the buckets its subscribers' records touch,
// those of the records before and after them in its first and last bucket
// too, which Count passes over.
type FaultIndex struct {
	src                 Source
	lo, hi              int   // the subscribers it holds the draws of
	first               int64 // the first bucket: records from first<<bucketShift
	sizes               *FaultSizes
	own                 bool          // sizes are the index's own, drawn as it draws
	buffers             *FaultBuffers // where its slices come from and go back to, if any
	missing, duplicates faultBuckets
}

// FaultBuffers keeps the slices of dropped fault indexes for the next ones
// to fill: the windows of a source, one after another, then reuse the
// memory of those before them instead of leaving it to the collector, so
// that a run never holds more indexes' memory than it holds indexes at
// once. Several goroutines may use one at once.
type FaultBuffers struct {
	mu   sync.Mutex
	free [2][]faultBuckets // per sequence
}

// UseBuffers makes the index take its slices from b where they are large
// enough, and give them back to b when dropped; before it draws.
func (f *FaultIndex) UseBuffers(b *FaultBuffers) { f.buffers = b }

// Drop gives the index's slices back to its buffers, if any, for another
// index to fill: no Count from it may follow.
func (f *FaultIndex) Drop() {
	if b := f.buffers; b != nil {
		b.mu.Lock()
		defer b.mu.Unlock()
		for seq, fb := range [2]*faultBuckets{&f.missing, &f.duplicates} {
			if fb.start != nil {
				b.free[seq] = append(b.free[seq], *fb)
			}
		}
	}
	f.missing, f.duplicates = faultBuckets{}, faultBuckets{}
}

// take returns the slices of a dropped index's sequence seq, if any.
func (b *FaultBuffers) take(seq int) faultBuckets {
	if b == nil {
		return faultBuckets{}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	free := b.free[seq]
	if len(free) == 0 {
		return faultBuckets{}
	}
	fb := free[len(free)-1]
	b.free[seq] = free[:len(free)-1]
	return fb
}

// reuse returns buf[:n] cleared if it holds n and no more than most, else
// a new slice of n with room for a sixty-fourth more, up to most: the
// windows of a source differ by a bucket or two and by a few thousandths
// of their draws. A slice too short is left to the collector, so that
// buffers never outnumber the indexes that held them at once.
func reuse[T uint16 | uint32](buf []T, n, most int64) []T {
	if c := int64(cap(buf)); c >= n && c <= max(n, most) {
		buf = buf[:n]
		clear(buf)
		return buf
	}
	return make([]T, n, max(n, min(n+n>>6+64, most)))
}

// FaultSizes counts the fault draws of a source per bucket of records over
// some subscribers, each sequence drawn once, for the fault indexes of the
// windows a run cuts those subscribers into: each index then draws the
// sequences once more, to fill its buckets, instead of once to size them
// and once to fill them. So a source of W windows costs W+1 passes over
// each sequence rather than 2W. It takes four bytes per bucket and
// sequence (FaultSizesBytes).
type FaultSizes struct {
	src    Source
	lo, hi int
	first  int64
	counts [2][]uint32 // per sequence (missingDraws, duplicatesDraws): draws per bucket, and a 0
}

// The two fault sequences, as FaultSizes and FaultIndex number them.
const (
	missingDraws = iota
	duplicatesDraws
)

// bucketShift sets a bucket's records, 2^bucketShift: few enough that a
// draw's place in its bucket fits in a uint16.
const bucketShift = 16

// faultBuckets are the draws of one sequence, bucket by bucket: bucket k's
// are at[start[k]:start[k+1]], in no particular order.
type faultBuckets struct {
	start []uint32
	at    []uint16
}

// faultIndexOverhead is a FaultIndex without its slices' contents.
const faultIndexOverhead = int64(unsafe.Sizeof(FaultIndex{})) + 64

// FaultIndexBytes bounds the memory IndexFaults(lo, hi, ·) takes, whatever
// the draws: as if every draw fell on subscribers lo..hi-1.
func (s Source) FaultIndexBytes(lo, hi int) int64 {
	buckets := s.bucketsOf(lo, hi)
	draws := int64(s.Missing) + int64(s.Duplicates)
	return faultIndexOverhead + 2*4*(buckets+1+startSlack) + 2*draws
}

// startSlack is the room for more buckets an index's starts are made with,
// so that the next window's, a bucket or two longer, fit them.
const startSlack = 2

// ExpectedFaultIndexBytes is the memory an index of subscribers lo..hi-1
// is expected to take, the draws spread evenly over the source's records:
// FaultIndexBytes with their records' share of the draws, and of two more
// buckets' for the records before and after them in its first and last.
func (s Source) ExpectedFaultIndexBytes(lo, hi int) int64 {
	p := int64(s.Periods)
	held := uint64(int64(hi-lo)*p + 2<<bucketShift)
	draws := uint64(s.Missing) + uint64(s.Duplicates)
	share := draws
	if records := uint64(int64(s.Subscribers) * p); held < records {
		h, l := bits.Mul64(draws, held)
		share, _ = bits.Div64(h, l, records) // held < records: the quotient fits
		share++                              // rounded up
	}
	return faultIndexOverhead + 2*4*(s.bucketsOf(lo, hi)+1+startSlack) + 2*int64(share)
}

// FaultSizesBytes is the memory NewFaultSizes(lo, hi) takes, both
// sequences sized.
func (s Source) FaultSizesBytes(lo, hi int) int64 {
	return int64(unsafe.Sizeof(FaultSizes{})) + 64 + 2*4*(s.bucketsOf(lo, hi)+1)
}

// bucketsOf returns the number of buckets the records of subscribers
// lo..hi-1 touch (hi > lo).
func (s Source) bucketsOf(lo, hi int) int64 {
	p := int64(s.Periods)
	return (int64(hi)*p-1)>>bucketShift - (int64(lo)*p)>>bucketShift + 1
}

// IndexFaults draws both fault sequences of the source and keeps the draws
// that fall on subscribers lo..hi-1 (0 <= lo < hi <= Subscribers), unless
// they take more than limit bytes: then it returns nil, and the caller
// counts those subscribers with Count. It is NewFaultIndex, DrawMissing
// and DrawDuplicates on one goroutine.
func (s Source) IndexFaults(lo, hi int, limit int64) *FaultIndex {
	f := s.NewFaultIndex(lo, hi)
	if !f.DrawMissing(limit) || !f.DrawDuplicates(limit) {
		return nil
	}
	return f
}

// NewFaultIndex returns the index of the fault draws that fall on
// subscribers lo..hi-1 (0 <= lo < hi <= Subscribers), nothing drawn yet,
// that sizes its own buckets: DrawMissing and DrawDuplicates draw each
// sequence twice, to size and to fill them, in either order or on two
// goroutines at once; then any number of goroutines may Count from the
// index.
func (s Source) NewFaultIndex(lo, hi int) *FaultIndex {
	f := s.NewFaultSizes(lo, hi).Index(lo, hi)
	f.own = true
	return f
}

// NewFaultSizes returns the sizes of the buckets of subscribers lo..hi-1
// (0 <= lo < hi <= Subscribers), nothing drawn yet. SizeMissing and
// SizeDuplicates draw each sequence, once each, in either order or on two
// goroutines at once; then the indexes made by Index may draw.
func (s Source) NewFaultSizes(lo, hi int) *FaultSizes {
	if lo < 0 || lo >= hi || hi > s.Subscribers {
		panic(fmt.Sprintf("model: a fault index of subscribers %d..%d of a source of %d", lo, hi-1, s.Subscribers))
	}
	return &FaultSizes{src: s, lo: lo, hi: hi, first: int64(lo) * int64(s.Periods) >> bucketShift}
}

// SizeMissing draws the missing sequence and counts its draws per bucket.
func (z *FaultSizes) SizeMissing() { z.size(missingDraws) }

// SizeDuplicates is SizeMissing for the duplicates sequence.
func (z *FaultSizes) SizeDuplicates() { z.size(duplicatesDraws) }

// Index returns the index of the fault draws that fall on subscribers
// lo..hi-1, within those of z, nothing drawn yet: its DrawMissing and
// DrawDuplicates each draw their sequence once, to fill the buckets z
// sized, and must come after z's SizeMissing and SizeDuplicates.
func (z *FaultSizes) Index(lo, hi int) *FaultIndex {
	if lo < z.lo || lo >= hi || hi > z.hi {
		panic(fmt.Sprintf("model: a fault index of subscribers %d..%d from the sizes of %d..%d", lo, hi-1, z.lo, z.hi-1))
	}
	return &FaultIndex{src: z.src, lo: lo, hi: hi, first: int64(lo) * int64(z.src.Periods) >> bucketShift, sizes: z}
}

// size draws sequence seq and counts its draws in each of z's buckets.
func (z *FaultSizes) size(seq int) {
	counts := make([]uint32, z.src.bucketsOf(z.lo, z.hi)+1)
	z.sizeInto(seq, counts)
	z.counts[seq] = counts
}

// sizeInto counts sequence seq's draws in each of z's buckets into counts,
// one per bucket and a 0, all 0.
func (z *FaultSizes) sizeInto(seq int, counts []uint32) {
	s := z.src
	n, sLo, sHi := s.bucketStates(z.first, int64(len(counts)-1))
	r := NewRand(s.drawSeed(seq))
	if allStates(sLo, sHi) {
		for range s.drawCount(seq) {
			counts[drawOf(r.step(), n)>>bucketShift-z.first]++
		}
		return
	}
	var buf [statesBatch]uint32
	for left := s.drawCount(seq); left > 0; {
		m := min(left, statesBatch)
		left -= m
		for _, st := range buf[:r.statesIn(buf[:m], sLo, sHi)] {
			counts[drawOf(st, n)>>bucketShift-z.first]++
		}
	}
}

// bucketStates returns the source's records as a float, and the states
// whose draws fall on the given buckets from first: sLo..sHi-1.
func (s Source) bucketStates(first, buckets int64) (n float64, sLo, sHi uint64) {
	n = float64(int64(s.Subscribers) * int64(s.Periods))
	return n, stateRange(n, first<<bucketShift), stateRange(n, (first+buckets)<<bucketShift)
}

// drawSeed and drawCount are the seed and the number of draws of sequence
// seq.
func (s Source) drawSeed(seq int) uint64 {
	if seq == missingDraws {
		return s.missingSeed()
	}
	return s.duplicatesSeed()
}

func (s Source) drawCount(seq int) int {
	if seq == missingDraws {
		return s.Missing
	}
	return s.Duplicates
}

// DrawMissing draws the missing sequence into the index, unless it would
// take more than its share of limit, the limit of the whole index: its
// buckets' starts, and the part of the rest its draws are of all the
// source's draws. It reports whether it drew them. Each sequence drawn
// within its share, the index takes at most limit bytes; an index of
// FaultIndexBytes is never refused.
func (f *FaultIndex) DrawMissing(limit int64) bool {
	return f.draw(&f.missing, missingDraws, limit)
}

// DrawDuplicates is DrawMissing for the duplicates sequence.
func (f *FaultIndex) DrawDuplicates(limit int64) bool {
	return f.draw(&f.duplicates, duplicatesDraws, limit)
}

// draw fills b with sequence seq's draws, within limit: the buckets' sizes
// from f.sizes (drawn now, if the index's own), then one pass to fill
// them, allocating nothing more than b.
func (f *FaultIndex) draw(b *faultBuckets, seq int, limit int64) bool {
	s := f.src
	draws := s.drawCount(seq)
	if draws >= 1<<31 { // a bucket's counts are uint32
		return false
	}
	buckets := s.bucketsOf(f.lo, f.hi)
	avail := limit - faultIndexOverhead - 2*4*(buckets+1+startSlack) // for the draws of both
	if avail < 0 {
		return false
	}
	old := f.buffers.take(seq)
	start := reuse(old.start, buckets+1, buckets+1+startSlack)
	if f.own {
		f.sizes.sizeInto(seq, start)
	} else {
		from := f.first - f.sizes.first
		copy(start, f.sizes.counts[seq][from:from+buckets])
	}
	var held uint32
	for k, c := range start {
		held += c
		start[k] = held
	}
	most := shareOf(avail, draws, s.Missing+s.Duplicates)
	if int64(held) > most {
		return false
	}
	b.start = start
	b.at = reuse(old.at, int64(held), most)
	n, sLo, sHi := s.bucketStates(f.first, buckets)
	b.fill(NewRand(s.drawSeed(seq)), draws, n, sLo, sHi, f.first)
	return true
}

// shareOf returns the most draws of a sequence of draws, of all draws of
// both, that avail bytes hold at two bytes a draw, shared by the sequences
// in proportion: avail·draws / (2·all), rounded down, in 128 bits.
func shareOf(avail int64, draws, all int) int64 {
	if draws == 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(avail), uint64(draws))
	if d := 2 * uint64(all); hi < d {
		q, _ := bits.Div64(hi, lo, d)
		return int64(min(q, math.MaxInt64))
	}
	return math.MaxInt64
}

// fill draws r and puts each draw whose state lies in sLo..sHi-1 in its
// bucket, k less first, from the bucket's end (start[k], as sized) down,
// so that start[k] ends at bucket k's first draw.
func (b *faultBuckets) fill(r Rand, draws int, n float64, sLo, sHi uint64, first int64) {
	put := func(st uint32) {
		x := drawOf(st, n)
		k := x>>bucketShift - first
		b.start[k]--
		b.at[b.start[k]] = uint16(x)
	}
	if allStates(sLo, sHi) {
		for range draws {
			put(r.step())
		}
		return
	}
	var buf [statesBatch]uint32
	for left := draws; left > 0; {
		m := min(left, statesBatch)
		left -= m
		for _, st := range buf[:r.statesIn(buf[:m], sLo, sHi)] {
			put(st)
		}
	}
}

// read marks the missing records among records base..end-1, a block, and
// classifies the duplicates draws that fall on them, as draw does, from
// the index's buckets.
func (c *counter) read(f *FaultIndex, base, end int64) {
	kLo, kHi := base>>bucketShift-f.first, (end-1)>>bucketShift-f.first
	for k := kLo; k <= kHi; k++ {
		from := (k+f.first)<<bucketShift - base // the bucket's first record, from base
		for _, at := range f.missing.at[f.missing.start[k]:f.missing.start[k+1]] {
			x := from + int64(at)
			if x < 0 || x >= end-base {
				continue
			}
			c.markMissing(x)
		}
	}
	for k := kLo; k <= kHi; k++ {
		from := (k+f.first)<<bucketShift - base
		for _, at := range f.duplicates.at[f.duplicates.start[k]:f.duplicates.start[k+1]] {
			x := from + int64(at)
			if x < 0 || x >= end-base {
				continue
			}
			c.dropDuplicate(x)
		}
	}
}

// Count adds subscribers lo..hi-1 of the source to t, as the source's
// Count does, reading their faults from the index: lo..hi-1 must lie
// within the subscribers the index was made for. Any number of goroutines
// may count pieces of one index at once.
func (f *FaultIndex) Count(t *Tally, lo, hi int) {
	if lo < f.lo || hi > f.hi {
		panic(fmt.Sprintf("model: counting subscribers %d..%d from a fault index of %d..%d", lo, hi-1, f.lo, f.hi-1))
	}
	f.src.count(t, lo, hi, f)
}
