package model

import (
	"math/bits"
	"slices"
	"testing"
)

// The faulty scale of bench/README.md.
// It is scale.yaml at 10^7 subscribers, with one fault of each kind in every
// hundred records.
// That is 12 million missing and 12 million duplicates draws.
// At 10^8 it is 120 million of each.
var (
	faults1pct = Source{Seed: scaleSeed, Subscribers: 10_000_000, Periods: scalePeriods,
		Missing: 12_000_000, Duplicates: 12_000_000}
	faults1pct8 = Source{Seed: scaleSeed, Subscribers: 100_000_000, Periods: scalePeriods,
		Missing: 120_000_000, Duplicates: 120_000_000}
)

// faultFloors are the sources the floors are measured at.
// 1e8 holds 1.4 GiB of bits, so it runs only when asked for (-bench 'Floor.*/1e8').
var faultFloors = []struct {
	name string
	src  Source
}{{"1e7", faults1pct}, {"1e8", faults1pct8}}

// BenchmarkFloorFaults does only what any correct count of a faults1pct
// source must do, on one core (floorFaults).
// The count is for scale.yaml's seven worker counts.
// It holds all N·P bits at once, which a run may not.
// It is the floor BenchmarkCountFaults and a run are set against.
// Its random accesses to the bits are most of its time.
// The bits take 143 MiB at 10^7 and 1.4 GiB at 10^8.
// BenchmarkFloorArithmetic leaves them out.
func BenchmarkFloorFaults(b *testing.B) {
	for _, c := range faultFloors {
		b.Run(c.name, func(b *testing.B) {
			var marks []uint64
			for b.Loop() {
				var f floorCount
				marks = f.count(c.src, scaleWorkers, marks)
				sink += uint64(f.drops.Screened + f.drops.Deduped + f.drops.Unpaired + f.subs[1][1] + f.lost[1][5])
			}
			b.ReportMetric(float64(c.src.Missing+c.src.Duplicates)*float64(b.N)/b.Elapsed().Seconds(), "draws/s")
		})
	}
}

// floorCount is what floorCount.count counts.
// That is the drops, the subscribers of each worker, and the rows each worker
// loses per period (worker × period).
type floorCount struct {
	drops      Drops
	subs, lost [][]int64
}

// count counts src partitioned by subscriber over workers, each dividing 64.
// It does only what any correct count must.
// It hashes every subscriber's name once and bins it once by 64.
// It folds the bins into each worker count at the end, as Count folds (model/fold.go).
// It draws each fault index once.
// It marks the missing records in a bitset of every record.
// That bitset is marks if it is large enough, and count returns it.
// It classifies each duplicate against the bitset.
// For each subscriber with a missing record it hashes the name again.
// It takes the rows each missing record removes off its bin of 64, per period.
// Those are its period's row and, if present, the next one's.
// They are folded into each worker count at the end too.
func (f *floorCount) count(src Source, workers []int, marks []uint64) []uint64 {
	p := int64(src.Periods)
	n := float64(int64(src.Subscribers) * p)
	records := int64(src.Subscribers) * p
	bins := floorBins(src.Subscribers)
	var lost [64][]int64 // per bin of 64, per period
	for r := range lost {
		lost[r] = make([]int64, p)
	}
	if words := (records + 63) / 64; int64(len(marks)) < words {
		marks = make([]uint64, words)
	} else {
		marks = marks[:words]
		clear(marks)
	}
	r := NewRand(src.missingSeed())
	for range src.Missing {
		x := int64(r.Next() * n)
		if bit := uint64(1) << (x % 64); marks[x/64]&bit == 0 {
			marks[x/64] |= bit
			f.drops.Screened++
		}
	}
	r = NewRand(src.duplicatesSeed())
	for range src.Duplicates {
		if x := int64(r.Next() * n); marks[x/64]&(1<<(x%64)) != 0 {
			f.drops.Screened++
		} else {
			f.drops.Deduped++
		}
	}
	missing := func(x int64) bool { return marks[x/64]&(1<<(x%64)) != 0 }
	var name []byte
	cur, bin := int64(-1), 0
	for k, word := range marks {
		for word != 0 {
			x := int64(k)*64 + int64(bits.TrailingZeros64(word))
			word &= word - 1
			i, j := x/p, x%p
			if i != cur {
				name = appendSubscriberName(name[:0], int(i))
				cur, bin = i, int(traceIDBytes(name)%64)
			}
			if j >= 1 { // its own row; the one after it is its own too if missing
				lost[bin][j]++
			}
			if j+1 < p && !missing(x+1) {
				lost[bin][j+1]++
				f.drops.Unpaired++
			}
		}
	}
	for _, w := range workers {
		subs := make([]int64, w)
		rows := make([]int64, w*int(p))
		for r := range bins {
			subs[r%w] += bins[r]
			for j, l := range lost[r] {
				rows[(r%w)*int(p)+j] += l
			}
		}
		f.subs, f.lost = append(f.subs, subs), append(f.lost, rows)
	}
	return marks
}

