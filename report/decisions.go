package report

import (
	"fmt"
	"strings"

	"ckptlab/answer"
	"ckptlab/criteria"
	"ckptlab/model"
	"ckptlab/results"
	"ckptlab/runner"
)

// decision is one row of decisions.csv: a source, a state size and a
// probability, with the interval each criterion picks (indexes into the
// source's declared intervals) and its value.
type decision struct {
	sr        *runner.SourceResult
	stateRows int
	prob      float64

	best, worst, tail int
	bestTotal         float64
	worstTotal        int64
	tailTotal         float64
	optimal           model.Interval
	optimalTotal      float64
	young, daly       float64
	youngOK           bool
	schedule          criteria.Schedule
	scheduleTotal     float64
	scheduleBeats     bool // the schedule costs less than every interval, declared or not
}

// outcomes returns, per declared interval of the source, the rows the whole
// stream recomputes at every failure of the failure set, sorted for the
// tail criterion. It costs O(intervals × n log n) once per source.
func outcomes(sr *runner.SourceResult) []criteria.Outcomes {
	out := make([]criteria.Outcomes, len(sr.Intervals))
	ys := make([]int64, len(sr.Failures.Periods))
	for i, k := range sr.Intervals {
		for j, f := range sr.Failures.Periods {
			ys[j] = sr.Stream.Recomputed(k, f)
		}
		out[i] = criteria.NewOutcomes(ys, sr.Failures.Weights)
	}
	return out
}

// decisionPoints yields the point of every decision in the order of
// decisions.csv: sources (seeds, subscribers, periods, grid by grid of the
// cases), then state rows, then probabilities, each in declared order, the
// partitionings merged (walk). A decision weighs the intervals with a
// point left in the grid, and there is none without one; a decision two
// cases both hold with the same intervals comes once. A source's points
// come together. A point is reused for the next: it is the consumer's
// until it asks for the next point.
func (r *result) decisionPoints(yield func(*gridPoint) bool) {
	seen := r.once()
	for pt := range r.walk(byState | byDecision) {
		if seen(pt.sr, pt.stateRows, pt.prob, pt.left) {
			continue
		}
		if !yield(pt) {
			return
		}
	}
}

// decisions yields every decision, at its point (decisionPoints), in the
// order of decisions.csv, each made by the answer (answer.Source.Decide).
// Decisions do not depend on partitioning: the whole stream's figures are
// the same in every part. Each costs O(intervals + log n) for the declared
// criteria, O(P) for the optimum and O(P²) for the best schedule. What
// only needs the best interval reads bestIntervals.
func (r *result) decisions(yield func(d *decision) bool) {
	alpha := r.Exp.RiskLevel
	// made at the source's first decision: a source that cases share
	// makes its decisions once, and the other source results none
	var (
		src       *runner.SourceResult
		as        *answer.Source
		schedules *criteria.Schedules
	)
	for pt := range r.decisionPoints {
		sr, stateRows, prob, left := pt.sr, pt.stateRows, pt.prob, pt.left
		if sr != src {
			src = sr
			as = answer.NewSource(sr.Stream, sr.Source.Periods, sr.Rows, sr.Failures, sr.Parts[0].Costs)
			schedules = criteria.NewSchedules(sr.Stream, sr.Source.Periods, sr.Failures)
		}
		a := as.Decide(left, stateRows, prob, alpha, r.schedules.best(schedules, sr, stateRows, prob))
		d := &decision{sr: sr, stateRows: stateRows, prob: prob,
			best: a.Best, worst: a.Worst, tail: a.Tail, bestTotal: a.BestTotal, worstTotal: a.WorstTotal, tailTotal: a.TailTotal,
			optimal: a.Optimal, optimalTotal: a.OptimalTotal, young: a.Young, daly: a.Daly, youngOK: a.YoungOK,
			schedule: a.Schedule, scheduleTotal: a.ScheduleTotal, scheduleBeats: a.ScheduleBeats}
		if !yield(d) {
			return
		}
	}
}

// bestIntervals yields every decision with its point and the answer's best
// interval alone, in the order of decisions: what the summary's decision
// maps read. The other criteria are left zero; the decision is reused from
// one to the next.
func (r *result) bestIntervals(yield func(d *decision) bool) {
	var d decision
	var envs bestsOf
	for pt := range r.decisionPoints {
		d = decision{sr: pt.sr, stateRows: pt.stateRows, prob: pt.prob,
			best: envs.at(r, pt).Best[pt.decision]}
		if !yield(&d) {
			return
		}
	}
}

