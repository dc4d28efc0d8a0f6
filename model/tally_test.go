package model

import (
	"slices"
	"testing"
)

// tallyOf scans a whole source into a tally for the given partitionings.
func tallyOf(src Source, parts []Partitioning) *Tally {
	t := NewTally(src.Periods, parts)
	src.Count(t, 0, src.Subscribers)
	return t
}

// TestPartitionedCounts checks rows per worker and the busiest worker's recovery.
// It checks them against testdata/reference.py.
// That script partitions the fault source's rows with the lesson's distribute.
func TestPartitionedCounts(t *testing.T) {
	parts := []Partitioning{{BySubscriber, 4}, {ByRegion, 3}, {ByType, 2}, {BySubscriber, 7}}
	tally := tallyOf(faultSource, parts)
	f := int(NewMonth(2026, 9) - faultSource.Start)
	tests := []struct {
		perWorker []int64
		busiest   map[Interval]int64
	}{
		{[]int64{72, 89, 97, 90}, map[Interval]int64{None: 75, 5: 0, 3: 8, 1: 0}},
		{[]int64{113, 0, 235}, map[Interval]int64{None: 175, 5: 0, 3: 18, 1: 0}},
		{[]int64{0, 348}, map[Interval]int64{None: 264, 5: 0, 3: 27, 1: 0}},
		{[]int64{37, 56, 61, 56, 56, 36, 46}, map[Interval]int64{None: 46, 5: 0, 3: 5, 1: 0}},
	}
	for p, tt := range tests {
		var got []int64
		for _, counts := range tally.Workers(p) {
			var n int64
			for _, c := range counts {
				n += c
			}
			got = append(got, n)
		}
		workers := tally.WorkerSet(p)
		if !slices.Equal(got, tt.perWorker) {
			t.Errorf("%+v: rows per worker = %v, want %v", parts[p], got, tt.perWorker)
		}
		for k, want := range tt.busiest {
			if b := Busiest(workers, k, f); b != want {
				t.Errorf("%+v: busiest at interval %v = %d, want %d", parts[p], k, b, want)
			}
		}
	}
	if got := tally.Rows(); got != 348 {
		t.Errorf("rows = %d, want 348", got)
	}
	if want := (Drops{Screened: 25, Deduped: 39, Unpaired: 20}); tally.Drops() != want {
		t.Errorf("drops = %+v, want %+v", tally.Drops(), want)
	}
}

// TestTallyMergeMatchesOneScan checks that merged tallies of parts of a source
// equal the tally of the whole.
// Parallel scans rest on this.
func TestTallyMergeMatchesOneScan(t *testing.T) {
	src := Source{Seed: 5, Subscribers: 97, Periods: 9, Missing: 40, Duplicates: 40}
	parts := []Partitioning{{BySubscriber, 3}, {ByRegion, 4}}
	whole := tallyOf(src, parts)
	merged := NewTally(src.Periods, parts)
	for lo := 0; lo < src.Subscribers; lo += 10 {
		part := NewTally(src.Periods, parts)
		src.Count(part, lo, min(lo+10, src.Subscribers))
		merged.Merge(part)
	}
	if !slices.Equal(merged.Stream(), whole.Stream()) || merged.Drops() != whole.Drops() {
		t.Errorf("merged stream %v %+v, whole %v %+v", merged.Stream(), merged.Drops(), whole.Stream(), whole.Drops())
	}
	for p := range parts {
		if !slices.EqualFunc(merged.Workers(p), whole.Workers(p), slices.Equal) {
			t.Errorf("partitioning %d: merged %v, whole %v", p, merged.Workers(p), whole.Workers(p))
		}
	}
}

// TestRecoveryMatchesRowScan checks the prefix-sum recovery against the
// lesson's definition, a count over the rows.
// It checks every failure and interval.
func TestRecoveryMatchesRowScan(t *testing.T) {
	rows, _ := faultSource.Pipeline()
	rec := NewRecovery(tallyOf(faultSource, nil).Stream())
	for f := 0; f < faultSource.Periods; f++ {
		for k := Interval(0); k <= Interval(faultSource.Periods); k++ {
			last := -1
			if k != None {
				last = f / int(k) * int(k)
			}
			var want int64
			for _, r := range rows {
				if last < r.Period && r.Period <= f {
					want++
				}
			}
			if got := rec.Recomputed(k, f); got != want {
				t.Errorf("Recomputed(%v, %d) = %d, want %d", k, f, got, want)
			}
		}
	}
}

func TestTraceID(t *testing.T) {
	// FNV-1a test vectors: the empty string is the offset basis.
	for in, want := range map[string]uint32{"": 2166136261, "a": 0xe40c292c, "foobar": 0xbf9cf968} {
		if got := TraceID(in); got != want {
			t.Errorf("TraceID(%q) = %#x, want %#x", in, got, want)
		}
	}
}