// TestFloorFaults holds the floor's count to Count's.
// So the floor does the work it stands for.
func TestFloorFaults(t *testing.T) {
	src := Source{Seed: scaleSeed, Subscribers: 123_457, Periods: 24, Missing: 40_000, Duplicates: 30_000}
	var parts []Partitioning
	for _, w := range scaleWorkers {
		parts = append(parts, Partitioning{BySubscriber, w})
	}
	tally := NewTally(src.Periods, parts)
	src.Count(tally, 0, src.Subscribers)
	var f floorCount
	f.count(src, scaleWorkers, nil)
	if f.drops != tally.Drops() {
		t.Errorf("floor drops %+v, Count %+v", f.drops, tally.Drops())
	}
	for k, w := range scaleWorkers {
		if !slices.Equal(f.subs[k], tally.workerSubs[k]) {
			t.Errorf("%d workers: floor subscribers %v, Count %v", w, f.subs[k], tally.workerSubs[k])
		}
		for worker := range w {
			want := tally.workerLost[k][int32(worker)]
			if want == nil {
				want = make([]int64, src.Periods)
			}
			if got := f.lost[k][worker*src.Periods : (worker+1)*src.Periods]; !slices.Equal(got, want) {
				t.Errorf("%d workers, worker %d: floor loses %v, Count %v", w, worker, got, want)
			}
		}
	}
}

// BenchmarkCountFaults counts faults1pct for scale.yaml's seven worker counts
// on one core.
// It counts block by block, as a run's tasks do.
// "redrawn" uses Count, which draws both fault sequences again for each block.
// "indexed" counts through a FaultIndex of the whole source, drawn once.
// Making the index is included.
// Set it against BenchmarkFloorFaults.
func BenchmarkCountFaults(b *testing.B) {
	src := faults1pct
	var parts []Partitioning
	for _, w := range scaleWorkers {
		parts = append(parts, Partitioning{BySubscriber, w})
	}
	step := src.FaultBlockSubscribers()
	for _, indexed := range []bool{false, true} {
		name := "redrawn"
		if indexed {
			name = "indexed"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				t := NewTally(src.Periods, parts)
				var f *FaultIndex
				if indexed {
					f = src.IndexFaults(0, src.Subscribers, src.FaultIndexBytes(0, src.Subscribers))
				}
				for lo := 0; lo < src.Subscribers; lo += step {
					hi := min(lo+step, src.Subscribers)
					if f != nil {
						f.Count(t, lo, hi)
					} else {
						src.Count(t, lo, hi)
					}
				}
				sink += uint64(t.Rows())
			}
			b.ReportMetric(float64(src.Missing+src.Duplicates)*float64(b.N)/b.Elapsed().Seconds(), "draws/s")
		})
	}
}

// BenchmarkFloorArithmetic is a lower bound of BenchmarkFloorFaults's arithmetic.
// It is not a count.
// It hashes and bins every name by 64 as the floor does.
// It draws each fault index once.
// For every missing draw it hashes the subscriber's name and takes two rows off its bin.
// It does so as if no two draws met, and it touches no bitset.
func BenchmarkFloorArithmetic(b *testing.B) {
	for _, c := range faultFloors {
		b.Run(c.name, func(b *testing.B) {
			src := c.src
			p := int64(src.Periods)
			n := float64(int64(src.Subscribers) * p)
			var name []byte
			for b.Loop() {
				bins := floorBins(src.Subscribers)
				lost := make([]int64, 64*p+1) // bin × period
				var sum int64
				r := NewRand(src.missingSeed())
				for range src.Missing {
					x := int64(r.Next() * n)
					i, j := x/p, x%p
					name = appendSubscriberName(name[:0], int(i))
					base := int64(traceIDBytes(name)%64) * p
					lost[base+j]++
					lost[base+j+1]++
				}
				r = NewRand(src.duplicatesSeed())
				for range src.Duplicates {
					sum += int64(r.Next() * n)
				}
				for _, w := range scaleWorkers {
					rows := make([]int64, w*int(p)+1)
					for k := range 64 * p {
						rows[(k/p)%int64(w)*p+k%p] += lost[k]
					}
					sum += rows[5] + bins[w-1]
				}
				sink += uint64(sum)
			}
			b.ReportMetric(float64(src.Missing+src.Duplicates)*float64(b.N)/b.Elapsed().Seconds(), "draws/s")
		})
	}
}
