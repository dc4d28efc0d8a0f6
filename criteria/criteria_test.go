package criteria

import "testing"

// TestBestTiesGoToTheFirst checks that the least expected total wins, the
// first declared on ties, among the intervals left.
func TestBestTiesGoToTheFirst(t *testing.T) {
	totals := []float64{5, 3, 3, 4}
	total := func(i int) float64 { return totals[i] }
	for _, tt := range []struct {
		left []bool
		want int
	}{
		{nil, 1},
		{[]bool{true, true, true, true}, 1},
		{[]bool{true, false, true, true}, 2},
		{[]bool{true, false, false, true}, 3},
		{[]bool{false, false, false, false}, -1},
	} {
		if got := Best(len(totals), tt.left, total); got != tt.want {
			t.Errorf("Best(%v, left %v) = %d, want %d", totals, tt.left, got, tt.want)
		}
	}
}
