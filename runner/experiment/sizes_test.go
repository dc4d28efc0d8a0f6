package experiment

import (
	"math"
	"testing"

	"ckptlab/model"
)

// countPoints counts the sizes of e by visiting every point of every
// grid, as an independent check of Sizes; a source of several grids
// counts once. It gives up (ok false) when the
// grids hold more than limit points.
func countPoints(e *Experiment, limit int64) (s Sizes, ok bool) {
	var all int64
	for _, g := range e.Grids() {
		for _, p := range g.Periods {
			all += e.fullSizes(&g, p).GridRows
		}
	}
	if all > limit {
		return Sizes{}, false
	}
	seen := map[[3]int]bool{} // sources counted
	for _, g := range e.Grids() {
		for _, seed := range g.Seeds {
			for _, n := range g.Subscribers {
				for _, p := range g.Periods {
					drawnHere := false
					for _, key := range g.PartitionKeys {
						for _, w := range g.Workers {
							for _, k := range g.IntervalsFor(p) {
								left := false
								for _, sr := range g.StateRowsFor(n) {
									for _, prob := range g.Probabilities {
										pt := Point{seed, n, p, key, w, sr, prob, k}
										if !e.Excluded(pt) {
											s.GridRows++
											left = true
										}
									}
								}
								if left {
									s.FailureRows += e.FailureCount(p)
									drawnHere = true
								}
							}
						}
					}
					if key := [3]int{int(seed), n, p}; drawnHere && !seen[key] {
						seen[key] = true
						s.Sources++
					}
				}
			}
		}
	}
	return s, true
}

func TestSizes(t *testing.T) {
	lesson := Lesson("lesson")
	all := Lesson("all")
	all.Periods = []int{6, 12}
	all.IntervalsAll = true
	all.Intervals = nil
	all.FailurePeriod = model.NewMonth(2026, 3)
	listed := Lesson("listed")
	listed.Seeds = []uint32{1, 2, 3}
	listed.PartitionKeys = model.PartitionKeys
	listed.FailurePeriods = []model.Month{model.NewMonth(2026, 3), model.NewMonth(2026, 9)}

	tests := []struct {
		name                  string
		e                     Experiment
		sources, grid, failed int64
	}{
		// The lesson: 4 probabilities × 6 intervals; 6 intervals × 11 failures.
		{"lesson", lesson, 1, 24, 66},
		// P=6: 7 intervals, 5 failures; P=12: 13 intervals, 11 failures.
		{"intervals all", all, 2, 4*7 + 4*13, 7*5 + 13*11},
		{"listed failures", listed, 3, 3 * 3 * 4 * 6, 3 * 3 * 6 * 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.e.Sources(); got != tt.sources {
				t.Errorf("Sources() = %d, want %d", got, tt.sources)
			}
			if got := tt.e.GridRows(); got != tt.grid {
				t.Errorf("GridRows() = %d, want %d", got, tt.grid)
			}
			if got := tt.e.FailureRows(); got != tt.failed {
				t.Errorf("FailureRows() = %d, want %d", got, tt.failed)
			}
		})
	}
}

func TestSizesSaturate(t *testing.T) {
	big := make([]int, 1_000_000)
	e := Lesson("big")
	e.Subscribers, e.Workers, e.StateRows = big, big, big
	e.Periods = make([]int, 1_000_000)
	for i := range e.Periods {
		e.Periods[i] = 12
	}
	if got := e.GridRows(); got != math.MaxInt64 {
		t.Errorf("GridRows() = %d, want math.MaxInt64", got)
	}
	if got := e.FailureRows(); got != math.MaxInt64 {
		t.Errorf("FailureRows() = %d, want math.MaxInt64", got)
	}
	if got := e.Sources(); got != 1_000_000*1_000_000 {
		t.Errorf("Sources() = %d, want 10^12", got)
	}
}
