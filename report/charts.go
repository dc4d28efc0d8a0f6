package report

import (
	"fmt"
	"slices"
	"strings"

	"ckptlab/answer"
	"ckptlab/criteria"
	"ckptlab/model"
	"ckptlab/results"
	"ckptlab/runner"
)

// Bounds that keep a chart readable: past a handful of lines a chart is a
// tangle, and past a few charts of one kind a reader wants the grid sheet.
const (
	maxChartLines   = 8
	maxChartsOfKind = 6
	// maxChartPoints is the most probabilities the expected-total chart
	// takes as they are; more are replaced by an even grid over [0, 1].
	maxChartPoints = 41
)

// charts returns the figures that answer the lesson's questions:
//
//   - expected total against failure probability, a line per interval,
//     for each source and state_rows: E_k(p) is a straight line in p, so the
//     chart spans p from 0 to 1 and its lower envelope and break-even
//     crossings show;
//   - rows recomputed against the failure period, a line per interval, for
//     each source: the lesson's saw-tooth matrix;
//   - the busiest worker's recovery against the number of workers, a line
//     per interval, for each source and partition key, when there are
//     several worker counts.
//
// Where there are more intervals than a chart shows clearly, it shows
// representative ones and its note says which. Charts follow the cases and
// the exclusions as the views do: each source with its case's axes, the
// intervals and partitionings with a point left.
func (r *result) charts() []results.Chart {
	ans := r.answer()
	var expected, sawtooth, workers chartsOfKind
	src, title := -1, ""
	for pt := range r.walk(byState) {
		if pt.si != src {
			src, title = pt.si, sourceTitle(pt.sr)
		}
		si, stateRows, title := pt.si, pt.stateRows, title
		expected.add(func() results.Chart {
			return expectedChart(fmt.Sprintf("%s, state rows %s", title, results.Count.FormatInt(int64(stateRows))), r.envelope(si, stateRows))
		})
	}
	for pt := range r.walk(bySource) {
		sr, si := pt.sr, pt.si
		title := sourceTitle(sr)
		var intervals []model.Interval
		for _, c := range pick(sr.Parts[0].Costs, pt.left) {
			intervals = append(intervals, c.Interval)
		}
		rec := ans.Recommended(si)
		sawtooth.add(func() results.Chart { return sawtoothChart(sr, title, intervals, rec) })
		if len(sr.Grid.Workers) > 1 {
			for _, key := range sr.Grid.PartitionKeys {
				var parts []*runner.PartResult
				for pp := range r.walkSource(si, byPart) {
					if pp.pr.Key == key {
						parts = append(parts, pp.pr)
					}
				}
				if len(parts) > 1 {
					workers.add(func() results.Chart {
						return workersChart(fmt.Sprintf("%s, partitioned by %s", title, key), sr, parts, rec)
					})
				}
			}
		}
	}
	var out []results.Chart
	for _, kind := range []chartsOfKind{expected, sawtooth, workers} {
		if kind.n > maxChartsOfKind {
			kind.charts[0].Note = strings.TrimSpace(kind.charts[0].Note + fmt.Sprintf(
				" Charts of this kind are drawn for the first %d of %d combinations; the grid sheet holds every figure.", maxChartsOfKind, kind.n))
		}
		out = append(out, kind.charts...)
	}
	return out
}

// chartsOfKind are the first maxChartsOfKind charts of one kind, and how
// many combinations there were: a sweep of 80,001 state_rows values has
// as many expected-total charts to draw, of which only the first few are
// made, so that the charts' figures never grow with the sweep.
type chartsOfKind struct {
	charts []results.Chart
	n      int
}

// add counts a chart, and makes it if it is among the first.
func (k *chartsOfKind) add(chart func() results.Chart) {
	k.n++
	if len(k.charts) < maxChartsOfKind {
		k.charts = append(k.charts, chart())
	}
}

// envelopeColumn names the line of an expected-total chart that follows
// the lower envelope: the least expected total of a declared interval.
const envelopeColumn = "envelope"

