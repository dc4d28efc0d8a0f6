package results

import (
	"slices"
	"strings"
	"testing"
)

// lineChart returns a chart of the given lines over x = 0, 1, …, each a
// column named by its key.
func lineChart(names []string, lines map[string][]float64, rec string, whole bool) Chart {
	c := Chart{WholeRecommended: whole}
	if rec != "" {
		c.Recommended = []string{rec}
	}
	c.Data.Columns = []Column{{Name: "x", Kind: Int}}
	for _, n := range names {
		c.Data.Columns = append(c.Data.Columns, Column{Name: n, Kind: Float, Decimals: 1})
	}
	for i := range lines[names[0]] {
		row := []Value{IntValue(int64(i))}
		for _, n := range names {
			row = append(row, FloatValue(lines[n][i]))
		}
		c.Data.Rows = append(c.Data.Rows, row)
	}
	return c
}

// TestScaleY checks the y axis of a chart: scaled to the lines that compete
// (the lower envelope, and the recommended line whole where the chart asks
// for it), above every point of them, and cut only where a line rises far
// above them, each cut line named.
func TestScaleY(t *testing.T) {
	for _, tc := range []struct {
		name  string
		names []string
		lines map[string][]float64
		rec   string
		whole bool
		top   float64 // 0: not capped
		cut   []string
	}{
		{
			name:  "the lesson's expected totals: interval 1 at 2,400 is cut",
			names: []string{"interval none", "interval 6", "interval 4", "interval 1"},
			lines: map[string][]float64{
				"interval none": {0, 600, 1200}, "interval 6": {400, 672.7, 945.5},
				"interval 4": {600, 763.6, 927.3}, "interval 1": {2400, 2400, 2400},
			},
			rec: "interval 4", top: 1500, cut: []string{"interval 1"},
		},
		{
			name:  "every line near the best: no cap",
			names: []string{"interval none", "interval 4"},
			lines: map[string][]float64{"interval none": {0, 600, 1200}, "interval 4": {600, 763.6, 927.3}},
			rec:   "interval 4",
		},
		{
			name:  "a worker sweep: the recommended line whole, not interval 1's zeros",
			names: []string{"interval none", "interval 6", "interval 4", "interval 1"},
			lines: map[string][]float64{
				"interval none": {2200, 1100, 792, 165}, "interval 6": {1000, 500, 360, 75},
				"interval 4": {600, 300, 216, 45}, "interval 1": {0, 0, 0, 0},
			},
			rec: "interval 4", whole: true, top: 1000, cut: []string{"interval none"},
		},
		{
			name:  "the same sweep scaled to the envelope alone: zeros compete with nothing",
			names: []string{"interval none", "interval 4", "interval 1"},
			lines: map[string][]float64{
				"interval none": {2200, 1100, 792, 165}, "interval 4": {600, 300, 216, 45}, "interval 1": {0, 0, 0, 0},
			},
			rec: "interval 4",
		},
		{
			name:  "a line a little above the top raises it, and is drawn whole",
			names: []string{"interval none", "interval 6", "interval 4"},
			lines: map[string][]float64{
				"interval none": {2761, 748}, "interval 6": {1255, 340}, "interval 4": {753, 204},
			},
			rec: "interval 4", whole: true, top: 1500, cut: []string{"interval none"},
		},
		{
			name:  "a line a little above the top, but past the next round number: cut",
			names: []string{"interval none", "interval 61", "interval 18"},
			lines: map[string][]float64{
				"interval none": {0, 60e6}, "interval 61": {1e6, 30.7e6}, "interval 18": {7e6, 14.06e6},
			},
			rec: "interval none", top: 25e6, cut: []string{"interval none", "interval 61"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := lineChart(tc.names, tc.lines, tc.rec, tc.whole)
			s, ok := scaleY(c)
			if ok != (tc.top > 0) || s.top != tc.top {
				t.Fatalf("scaleY = %v, %v; want top %v (0: none)", s.top, ok, tc.top)
			}
			if !ok {
				return
			}
			var cut []string
			for _, l := range s.cut {
				cut = append(cut, l.name)
			}
			if !slices.Equal(cut, tc.cut) {
				t.Errorf("cut lines %q, want %q", cut, tc.cut)
			}
			// The top is above every point of the lower envelope, and of the
			// recommended line when it is to be whole; a line is cut exactly
			// when it rises above the top.
			for _, r := range c.Data.Rows {
				lowest := YValue(r[1])
				for j := 1; j < len(r); j++ {
					lowest = min(lowest, YValue(r[j]))
					if c.Data.Columns[j].Name == tc.rec && tc.whole && YValue(r[j]) > s.top {
						t.Errorf("the recommended line reaches %v, above the top %v", YValue(r[j]), s.top)
					}
				}
				if lowest >= s.top {
					t.Errorf("the envelope reaches %v, at or above the top %v", lowest, s.top)
				}
			}
			note := s.note()
			for _, n := range tc.cut {
				if !strings.Contains(note, n+" reaches ") {
					t.Errorf("note %q does not name %s", note, n)
				}
			}
		})
	}
}

func TestNiceCeil(t *testing.T) {
	for _, tc := range []struct{ v, want float64 }{
		{1391, 1500}, {900, 1000}, {1000, 1000}, {1129.5, 1200}, {25.2e6, 25e6 + 5e6}, {0.7, 0.8}, {2001, 2500},
	} {
		if got := niceCeil(tc.v); got != tc.want {
			t.Errorf("niceCeil(%v) = %v, want %v", tc.v, got, tc.want)
		}
	}
}
