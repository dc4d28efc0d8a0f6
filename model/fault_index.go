package model

import (
	"fmt"
	"math"
	"math/bits"
	"sync"
	"unsafe"
)

// FaultIndex holds the fault draws that fall on some subscribers of a source.
// Each sequence is drawn once, and its draws are bucketed by record.
// So the many pieces a run counts a large source in read the draws of their
// own records.
// Without an index, Count draws both sequences again for every block.
//
// A draw takes two bytes, its record less its bucket's first.
// A bucket of 2^16 records takes eight bytes, where its draws start in each sequence.
// FaultIndexBytes bounds the whole before any draw.
// An index holds every draw of the buckets its subscribers' records touch.
// That includes the draws of other records in its first and last bucket,
// which Count passes over.
type FaultIndex struct {
	src                 Source
	lo, hi              int   // the subscribers it holds the draws of
	first               int64 // the first bucket: records from first<<bucketShift
	sizes               *FaultSizes
	own                 bool          // sizes are the index's own, drawn as it draws
	buffers             *FaultBuffers // where its slices come from and go back to, if any
	missing, duplicates faultBuckets
}

// FaultBuffers keeps the slices of dropped fault indexes for the next ones to fill.
// The windows of a source, one after another, reuse the memory of those before them.
// They do not leave it to the collector.
// So a run never holds more indexes' memory than it holds indexes at once.
// Several goroutines may use one FaultBuffers at once.
type FaultBuffers struct {
	mu   sync.Mutex
	free [2][]faultBuckets // per sequence
}

// UseBuffers makes the index take its slices from b where they are large enough.
// The index gives them back to b when dropped.
// Call UseBuffers before the index draws.
func (f *FaultIndex) UseBuffers(b *FaultBuffers) { f.buffers = b }

// Drop gives the index's slices back to its buffers, if any, for another index to fill.
// No Count from the index may follow.
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

// reuse returns buf[:n], cleared, if buf holds n and no more than most.
// Otherwise it returns a new slice of n, with room for a sixty-fourth more, up to most.
// The windows of a source differ by a bucket or two and a few thousandths of their draws.
// A slice too short is left to the collector.
// So buffers never outnumber the indexes that held them at once.
func reuse[T uint16 | uint32](buf []T, n, most int64) []T {
	if c := int64(cap(buf)); c >= n && c <= max(n, most) {
		buf = buf[:n]
		clear(buf)
		return buf
	}
	return make([]T, n, max(n, min(n+n>>6+64, most)))
}

// FaultSizes counts a source's fault draws per bucket of records, over some subscribers.
// Each sequence is drawn once.
// The counts size the fault indexes of the windows a run cuts those subscribers into.
// Each index then draws the sequences once more, to fill its buckets.
// Without FaultSizes it would draw them twice, to size and to fill.
// So a source of W windows costs W+1 passes over each sequence rather than 2W.
// FaultSizes takes four bytes per bucket and sequence (FaultSizesBytes).
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

// bucketShift sets a bucket's records to 2^bucketShift.
// That is few enough for a draw's place in its bucket to fit a uint16.
const bucketShift = 16

// faultBuckets holds the draws of one sequence, bucket by bucket.
// Bucket k's draws are at[start[k]:start[k+1]], in no particular order.
type faultBuckets struct {
	start []uint32
	at    []uint16
}

// faultIndexOverhead is a FaultIndex without its slices' contents.
const faultIndexOverhead = int64(unsafe.Sizeof(FaultIndex{})) + 64

// FaultIndexBytes bounds the memory IndexFaults(lo, hi, ·) takes, whatever the draws.
// It is the size if every draw fell on subscribers lo..hi-1.
func (s Source) FaultIndexBytes(lo, hi int) int64 {
	buckets := s.bucketsOf(lo, hi)
	draws := int64(s.Missing) + int64(s.Duplicates)
	return faultIndexOverhead + 2*4*(buckets+1+startSlack) + 2*draws
}

// startSlack is the room for more buckets an index's starts are made with.
// The next window's starts, a bucket or two longer, then fit.
const startSlack = 2

// ExpectedFaultIndexBytes is the memory an index of subscribers lo..hi-1 is
// expected to take.
// It assumes the draws spread evenly over the source's records.
// It is FaultIndexBytes with those records' share of the draws.
// It adds two more buckets' share for the other records of the first and last bucket.
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

// FaultSizesBytes is the memory NewFaultSizes(lo, hi) takes, both sequences sized.
func (s Source) FaultSizesBytes(lo, hi int) int64 {
	return int64(unsafe.Sizeof(FaultSizes{})) + 64 + 2*4*(s.bucketsOf(lo, hi)+1)
}