// expectedChart plots E_k(p) against p on [0, 1] for representative
// intervals of an envelope: the recommended ones first, emphasised, then
// the envelope itself as one line, then the others; its break-even
// crossings are marked.
func expectedChart(title string, e *answer.Envelope) results.Chart {
	costs := e.Costs
	xs := chartProbabilities(e.Group.Probabilities, e.Full)
	var left, emph []int // indexes of costs
	for i := range costs {
		if e.Left == nil || e.Left[i] {
			left = append(left, i)
		}
	}
	for _, pc := range e.Pieces {
		emph = append(emph, slices.Index(left, pc.Index))
	}
	first := slices.Clone(emph)
	for _, pc := range e.Full {
		first = append(first, slices.Index(left, pc.Line))
	}
	shown := emphasisFirst(representatives(len(left), first), emph)
	c := results.Chart{
		Data:      results.Block{Title: "Expected total against failure probability: " + title},
		YTitle:    "expected total (rows)",
		Envelope:  envelopeColumn,
		Marks:     breakevenMarks(costs, e.Full, e.StateRows),
		MarksName: "break-even",
		MarksNote: "Diamonds mark the break-even crossings, where the best interval changes; the table under the figures lists them, as breakeven.csv does.",
	}
	slots := slices.Clone(shown) // -1 stands for the envelope
	at := 0
	for at < len(slots) && slices.Contains(emph, slots[at]) {
		c.Recommended = append(c.Recommended, "interval "+costs[left[slots[at]]].Interval.String())
		at++
	}
	slots = slices.Insert(slots, at, -1)
	c.Data.Columns = append(c.Data.Columns, results.Column{Name: "failure probability", Kind: results.Float, Decimals: -1})
	for _, j := range slots {
		name := envelopeColumn
		if j >= 0 {
			name = "interval " + costs[left[j]].Interval.String()
		}
		c.Data.Columns = append(c.Data.Columns, results.Column{Name: name, Kind: results.Float, Decimals: 1})
	}
	for _, p := range xs {
		row := []results.Value{results.FloatValue(p)}
		for _, j := range slots {
			if j < 0 {
				_, least := e.Lowest(p)
				row = append(row, results.FloatValue(least))
				continue
			}
			row = append(row, results.FloatValue(e.Total(left[j], p)))
		}
		c.Data.Rows = append(c.Data.Rows, row)
	}
	c.Note = "Each line is straight in the probability, so it is drawn over 0 to 1; the envelope follows the lowest, the best interval at each probability, and the recommended intervals are those it follows over the declared probabilities."
	if len(shown) < len(left) {
		c.Note += " " + shownNote(pickIndexes(costs, left), shown, "the recommended intervals and those best at some probability, then others spread evenly")
	}
	return mergeIdentical(c)
}

// pickIndexes returns the costs at the given indexes.
func pickIndexes(costs []model.Cost, at []int) []model.Cost {
	out := make([]model.Cost, len(at))
	for i, k := range at {
		out[i] = costs[k]
	}
	return out
}

// emphasisFirst orders shown lines with the emphasised ones first, in
// their order, then the others as they are.
func emphasisFirst(shown, emph []int) []int {
	out := make([]int, 0, len(shown))
	for _, j := range emph {
		if slices.Contains(shown, j) && !slices.Contains(out, j) {
			out = append(out, j)
		}
	}
	for _, j := range shown {
		if !slices.Contains(out, j) {
			out = append(out, j)
		}
	}
	return out
}

// breakevenMarks returns the crossings of an envelope, as breakeven.csv
// gives them: at each probability where one piece ends and the next
// begins, the interval best before and after it, at the expected total
// they share there.
func breakevenMarks(costs []model.Cost, pieces []criteria.Piece, stateRows int) []results.Mark {
	var marks []results.Mark
	for i := 1; i < len(pieces); i++ {
		p := criteria.Probability(pieces[i].From)
		marks = append(marks, results.Mark{
			X:        p,
			Y:        expectedTotal(costs[pieces[i].Line], p, stateRows),
			Fraction: criteria.Fraction(pieces[i].From),
			From:     "interval " + costs[pieces[i-1].Line].Interval.String(),
			To:       "interval " + costs[pieces[i].Line].Interval.String(),
		})
	}
	return marks
}

