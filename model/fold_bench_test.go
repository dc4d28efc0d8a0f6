package model

import (
	"strconv"
	"testing"
)

// foldSubscribers is the source BenchmarkFloorFold and BenchmarkCountFold
// count: a tenth of the 10^9 subscribers of `--set
// subscribers=1000000000 experiments/scale.yaml`, the same work per
// subscriber, so that a run of 10^9 costs about ten times either.
const foldSubscribers = 100_000_000

// BenchmarkFloorFold is the floor of counting a fault-free source
// partitioned by subscriber over scale.yaml's worker counts, on one core:
// every name hashed once (ten names in a row share all but their last
// byte, so a name costs one multiplication), binned once by 64, which every
// worker count divides, and folded into each worker count's bins once at
// the end. No counting of these partitionings can do less.
func BenchmarkFloorFold(b *testing.B) {
	for b.Loop() {
		var bins [64]int64
		var prefix []byte
		for tens := 0; tens*10 <= foldSubscribers; tens++ {
			prefix = append(prefix[:0], 'A')
			if tens < 10 {
				prefix = append(prefix, '0')
			}
			prefix = strconv.AppendInt(prefix, int64(tens), 10)
			h := uint32(2166136261)
			for _, c := range prefix {
				h = (h ^ uint32(c)) * 16777619
			}
			d := 0
			if tens == 0 {
				d = 1 // the first name is A001
			}
			for ; d < 10 && tens*10+d <= foldSubscribers; d++ {
				bins[((h^uint32('0'+d))*16777619)%64]++
			}
		}
		var sum int64
		for _, w := range scaleWorkers {
			subs := make([]int64, w)
			for r, n := range bins {
				subs[r%w] += n
			}
			sum += subs[w-1]
		}
		sink += uint64(sum)
	}
	b.ReportMetric(float64(foldSubscribers)*float64(b.N)/b.Elapsed().Seconds(), "subscribers/s")
}

// BenchmarkCountFold counts the source of BenchmarkFloorFold as a run does,
// in tasks of 2^16 subscribers into one tally, on one core: to be compared
// with BenchmarkFloorFold.
func BenchmarkCountFold(b *testing.B) {
	src := Source{Seed: scaleSeed, Subscribers: foldSubscribers, Periods: scalePeriods}
	var parts []Partitioning
	for _, w := range scaleWorkers {
		parts = append(parts, Partitioning{BySubscriber, w})
	}
	for b.Loop() {
		t := NewTally(src.Periods, parts)
		for lo := 0; lo < src.Subscribers; lo += 1 << 16 {
			src.Count(t, lo, min(lo+1<<16, src.Subscribers))
		}
		sink += uint64(t.workerSubs[len(parts)-1][0])
	}
	b.ReportMetric(float64(foldSubscribers)*float64(b.N)/b.Elapsed().Seconds(), "subscribers/s")
}
