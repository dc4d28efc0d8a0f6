package report

import (
	"fmt"
	"math"
	"strings"

	"ckptlab/answer"
	"ckptlab/internal/words"
	"ckptlab/model"
	"ckptlab/model/process"
	"ckptlab/results"
)

// timeCharts returns the charts of the workbook's time sheet: per source
// and checkpoint, restart and shape, the share of time lost against the
// declared interval, a line per MTBF, on a log axis when the lines lie a
// hundredfold apart. A diamond marks each line's best interval. An
// interval is drawn where every line has a figure; none, which has no
// place on the axis, is said in the note. None without the time model.
func (r *result) timeCharts() []results.Chart {
	type key struct {
		source              int
		checkpoint, restart float64
		shape               float64
	}
	var order []key
	lines := map[key][]*answer.Time{}
	for _, g := range r.timeGroups() {
		k := key{g.Index, g.Group.Checkpoint, g.Group.Restart, g.Group.Shape}
		if lines[k] == nil {
			order = append(order, k)
		}
		lines[k] = append(lines[k], g)
	}
	var out []results.Chart
	for n, k := range order {
		if n == maxChartsOfKind {
			out[0].Note = strings.TrimSpace(out[0].Note + " " + fmt.Sprintf("Charts of the time lost are drawn for the first %d of %d combinations; process.csv holds every figure.", maxChartsOfKind, len(order)))
			break
		}
		if c, ok := timeChart(lines[k]); ok {
			out = append(out, c)
		}
	}
	return out
}

// timeChart returns the chart of the groups that differ in their MTBF
// alone; ok is false when no interval has a figure on every line.
func timeChart(gs []*answer.Time) (results.Chart, bool) {
	g0 := gs[0]
	title := fmt.Sprintf("Time lost against the interval: seed %d, %s subscribers, %d periods, checkpoint %s, restart %s",
		g0.Source.Seed, results.Count.FormatInt(int64(g0.Source.Subscribers)), g0.Source.Periods,
		results.Duration(g0.Group.Checkpoint), results.Duration(g0.Group.Restart))
	if g0.Distribution == process.Weibull {
		title += fmt.Sprintf(", Weibull k = %g (simulated)", g0.Group.Shape)
	}
	c := results.Chart{Data: results.Block{Title: title}, YTitle: "time lost (share of the work)",
		MarksName: "least time lost",
		MarksNote: "Diamonds mark each line's best interval, the one process_decisions.csv names."}
	c.Data.Columns = append(c.Data.Columns, results.Column{Name: "interval", Kind: results.Int})
	names := make([]string, len(gs))
	for j, g := range gs {
		names[j] = "MTBF " + results.Duration(g.Group.MTBF)
		c.Data.Columns = append(c.Data.Columns, results.Column{Name: names[j],
			Kind: results.Float, Decimals: -1, Quantity: results.Share})
	}
	lost := func(g *answer.Time, i int) (float64, bool) {
		v, ok := g.Figure(i)
		f, okLost := process.LostFraction(v, g.Work.Seconds())
		return f, ok && okLost && finite(f)
	}
	lo, hi := math.Inf(1), 0.0
	var none []string
	drawn := map[int]bool{} // rows of gs[0].Rows on the chart
	for i, row := range g0.Rows {
		if row.Interval == model.None {
			for j, g := range gs {
				if f, ok := lost(g, i); ok {
					none = append(none, fmt.Sprintf("%s at %s", results.Percent(f), names[j]))
				}
			}
			continue
		}
		cells := []results.Value{results.IntValue(int64(row.Interval))}
		for _, g := range gs {
			f, ok := lost(g, i)
			if !ok {
				cells = nil
				break
			}
			cells = append(cells, results.FloatValue(f))
		}
		if cells == nil {
			continue
		}
		drawn[i] = true
		c.Data.Rows = append(c.Data.Rows, cells)
		for _, v := range cells[1:] {
			if v.Float > 0 {
				lo = min(lo, v.Float)
			}
			hi = max(hi, v.Float)
		}
	}
	if len(c.Data.Rows) == 0 {
		return c, false
	}
	c.Answers = timeAnswers(gs, names)
	c.LogY = hi > 100*lo
	var bestNone []string
	for j, g := range gs {
		switch {
		case g.Best < 0:
		case drawn[g.Best]:
			f, _ := lost(g, g.Best)
			k := g.Rows[g.Best].Interval
			c.Marks = append(c.Marks, results.Mark{X: float64(k), Y: f,
				Text: fmt.Sprintf("%s: every %s (%s)", names[j], k, results.Percent(f))})
		case g.Rows[g.Best].Interval == model.None:
			bestNone = append(bestNone, names[j])
		}
	}
	if len(none) > 0 {
		c.Note = "No checkpoint loses " + words.And(none) + "."
	}
	if len(bestNone) > 0 {
		c.Note += fmt.Sprintf(" At %s no checkpoint is best.", words.And(bestNone))
	}
	c.Note = strings.TrimSpace(c.Note)
	return c, true
}

func finite(v float64) bool { return v-v == 0 }

// timeAnswers returns the answers of the groups of a chart, a column per
// line: process_decisions.csv's figures in the number style of SPEC 14.
func timeAnswers(gs []*answer.Time, names []string) results.Block {
	blk := results.Block{Columns: []results.Column{{Name: "answer", Kind: results.Text}}}
	for _, n := range names {
		blk.Columns = append(blk.Columns, results.Column{Name: n, Kind: results.Text})
	}
	rows := []struct {
		name string
		cell func(g *answer.Time) string
	}{
		{"best interval", func(g *answer.Time) string {
			if g.Best < 0 {
				return ""
			}
			return g.Rows[g.Best].Interval.String()
		}},
		{"its expected time", func(g *answer.Time) string {
			if v, ok := g.BestFigure(); ok {
				return results.Duration(v)
			}
			return ""
		}},
		{"time lost", func(g *answer.Time) string {
			if v, ok := g.BestFigure(); ok {
				if f, ok := process.LostFraction(v, g.Work.Seconds()); ok {
					return results.Percent(f)
				}
			}
			return ""
		}},
		{"best of every interval", func(g *answer.Time) string {
			if !g.Exact {
				return ""
			}
			return g.Optimal.String() + " (" + results.Duration(g.OptimalExpected) + ")"
		}},
		{"best schedule", func(g *answer.Time) string {
			if !g.Exact {
				return ""
			}
			return checkpointsText(len(g.Schedule)) + " (" + results.Duration(g.ScheduleExpected) + ")"
		}},
		{"Young, Daly, exact (periods)", func(g *answer.Time) string {
			if !g.TextbookOK {
				return ""
			}
			t := g.Textbook
			return results.Figure(t.Young) + ", " + results.Figure(t.Daly) + ", " + results.Figure(t.Exact)
		}},
	}
	for _, r := range rows {
		cells := []results.Value{results.TextValue(r.name)}
		for _, g := range gs {
			cells = append(cells, results.TextValue(r.cell(g)))
		}
		blk.Rows = append(blk.Rows, cells)
	}
	return blk
}

// checkpointsText counts checkpoints in words: "no checkpoint", "1
// checkpoint", "12 checkpoints".
func checkpointsText(n int) string {
	switch n {
	case 0:
		return "no checkpoint"
	case 1:
		return "1 checkpoint"
	}
	return results.Count.FormatInt(int64(n)) + " checkpoints"
}