// chartProbabilities returns the x values of the expected-total chart: 0,
// 1, the declared probabilities and the envelope's breakpoints, ascending
// and each once, or an even grid over [0, 1] and the breakpoints when there
// are too many. The envelope is straight between them.
func chartProbabilities(declared []float64, pieces []criteria.Piece) []float64 {
	xs := append([]float64{0, 1}, declared...)
	slices.Sort(xs)
	xs = slices.Compact(xs)
	if len(xs) > maxChartPoints {
		xs = xs[:0]
		for i := range maxChartPoints {
			xs = append(xs, float64(i)/float64(maxChartPoints-1))
		}
	}
	for i := 1; i < len(pieces); i++ {
		xs = append(xs, criteria.Probability(pieces[i].From))
	}
	slices.Sort(xs)
	return slices.Compact(xs)
}

// sawtoothChart plots the rows recomputed at each failure of the failure
// set, a line per representative interval of the given ones, the
// recommended ones first.
func sawtoothChart(sr *runner.SourceResult, title string, intervals []model.Interval, rec []model.Interval) results.Chart {
	emph := indexesOf(intervals, rec)
	shown := emphasisFirst(representatives(len(intervals), emph), emph)
	c := results.Chart{
		Data:        results.Block{Title: "Rows recomputed against the failure period: " + title},
		YTitle:      "rows recomputed",
		Recommended: intervalNames(intervals, emph, shown),
		// The saw-tooth of the recommended intervals is what the chart
		// shows; interval 1's zeros are not what they compete with.
		WholeRecommended: true,
	}
	c.Data.Columns = append(c.Data.Columns, results.Column{Name: "failure period", Kind: results.Text})
	for _, i := range shown {
		c.Data.Columns = append(c.Data.Columns, results.Column{Name: "interval " + intervals[i].String(), Kind: results.Int})
	}
	for _, f := range sr.Failures.Periods {
		row := []results.Value{results.TextValue(sr.Source.Label(f))}
		for _, i := range shown {
			row = append(row, results.IntValue(sr.Stream.Recomputed(intervals[i], f)))
		}
		c.Data.Rows = append(c.Data.Rows, row)
	}
	c.Note = "Rows recomputed after a failure in each period of the failure set: a line climbs with the distance from the last checkpoint and falls to 0 on one."
	if len(shown) < len(intervals) {
		c.Note += " " + shownNote(intervalCosts(intervals), shown, "the recommended ones, then others spread evenly")
	}
	return mergeIdentical(c)
}

// indexesOf returns the indexes in intervals of those of rec it holds, in
// rec's order.
func indexesOf(intervals, rec []model.Interval) []int {
	var out []int
	for _, k := range rec {
		if i := slices.Index(intervals, k); i >= 0 {
			out = append(out, i)
		}
	}
	return out
}

// intervalNames names the columns of the emphasised intervals a chart
// shows, in emphasis order.
func intervalNames(intervals []model.Interval, emph, shown []int) []string {
	var out []string
	for _, i := range emph {
		if slices.Contains(shown, i) {
			out = append(out, "interval "+intervals[i].String())
		}
	}
	return out
}

// workersChart plots what the headline states of a worker sweep, the
// busiest worker's recovery over every failure (busiest_worker_worst),
// against the number of workers, a line per representative interval, the
// recommended ones first.
func workersChart(title string, sr *runner.SourceResult, parts []*runner.PartResult, rec []model.Interval) results.Chart {
	costs := parts[0].Costs
	intervals := make([]model.Interval, len(costs))
	for i, c := range costs {
		intervals[i] = c.Interval
	}
	emph := indexesOf(intervals, rec)
	shown := emphasisFirst(representatives(len(costs), emph), emph)
	c := results.Chart{
		Data:        results.Block{Title: "Rows the busiest worker recomputes at most, over every failure, against workers: " + title},
		YTitle:      "most rows the busiest worker recomputes",
		Recommended: intervalNames(intervals, emph, shown),
		// The headline states this figure of the recommended interval.
		WholeRecommended: true,
	}
	c.Data.Columns = append(c.Data.Columns, results.Column{Name: "workers", Kind: results.Int})
	for _, i := range shown {
		c.Data.Columns = append(c.Data.Columns, results.Column{Name: "interval " + costs[i].Interval.String(), Kind: results.Int})
	}
	for _, pr := range parts {
		row := []results.Value{results.IntValue(int64(pr.Partitioning.Workers))}
		for _, i := range shown {
			row = append(row, results.IntValue(pr.Costs[i].BusiestWorst))
		}
		c.Data.Rows = append(c.Data.Rows, row)
	}
	c.Note = fmt.Sprintf("The most rows the one failed worker recomputes after a failure in any period of the failure set, with its state partitioned by %s (busiest_worker_worst), as the headline says.",
		parts[0].Key)
	if len(shown) < len(costs) {
		c.Note += " " + shownNote(costs, shown, "the recommended ones, then others spread evenly")
	}
	return mergeIdentical(c)
}

