package report

import (
	"ckptlab/criteria"
	"ckptlab/model"
	"ckptlab/results"
	"ckptlab/runner"
)

// gridRow is one row of grid.csv: a point of the grid, the cost of its
// interval, and the criteria that compare it with the other intervals.
type gridRow struct {
	sr        *runner.SourceResult
	pr        *runner.PartResult
	c         *model.Cost
	stateRows int
	prob      float64
	best      bool
	tail      float64
}

// gridColumns are the columns of grid.csv, in the README's order: the axes
// in the order the rows nest them, then the metrics, then the columns the
// decisions added (busiest_worker_worst, tail_total).
var gridColumns = []tableColumn[gridRow]{
	intColumn("seed", func(p *gridRow) int64 { return int64(p.sr.Source.Seed) }).shownAs(results.General),
	intColumn("subscribers", func(p *gridRow) int64 { return int64(p.sr.Source.Subscribers) }),
	intColumn("periods", func(p *gridRow) int64 { return int64(p.sr.Source.Periods) }),
	textColumn("partition_key", func(p *gridRow) string { return p.pr.Key.String() }),
	intColumn("workers", func(p *gridRow) int64 { return int64(p.pr.Partitioning.Workers) }),
	intColumn("state_rows", func(p *gridRow) int64 { return int64(p.stateRows) }),
	floatColumn("probability", -1, func(p *gridRow) float64 { return p.prob }),
	textColumn("interval", func(p *gridRow) string { return p.c.Interval.String() }).numbers(),
	intColumn("rows", func(p *gridRow) int64 { return p.sr.Rows }),
	intColumn("checkpoints", func(p *gridRow) int64 { return int64(p.c.Checkpoints) }),
	intColumn("certain_cost", func(p *gridRow) int64 { return p.c.CertainCost(p.stateRows) }),
	intColumn("recomputed", func(p *gridRow) int64 { return p.c.Recomputed }),
	intColumn("busiest_worker_recomputed", func(p *gridRow) int64 { return p.c.Busiest }),
	intColumn("exactly_once_state", func(p *gridRow) int64 { return p.c.ExactlyOnceState() }),
	intColumn("worst", func(p *gridRow) int64 { return p.c.Worst }),
	intColumn("worst_total", func(p *gridRow) int64 { return p.c.WorstTotal(p.stateRows) }), // whole rows
	floatColumn("average", 1, func(p *gridRow) float64 { return p.c.Average() }),
	floatColumn("average_total", 1, func(p *gridRow) float64 { return p.c.AverageTotal(p.stateRows) }),
	floatColumn("expected_total", 1, func(p *gridRow) float64 { return expectedTotal(*p.c, p.prob, p.stateRows) }),
	boolColumn("best", func(p *gridRow) bool { return p.best }),
	intColumn("busiest_worker_worst", func(p *gridRow) int64 { return p.c.BusiestWorst }),
	floatColumn("tail_total", 1, func(p *gridRow) float64 { return p.tail }),
}

// gridTable returns grid.csv's table. Rows are computed as they are read:
// the grid's points in table order (walk), interval fastest
// (docs/outputs.md#result-tables), grid by grid of the experiment's cases;
// the excluded points are left out, and best is the answer's best interval
// among the points left.
func (r *result) gridTable() results.Table {
	return results.Table{Name: "grid", Columns: header(gridColumns), Len: tableLen(r.Exp.GridRows()), Rows: func(yield func([]results.Value) bool) {
		var cells []results.Value
		var p gridRow // one for every row: a row's cells hold no pointer to it
		var envs bestsOf
		var src *runner.SourceResult
		var outs []criteria.Outcomes
		for pt := range r.walk(byPoint) {
			sr, pr := pt.sr, pt.pr
			if sr != src {
				src, outs = sr, outcomes(sr)
			}
			best := envs.at(r, pt).BestAt(pt.part, pt.decision)
			for i := range pr.Costs {
				if !pt.left[i] {
					continue
				}
				c := &pr.Costs[i]
				p = gridRow{sr: sr, pr: pr, c: c, stateRows: pt.stateRows, prob: pt.prob, best: i == best,
					tail: outs[i].Tail(r.Exp.RiskLevel, pt.prob, c.CertainCost(pt.stateRows))}
				cells = appendRow(cells[:0], gridColumns, &p)
				if !yield(cells) {
					return
				}
			}
		}
	}}
}

// failureRow is one row of failures.csv: an interval of a source and
// partitioning, at one failure of the failure set.
type failureRow struct {
	sr         *runner.SourceResult
	pr         *runner.PartResult
	c          *model.Cost
	failure    int // 0-based period
	label      string
	recomputed int64
}

// failureColumns are the columns of failures.csv, in the README's order.
var failureColumns = []tableColumn[failureRow]{
	intColumn("seed", func(p *failureRow) int64 { return int64(p.sr.Source.Seed) }).shownAs(results.General),
	intColumn("subscribers", func(p *failureRow) int64 { return int64(p.sr.Source.Subscribers) }),
	intColumn("periods", func(p *failureRow) int64 { return int64(p.sr.Source.Periods) }),
	textColumn("partition_key", func(p *failureRow) string { return p.pr.Key.String() }),
	intColumn("workers", func(p *failureRow) int64 { return int64(p.pr.Partitioning.Workers) }),
	textColumn("interval", func(p *failureRow) string { return p.c.Interval.String() }).numbers(),
	textColumn("failure_period", func(p *failureRow) string { return p.label }),
	intColumn("checkpoints", func(p *failureRow) int64 { return int64(p.c.Checkpoints) }),
	intColumn("recomputed", func(p *failureRow) int64 { return p.recomputed }),
	intColumn("busiest_worker_recomputed", func(p *failureRow) int64 {
		return model.Busiest(p.pr.Workers, p.c.Interval, p.failure)
	}),
	intColumn("exactly_once_state", func(p *failureRow) int64 { return p.recomputed }),
}

// failuresTable returns failures.csv's table: one row per source,
// partitioning, interval and failure of the failure set, failure fastest,
// for each (source, partitioning, interval) with a point left in the grid.
func (r *result) failuresTable() results.Table {
	return results.Table{Name: "failures", Columns: header(failureColumns), Len: tableLen(r.Exp.FailureRows()), Rows: func(yield func([]results.Value) bool) {
		var cells []results.Value
		var p failureRow // one for every row: a row's cells hold no pointer to it
		var src *runner.SourceResult
		var labels []string
		for pt := range r.walk(byPart) {
			sr, pr := pt.sr, pt.pr
			if sr != src {
				src, labels = sr, make([]string, len(sr.Failures.Periods))
				for i, f := range sr.Failures.Periods {
					labels[i] = sr.Source.Label(f)
				}
			}
			for j := range pr.Costs {
				if !pt.left[j] {
					continue
				}
				c := &pr.Costs[j]
				for i, f := range sr.Failures.Periods {
					p = failureRow{sr: sr, pr: pr, c: c, failure: f, label: labels[i],
						recomputed: sr.Stream.Recomputed(c.Interval, f)}
					cells = appendRow(cells[:0], failureColumns, &p)
					if !yield(cells) {
						return
					}
				}
			}
		}
	}}
}

// tableLen returns a count of rows as a table's Len: 0, not known, where
// it does not fit an int (the experiment's sizes saturate rather than
// overflow).
func tableLen(rows int64) int {
	if int64(int(rows)) != rows {
		return 0
	}
	return int(rows)
}
