package results

import (
	"fmt"
	"math"

	"ckptlab/internal/words"
)

// The y axis of a chart is scaled to the lines that compete for the
// answer, not to the highest line: interval 1 at 2,400 rows, or none at
// 2,200, would squash the lines near the best into a strip at the bottom.
// Every writer of a chart (the workbook's charts sheet, the Markdown's
// Mermaid charts) reads the same scale and writes the same note.
const (
	// yHeadroom is how far above the competing lines the axis reaches:
	// half as much again, so that they fill two thirds of the chart.
	yHeadroom = 1.5
	// yCutAbove is how much higher than the axis's top a line must rise
	// before the axis is cut: a line only a little above it costs the
	// others little room, and is better drawn whole.
	yCutAbove = 1.25
)

// niceSteps are the round numbers, times a power of ten, an axis may stop
// at.
var niceSteps = [...]float64{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}

// yScale is the top of a chart's y axis and the lines that rise above it.
type yScale struct {
	top float64
	cut []cutLine
	// basis says what the top is scaled to.
	basis string
}

// cutLine is a line that runs off the chart: its name and its highest
// point, as its column shows it.
type cutLine struct {
	name    string
	highest string
}

// YAxis returns the top of a chart's y axis, as scaleY sets it, and the
// note that says where it stops. ok is false where the axis is left alone.
func YAxis(c Chart) (top float64, note string, ok bool) {
	s, ok := scaleY(c)
	if !ok {
		return 0, "", false
	}
	return s.top, s.note(), true
}

// scaleY returns the y axis of a chart whose lines reach far above the
// competing ones: a round number half as much again above the highest
// point of the lower envelope (the best figure at each x), and of the
// recommended line whole when the chart asks for it; ok is false when
// every line fits below such a top, nothing competes above zero, or the
// axis is a log scale.
func scaleY(c Chart) (s yScale, ok bool) {
	if c.LogY {
		return yScale{}, false
	}
	cols := c.Data.Columns
	rec := map[int]bool{}
	if c.WholeRecommended {
		for j := 1; j < len(cols); j++ {
			if c.IsRecommended(cols[j].Name) {
				rec[j] = true
			}
		}
	}
	var best, recommended, highest float64
	for _, r := range c.Data.Rows {
		lowest := math.Inf(1)
		for j := 1; j < len(r); j++ {
			y := YValue(r[j])
			lowest, highest = min(lowest, y), max(highest, y)
			if rec[j] {
				recommended = max(recommended, y)
			}
		}
		best = max(best, lowest)
	}
	competing := max(best, recommended)
	s.basis = "the highest best figure"
	if recommended > best {
		s.basis = "the highest point of " + words.And(c.Recommended) + ", the recommended interval"
		if len(c.Recommended) > 1 {
			s.basis += "s"
		}
	}
	if competing <= 0 || math.IsInf(competing, 0) {
		return yScale{}, false
	}
	s.top = niceCeil(yHeadroom * competing)
	if highest <= yCutAbove*s.top {
		return yScale{}, false
	}
	// A line whose highest point is only a little above the top is drawn
	// whole: the top rises to the highest of them, as far as the next
	// round number within yCutAbove of it.
	near := s.top
	for j := 1; j < len(cols); j++ {
		var hi float64
		for _, r := range c.Data.Rows {
			hi = max(hi, YValue(r[j]))
		}
		if hi <= yCutAbove*s.top {
			near = max(near, hi)
		}
	}
	if raised := niceCeil(near); raised <= yCutAbove*s.top {
		s.top = raised
	}
	for j := 1; j < len(cols); j++ {
		var hi Value
		for i, r := range c.Data.Rows {
			if i == 0 || YValue(r[j]) > YValue(hi) {
				hi = r[j]
			}
		}
		if YValue(hi) > s.top {
			s.cut = append(s.cut, cutLine{cols[j].Name, string(appendStyled(nil, hi, cols[j]))})
		}
	}
	return s, true
}

// note says where the axis stops and why, and names each line it cuts:
// "interval 1 reaches 2,400.0, off the chart".
func (s yScale) note() string {
	top := General.Format(s.top)
	if s.top == math.Trunc(s.top) {
		top = Count.FormatInt(int64(s.top))
	}
	rises := make([]string, len(s.cut))
	for i, l := range s.cut {
		rises[i] = fmt.Sprintf("%s reaches %s", l.name, l.highest)
	}
	return fmt.Sprintf("The y axis stops at %s, scaled to %s with room above, so that the lines near the best are told apart: %s, off the chart.",
		top, s.basis, words.And(rises))
}

// niceCeil returns the least round number (a niceSteps value times a power
// of ten) at or above v > 0.
func niceCeil(v float64) float64 {
	unit := math.Pow(10, math.Floor(math.Log10(v)))
	for _, s := range niceSteps {
		if s*unit >= v*(1-1e-12) {
			return s * unit
		}
	}
	return 10 * unit
}

// YValue returns a numeric cell's value, NaN for any other.
func YValue(v Value) float64 {
	switch v.Kind {
	case Int:
		return float64(v.Int)
	case Float:
		return v.Float
	}
	return math.NaN()
}
