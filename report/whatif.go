package report

import (
	"fmt"
	"slices"

	"ckptlab/answer"
	"ckptlab/criteria"
	"ckptlab/internal/words"
	"ckptlab/model"
	"ckptlab/results"
	"ckptlab/runner"
)

// whatIf returns the what-if sheet's figures: as the inputs' first values
// the state rows of the answer's first envelope and the greatest declared
// probability, where the headline states the envelope's figure, and the
// sums of every source with the same declared intervals, that envelope's
// source first, for the analyst to pick from. nil when there is no
// decision.
func (r *result) whatIf() *results.WhatIf {
	var e *answer.Envelope
	for e = range r.answer().Unique {
		break
	}
	if e == nil {
		return nil
	}
	_, top := e.Range()
	first := r.Sources[e.Index]
	w := &results.WhatIf{Probability: top, StateRows: int64(e.StateRows)}
	for _, k := range first.Intervals {
		w.Intervals = append(w.Intervals, k.String())
	}
	for _, c := range first.Parts[0].Costs {
		w.Totals = append(w.Totals, expectedTotal(c, top, e.StateRows))
	}
	w.Schedule = r.whatIfSchedule(first, e.StateRows, top)
	// each source's first decision's state rows
	stateRows := map[model.Source]int64{}
	for pt := range r.decisionPoints {
		if _, ok := stateRows[pt.sr.Source]; !ok {
			stateRows[pt.sr.Source] = int64(pt.stateRows)
		}
	}
	var seen []*runner.SourceResult
	other := 0
	for _, sr := range r.Sources {
		if !slices.Equal(sr.Intervals, first.Intervals) {
			other++
			continue
		}
		if slices.ContainsFunc(seen, func(s *runner.SourceResult) bool { return s.Source == sr.Source }) {
			continue
		}
		seen = append(seen, sr)
		s := sr.Source
		src := results.WhatIfSource{
			Title:     fmt.Sprintf("seed %d, %s subscribers, %s periods", s.Seed, results.Count.FormatInt(int64(s.Subscribers)), results.Count.FormatInt(int64(s.Periods))),
			Periods:   s.Periods,
			Weight:    sr.Parts[0].Costs[0].Weight,
			StateRows: stateRows[s],
		}
		for _, c := range sr.Parts[0].Costs {
			src.Sums = append(src.Sums, c.Sum)
		}
		w.Sources = append(w.Sources, src)
	}
	if other > 0 {
		w.Note = fmt.Sprintf("%d %s with other intervals declared are not listed.", other, words.Plural(other, "source", "sources"))
	}
	return w
}

// whatIfSchedule returns the best schedule of a source at a state size
// and probability, as decisions.csv finds it, and whether it costs less
// than every declared interval, compared exactly.
func (r *result) whatIfSchedule(sr *runner.SourceResult, stateRows int, p float64) *results.WhatIfSchedule {
	s := r.schedules.best(criteria.NewSchedules(sr.Stream, sr.Source.Periods, sr.Failures), sr, stateRows, p)
	weight := sr.Failures.Total()
	ws := &results.WhatIfSchedule{Total: s.Expected(p, weight, int64(stateRows)), Beats: true}
	for _, t := range s.Points {
		ws.Points = append(ws.Points, sr.Source.Label(t))
	}
	for _, c := range sr.Parts[0].Costs {
		if !s.Below(p, weight, int64(stateRows), criteria.Line{Certain: c.CertainCost(stateRows), Sum: c.Sum}) {
			ws.Beats = false
		}
	}
	return ws
}
