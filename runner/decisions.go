package runner

import (
	"fmt"
	"strings"

	"ckptlab/decide"
	"ckptlab/model"
	"ckptlab/results"
)

// decision is one row of decisions.csv: a source, a state size and a
// probability, with the interval each criterion picks (indexes into the
// source's declared intervals) and its value.
type decision struct {
	sr        *SourceResult
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
	schedule          decide.Schedule
	scheduleTotal     float64
}

// outcomes returns, per declared interval of the source, the rows the whole
// stream recomputes at every failure of the failure set, sorted for the
// tail criterion. It costs O(intervals × n log n) once per source.
func (sr *SourceResult) outcomes() []decide.Outcomes {
	out := make([]decide.Outcomes, len(sr.Intervals))
	ys := make([]int64, len(sr.Failures.Periods))
	for i, k := range sr.Intervals {
		for j, f := range sr.Failures.Periods {
			ys[j] = sr.Stream.Recomputed(k, f)
		}
		out[i] = decide.NewOutcomes(ys, sr.Failures.Weights)
	}
	return out
}

// decisions yields every decision in the order of decisions.csv: sources
// (seeds, subscribers, periods, grid by grid of the cases), then state
// rows, then probabilities, each in declared order. A decision weighs the
// intervals with a point left in the grid, and there is none without one;
// a decision two cases both hold with the same intervals comes once. Decisions do not depend on partitioning: the whole
// stream's figures are the same in every part. Each costs O(intervals +
// log n) for the declared criteria, O(P) for the optimum over every
// interval, whose sums are computed once per source in O(P log P), and
// O(P²) for the best schedule.
func (r *Result) decisions(yield func(d *decision) bool) {
	alpha := r.Exp.RiskLevel
	seen := r.once()
	for _, sr := range r.Sources {
		costs := sr.Parts[0].Costs
		// made at the source's first decision: a source that cases share
		// makes its decisions once, and the other source results none
		var outs []decide.Outcomes
		var sums []int64
		var schedules *decide.Schedules
		n, weight := len(sr.Failures.Periods), sr.Failures.Total()
		for _, stateRows := range sr.Grid.StateRowsFor(sr.Source.Subscribers) {
			for _, prob := range sr.Grid.Probabilities {
				left := r.anyLeft(sr, nil, []int{stateRows}, []float64{prob})
				if none(left) || seen(sr, stateRows, prob, left) {
					continue
				}
				if outs == nil {
					outs = sr.outcomes()
					sums = decide.Sums(sr.Stream, sr.Source.Periods, sr.Failures)
					schedules = decide.NewSchedules(sr.Stream, sr.Source.Periods, sr.Failures)
				}
				d := &decision{sr: sr, stateRows: stateRows, prob: prob}
				d.best = bestLeft(costs, left, prob, stateRows)
				d.bestTotal = costs[d.best].ExpectedTotal(prob, stateRows)
				first := true
				for i, c := range costs {
					if !left[i] {
						continue
					}
					if w := c.WorstTotal(stateRows); first || w < d.worstTotal {
						d.worst, d.worstTotal = i, w
					}
					if t := outs[i].Tail(alpha, prob, c.CertainCost(stateRows)); first || t < d.tailTotal {
						d.tail, d.tailTotal = i, t
					}
					first = false
				}
				d.optimal, d.optimalTotal = decide.Optimum(sums, weight, prob, int64(stateRows))
				d.young, d.daly, d.youngOK = decide.Young(sr.Rows, sr.Source.Periods, int64(stateRows), n, prob)
				d.schedule = schedules.Best(prob, int64(stateRows))
				d.scheduleTotal = d.schedule.Expected(prob, weight, int64(stateRows))
				if !yield(d) {
					return
				}
			}
		}
	}
}