// decisionColumns are the columns of decisions.csv, in the README's
// order: one row per seed, subscribers, periods, state_rows and
// probability, with the interval each criterion picks and its value.
// Interval columns hold "none" or a number of periods, as grid.csv's
// interval column does; young_interval and daly_interval are continuous
// estimates in periods, or "none". The schedule columns are the best set
// of checkpoint points, fixed interval or not: how many, their period
// labels (space-separated, ascending, empty for none) and its expected
// total.
var decisionColumns = []tableColumn[decision]{
	intColumn("seed", func(d *decision) int64 { return int64(d.sr.Source.Seed) }).shownAs(results.General),
	intColumn("subscribers", func(d *decision) int64 { return int64(d.sr.Source.Subscribers) }),
	intColumn("periods", func(d *decision) int64 { return int64(d.sr.Source.Periods) }),
	intColumn("state_rows", func(d *decision) int64 { return int64(d.stateRows) }),
	floatColumn("probability", -1, func(d *decision) float64 { return d.prob }),
	textColumn("best_interval", func(d *decision) string { return d.sr.Intervals[d.best].String() }).numbers(),
	floatColumn("best_expected_total", 1, func(d *decision) float64 { return d.bestTotal }),
	textColumn("worst_case_interval", func(d *decision) string { return d.sr.Intervals[d.worst].String() }).numbers(),
	intColumn("worst_case_total", func(d *decision) int64 { return d.worstTotal }), // whole rows
	textColumn("tail_interval", func(d *decision) string { return d.sr.Intervals[d.tail].String() }).numbers(),
	floatColumn("tail_total", 1, func(d *decision) float64 { return d.tailTotal }),
	textColumn("optimal_interval", func(d *decision) string { return d.optimal.String() }).numbers(),
	floatColumn("optimal_expected_total", 1, func(d *decision) float64 { return d.optimalTotal }),
	textColumn("young_interval", func(d *decision) string { return d.estimate(d.young) }).shownAs(results.Estimate).numbers(),
	textColumn("daly_interval", func(d *decision) string { return d.estimate(d.daly) }).shownAs(results.Estimate).numbers(),
	intColumn("schedule_checkpoints", func(d *decision) int64 { return int64(len(d.schedule.Points)) }),
	textColumn("schedule_points", func(d *decision) string { return d.scheduleLabels(" ") }),
	floatColumn("schedule_expected_total", 1, func(d *decision) float64 { return d.scheduleTotal }),
}

// bestIntervalColumns are the columns of decisionColumns that a decision
// of bestIntervals fills: its point and its best interval.
var bestIntervalColumns = columnsNamed(decisionColumns, "seed", "subscribers", "periods", "state_rows", "probability", "best_interval")

// estimate writes a continuous estimate of the decision as a float
// column would, or "none" where there is none.
func (d *decision) estimate(v float64) string {
	if !d.youngOK {
		return model.None.String()
	}
	return results.FloatValue(v).String()
}

// decisionsTable returns decisions.csv's table (docs/decisions.md).
// Its rows are counted from the decisions' points (Count), so that the
// workbook need not make every decision once more to count them, and
// only when a workbook asks.
func (r *result) decisionsTable() results.Table {
	count := func() int {
		n := 0
		for range r.decisionPoints {
			n++
		}
		return n
	}
	return results.Table{Name: "decisions", Columns: header(decisionColumns), Count: count, Rows: func(yield func([]results.Value) bool) {
		var cells []results.Value
		for d := range r.decisions {
			cells = appendRow(cells[:0], decisionColumns, d)
			if !yield(cells) {
				return
			}
		}
	}}
}

// bestIntervalsTable returns decisions.csv's rows, in its order, with only
// the columns bestIntervalColumns names: the table the summary's decision
// maps read (results.Set.BestIntervals), made without the criteria that
// cost a decision O(P) and O(P²).
func (r *result) bestIntervalsTable() results.Table {
	return results.Table{Name: "best_intervals", Columns: header(bestIntervalColumns), Rows: func(yield func([]results.Value) bool) {
		var cells []results.Value
		for d := range r.bestIntervals {
			cells = appendRow(cells[:0], bestIntervalColumns, d)
			if !yield(cells) {
				return
			}
		}
	}}
}

