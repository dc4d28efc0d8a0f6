package model

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// reference counts stream rows the way the lesson does.
// It counts from the rows that Scan, and Pipeline, produce.
// It counts them per period for the whole stream.
// It counts them per worker of every partitioning, by the lesson's distribute
// over the row's field.
// It is the executable reference Count is held to.
type reference struct {
	src     Source
	parts   []Partitioning
	stream  []int64
	workers [][][]int64 // per partitioning, per worker, per period
	drops   Drops
}

func newReference(src Source, parts []Partitioning) *reference {
	ref := &reference{src: src, parts: parts, stream: make([]int64, src.Periods)}
	for _, p := range parts {
		w := make([][]int64, p.Workers)
		for i := range w {
			w[i] = make([]int64, src.Periods)
		}
		ref.workers = append(ref.workers, w)
	}
	return ref
}

// add counts one subscriber's rows, as Scan's visit.
func (ref *reference) add(i int, sub Subscriber, rows []Row) {
	for _, r := range rows {
		ref.stream[r.Period]++
		for p, part := range ref.parts {
			var value string
			switch part.Key {
			case BySubscriber:
				value = SubscriberName(r.Subscriber)
			case ByRegion:
				value = Regions[sub.Region]
			case ByType:
				value = Types[sub.Type]
			}
			ref.workers[p][Worker(value, part.Workers)][r.Period]++
		}
	}
}

// check compares a tally with the reference, exactly.
func (ref *reference) check(t *testing.T, what string, got *Tally) {
	t.Helper()
	if !slices.Equal(got.Stream(), ref.stream) {
		t.Errorf("%s: stream %v, reference %v", what, got.Stream(), ref.stream)
	}
	if got.Drops() != ref.drops {
		t.Errorf("%s: drops %+v, reference %+v", what, got.Drops(), ref.drops)
	}
	for p := range ref.parts {
		if !slices.EqualFunc(got.Workers(p), ref.workers[p], slices.Equal) {
			t.Errorf("%s: %+v: workers %v, reference %v", what, ref.parts[p], got.Workers(p), ref.workers[p])
		}
		// Busiest from the worker set, against every worker's own recovery.
		ws := got.WorkerSet(p)
		for f := 0; f < ref.src.Periods; f++ {
			for k := Interval(0); k <= Interval(ref.src.Periods); k++ {
				var want int64
				for _, c := range ref.workers[p] {
					want = max(want, NewRecovery(c).Recomputed(k, f))
				}
				if b := Busiest(ws, k, f); b != want {
					t.Errorf("%s: %+v: busiest at interval %v, failure %d = %d, reference %d",
						what, ref.parts[p], k, f, b, want)
				}
			}
		}
	}
}

// randomSource draws a source and partitionings.
// Fault counts are small and large, with more draws than records too.
// There are one to many periods.
// Subscriber counts cross A999/A1000, and every partition key is used.
func randomSource(r *rand.Rand) (Source, []Partitioning) {
	src := Source{
		Seed:        r.Uint32(),
		Subscribers: 1 + r.IntN(1200),
		Periods:     []int{1, 2, 2, 3, 5, 12, 13, 30}[r.IntN(8)],
		Start:       NewMonth(2026, 1),
	}
	if r.IntN(2) == 0 {
		src.Subscribers += 900 // past A999
	}
	records := src.Subscribers * src.Periods
	for _, n := range []*int{&src.Missing, &src.Duplicates} {
		switch r.IntN(4) {
		case 0:
		case 1:
			*n = r.IntN(10)
		case 2:
			*n = r.IntN(records/10 + 1)
		case 3:
			*n = r.IntN(3 * records)
		}
	}
	// Worker counts of any size up to 40; or divisors of 48, which fold
	// into one binning by 48 or less; or counts whose common multiple is
	// past foldBins, which fold in two groups, 362 and 382, or bin directly.
	workers := []int{}
	switch r.IntN(3) {
	case 1:
		workers = []int{1, 2, 3, 4, 6, 8, 12, 16, 24, 48}
	case 2:
		workers = []int{1, 2, 181, 191, 362, 382}
	}
	var parts []Partitioning
	for range 1 + r.IntN(6) {
		w := 1 + r.IntN(40)
		if len(workers) > 0 {
			w = workers[r.IntN(len(workers))]
		}
		parts = append(parts, Partitioning{PartitionKeys[r.IntN(3)], w})
	}
	return src, parts
}