// mergeIdentical draws once the lines of a chart that are identical, so
// that no line hides another: a line per group of equal columns, named
// after them all ("intervals 4, 2 and 1"), the recommended interval's
// group keeping its name for emphasis; the note says so.
func mergeIdentical(c results.Chart) results.Chart {
	cols := c.Data.Columns
	same := func(a, b int) bool {
		for _, r := range c.Data.Rows {
			if r[a] != r[b] {
				return false
			}
		}
		return true
	}
	var keep []int
	groups := map[int][]string{}
	for j := 1; j < len(cols); j++ {
		i := slices.IndexFunc(keep, func(k int) bool { return same(k, j) && cols[k].Name != c.Envelope })
		if cols[j].Name == c.Envelope {
			i = -1 // the envelope is drawn as a line of its own
		}
		if i < 0 {
			keep = append(keep, j)
			groups[j] = []string{strings.TrimPrefix(cols[j].Name, "interval ")}
			continue
		}
		k := keep[i]
		groups[k] = append(groups[k], strings.TrimPrefix(cols[j].Name, "interval "))
		if slices.Contains(c.Recommended, cols[j].Name) && !slices.Contains(c.Recommended, cols[k].Name) {
			cols[k].Name = cols[j].Name // the group is drawn as the recommended line
		}
	}
	if len(keep) == len(cols)-1 {
		return c
	}
	var merged []string
	for _, k := range keep {
		if g := groups[k]; len(g) > 1 {
			merged = append(merged, "intervals "+strings.Join(g, ", ")+" give the same figures")
		}
	}
	out := c
	out.Data.Columns = append([]results.Column{cols[0]}, pickColumns(cols, keep)...)
	out.Data.Rows = nil
	for _, r := range c.Data.Rows {
		row := []results.Value{r[0]}
		for _, k := range keep {
			row = append(row, r[k])
		}
		out.Data.Rows = append(out.Data.Rows, row)
	}
	out.Note = strings.TrimSpace(c.Note + " " + strings.Join(merged, "; ") + ", each group drawn as one line.")
	return out
}

// pickColumns returns the columns at the given indexes.
func pickColumns(cols []results.Column, at []int) []results.Column {
	out := make([]results.Column, len(at))
	for i, k := range at {
		out[i] = cols[k]
	}
	return out
}

// representatives returns, ascending, the indexes of at most
// maxChartLines of n lines: those in first (in its order, as room allows),
// then others spread evenly over 0..n-1, the first and last included.
func representatives(n int, first []int) []int {
	if n <= maxChartLines {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	var out []int
	add := func(i int) {
		if len(out) < maxChartLines && !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	for _, i := range first {
		add(i)
	}
	for j := range maxChartLines {
		add(j * (n - 1) / (maxChartLines - 1))
	}
	for i := range n {
		add(i)
	}
	slices.Sort(out)
	return out
}

// shownNote says which of the intervals a chart shows, and how they were
// chosen.
func shownNote(costs []model.Cost, shown []int, how string) string {
	names := make([]string, len(shown))
	for j, i := range shown {
		names[j] = costs[i].Interval.String()
	}
	return fmt.Sprintf("It shows %d of the %d intervals (%s), %s; the grid sheet holds them all.",
		len(shown), len(costs), strings.Join(names, ", "), how)
}

// intervalCosts wraps intervals as costs, for shownNote.
func intervalCosts(intervals []model.Interval) []model.Cost {
	out := make([]model.Cost, len(intervals))
	for i, k := range intervals {
		out[i].Interval = k
	}
	return out
}
