package report

import "ckptlab/answer"

// answer returns the run's answer (package answer), computed on first use
// and read by every table, chart and line that tells it.
func (r *result) answer() *answer.Answer {
	r.answerOnce.Do(func() { r.ans = answer.New(r.answerGroups) })
	return r.ans
}

// answerGroups yields every source and state size with an interval left,
// in the order of breakeven.csv, each source numbered by its place in
// r.Sources; a group that cases repeat is marked so.
func (r *result) answerGroups(yield func(answer.Group) bool) {
	seen := r.once()
	for pt := range r.walk(byState) {
		g := r.group(pt)
		g.Repeat = seen(pt.sr, pt.stateRows, -1, pt.left)
		if !yield(g) {
			return
		}
	}
}

// group returns the answer's group of a source at a state size: a point of
// walk(byState). Its Left is the point's.
func (r *result) group(pt *gridPoint) answer.Group {
	sr := pt.sr
	g := answer.Group{Index: pt.si, Source: sr.Source, StateRows: pt.stateRows, Costs: sr.Parts[0].Costs, Left: pt.left,
		Probabilities: sr.Grid.Probabilities}
	if len(r.Exp.Exclude) > 0 { // else every point leaves every interval
		var w walker
		si, stateRows := pt.si, pt.stateRows
		g.LeftAt = func(part, k int) []bool { return w.at(r, si, part, stateRows, k) }
		if len(sr.Parts) > 1 {
			g.Parts = len(sr.Parts)
		}
	}
	return g
}

// bestsOf finds the answer's bests of a walk's points: the kept
// envelope's, or made again (answer.NewBests) past what the answer keeps,
// once for each run of points of one source and state rows.
type bestsOf struct {
	si, stateRows int
	made          answer.Bests
	w             walker
}

// at returns the bests of the point's source and state rows.
func (c *bestsOf) at(r *result, pt *gridPoint) *answer.Bests {
	if e := r.answer().Find(pt.si, pt.stateRows); e != nil {
		return &e.Bests
	}
	if c.made.Best == nil || c.si != pt.si || c.stateRows != pt.stateRows {
		g := *pt
		g.part, g.pr, g.decision, g.prob = -1, nil, -1, -1
		g.left = c.w.at(r, pt.si, -1, pt.stateRows, -1)
		c.si, c.stateRows, c.made = pt.si, pt.stateRows, answer.NewBests(r.group(&g))
	}
	return &c.made
}

// envelopes yields the envelope of every group, in the order of
// answerGroups: the answer's where it keeps them, made again past them.
func (r *result) envelopes(yield func(*answer.Envelope) bool) {
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
func (r *result) envelope(si, stateRows int) *answer.Envelope {
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
