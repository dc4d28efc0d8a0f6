package model

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestCheckAcceptsCounts checks that every tally counting gives passes Check.
// The tallies are of pieces of sources with heavy faults.
// Check must never refuse an honest shard.
func TestCheckAcceptsCounts(t *testing.T) {
	parts := []Partitioning{{BySubscriber, 3}, {ByRegion, 4}, {ByType, 2}}
	sources := []Source{
		{Seed: 1, Subscribers: 50, Periods: 12},
		{Seed: 5, Subscribers: 97, Periods: 9, Missing: 40, Duplicates: 40},
		{Seed: 9, Subscribers: 30, Periods: 2, Missing: 59, Duplicates: 200},
		{Seed: 3, Subscribers: 11, Periods: 24, Missing: 1000, Duplicates: 1000},
	}
	for _, src := range sources {
		for _, step := range []int{1, 7, src.Subscribers} {
			for lo := 0; lo < src.Subscribers; lo += step {
				hi := min(lo+step, src.Subscribers)
				tl := NewTally(src.Periods, parts)
				src.Count(tl, lo, hi)
				if err := tl.Check(int64(hi-lo), src.Missing, src.Duplicates); err != nil {
					t.Errorf("%+v, subscribers %d..%d: %v", src, lo, hi, err)
				}
			}
		}
	}
}

// TestCheckRefusesCounts checks each count Check refuses.
// The tally is edited after counting.
func TestCheckRefusesCounts(t *testing.T) {
	src := Source{Seed: 5, Subscribers: 97, Periods: 9, Missing: 40, Duplicates: 40}
	parts := []Partitioning{{BySubscriber, 3}, {ByRegion, 4}}
	tests := []struct {
		edit func(t *Tally)
		want string
	}{
		{func(t *Tally) { t.subs = -200 }, "counts -200 subscribers where its pieces cover 97"},
		{func(t *Tally) { t.subs++ }, "counts 98 subscribers"},
		{func(t *Tally) { t.workerSubs[1][0]++ }, "the workers of region × 4 hold more subscribers than the 97"},
		{func(t *Tally) { t.workerSubs[1][3]-- }, "the workers of region × 4 hold 96 subscribers, but the tally counts 97"},
		{func(t *Tally) { t.workerSubs[0][0] = math.MaxInt64 }, "hold more subscribers than the 97"},
		{func(t *Tally) { t.lost[0] = 1 }, "lost in the first period"},
		{func(t *Tally) { t.lost[2] = -1 }, "-1 rows lost in period 3"},
		{func(t *Tally) { t.lost[2] = 1e9 }, "1000000000 rows lost in period 3 of 97 subscribers"},
		{func(t *Tally) { t.lost[2]++ }, "lose"},
		{func(t *Tally) { t.drops.Unpaired = 41 }, "41 records unpaired, more than the 40 missing draws"},
		{func(t *Tally) { t.drops.Deduped = -1 }, "negative drop counts"},
		{func(t *Tally) { t.drops.Screened = 81 }, "81 records screened out, more than the 80 fault draws"},
	}
	for _, tt := range tests {
		tl := NewTally(src.Periods, parts)
		src.Count(tl, 0, src.Subscribers)
		tt.edit(tl)
		err := tl.Check(int64(src.Subscribers), src.Missing, src.Duplicates)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Check = %v, want an error saying %q", err, tt.want)
		}
	}
	// Without faults no row may be lost at all.
	clean := Source{Seed: 1, Subscribers: 20, Periods: 6}
	tl := NewTally(clean.Periods, parts)
	clean.Count(tl, 0, clean.Subscribers)
	tl.lost[1], tl.workerLost[0] = 1, map[int32][]int64{0: {0, 1, 0, 0, 0, 0}}
	tl.workerLost[1] = map[int32][]int64{0: {0, 1, 0, 0, 0, 0}}
	if err := tl.Check(20, 0, 0); err == nil || !strings.Contains(err.Error(), "the 0 that 0 missing records can remove") {
		t.Errorf("Check of lost rows without faults = %v", err)
	}
}

// TestMergeRefusesOverflow checks that a sum past an int64 is an error.
// The tally is left as it was.
func TestMergeRefusesOverflow(t *testing.T) {
	parts := []Partitioning{{BySubscriber, 2}}
	a, b := NewTally(3, parts), NewTally(3, parts)
	a.subs, b.subs = 1<<62, 1<<62
	a.workerSubs[0][0], b.workerSubs[0][0] = 1<<62, 1<<62
	if err := a.Merge(b); err == nil {
		t.Fatal("merged two tallies of 2^62 subscribers each")
	} else if !errors.Is(err, errOverflow) {
		t.Errorf("Merge = %v", err)
	}
	if a.subs != 1<<62 || a.workerSubs[0][0] != 1<<62 {
		t.Errorf("a failed Merge changed the tally: %d subscribers", a.subs)
	}
	b.subs, b.workerSubs[0][0] = 1, 1
	if err := a.Merge(b); err != nil || a.subs != 1<<62+1 {
		t.Errorf("Merge = %v, subscribers %d", err, a.subs)
	}
}
