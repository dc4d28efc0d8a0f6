package model

import (
	"fmt"
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
// counts those subscribers with Count. It draws each sequence twice, once
// to size the buckets and once to fill them, and allocates nothing more
// than the index.
func (s Source) IndexFaults(lo, hi int, limit int64) *FaultIndex {
	if lo < 0 || lo >= hi || hi > s.Subscribers {
		panic(fmt.Sprintf("model: IndexFaults of subscribers %d..%d of a source of %d", lo, hi-1, s.Subscribers))
	}
	if s.Missing >= 1<<31 || s.Duplicates >= 1<<31 { // a bucket's counts are uint32
		return nil
	}
	p := int64(s.Periods)
	f := &FaultIndex{src: s, lo: lo, hi: hi, first: int64(lo) * p >> bucketShift}
	buckets := s.bucketsOf(lo, hi)
	if faultIndexOverhead+2*4*(buckets+1) > limit {
		return nil
	}
	n := float64(int64(s.Subscribers) * p)
	sLo, sHi := stateRange(n, int64(lo)*p), stateRange(n, int64(hi)*p)
	seq := []struct {
		b     *faultBuckets
		seed  uint64
		draws int
	}{
		{&f.missing, uint64(s.Seed) + 104729, s.Missing},
		{&f.duplicates, uint64(s.Seed) + 7919, s.Duplicates},
	}
	size := faultIndexOverhead
	for _, q := range seq {
		q.b.start = make([]uint32, buckets+1)
		held := q.b.count(NewRand(q.seed), q.draws, n, sLo, sHi, f.first)
		size += 4*(buckets+1) + 2*held
	}
	if size > limit {
		return nil
	}
	for _, q := range seq {
		q.b.fill(NewRand(q.seed), q.draws, n, sLo, sHi, f.first)
	}
	return f
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
	t := c.t
	kLo, kHi := base>>bucketShift-f.first, (end-1)>>bucketShift-f.first
	for k := kLo; k <= kHi; k++ {
		from := (k+f.first)<<bucketShift - base // the bucket's first record, from base
		for _, at := range f.missing.at[f.missing.start[k]:f.missing.start[k+1]] {
			x := from + int64(at)
			if x < 0 || x >= end-base {
				continue
			}
			if bit := uint64(1) << (x % 64); c.bits[x/64]&bit == 0 {
				c.bits[x/64] |= bit
				t.drops.Screened++
			}
		}
	}
	for k := kLo; k <= kHi; k++ {
		from := (k+f.first)<<bucketShift - base
		for _, at := range f.duplicates.at[f.duplicates.start[k]:f.duplicates.start[k+1]] {
			x := from + int64(at)
			if x < 0 || x >= end-base {
				continue
			}
			if c.bits[x/64]&(1<<(x%64)) != 0 {
				t.drops.Screened++
			} else {
				t.drops.Deduped++
			}
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
