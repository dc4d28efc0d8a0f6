package runner

import (
	"fmt"

	"ckptlab/model/process"
	"ckptlab/results"
)

// TimeCharts returns the charts of the workbook's time sheet: per source
// and checkpoint, restart and shape, the share of time lost against the
// declared interval, a line per MTBF. An interval is drawn where every
// line has a figure. None without the time model.
func (r *Result) TimeCharts() []results.Chart {
	type key struct {
		sr                  *SourceResult
		checkpoint, restart float64
		shape               float64
	}
	var order []key
	lines := map[key][]*timeGroup{}
	for _, g := range r.timeGroups() {
		k := key{g.sr, g.group.Checkpoint, g.group.Restart, g.group.Shape}
		if lines[k] == nil {
			order = append(order, k)
		}
		lines[k] = append(lines[k], g)
	}
	var out []results.Chart
	for n, k := range order {
		if n == maxChartsOfKind {
			out[0].Note = fmt.Sprintf("Charts of the time lost are drawn for the first %d of %d combinations; process.csv holds every figure.", maxChartsOfKind, len(order))
			break
		}
		gs := lines[k]
		title := fmt.Sprintf("Time lost against the interval: seed %d, %s subscribers, %d periods, checkpoint %s, restart %s",
			k.sr.Source.Seed, results.Count.FormatInt(int64(k.sr.Source.Subscribers)), k.sr.Source.Periods,
			results.Duration(k.checkpoint), results.Duration(k.restart))
		if gs[0].dist == process.Weibull {
			title += fmt.Sprintf(", Weibull k = %g (simulated)", k.shape)
		}
		c := results.Chart{Data: results.Block{Title: title}, YTitle: "time lost (share of the work)"}
		c.Data.Columns = append(c.Data.Columns, results.Column{Name: "interval", Kind: results.Text})
		for _, g := range gs {
			c.Data.Columns = append(c.Data.Columns, results.Column{Name: "MTBF " + results.Duration(g.group.MTBF),
				Kind: results.Float, Decimals: -1, Quantity: results.Share})
		}
		for i, row := range gs[0].rows {
			cells := []results.Value{results.TextValue(row.interval.String())}
			for _, g := range gs {
				v, ok := g.figure(i)
				lost, okLost := process.LostFraction(v, g.work.Seconds())
				if !ok || !okLost || !finite(lost) {
					cells = nil
					break
				}
				cells = append(cells, results.FloatValue(lost))
			}
			if cells != nil {
				c.Data.Rows = append(c.Data.Rows, cells)
			}
		}
		if len(c.Data.Rows) > 0 {
			out = append(out, c)
		}
	}
	return out
}

func finite(v float64) bool { return v-v == 0 }
