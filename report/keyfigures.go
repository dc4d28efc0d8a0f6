package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"ckptlab/results"
	"ckptlab/runner/experiment"
)

// keyFigure is the summary's key figures at one decision point: the best
// interval's expected total, no checkpoint's and the runner-up's, over the
// sources alike in all but their seed.
type keyFigure struct {
	subscribers, periods, stateRows int
	prob                            float64
	seeds                           int
	best, runnerUp                  []string // the intervals met, in order
	bestTotal                       span
	saveNone, ratioNone             span // against no checkpoint
	saveUp, ratioUp                 span // against the runner-up
	hasNone, hasUp                  bool
}

// span is the least and the most of a figure over the sources.
type span struct{ lo, hi float64 }

func (s *span) add(v float64, first bool) {
	if first {
		*s = span{v, v}
		return
	}
	s.lo, s.hi = min(s.lo, v), max(s.hi, v)
}

// Bounds of the key figures: the most probabilities, state rows and
// cases (subscribers and periods) they take, an even selection of the
// first two, so that a long sweep holds a few hundred figures at most.
const (
	keyProbabilities = 21
	keyStateRows     = 3
	keyCases         = 3
)

// keyFigures returns the summary's block of key figures: at each decision
// point, the best interval and its expected total, what it saves against
// no checkpoint and against the runner-up (the least of the others), in
// rows and as the ratio of their totals to its. Sources that differ only
// in their seed share a row, their figures as the range over the seeds.
// Past the bounds above it takes an even selection of the points.
func (r *result) keyFigures() results.Block {
	var figs []*keyFigure
	at := map[[4]float64]*keyFigure{}
	cases := map[[2]int]bool{}
	type gridSource struct {
		g *experiment.Grid
		n int
	}
	stateRows := map[gridSource][]int{} // each grid's state rows, made once
	var envs bestsOf
	for pt := range r.decisionPoints {
		s := pt.sr.Source
		c := [2]int{s.Subscribers, s.Periods}
		if !cases[c] && len(cases) == keyCases {
			continue
		}
		gs := gridSource{pt.sr.Grid, s.Subscribers}
		rows, ok := stateRows[gs]
		if !ok {
			rows = pt.sr.Grid.StateRowsFor(s.Subscribers)
			stateRows[gs] = rows
		}
		if !evenlyPicked(pt.sr.Grid.Probabilities, pt.prob, keyProbabilities) ||
			!evenlyPicked(rows, pt.stateRows, keyStateRows) {
			continue
		}
		cases[c] = true
		key := [4]float64{float64(s.Subscribers), float64(s.Periods), float64(pt.stateRows), pt.prob}
		f, ok := at[key]
		if !ok {
			f = &keyFigure{subscribers: s.Subscribers, periods: s.Periods, stateRows: pt.stateRows, prob: pt.prob}
			at[key] = f
			figs = append(figs, f)
		}
		costs := pt.sr.Parts[0].Costs
		best := envs.at(r, pt).Best[pt.decision]
		first := f.seeds == 0
		f.seeds++
		f.best = addName(f.best, pt.sr.Intervals[best].String())
		bt := expectedTotal(costs[best], pt.prob, pt.stateRows)
		f.bestTotal.add(bt, first)
		up := -1
		for i, c := range costs {
			if !pt.left[i] {
				continue
			}
			e := expectedTotal(c, pt.prob, pt.stateRows)
			if pt.sr.Intervals[i].String() == "none" {
				f.saveNone.add(e-bt, !f.hasNone)
				f.ratioNone.add(ratio(e, bt), !f.hasNone)
				f.hasNone = true
			}
			if i != best && (up < 0 || e < expectedTotal(costs[up], pt.prob, pt.stateRows)) {
				up = i
			}
		}
		if up >= 0 {
			f.runnerUp = addName(f.runnerUp, pt.sr.Intervals[up].String())
			e := expectedTotal(costs[up], pt.prob, pt.stateRows)
			f.saveUp.add(e-bt, !f.hasUp)
			f.ratioUp.add(ratio(e, bt), !f.hasUp)
			f.hasUp = true
		}
	}
	if len(figs) == 0 {
		return results.Block{}
	}
	blk := results.Block{Title: "Key figures: what the best interval saves against no checkpoint and against the runner-up, in rows (the other's expected total to its)"}
	many := func(get func(*keyFigure) float64) bool {
		return slices.ContainsFunc(figs, func(f *keyFigure) bool { return get(f) != get(figs[0]) })
	}
	text := func(name string) results.Column { return results.Column{Name: name, Kind: results.Text} }
	cols := []struct {
		show bool
		col  results.Column
		cell func(*keyFigure) results.Value
	}{
		{many(func(f *keyFigure) float64 { return float64(f.subscribers) }) || many(func(f *keyFigure) float64 { return float64(f.periods) }),
			text("source"), func(f *keyFigure) results.Value {
				return results.TextValue(fmt.Sprintf("%s subscribers, %s periods", results.Count.FormatInt(int64(f.subscribers)), results.Count.FormatInt(int64(f.periods))))
			}},
		{slices.ContainsFunc(figs, func(f *keyFigure) bool { return f.seeds > 1 }),
			results.Column{Name: "seeds", Kind: results.Int}, func(f *keyFigure) results.Value { return results.IntValue(int64(f.seeds)) }},
		{many(func(f *keyFigure) float64 { return float64(f.stateRows) }),
			results.Column{Name: "state rows", Kind: results.Int}, func(f *keyFigure) results.Value { return results.IntValue(int64(f.stateRows)) }},
		{true, results.Column{Name: "failure probability", Kind: results.Float, Decimals: -1}, func(f *keyFigure) results.Value { return results.FloatValue(f.prob) }},
		{true, text("best"), func(f *keyFigure) results.Value { return results.TextValue(strings.Join(f.best, " or ")) }},
		{true, text("expected total"), func(f *keyFigure) results.Value { return spanValue(f.bestTotal, results.Total) }},
		{true, text("saves vs none"), func(f *keyFigure) results.Value {
			if !f.hasNone {
				return results.TextValue("")
			}
			return saving(f.saveNone, f.ratioNone)
		}},
		{true, text("runner-up"), func(f *keyFigure) results.Value { return results.TextValue(strings.Join(f.runnerUp, " or ")) }},
		{true, text("saves vs it"), func(f *keyFigure) results.Value {
			if !f.hasUp {
				return results.TextValue("")
			}
			return saving(f.saveUp, f.ratioUp)
		}},
	}
	for _, c := range cols {
		if c.show {
			blk.Columns = append(blk.Columns, c.col)
		}
	}
	for _, f := range figs {
		var row []results.Value
		for _, c := range cols {
			if c.show {
				row = append(row, c.cell(f))
			}
		}
		blk.Rows = append(blk.Rows, row)
	}
	return blk
}