// folds reports whether Count folds some of a piece of n subscribers'
// bins for the partitionings.
func folds(parts []Partitioning, n int) bool {
	plan := newFoldPlan(parts, cleanChunk)
	for _, g := range plan.groups {
		if g.folds(min(n, cleanChunk)) {
			return true
		}
	}
	return false
}

// TestCountMatchesScan is the differential test of counting.
// It draws many seeded random sources.
// Count in random pieces, merged, must give exactly the counts of the rows
// Scan streams through the lesson's stages.
// Those rows must be Pipeline's.
func TestCountMatchesScan(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	runs := 300
	if testing.Short() {
		runs = 40
	}
	folded := 0
	for run := range runs {
		src, parts := randomSource(r)
		what := fmt.Sprintf("run %d %+v %+v", run, src, parts)
		ref := newReference(src, parts)
		ref.drops = src.Scan(0, src.Subscribers, src.Faults(), ref.add)
		if run%10 == 0 {
			rows, drops := src.Pipeline()
			var n int64
			for _, c := range ref.stream {
				n += c
			}
			if int64(len(rows)) != n || drops != ref.drops {
				t.Fatalf("%s: scan %d rows %+v, pipeline %d rows %+v", what, n, ref.drops, len(rows), drops)
			}
		}
		got := NewTally(src.Periods, parts)
		indexed := NewTally(src.Periods, parts)
		for lo := 0; lo < src.Subscribers; {
			hi := min(src.Subscribers, lo+1+r.IntN(src.Subscribers))
			piece := NewTally(src.Periods, parts)
			src.Count(piece, lo, hi)
			got.Merge(piece)
			countIndexed(t, r, src, parts, indexed, lo, hi)
			if folds(parts, hi-lo) {
				folded++
			}
			lo = hi
		}
		ref.check(t, what, got)
		ref.check(t, what+" indexed", indexed)
	}
	if folded < runs/10 {
		t.Errorf("%d pieces of %d runs folded their bins, want %d at least", folded, runs, runs/10)
	}
}

// countIndexed adds subscribers lo..hi-1 of src to into, in random pieces.
// It counts through a fault index of their range, or of a larger one.
// An index refused for its limit counts them with Count.
func countIndexed(t *testing.T, r *rand.Rand, src Source, parts []Partitioning, into *Tally, lo, hi int) {
	t.Helper()
	from, to := lo, hi
	if r.IntN(2) == 0 {
		from, to = r.IntN(lo+1), hi+r.IntN(src.Subscribers-hi+1)
	}
	limit := src.FaultIndexBytes(from, to)
	if r.IntN(4) == 0 {
		limit = r.Int64N(limit + 1) // may refuse
	}
	f := src.IndexFaults(from, to, limit)
	for a := lo; a < hi; {
		b := min(hi, a+1+r.IntN(hi-a))
		piece := NewTally(src.Periods, parts)
		if f != nil {
			f.Count(piece, a, b)
		} else {
			src.Count(piece, a, b)
		}
		into.Merge(piece)
		a = b
	}
}

