package answer

import (
	"ckptlab/criteria"
	"ckptlab/model"
)

// A Decision is what each criterion picks at one point (SPEC 6).
// A point is a source, a state size and a probability.
// Interval fields index the source's declared intervals.
type Decision struct {
	Best, Worst, Tail int
	BestTotal         float64
	WorstTotal        int64
	TailTotal         float64
	Optimal           model.Interval
	OptimalTotal      float64
	Young, Daly       float64
	YoungOK           bool
	Schedule          criteria.Schedule
	ScheduleTotal     float64
	// ScheduleBeats reports whether the schedule costs less than every
	// interval, declared or not.
	ScheduleBeats bool
}

// A Source is what the decisions of one source read, made once per source.
// It holds the recomputed rows of each declared interval at each failure,
// sorted for the tail. It also holds the sums over every interval.
type Source struct {
	Periods  int
	Rows     int64
	Failures model.FailureSet
	Costs    []model.Cost // the declared intervals, in declared order
	outs     []criteria.Outcomes
	sums     []int64
}

// NewSource makes what a source's decisions read, in
// O(intervals × n log n + P log P).
func NewSource(stream model.Recovery, periods int, rows int64, fs model.FailureSet, costs []model.Cost) *Source {
	s := &Source{Periods: periods, Rows: rows, Failures: fs, Costs: costs,
		outs: make([]criteria.Outcomes, len(costs)), sums: criteria.Sums(stream, periods, fs)}
	ys := make([]int64, len(fs.Periods))
	for i, c := range costs {
		for j, f := range fs.Periods {
			ys[j] = stream.Recomputed(c.Interval, f)
		}
		s.outs[i] = criteria.NewOutcomes(ys, fs.Weights)
	}
	return s
}

// Decide makes the decision at a state size and probability.
// It picks among the intervals left (nil: every one), at risk level alpha.
// Schedule is the best schedule there (criteria.Schedules.Best, or a memo of it).
// Decide costs O(intervals + log n) for the declared criteria.
// It costs O(P) for the optimum.
func (s *Source) Decide(left []bool, stateRows int, p, alpha float64, schedule criteria.Schedule) Decision {
	weight := s.Failures.Total()
	g := Group{StateRows: stateRows, Costs: s.Costs, Left: left}
	d := Decision{Best: g.Best(p)}
	d.BestTotal = g.Total(d.Best, p)
	first := true
	for i, c := range s.Costs {
		if left != nil && !left[i] {
			continue
		}
		if w := c.WorstTotal(stateRows); first || w < d.WorstTotal {
			d.Worst, d.WorstTotal = i, w
		}
		if t := s.outs[i].Tail(alpha, p, c.CertainCost(stateRows)); first || t < d.TailTotal {
			d.Tail, d.TailTotal = i, t
		}
		first = false
	}
	d.Optimal, d.OptimalTotal = criteria.Optimum(s.sums, weight, p, int64(stateRows))
	d.Young, d.Daly, d.YoungOK = criteria.Young(s.Rows, s.Periods, int64(stateRows), len(s.Failures.Periods), p)
	d.Schedule = schedule
	d.ScheduleTotal = schedule.Expected(p, weight, int64(stateRows))
	optimum := criteria.Line{Certain: int64(d.Optimal.Checkpoints(s.Periods)) * int64(stateRows), Sum: s.sums[d.Optimal]}
	d.ScheduleBeats = schedule.Below(p, weight, int64(stateRows), optimum)
	return d
}
