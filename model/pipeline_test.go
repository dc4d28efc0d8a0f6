package model

import (
	"slices"
	"testing"
)

// faultSource is the fault case of testdata/reference.py.
// It has seed 7, 30 subscribers and 14 periods from 2025-11, crossing a year.
// It has 25 missing and 40 duplicates draws.
var faultSource = Source{Seed: 7, Subscribers: 30, Periods: 14, Start: NewMonth(2025, 11), Missing: 25, Duplicates: 40}

func TestPipelineWithFaults(t *testing.T) {
	rows, drops := faultSource.Pipeline()
	if len(rows) != 348 {
		t.Errorf("rows = %d, want 348", len(rows))
	}
	if want := (Drops{Screened: 25, Deduped: 39, Unpaired: 20}); drops != want {
		t.Errorf("drops = %+v, want %+v", drops, want)
	}
	var m3 int64
	perPeriod := make([]int64, faultSource.Periods)
	for _, r := range rows {
		m3 += r.M3
		perPeriod[r.Period]++
	}
	if m3 != 8868 {
		t.Errorf("sum of m3 = %d, want 8868", m3)
	}
	want := []int64{0, 27, 27, 25, 23, 26, 28, 28, 27, 26, 27, 29, 28, 27}
	if !slices.Equal(perPeriod, want) {
		t.Errorf("rows per period = %v, want %v", perPeriod, want)
	}
}

// TestMissingIndexDropsItsRowAndSuccessor follows one record through the stages.
// Without its index it is screened out.
// The next period's record then loses the previous reading it needs.
func TestMissingIndexDropsItsRowAndSuccessor(t *testing.T) {
	src := Source{Seed: 1, Subscribers: 2, Periods: 5, Start: NewMonth(2026, 1)}
	recs := src.Generate()
	recs[2].HasIndex = false // subscriber 0, period 2
	var st Stages
	recs, screened := st.Screen(recs)
	recs, deduped := st.Dedupe(recs, src.Periods)
	rows, unpaired := st.Consumption(nil, recs, src.Periods)
	if screened != 1 || deduped != 0 || unpaired != 1 {
		t.Errorf("drops = %d, %d, %d; want 1, 0, 1", screened, deduped, unpaired)
	}
	var got [][2]int
	for _, r := range rows {
		got = append(got, [2]int{r.Subscriber, r.Period})
	}
	want := [][2]int{{0, 1}, {0, 4}, {1, 1}, {1, 2}, {1, 3}, {1, 4}}
	if !slices.Equal(got, want) {
		t.Errorf("rows = %v, want %v", got, want)
	}
}

// TestDuplicateIsDeduped checks that the dedupe stage removes a copy.
// The copy changes nothing downstream.
func TestDuplicateIsDeduped(t *testing.T) {
	src := Source{Seed: 1, Subscribers: 2, Periods: 5, Start: NewMonth(2026, 1)}
	clean, _ := src.Pipeline()
	recs := Faults{Duplicated: []int64{3, 3, 7}}.Apply(nil, src.Generate(), 0)
	if len(recs) != 13 {
		t.Fatalf("records after duplication = %d, want 13", len(recs))
	}
	var st Stages
	recs, screened := st.Screen(recs)
	recs, deduped := st.Dedupe(recs, src.Periods)
	rows, unpaired := st.Consumption(nil, recs, src.Periods)
	if screened != 0 || deduped != 3 || unpaired != 0 {
		t.Errorf("drops = %d, %d, %d; want 0, 3, 0", screened, deduped, unpaired)
	}
	if !slices.Equal(rows, clean) {
		t.Errorf("rows with duplicates = %v, want %v", rows, clean)
	}
}

func TestFaultsDrawnTwiceStayMissing(t *testing.T) {
	// Many draws on few records: some records are drawn more than once.
	src := Source{Seed: 3, Subscribers: 2, Periods: 3, Missing: 20}
	f := src.Faults()
	if len(f.Missing) > 6 || !slices.IsSorted(f.Missing) {
		t.Fatalf("missing = %v, want at most 6 distinct sorted indexes", f.Missing)
	}
	if len(slices.Compact(slices.Clone(f.Missing))) != len(f.Missing) {
		t.Errorf("missing = %v has repeats", f.Missing)
	}
}

// TestScanMatchesPipeline checks streaming subscriber by subscriber against
// the whole-list pipeline.
// In any split of the source, it must give the same rows and drops.
func TestScanMatchesPipeline(t *testing.T) {
	sources := []Source{
		faultSource,
		{Seed: 20260218, Subscribers: 200, Periods: 12, Start: NewMonth(2026, 1)},
		{Seed: 99, Subscribers: 50, Periods: 6, Start: NewMonth(2026, 1), Missing: 100, Duplicates: 300},
	}
	for _, src := range sources {
		want, wantDrops := src.Pipeline()
		for _, split := range []int{0, 1, src.Subscribers / 3, src.Subscribers - 1, src.Subscribers} {
			var got []Row
			var drops Drops
			f := src.Faults()
			visit := func(i int, sub Subscriber, rows []Row) { got = append(got, rows...) }
			drops.Add(src.Scan(0, split, f, visit))
			drops.Add(src.Scan(split, src.Subscribers, f, visit))
			if !slices.Equal(got, want) || drops != wantDrops {
				t.Errorf("%+v split at %d: scan gives %d rows, %+v; pipeline %d rows, %+v",
					src, split, len(got), drops, len(want), wantDrops)
			}
		}
	}
}
