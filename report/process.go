package report

import (
	"math"

	"ckptlab/answer"
	"ckptlab/model"
	"ckptlab/model/process"
	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// timeGroups returns the time model's answer of the run, computed once
// (package answer): a Time per source of the time model and failure
// process, in the order of process_decisions.csv; nil without the model.
func (r *result) timeGroups() []*answer.Time {
	r.timeOnce.Do(func() { r.time = r.evaluateTime() })
	return r.time
}

// evaluateTime computes the time model's answer from the sources' streams.
func (r *result) evaluateTime() []*answer.Time {
	t := r.Exp.Time
	if t == nil {
		return nil
	}
	var sources []answer.TimeSource
	seen := map[string]bool{}
	for i, sr := range r.Sources {
		key := experiment.GridSource{Source: sr.Source, Grid: sr.Grid}.TimeKey()
		if seen[key] {
			continue
		}
		seen[key] = true
		sources = append(sources, answer.TimeSource{Index: i, Source: sr.Source, Intervals: sr.Intervals, Rows: streamRows(sr)})
	}
	return answer.NewTimes(sources, t, r.Jobs)
}

// streamRows returns the stream's rows per period of a source.
func streamRows(sr *runner.SourceResult) []int64 {
	rows := make([]int64, sr.Source.Periods)
	var before int64
	for j := range rows {
		upTo := sr.Stream.Recomputed(model.None, j)
		rows[j], before = upTo-before, upTo
	}
	return rows
}

// processRow is one row of process.csv: a group and one of its intervals.
type processRow struct {
	*answer.Time
	i int
}

// timeColumn is one column of the time model's tables: its header and the
// cell of a row, empty where the row has no figure.
type timeColumn[R any] struct {
	results.Column
	cell func(r *R) results.Value
}

// empty is the cell of a figure a row does not have.
var empty = results.TextValue("")

// floatOr returns v as a cell, or an empty one when not ok or not finite.
func floatOr(v float64, ok bool) results.Value {
	if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
		return empty
	}
	return results.FloatValue(v)
}

// groupColumns are the leading columns of both tables: the source's keys
// and the failure process.
func groupColumns[R any](g func(r *R) *answer.Time) []timeColumn[R] {
	return []timeColumn[R]{
		{results.Column{Name: "seed", Kind: results.Int, Quantity: results.General}, func(r *R) results.Value { return results.IntValue(int64(g(r).Source.Seed)) }},
		{results.Column{Name: "subscribers", Kind: results.Int}, func(r *R) results.Value { return results.IntValue(int64(g(r).Source.Subscribers)) }},
		{results.Column{Name: "periods", Kind: results.Int}, func(r *R) results.Value { return results.IntValue(int64(g(r).Source.Periods)) }},
		{seconds("mtbf_seconds"), func(r *R) results.Value { return results.FloatValue(g(r).Group.MTBF) }},
		{seconds("checkpoint_seconds"), func(r *R) results.Value { return results.FloatValue(g(r).Group.Checkpoint) }},
		{seconds("restart_seconds"), func(r *R) results.Value { return results.FloatValue(g(r).Group.Restart) }},
		{results.Column{Name: "distribution", Kind: results.Text}, func(r *R) results.Value { return results.TextValue(g(r).Distribution.String()) }},
		{results.Column{Name: "shape", Kind: results.Float, Decimals: -1, Quantity: results.General}, func(r *R) results.Value {
			return floatOr(g(r).Group.Shape, g(r).Distribution == process.Weibull)
		}},
	}
}

// processColumns are the columns of process.csv (SPEC 15): per group and
// declared interval, the checkpoints, the work, the exact expected time
// (exponential), the share of time lost, the simulation's mean and 95 %
// half-width (with replications), and whether the interval is the group's
// best.
var processColumns = append(groupColumns(func(r *processRow) *answer.Time { return r.Time }),
	timeColumn[processRow]{results.Column{Name: "interval", Kind: results.Text, Numeric: true}, func(r *processRow) results.Value {
		return results.TextValue(r.Rows[r.i].Interval.String())
	}},
	timeColumn[processRow]{results.Column{Name: "checkpoints", Kind: results.Int}, func(r *processRow) results.Value {
		return results.IntValue(int64(process.Checkpoints(r.Rows[r.i].Interval, r.Source.Periods)))
	}},
	timeColumn[processRow]{seconds("work_seconds"), func(r *processRow) results.Value { return results.FloatValue(r.Work.Seconds()) }},
	timeColumn[processRow]{seconds("expected_seconds"), func(r *processRow) results.Value { return floatOr(r.Rows[r.i].Expected, r.Exact) }},
	timeColumn[processRow]{fraction("lost_fraction"), func(r *processRow) results.Value {
		v, ok := r.Figure(r.i)
		if !ok {
			return empty
		}
		return floatOr(process.LostFraction(v, r.Work.Seconds()))
	}},
	timeColumn[processRow]{seconds("mc_mean_seconds"), func(r *processRow) results.Value { return floatOr(r.Rows[r.i].MC.Mean, r.Rows[r.i].MC.OK) }},
	timeColumn[processRow]{seconds("mc_half_width_seconds"), func(r *processRow) results.Value {
		return floatOr(r.Rows[r.i].MC.HalfWidth, r.Rows[r.i].MC.OK)
	}},
	timeColumn[processRow]{results.Column{Name: "best", Kind: results.Bool}, func(r *processRow) results.Value { return results.BoolValue(r.i == r.Best) }},
)