// DecisionsTable returns decisions.csv's table (SPEC §6).
func (r *Result) DecisionsTable() results.Table {
	return results.Table{Name: "decisions", Columns: results.DecisionColumns, Rows: func(yield func([]results.Value) bool) {
		var cells []results.Value
		for d := range r.decisions {
			ks := d.sr.Intervals
			young, daly := model.None.String(), model.None.String()
			if d.youngOK {
				young, daly = results.FloatValue(d.young).String(), results.FloatValue(d.daly).String()
			}
			src := d.sr.Source
			cells = append(cells[:0],
				results.IntValue(int64(src.Seed)), results.IntValue(int64(src.Subscribers)),
				results.IntValue(int64(src.Periods)), results.IntValue(int64(d.stateRows)),
				results.FloatValue(d.prob),
				results.TextValue(ks[d.best].String()), results.FloatValue(d.bestTotal),
				results.TextValue(ks[d.worst].String()), results.IntValue(d.worstTotal),
				results.TextValue(ks[d.tail].String()), results.FloatValue(d.tailTotal),
				results.TextValue(d.optimal.String()), results.FloatValue(d.optimalTotal),
				results.TextValue(young), results.TextValue(daly),
				results.IntValue(int64(len(d.schedule.Points))), results.TextValue(d.scheduleLabels(" ")),
				results.FloatValue(d.scheduleTotal))
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
	sr        *SourceResult
	stateRows int
	pieces    []decide.Piece // Line indexes the source's declared intervals
}

// breakevens yields the envelope of every source and state size, in the
// order of breakeven.csv. Each costs O(pieces × intervals) exact steps.
// The envelope is over the intervals with a point left at the state size.
func (r *Result) breakevens(yield func(b *breakeven) bool) {
	for g := range r.envelopeGroups {
		sr, stateRows, left := g.sr, g.stateRows, g.left
		costs := sr.Parts[0].Costs
		var lines []decide.Line
		var index []int // of each line, in the source's intervals
		for i, c := range costs {
			if left[i] {
				lines = append(lines, decide.Line{Certain: c.CertainCost(stateRows), Sum: c.Sum})
				index = append(index, i)
			}
		}
		pieces := decide.Envelope(lines, costs[0].Weight)
		for i := range pieces {
			pieces[i].Line = index[pieces[i].Line]
		}
		if !yield(&breakeven{sr, stateRows, pieces}) {
			return
		}
	}
}

// envelopeGroup is a source and state rows with an envelope in
// breakeven.csv, and the intervals left in it.
type envelopeGroup struct {
	sr        *SourceResult
	stateRows int
	left      []bool
}

// envelopeGroups yields the groups that have an envelope in breakeven.csv:
// those with an interval left, once each when cases share a source.
func (r *Result) envelopeGroups(yield func(envelopeGroup) bool) {
	seen := r.once()
	for _, sr := range r.Sources {
		for _, stateRows := range sr.Grid.StateRowsFor(sr.Source.Subscribers) {
			left := r.anyLeft(sr, nil, []int{stateRows}, nil)
			if none(left) || seen(sr, stateRows, -1, left) {
				continue
			}
			if !yield(envelopeGroup{sr, stateRows, left}) {
				return
			}
		}
	}
}

// once returns a function that reports whether a decision (prob >= 0) or
// an envelope (prob < 0) of the same source, state rows and intervals left
// came before: two cases that share a source, apart in partitioning,
// would repeat it. Without cases nothing repeats, and nothing is kept.
func (r *Result) once() func(sr *SourceResult, stateRows int, prob float64, left []bool) bool {
	if len(r.Exp.Cases) < 2 {
		return func(*SourceResult, int, float64, []bool) bool { return false }
	}
	seen := map[string]bool{}
	return func(sr *SourceResult, stateRows int, prob float64, left []bool) bool {
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

// BreakevenTable returns breakeven.csv's table (SPEC §6): one row per
// piece of the envelope, in increasing probability.
func (r *Result) BreakevenTable() results.Table {
	return results.Table{Name: "breakeven", Columns: results.BreakevenColumns, Rows: func(yield func([]results.Value) bool) {
		var cells []results.Value
		for b := range r.breakevens {
			src := b.sr.Source
			for _, pc := range b.pieces {
				cells = append(cells[:0],
					results.IntValue(int64(src.Seed)), results.IntValue(int64(src.Subscribers)),
					results.IntValue(int64(src.Periods)), results.IntValue(int64(b.stateRows)),
					results.TextValue(b.sr.Intervals[pc.Line].String()),
					results.FloatValue(decide.Probability(pc.From)), results.FloatValue(decide.Probability(pc.To)),
					results.TextValue(decide.Fraction(pc.From)), results.TextValue(decide.Fraction(pc.To)))
				if !yield(cells) {
					return
				}
			}
		}
	}}
}
