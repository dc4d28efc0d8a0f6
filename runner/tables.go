package runner

import (
	"ckptlab/model"
	"ckptlab/results"
)

// GridTable returns grid.csv's table. Rows are computed as they are read:
// nested loops over the axes in column order, each in declared order,
// interval fastest (SPEC §4), grid by grid of the experiment's cases; the
// excluded points are left out, and best is the least expected total among
// the points left.
func (r *Result) GridTable() results.Table {
	return results.Table{Name: "grid", Columns: results.GridColumns, Len: tableLen(r.Exp.GridRows()), Rows: func(yield func([]results.Value) bool) {
		var row results.GridRow
		var cells []results.Value
		var left []bool
		for _, sr := range r.Sources {
			outs := sr.outcomes()
			for _, pr := range sr.Parts {
				for _, stateRows := range sr.Grid.StateRowsFor(sr.Source.Subscribers) {
					for _, prob := range sr.Grid.Probabilities {
						left = r.left(left, sr, pr, stateRows, prob)
						best := bestLeft(pr.Costs, left, prob, stateRows)
						for i, c := range pr.Costs {
							if !left[i] {
								continue
							}
							sr.gridRow(&row, pr, c, stateRows, prob, i == best)
							row.TailTotal = outs[i].Tail(r.Exp.RiskLevel, prob, c.CertainCost(stateRows))
							cells = row.AppendValues(cells[:0])
							if !yield(cells) {
								return
							}
						}
					}
				}
			}
		}
	}}
}

func (sr *SourceResult) gridRow(row *results.GridRow, pr *PartResult, c model.Cost, stateRows int, prob float64, best bool) {
	*row = results.GridRow{
		Seed:          sr.Source.Seed,
		Subscribers:   sr.Source.Subscribers,
		Periods:       sr.Source.Periods,
		PartitionKey:  pr.Key.String(),
		Workers:       pr.Partitioning.Workers,
		StateRows:     stateRows,
		Probability:   prob,
		Interval:      c.Interval.String(),
		Rows:          sr.Rows,
		Checkpoints:   c.Checkpoints,
		CertainCost:   c.CertainCost(stateRows),
		Recomputed:    c.Recomputed,
		Busiest:       c.Busiest,
		ExactlyOnce:   c.ExactlyOnceState(),
		Worst:         c.Worst,
		WorstTotal:    c.WorstTotal(stateRows),
		Average:       c.Average(),
		AverageTotal:  c.AverageTotal(stateRows),
		ExpectedTotal: c.ExpectedTotal(prob, stateRows),
		Best:          best,
		BusiestWorst:  c.BusiestWorst,
	}
}

// FailuresTable returns failures.csv's table: one row per source,
// partitioning, interval and failure of the failure set, failure fastest,
// for each (source, partitioning, interval) with a point left in the grid.
func (r *Result) FailuresTable() results.Table {
	return results.Table{Name: "failures", Columns: results.FailureColumns, Len: tableLen(r.Exp.FailureRows()), Rows: func(yield func([]results.Value) bool) {
		var row results.FailureRow
		var cells []results.Value
		for _, sr := range r.Sources {
			labels := make([]string, len(sr.Failures.Periods))
			for i, f := range sr.Failures.Periods {
				labels[i] = sr.Source.Label(f)
			}
			for _, pr := range sr.Parts {
				left := r.anyLeft(sr, []*PartResult{pr}, nil, nil)
				for j, c := range pr.Costs {
					if !left[j] {
						continue
					}
					for i, f := range sr.Failures.Periods {
						y := sr.Stream.Recomputed(c.Interval, f)
						row = results.FailureRow{
							Seed:          sr.Source.Seed,
							Subscribers:   sr.Source.Subscribers,
							Periods:       sr.Source.Periods,
							PartitionKey:  pr.Key.String(),
							Workers:       pr.Partitioning.Workers,
							Interval:      c.Interval.String(),
							FailurePeriod: labels[i],
							Checkpoints:   c.Checkpoints,
							Recomputed:    y,
							Busiest:       model.Busiest(pr.Workers, c.Interval, f),
							ExactlyOnce:   y,
						}
						cells = row.AppendValues(cells[:0])
						if !yield(cells) {
							return
						}
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