// evenlyPicked reports whether v is among k values picked evenly from
// values, the first and the last among them: all of them when there are
// k or fewer.
func evenlyPicked[T comparable](values []T, v T, k int) bool {
	n := len(values)
	if n <= k {
		return true
	}
	for j := range k {
		if values[j*(n-1)/(k-1)] == v {
			return true
		}
	}
	return false
}

// addName adds an interval's name to those met, once.
func addName(names []string, name string) []string {
	if slices.Contains(names, name) {
		return names
	}
	return append(names, name)
}

// saving writes what the best interval saves, in rows and as the ratio of
// the other's total to its: "272.7 (1.29×)".
func saving(rows, ratio span) results.Value {
	text := spanValue(rows, results.Total).Text
	if r := ratioValue(ratio).Text; r != "" {
		text += " (" + r + ")"
	}
	return results.TextValue(text)
}

// spanValue writes a span in the number style q: one figure, or the
// least and the most.
func spanValue(s span, q results.Quantity) results.Value {
	if q.Format(s.lo) == q.Format(s.hi) {
		return results.TextValue(q.Format(s.lo))
	}
	return results.TextValue(q.Format(s.lo) + " to " + q.Format(s.hi))
}

// ratio is a/b, or +Inf where b is 0 and a is not: no ratio is shown.
func ratio(a, b float64) float64 {
	if b == 0 {
		return math.Inf(1)
	}
	return a / b
}

// ratioValue writes a ratio of totals as "1.29×", or its range over the
// sources; an infinite one, against a best total of 0, is left blank.
func ratioValue(s span) results.Value {
	if math.IsInf(s.hi, 0) || math.IsNaN(s.lo) || math.IsNaN(s.hi) {
		return results.TextValue("")
	}
	f := func(x float64) string { return fmt.Sprintf("%.2f×", x) }
	if f(s.lo) == f(s.hi) {
		return results.TextValue(f(s.lo))
	}
	return results.TextValue(f(s.lo) + " to " + f(s.hi))
}