// TestFaultIndexAcrossBuckets counts sources of several buckets of records
// through fault indexes of windows.
// The windows start and end inside buckets and inside subscribers' records.
// It holds them to Count over the same subscribers.
// TestCountMatchesScan holds Count to Scan.
func TestFaultIndexAcrossBuckets(t *testing.T) {
	parts := []Partitioning{{BySubscriber, 7}, {ByRegion, 3}, {ByType, 2}}
	for _, src := range []Source{
		{Seed: 3, Subscribers: 20000, Periods: 13, Missing: 4000, Duplicates: 5000},
		{Seed: 4, Subscribers: 3000, Periods: 120, Missing: 400000, Duplicates: 100}, // more draws than records
		{Seed: 5, Subscribers: 70000, Periods: 1, Missing: 10, Duplicates: 10},       // buckets without a draw
		{Seed: 6, Subscribers: 100, Periods: 7000, Missing: 1000, Duplicates: 1000},  // a subscriber over two buckets
	} {
		for _, w := range [][2]int{{0, src.Subscribers}, {1, src.Subscribers - 1}, {src.Subscribers / 3, src.Subscribers/3 + src.Subscribers/4 + 1}} {
			f := src.IndexFaults(w[0], w[1], src.FaultIndexBytes(w[0], w[1]))
			if f == nil {
				t.Fatalf("%+v: index of %v refused at its own bound", src, w)
			}
			step := max(1, (w[1]-w[0])/5)
			for lo := w[0]; lo < w[1]; lo += step {
				hi := min(w[1], lo+step)
				want, got := NewTally(src.Periods, parts), NewTally(src.Periods, parts)
				src.Count(want, lo, hi)
				f.Count(got, lo, hi)
				if !sameTally(want, got) {
					t.Errorf("%+v: window %v, subscribers %d..%d: indexed %+v, counted %+v", src, w, lo, hi-1, got.Drops(), want.Drops())
				}
			}
		}
	}
}

// TestFaultSizesShared counts sources through the indexes of windows sized together.
// The windows start and end inside buckets and inside subscribers' records.
// It holds them to Count over the same subscribers.
func TestFaultSizesShared(t *testing.T) {
	parts := []Partitioning{{BySubscriber, 7}, {ByRegion, 3}}
	for _, src := range []Source{
		{Seed: 3, Subscribers: 20000, Periods: 13, Missing: 4000, Duplicates: 5000},
		{Seed: 4, Subscribers: 3000, Periods: 120, Missing: 400000, Duplicates: 100},
		{Seed: 6, Subscribers: 100, Periods: 7000, Missing: 1000, Duplicates: 1000},
	} {
		lo, hi := 1, src.Subscribers-1
		z := src.NewFaultSizes(lo, hi)
		z.SizeDuplicates()
		z.SizeMissing()
		step := (hi - lo + 3) / 4
		for wlo := lo; wlo < hi; wlo += step {
			whi := min(hi, wlo+step)
			f := z.Index(wlo, whi)
			limit := src.FaultIndexBytes(wlo, whi)
			if !f.DrawDuplicates(limit) || !f.DrawMissing(limit) {
				t.Fatalf("%+v: window %d..%d refused at its bound", src, wlo, whi-1)
			}
			want, got := NewTally(src.Periods, parts), NewTally(src.Periods, parts)
			src.Count(want, wlo, whi)
			f.Count(got, wlo, whi)
			if !sameTally(want, got) {
				t.Errorf("%+v: window %d..%d: indexed %+v, counted %+v", src, wlo, whi-1, got.Drops(), want.Drops())
			}
		}
	}
}

// TestFaultIndexLimit checks that an index is refused above its limit.
// It checks that an index is made at its bound, and that the bound holds what it took.
func TestFaultIndexLimit(t *testing.T) {
	src := Source{Seed: 9, Subscribers: 5000, Periods: 30, Missing: 3000, Duplicates: 2000}
	bound := src.FaultIndexBytes(0, src.Subscribers)
	f := src.IndexFaults(0, src.Subscribers, bound)
	if f == nil {
		t.Fatal("refused at its bound")
	}
	size := faultIndexOverhead + int64(4*(len(f.missing.start)+len(f.duplicates.start))+2*(len(f.missing.at)+len(f.duplicates.at)))
	held := faultIndexOverhead + int64(4*(cap(f.missing.start)+cap(f.duplicates.start))+2*(cap(f.missing.at)+cap(f.duplicates.at)))
	if held > bound {
		t.Errorf("index holds %d bytes, above its bound %d", held, bound)
	}
	if got := src.IndexFaults(0, src.Subscribers, size-1); got != nil {
		t.Errorf("an index of %d bytes made under a limit of %d", size, size-1)
	}
}

