package model

import (
	"fmt"
	"math/bits"
	"unsafe"
)

// FaultIndex holds the fault draws that fall on some subscribers of a
// source, each sequence drawn once and its draws bucketed by record, so
// that the many pieces a run counts a large source in read the draws of
// their own records instead of drawing both sequences again, as Count
// does, for every block. A draw takes two bytes (its record less its
// bucket's first) and a bucket of 2^16 records eight (where its draws
// start, per sequence); FaultIndexBytes bounds the whole before any draw.
type FaultIndex struct {
	src                 Source
	lo, hi              int   // the subscribers it holds the draws of
	first               int64 // the first bucket: records from first<<bucketShift
	missing, duplicates faultBuckets
}

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
	return faultIndexOverhead + 2*4*(buckets+1) + 2*draws
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
// subscribers lo..hi-1 (0 <= lo < hi <= Subscribers), nothing drawn yet.
// DrawMissing and DrawDuplicates draw each sequence, once each, in either
// order or on two goroutines at once; then any number of goroutines may
// Count from the index.
func (s Source) NewFaultIndex(lo, hi int) *FaultIndex {
	if lo < 0 || lo >= hi || hi > s.Subscribers {
		panic(fmt.Sprintf("model: a fault index of subscribers %d..%d of a source of %d", lo, hi-1, s.Subscribers))
	}
	return &FaultIndex{src: s, lo: lo, hi: hi, first: int64(lo) * int64(s.Periods) >> bucketShift}
}

// DrawMissing draws the missing sequence into the index, unless it would
// take more than its share of limit, the limit of the whole index: its
// buckets' starts, and the part of the rest its draws are of all the
// source's draws. It reports whether it drew them. Each sequence drawn
// within its share, the index takes at most limit bytes; an index of
// FaultIndexBytes is never refused.
func (f *FaultIndex) DrawMissing(limit int64) bool {
	return f.draw(&f.missing, f.src.missingSeed(), f.src.Missing, limit)
}

// DrawDuplicates is DrawMissing for the duplicates sequence.
func (f *FaultIndex) DrawDuplicates(limit int64) bool {
	return f.draw(&f.duplicates, f.src.duplicatesSeed(), f.src.Duplicates, limit)
}

// draw draws a sequence of the given draws from rng(seed) into b in two
// passes, one to size the buckets and one to fill them, allocating nothing
// more than b.
func (f *FaultIndex) draw(b *faultBuckets, seed uint64, draws int, limit int64) bool {
	s := f.src
	if draws >= 1<<31 { // a bucket's counts are uint32
		return false
	}
	buckets := s.bucketsOf(f.lo, f.hi)
	avail := limit - faultIndexOverhead - 2*4*(buckets+1) // for the draws of both
	if avail < 0 {
		return false
	}
	p := int64(s.Periods)
	n := float64(int64(s.Subscribers) * p)
	sLo, sHi := stateRange(n, int64(f.lo)*p), stateRange(n, int64(f.hi)*p)
	b.start = make([]uint32, buckets+1)
	held := b.count(NewRand(seed), draws, n, sLo, sHi, f.first)
	// 2·held <= avail · draws / all draws, in 128 bits
	all := uint64(s.Missing) + uint64(s.Duplicates)
	h1, l1 := bits.Mul64(2*uint64(held), all)
	h2, l2 := bits.Mul64(uint64(avail), uint64(draws))
	if h1 > h2 || h1 == h2 && l1 > l2 {
		b.start = nil
		return false
	}
	b.fill(NewRand(seed), draws, n, sLo, sHi, f.first)
	return true
}

// count counts the draws of r whose states lie in sLo..sHi-1 into
// start[k], k their bucket less first, and turns the counts into the
// ends of the buckets' draws. It returns the number of such draws.
func (b *faultBuckets) count(r Rand, draws int, n float64, sLo, sHi uint64, first int64) int64 {
	for range draws {
		if st := uint64(r.step()); st >= sLo && st < sHi {
			b.start[drawOf(uint32(st), n)>>bucketShift-first]++
		}
	}
	var end uint32
	for k, c := range b.start {
		end += c
		b.start[k] = end
	}
	return int64(end)
}

// fill draws r again and puts each draw that count counted in its bucket,
// from the bucket's end down, so that start[k] ends at bucket k's first
// draw.
func (b *faultBuckets) fill(r Rand, draws int, n float64, sLo, sHi uint64, first int64) {
	b.at = make([]uint16, b.start[len(b.start)-1])
	for range draws {
		if st := uint64(r.step()); st >= sLo && st < sHi {
			x := drawOf(uint32(st), n)
			k := x>>bucketShift - first
			b.start[k]--
			b.at[b.start[k]] = uint16(x)
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
