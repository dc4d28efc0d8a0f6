package runner

import "ckptlab/answer"

// answer returns the run's answer (package answer), computed on first use
// and read by every table, chart and line that tells it.
func (r *Result) answer() *answer.Answer {
	r.answerOnce.Do(func() { r.ans = answer.New(r.answerGroups) })
	return r.ans
}

// Answer returns the run's answer, as the writers read it.
func (r *Result) Answer() *answer.Answer { return r.answer() }

// answerGroups yields every source and state size with an interval left,
// in the order of breakeven.csv, each source numbered by its place in
// r.Sources; a group that cases repeat is marked so.
func (r *Result) answerGroups(yield func(answer.Group) bool) {
	seen := r.once()
	var left, scratch []bool
	for i, sr := range r.Sources {
		for _, stateRows := range sr.Grid.StateRowsFor(sr.Source.Subscribers) {
			left, scratch = r.anyLeftInto(left, scratch, sr, nil, []int{stateRows}, nil)
			if none(left) {
				continue
			}
			g := answer.Group{Index: i, Source: sr.Source, StateRows: stateRows, Costs: sr.Parts[0].Costs, Left: left,
				Probabilities: sr.Grid.Probabilities, Repeat: seen(sr, stateRows, -1, left)}
			if !yield(g) {
				return
			}
		}
	}
}

// envelopes yields the envelope of every group, in the order of
// answerGroups: the answer's where it keeps them, made again past them.
func (r *Result) envelopes(yield func(*answer.Envelope) bool) {
	kept := r.answer().Envelopes
	n := 0
	for g := range r.answerGroups {
		e := (*answer.Envelope)(nil)
		if n < len(kept) {
			e = kept[n]
		} else {
			e = answer.NewEnvelope(g)
		}
		n++
		if !yield(e) {
			return
		}
	}
}

// envelope returns the envelope of source si at a state size: the
// answer's, or made again past what it keeps; nil without one.
func (r *Result) envelope(si, stateRows int) *answer.Envelope {
	if e := r.answer().Find(si, stateRows); e != nil {
		return e
	}
	for e := range r.envelopes {
		if e.Index == si && e.StateRows == stateRows {
			return e
		}
	}
	return nil
}