// bucketsOf returns the number of buckets the records of subscribers lo..hi-1
// touch, with hi > lo.
func (s Source) bucketsOf(lo, hi int) int64 {
	p := int64(s.Periods)
	return (int64(hi)*p-1)>>bucketShift - (int64(lo)*p)>>bucketShift + 1
}

// IndexFaults draws both fault sequences of the source and keeps the draws
// that fall on subscribers lo..hi-1.
// It needs 0 <= lo < hi <= Subscribers.
// It returns nil if the draws take more than limit bytes.
// The caller then counts those subscribers with Count.
// IndexFaults is NewFaultIndex, DrawMissing and DrawDuplicates on one goroutine.
func (s Source) IndexFaults(lo, hi int, limit int64) *FaultIndex {
	f := s.NewFaultIndex(lo, hi)
	if !f.DrawMissing(limit) || !f.DrawDuplicates(limit) {
		return nil
	}
	return f
}

// NewFaultIndex returns an index of the fault draws on subscribers lo..hi-1,
// with nothing drawn yet.
// It needs 0 <= lo < hi <= Subscribers.
// The index sizes its own buckets.
// So DrawMissing and DrawDuplicates each draw their sequence twice, to size and to fill.
// They may run in either order, or on two goroutines at once.
// Then any number of goroutines may Count from the index.
func (s Source) NewFaultIndex(lo, hi int) *FaultIndex {
	f := s.NewFaultSizes(lo, hi).Index(lo, hi)
	f.own = true
	return f
}

// NewFaultSizes returns the bucket sizes of subscribers lo..hi-1, with nothing
// drawn yet.
// It needs 0 <= lo < hi <= Subscribers.
// SizeMissing and SizeDuplicates draw one sequence each.
// They may run in either order, or on two goroutines at once.
// Then the indexes made by Index may draw.
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

// Index returns an index of the fault draws on subscribers lo..hi-1, with
// nothing drawn yet.
// The subscribers lie within those of z.
// Its DrawMissing and DrawDuplicates each draw their sequence once, to fill
// the buckets z sized.
// They must come after z's SizeMissing and SizeDuplicates.
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

// sizeInto counts sequence seq's draws in each of z's buckets into counts.
// counts has one entry per bucket and one more, all 0.
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

// bucketStates returns the source's records as a float.
// It also returns the states sLo..sHi-1 whose draws fall on the given
// buckets from first.
func (s Source) bucketStates(first, buckets int64) (n float64, sLo, sHi uint64) {
	n = float64(int64(s.Subscribers) * int64(s.Periods))
	return n, stateRange(n, first<<bucketShift), stateRange(n, (first+buckets)<<bucketShift)
}

// drawSeed returns the seed of sequence seq.
// drawCount returns its number of draws.
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

// DrawMissing draws the missing sequence into the index, within its share of limit.
// limit bounds the whole index.
// The share is the buckets' starts, plus this sequence's part of the rest.
// That part is its draws' share of all the source's draws.
// DrawMissing reports whether it drew the sequence.
// With each sequence drawn within its share, the index takes at most limit bytes.
// An index of FaultIndexBytes is never refused.
func (f *FaultIndex) DrawMissing(limit int64) bool {
	return f.draw(&f.missing, missingDraws, limit)
}

// DrawDuplicates is DrawMissing for the duplicates sequence.
func (f *FaultIndex) DrawDuplicates(limit int64) bool {
	return f.draw(&f.duplicates, duplicatesDraws, limit)
}

// draw fills b with sequence seq's draws, within limit.
// It takes the buckets' sizes from f.sizes, drawn now if the index has its own.
// Then one pass fills them, allocating nothing beyond b.
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

// shareOf returns how many draws of one sequence avail bytes hold.
// A draw takes two bytes, and the two sequences share avail in proportion.
// The result is avail·draws / (2·all), rounded down, computed in 128 bits.
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

// fill draws r and puts each draw whose state lies in sLo..sHi-1 in its bucket.
// A draw in bucket k of the source goes to b's bucket k − first.
// fill writes each bucket from its end, start[k] as sized, down.
// So start[k] ends at bucket k's first draw.
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

// read marks the missing records among records base..end-1, a block.
// It classifies the duplicates draws that fall on them, as draw does.
// It reads them from the index's buckets.
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

// Count adds subscribers lo..hi-1 of the source to t, as the source's Count does.
// It reads their faults from the index.
// lo..hi-1 must lie within the subscribers the index was made for.
// Any number of goroutines may count pieces of one index at once.
func (f *FaultIndex) Count(t *Tally, lo, hi int) {
	if lo < f.lo || hi > f.hi {
		panic(fmt.Sprintf("model: counting subscribers %d..%d from a fault index of %d..%d", lo, hi-1, f.lo, f.hi-1))
	}
	f.src.count(t, lo, hi, f)
}