// processDecisionColumns are the columns of process_decisions.csv (SPEC
// 15): per group, the best declared interval, the optimum over every
// interval and over every schedule (exponential), and the textbook optima
// in periods of mean work.
var processDecisionColumns = append(groupColumns(func(g *answer.Time) *answer.Time { return g }),
	timeColumn[answer.Time]{results.Column{Name: "best_interval", Kind: results.Text, Numeric: true}, func(g *answer.Time) results.Value {
		if g.Best < 0 {
			return empty
		}
		return results.TextValue(g.Rows[g.Best].Interval.String())
	}},
	timeColumn[answer.Time]{seconds("best_expected_seconds"), func(g *answer.Time) results.Value {
		if g.Best < 0 {
			return empty
		}
		return floatOr(g.Figure(g.Best))
	}},
	timeColumn[answer.Time]{fraction("best_lost_fraction"), func(g *answer.Time) results.Value {
		if g.Best < 0 {
			return empty
		}
		v, _ := g.Figure(g.Best)
		return floatOr(process.LostFraction(v, g.Work.Seconds()))
	}},
	timeColumn[answer.Time]{results.Column{Name: "optimal_interval", Kind: results.Text, Numeric: true}, func(g *answer.Time) results.Value {
		if !g.Exact {
			return empty
		}
		return results.TextValue(g.Optimal.String())
	}},
	timeColumn[answer.Time]{seconds("optimal_expected_seconds"), func(g *answer.Time) results.Value { return floatOr(g.OptimalExpected, g.Exact) }},
	timeColumn[answer.Time]{results.Column{Name: "schedule_checkpoints", Kind: results.Int}, func(g *answer.Time) results.Value {
		if !g.Exact {
			return empty
		}
		return results.IntValue(int64(len(g.Schedule)))
	}},
	timeColumn[answer.Time]{results.Column{Name: "schedule_points", Kind: results.Text}, func(g *answer.Time) results.Value {
		return results.TextValue(g.ScheduleLabels(" "))
	}},
	timeColumn[answer.Time]{seconds("schedule_expected_seconds"), func(g *answer.Time) results.Value { return floatOr(g.ScheduleExpected, g.Exact) }},
	timeColumn[answer.Time]{estimate("young_periods"), func(g *answer.Time) results.Value { return floatOr(g.Textbook.Young, g.TextbookOK) }},
	timeColumn[answer.Time]{estimate("daly_periods"), func(g *answer.Time) results.Value { return floatOr(g.Textbook.Daly, g.TextbookOK) }},
	timeColumn[answer.Time]{estimate("exact_periods"), func(g *answer.Time) results.Value { return floatOr(g.Textbook.Exact, g.TextbookOK) }},
)

func seconds(name string) results.Column {
	return results.Column{Name: name, Kind: results.Float, Decimals: 1, Quantity: results.Seconds}
}

func fraction(name string) results.Column {
	return results.Column{Name: name, Kind: results.Float, Decimals: -1, Quantity: results.Share}
}

func estimate(name string) results.Column {
	return results.Column{Name: name, Kind: results.Float, Decimals: 2, Quantity: results.Estimate}
}

func timeHeader[R any](cols []timeColumn[R]) []results.Column {
	out := make([]results.Column, len(cols))
	for i, c := range cols {
		out[i] = c.Column
	}
	return out
}

func timeCells[R any](dst []results.Value, cols []timeColumn[R], r *R) []results.Value {
	for _, c := range cols {
		dst = append(dst, c.cell(r))
	}
	return dst
}

// processTables returns process.csv's and process_decisions.csv's tables,
// or zero tables without the time model.
func (r *result) processTables() (rows, decisions results.Table) {
	if r.Exp.Time == nil {
		return results.Table{}, results.Table{}
	}
	rows = results.Table{Name: "process", Columns: timeHeader(processColumns), Rows: func(yield func([]results.Value) bool) {
		var cells []results.Value
		for _, g := range r.timeGroups() {
			for i := range g.Rows {
				cells = timeCells(cells[:0], processColumns, &processRow{g, i})
				if !yield(cells) {
					return
				}
			}
		}
	}}
	decisions = results.Table{Name: "process_decisions", Columns: timeHeader(processDecisionColumns), Rows: func(yield func([]results.Value) bool) {
		var cells []results.Value
		for _, g := range r.timeGroups() {
			cells = timeCells(cells[:0], processDecisionColumns, g)
			if !yield(cells) {
				return
			}
		}
	}}
	return rows, decisions
}
