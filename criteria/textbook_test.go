package criteria

import (
	"strconv"
	"testing"
)

// TestTextbookFigures holds YoungInterval and DalyInterval to the figures
// their papers publish. The README names the papers.
// They are a reference from outside this code.
// The checkpoint costs 5 minutes.
// At a mean time between failures of 24 hours, 6 hours and 15 minutes,
// Daly's estimate is about 117, 57 and 9.1 minutes.
// Young's √(2δM) is 120, 60 and 12.2 minutes.
func TestTextbookFigures(t *testing.T) {
	const delta = 5.0 // minutes
	for _, c := range []struct {
		mtbf        float64 // minutes
		decimals    int     // as the figure is published
		young, daly string
	}{
		{24 * 60, 0, "120", "117"},
		{6 * 60, 0, "60", "57"},
		{15, 1, "12.2", "9.1"},
	} {
		if got := strconv.FormatFloat(YoungInterval(delta, c.mtbf), 'f', c.decimals, 64); got != c.young {
			t.Errorf("YoungInterval(%v, %v) = %s, want %s", delta, c.mtbf, got, c.young)
		}
		if got := strconv.FormatFloat(DalyInterval(delta, c.mtbf), 'f', c.decimals, 64); got != c.daly {
			t.Errorf("DalyInterval(%v, %v) = %s, want %s", delta, c.mtbf, got, c.daly)
		}
	}
}

// TestTextbookUnits checks that the estimates do not depend on the unit.
// The same δ and M in seconds give the interval in seconds.
// It also checks that Daly falls back to M once a checkpoint costs 2M.
func TestTextbookUnits(t *testing.T) {
	for _, f := range []func(float64, float64) float64{YoungInterval, DalyInterval} {
		minutes, seconds := f(5, 360), f(5*60, 360*60)
		if d := seconds/60 - minutes; d > 1e-9 || d < -1e-9 {
			t.Errorf("in seconds %v, in minutes %v: not the same interval", seconds, minutes)
		}
	}
	if got := DalyInterval(10, 5); got != 5 {
		t.Errorf("DalyInterval(10, 5) = %v, want M = 5", got)
	}
}
