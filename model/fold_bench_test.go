package model

import (
	"slices"
	"testing"
)

// foldSubscribers is the source BenchmarkFloorFold and BenchmarkCountFold count.
// It is a tenth of the 10^9 subscribers of
// `--set subscribers=1000000000 experiments/scale.yaml`.
// The work per subscriber is the same.
// So a run of 10^9 costs about ten times either benchmark.
const foldSubscribers = 100_000_000

// BenchmarkFloorFold is the floor of counting a fault-free source partitioned
// by subscriber over scale.yaml's worker counts, on one core.
// It hashes every name once and bins it once by 64, which every worker count divides.
// It folds the bins into each worker count's bins once, at the end.
// Ten names in a row share all but their last byte.
// The digits before it are counted up in place, keeping the hash of each leading part.
// So a name costs about one multiplication.
// No counting of these partitionings can do less.
func BenchmarkFloorFold(b *testing.B) {
	for b.Loop() {
		bins := floorBins(foldSubscribers)
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

// floorBins returns the subscribers of the first n names per bin of 64.
// It hashes and bins them as BenchmarkFloorFold does.
func floorBins(n int) [64]int64 {
	var bins [64]uint32
	digits := [24]byte{'A', '0', '0'} // the prefix of the first ten names
	nd := 3
	var hs [25]uint32 // hs[k]: the hash of digits[:k]
	hs[0] = 2166136261
	for k := range nd {
		hs[k+1] = (hs[k] ^ uint32(digits[k])) * 16777619
	}
	for i := 1; i <= n; {
		h, d := hs[nd], i%10
		end := min(10, d+n-i+1)
		i += end - d
		for ; d < end; d++ {
			bins[((h^uint32('0'+d))*16777619)%64]++
		}
		k := nd - 1
		for k > 0 && digits[k] == '9' {
			digits[k] = '0'
			k--
		}
		if k == 0 {
			digits[1], digits[nd] = '1', '0'
			nd++
			k = 1
		} else {
			digits[k]++
		}
		for ; k < nd; k++ {
			hs[k+1] = (hs[k] ^ uint32(digits[k])) * 16777619
		}
	}
	var out [64]int64
	for r, c := range bins {
		out[r] = int64(c)
	}
	return out
}

// TestFloorBins holds the floor's binning to Count's.
// So the floor does the work it stands for.
func TestFloorBins(t *testing.T) {
	const n = 123_457
	bins := floorBins(n)
	src := Source{Seed: scaleSeed, Subscribers: n, Periods: 2}
	tally := NewTally(src.Periods, []Partitioning{{BySubscriber, 64}})
	src.Count(tally, 0, n)
	if !slices.Equal(bins[:], tally.workerSubs[0]) {
		t.Errorf("floor bins %v, Count %v", bins, tally.workerSubs[0])
	}
}

// BenchmarkCountFold counts the source of BenchmarkFloorFold as a run does.
// It counts in tasks of 2^16 subscribers into one tally, on one core.
// Compare it with BenchmarkFloorFold.
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