// TestFaultBuffersReused draws the windows of a source one after another
// through one FaultBuffers.
// Each index after the first fills the slices the one before it dropped.
// Each counts as Count does.
func TestFaultBuffersReused(t *testing.T) {
	// Windows of 183 buckets, 300,000 missing draws each.
	src := Source{Seed: 13, Subscribers: 1_000_000, Periods: 48, Missing: 1_200_000, Duplicates: 800_000}
	parts := []Partitioning{{BySubscriber, 5}}
	z := src.NewFaultSizes(0, src.Subscribers)
	z.SizeMissing()
	z.SizeDuplicates()
	var buffers FaultBuffers
	var before *uint16
	const window = 250_000
	for lo := 0; lo < src.Subscribers; lo += window {
		hi := lo + window
		f := z.Index(lo, hi)
		f.UseBuffers(&buffers)
		limit := src.FaultIndexBytes(lo, hi)
		if !f.DrawMissing(limit) || !f.DrawDuplicates(limit) {
			t.Fatalf("window %d..%d refused at its bound", lo, hi-1)
		}
		if at := &f.missing.at[:1][0]; before != nil && at != before {
			t.Errorf("window %d..%d: its missing draws in new memory, not the last window's", lo, hi-1)
		} else {
			before = at
		}
		want, got := NewTally(src.Periods, parts), NewTally(src.Periods, parts)
		src.Count(want, lo, hi)
		f.Count(got, lo, hi)
		if !sameTally(want, got) {
			t.Errorf("window %d..%d: indexed %+v, counted %+v", lo, hi-1, got.Drops(), want.Drops())
		}
		f.Drop()
	}
}

// sameTally reports whether two tallies hold the same counts.
func sameTally(a, b *Tally) bool {
	if a.Drops() != b.Drops() || !slices.Equal(a.Stream(), b.Stream()) {
		return false
	}
	for p := range a.parts {
		if !slices.EqualFunc(a.Workers(p), b.Workers(p), slices.Equal) {
			return false
		}
	}
	return true
}

// TestCountAcrossFaultBlocks runs a source of more records than one fault
// block holds, so that Count redraws the faults per block.
func TestCountAcrossFaultBlocks(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("draws 2 × 10^7 records")
	}
	src := Source{Seed: 11, Subscribers: faultBlock/12 + 12345, Periods: 12, Missing: 30000, Duplicates: 30000}
	parts := []Partitioning{{BySubscriber, 5}, {ByRegion, 3}}
	ref := newReference(src, parts)
	ref.drops = src.Scan(0, src.Subscribers, src.Faults(), ref.add)
	got := NewTally(src.Periods, parts)
	src.Count(got, 0, src.Subscribers)
	if src.FaultBlockSubscribers() >= src.Subscribers {
		t.Fatalf("one block of %d subscribers covers the source", src.FaultBlockSubscribers())
	}
	ref.check(t, "two blocks", got)
	// Through an index, in pieces that end inside the second block.
	indexed := NewTally(src.Periods, parts)
	f := src.IndexFaults(0, src.Subscribers, src.FaultIndexBytes(0, src.Subscribers))
	for _, r := range [][2]int{{0, 1}, {1, src.FaultBlockSubscribers() + 5}, {src.FaultBlockSubscribers() + 5, src.Subscribers}} {
		f.Count(indexed, r[0], r[1])
	}
	ref.check(t, "two blocks, indexed", indexed)
}

// TestFastMod checks the division-free h % w at the edges of 32 bits.
func TestFastMod(t *testing.T) {
	hs := []uint32{0, 1, 2, 1<<31 - 1, 1 << 31, 1<<32 - 2, 1<<32 - 1, 2166136261}
	r := rand.New(rand.NewPCG(3, 4))
	for range 1000 {
		hs = append(hs, r.Uint32())
	}
	for _, w := range []uint64{1, 2, 3, 7, 1000, 1024, 65535, 1<<31 + 1, 1<<32 - 1} {
		m := ^uint64(0)/w + 1
		for _, h := range hs {
			if got, want := mod(h, m, w), uint64(h)%w; got != want {
				t.Fatalf("mod(%d, %d) = %d, want %d", h, w, got, want)
			}
		}
	}
}