// scheduleLabels writes the labels of the best schedule's points,
// ascending, joined by sep: "2026-05 2026-09", or "" for none.
func (d *decision) scheduleLabels(sep string) string {
	labels := make([]string, len(d.schedule.Points))
	for i, t := range d.schedule.Points {
		labels[i] = d.sr.Source.Label(t)
	}
	return strings.Join(labels, sep)
}

// breakeven is the lower envelope of one source and state size.
type breakeven struct {
	sr        *runner.SourceResult
	stateRows int
	pieces    []criteria.Piece // Line indexes the source's declared intervals
}

// breakevens yields the envelope of every source and state size, in the
// order of breakeven.csv, as the answer has it.
func (r *result) breakevens(yield func(b *breakeven) bool) {
	for e := range r.envelopes {
		if e.Repeat {
			continue
		}
		if !yield(&breakeven{r.Sources[e.Index], e.StateRows, e.Full}) {
			return
		}
	}
}

// once returns a function that reports whether a decision (prob >= 0) or
// an envelope (prob < 0) of the same source, state rows and intervals left
// came before: two cases that share a source, apart in partitioning,
// would repeat it. Without cases nothing repeats, and nothing is kept.
func (r *result) once() func(sr *runner.SourceResult, stateRows int, prob float64, left []bool) bool {
	if len(r.Exp.Cases) < 2 {
		return func(*runner.SourceResult, int, float64, []bool) bool { return false }
	}
	seen := map[string]bool{}
	return func(sr *runner.SourceResult, stateRows int, prob float64, left []bool) bool {
		var b strings.Builder
		fmt.Fprintf(&b, "%v %d %v", sr.Source, stateRows, prob)
		for i, k := range sr.Intervals {
			if left[i] {
				b.WriteString(" " + k.String())
			}
		}
		key := b.String()
		if seen[key] {
			return true
		}
		seen[key] = true
		return false
	}
}

// breakevenRow is one row of breakeven.csv: a piece of an envelope.
type breakevenRow struct {
	*breakeven
	piece *criteria.Piece
}

// breakevenColumns are the columns of breakeven.csv, in the README's
// order: for each seed, subscribers, periods and state_rows, the pieces of
// the lower envelope of expected total against failure probability, in
// increasing probability. The fractions are exact, in lowest terms
// ("11/18"); the probabilities are the nearest float64.
var breakevenColumns = []tableColumn[breakevenRow]{
	intColumn("seed", func(b *breakevenRow) int64 { return int64(b.sr.Source.Seed) }).shownAs(results.General),
	intColumn("subscribers", func(b *breakevenRow) int64 { return int64(b.sr.Source.Subscribers) }),
	intColumn("periods", func(b *breakevenRow) int64 { return int64(b.sr.Source.Periods) }),
	intColumn("state_rows", func(b *breakevenRow) int64 { return int64(b.stateRows) }),
	textColumn("interval", func(b *breakevenRow) string { return b.sr.Intervals[b.piece.Line].String() }).numbers(),
	floatColumn("from_probability", -1, func(b *breakevenRow) float64 { return criteria.Probability(b.piece.From) }),
	floatColumn("to_probability", -1, func(b *breakevenRow) float64 { return criteria.Probability(b.piece.To) }),
	textColumn("from_fraction", func(b *breakevenRow) string { return criteria.Fraction(b.piece.From) }),
	textColumn("to_fraction", func(b *breakevenRow) string { return criteria.Fraction(b.piece.To) }),
}

// breakevenTable returns breakeven.csv's table (docs/decisions.md): one row per
// piece of the envelope, in increasing probability.
func (r *result) breakevenTable() results.Table {
	return results.Table{Name: "breakeven", Columns: header(breakevenColumns), Rows: func(yield func([]results.Value) bool) {
		var cells []results.Value
		for b := range r.breakevens {
			for i := range b.pieces {
				cells = appendRow(cells[:0], breakevenColumns, &breakevenRow{b, &b.pieces[i]})
				if !yield(cells) {
					return
				}
			}
		}
	}}
}
