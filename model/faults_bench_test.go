package model

import (
	"math/bits"
	"testing"
)

// The faulty scale of bench/README.md: scale.yaml at 10^7 subscribers with
// one fault of each kind in every hundred records (12 million missing and
// 12 million duplicates draws).
var faults1pct = Source{Seed: scaleSeed, Subscribers: 10_000_000, Periods: scalePeriods,
	Missing: 12_000_000, Duplicates: 12_000_000}

// BenchmarkFloorFaults does, on one core, only what any correct count of
// faults1pct for scale.yaml's seven worker counts must: hash every
// subscriber's name once and bin it for each worker count, draw each of the
// 24 million fault indices once, mark the missing records in a bitset of
// every record, classify each duplicate against it, and take the rows each
// missing record removes (its period's and, if present, the next one's)
// off the worker of its subscriber, per period, for each worker count. It
// holds all N·P bits and every name's hash at once, which a run may not:
// the floor BenchmarkCountFaults is set against. Its random accesses to
// 143 MiB of bits are most of its time; BenchmarkFloorArithmetic leaves
// them out.
func BenchmarkFloorFaults(b *testing.B) {
	src := faults1pct
	p := int64(src.Periods)
	n := float64(int64(src.Subscribers) * p)
	records := int64(src.Subscribers) * p
	var hashes []uint32
	var marks []uint64
	for b.Loop() {
		hashes = appendNameHashes(hashes[:0], 0, src.Subscribers)
		subs := make([][]int64, len(scaleWorkers))
		lost := make([][]int64, len(scaleWorkers)) // per worker count, worker × period
		fastmod := make([]uint64, len(scaleWorkers))
		for k, w := range scaleWorkers {
			subs[k] = make([]int64, w)
			lost[k] = make([]int64, w*int(p))
			fastmod[k] = ^uint64(0)/uint64(w) + 1
			for _, h := range hashes {
				subs[k][mod(h, fastmod[k], uint64(w))]++
			}
		}
		if marks == nil {
			marks = make([]uint64, (records+63)/64)
		}
		clear(marks)
		var drops Drops
		r := NewRand(src.missingSeed())
		for range src.Missing {
			x := int64(r.Next() * n)
			if bit := uint64(1) << (x % 64); marks[x/64]&bit == 0 {
				marks[x/64] |= bit
				drops.Screened++
			}
		}
		r = NewRand(src.duplicatesSeed())
		for range src.Duplicates {
			if x := int64(r.Next() * n); marks[x/64]&(1<<(x%64)) != 0 {
				drops.Screened++
			} else {
				drops.Deduped++
			}
		}
		missing := func(x int64) bool { return marks[x/64]&(1<<(x%64)) != 0 }
		for k, word := range marks {
			for word != 0 {
				x := int64(k)*64 + int64(bits.TrailingZeros64(word))
				word &= word - 1
				i, j := x/p, x%p
				h := hashes[i]
				for c, w := range scaleWorkers {
					base := int64(mod(h, fastmod[c], uint64(w))) * p
					if j >= 1 && !missing(x-1) { // not already taken off as the one after
						lost[c][base+j]++
					}
					if j+1 < p && !missing(x+1) {
						lost[c][base+j+1]++
						if c == 0 {
							drops.Unpaired++
						}
					}
				}
			}
		}
		sink += uint64(drops.Screened + drops.Deduped + drops.Unpaired + lost[1][5] + subs[2][1])
	}
	b.ReportMetric(float64(src.Missing+src.Duplicates)*float64(b.N)/b.Elapsed().Seconds(), "draws/s")
}

// BenchmarkCountFaults counts faults1pct for scale.yaml's seven worker
// counts on one core, block by block as a run's tasks do: "redrawn" with
// Count, which draws both fault sequences again for each block, and
// "indexed" through a FaultIndex of the whole source, drawn once (its
// making included). To be set against BenchmarkFloorFaults.
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

// BenchmarkFloorArithmetic is a lower bound of BenchmarkFloorFaults's
// arithmetic, not a count: it hashes and bins every name as the floor
// does, draws each fault index once, and for every missing draw hashes
// its subscriber's name and takes two rows off its workers, as if no two
// draws met; it touches no bitset.
func BenchmarkFloorArithmetic(b *testing.B) {
	src := faults1pct
	p := int64(src.Periods)
	n := float64(int64(src.Subscribers) * p)
	var hashes []uint32
	var name []byte
	for b.Loop() {
		hashes = appendNameHashes(hashes[:0], 0, src.Subscribers)
		subs := make([][]int64, len(scaleWorkers))
		lost := make([][]int64, len(scaleWorkers))
		fastmod := make([]uint64, len(scaleWorkers))
		for k, w := range scaleWorkers {
			subs[k] = make([]int64, w)
			lost[k] = make([]int64, w*int(p)+1)
			fastmod[k] = ^uint64(0)/uint64(w) + 1
			for _, h := range hashes {
				subs[k][mod(h, fastmod[k], uint64(w))]++
			}
		}
		var sum int64
		r := NewRand(src.missingSeed())
		for range src.Missing {
			x := int64(r.Next() * n)
			i, j := x/p, x%p
			name = appendSubscriberName(name[:0], int(i))
			h := traceIDBytes(name)
			for c, w := range scaleWorkers {
				base := int64(mod(h, fastmod[c], uint64(w))) * p
				lost[c][base+j]++
				lost[c][base+j+1]++
			}
		}
		r = NewRand(src.duplicatesSeed())
		for range src.Duplicates {
			sum += int64(r.Next() * n)
		}
		sink += uint64(sum + lost[1][5] + subs[2][1])
	}
	b.ReportMetric(float64(src.Missing+src.Duplicates)*float64(b.N)/b.Elapsed().Seconds(), "draws/s")
}