// TestNameHashes checks the shared-prefix hashing of subscriber names
// against TraceID of SubscriberName.
// It crosses A009/A010, A099/A100, A999/A1000 and every later name that gains
// a digit, up to A1000000001.
// It hashes twelve thousand names in a row.
// It hashes ranges that start and end mid-ten.
func TestNameHashes(t *testing.T) {
	for _, r := range [][2]int{
		{0, 25}, {3, 4}, {9, 10}, {95, 105}, {985, 1013}, {9997, 10003}, {123456, 123467}, {0, 12000},
		{99_985, 100_013}, {999_990, 1_000_003}, {9_999_989, 10_000_021}, {99_999_998, 100_000_000}, {999_999_999, 1_000_000_010},
	} {
		got := appendNameHashes(nil, r[0], r[1])
		if len(got) != r[1]-r[0] {
			t.Fatalf("%v: %d hashes", r, len(got))
		}
		for k, h := range got {
			if want := TraceID(SubscriberName(r[0] + k)); h != want {
				t.Errorf("subscriber %d: hash %#x, want %#x", r[0]+k, h, want)
			}
		}
	}
}

// TestStateRange checks the thresholds a block's draws are tested by.
// The state found draws g or more, and the one before it less.
func TestStateRange(t *testing.T) {
	for _, n := range []float64{1, 7, 2400, 1 << 24, 1_200_000_000, 3e12} {
		for _, g := range []int64{0, 1, 2, int64(n / 3), int64(n) - 1, int64(n)} {
			s := stateRange(n, g)
			if s < 1<<32 && drawOf(uint32(s), n) < g {
				t.Errorf("n %v, g %d: state %d draws %d", n, g, s, drawOf(uint32(s), n))
			}
			if s > 0 && drawOf(uint32(s-1), n) >= g {
				t.Errorf("n %v, g %d: state %d before the threshold draws %d", n, g, s-1, drawOf(uint32(s-1), n))
			}
		}
	}
}

// TestFaultIndexDrawnAtOnce draws an index's two sequences on two goroutines at once.
// Each sequence runs on either goroutine.
// Then it counts from the index. It runs under the race detector too.
func TestFaultIndexDrawnAtOnce(t *testing.T) {
	src := Source{Seed: 12, Subscribers: 30000, Periods: 12, Missing: 20000, Duplicates: 15000}
	parts := []Partitioning{{BySubscriber, 7}, {ByType, 2}}
	want := NewTally(src.Periods, parts)
	src.Count(want, 0, src.Subscribers)
	for swap := range 2 {
		f := src.NewFaultIndex(0, src.Subscribers)
		limit := src.FaultIndexBytes(0, src.Subscribers)
		here, there := f.DrawMissing, f.DrawDuplicates
		if swap == 1 {
			here, there = there, here
		}
		done := make(chan bool)
		go func() { done <- there(limit) }()
		if !here(limit) || !<-done {
			t.Fatal("refused at its bound")
		}
		got := NewTally(src.Periods, parts)
		f.Count(got, 0, src.Subscribers)
		if !sameTally(want, got) {
			t.Errorf("drawn at once: %+v, counted %+v", got.Drops(), want.Drops())
		}
	}
}

// TestStatesIn holds the batched draws to the generator stepped one state at a time.
// It compares the states kept, in order, and the generator after them.
// The ranges hold no state, every state, and between.
func TestStatesIn(t *testing.T) {
	for _, r := range [][2]uint64{{0, 0}, {0, 1 << 32}, {1 << 31, 1<<31 + 1<<30}, {0, 1000}, {1<<32 - 1000, 1 << 32}, {5, 5}} {
		got, want := NewRand(77), NewRand(77)
		var buf [statesBatch]uint32
		for _, m := range []int{1, 17, statesBatch} {
			kept := buf[:got.statesIn(buf[:m], r[0], r[1])]
			var exp []uint32
			for range m {
				want.s = want.s*1664525 + 1013904223
				if st := uint64(want.s); st >= r[0] && st < r[1] {
					exp = append(exp, want.s)
				}
			}
			if !slices.Equal(kept, exp) || got != want {
				t.Errorf("states %d..%d, %d draws: kept %d states, want %d (generator %d, want %d)", r[0], r[1], m, len(kept), len(exp), got.s, want.s)
			}
		}
	}
}
