package runner

import (
	"fmt"
	"slices"
	"strings"

	"ckptlab/model"
	"ckptlab/results"
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

// Charts returns the figures that answer the lesson's questions:
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
func (r *Result) Charts() []results.Chart {
	var expected, sawtooth, workers []results.Chart
	for _, sr := range r.Sources {
		g := sr.Grid
		title := sr.title()
		costs := sr.Parts[0].Costs
		for _, stateRows := range g.StateRowsFor(sr.Source.Subscribers) {
			left := r.anyLeft(sr, nil, []int{stateRows}, nil)
			if none(left) {
				continue
			}
			expected = append(expected, expectedChart(fmt.Sprintf("%s, state rows %d", title, stateRows), pick(costs, left), stateRows, g.Probabilities))
		}
		var intervals []model.Interval
		for _, c := range pick(costs, r.anyLeft(sr, nil, nil, nil)) {
			intervals = append(intervals, c.Interval)
		}
		sawtooth = append(sawtooth, sr.sawtoothChart(title, intervals))
		if len(g.Workers) > 1 {
			for _, key := range g.PartitionKeys {
				var parts []*PartResult
				for _, pr := range sr.Parts {
					if pr.Key == key && !none(r.anyLeft(sr, []*PartResult{pr}, nil, nil)) {
						parts = append(parts, pr)
					}
				}
				if len(parts) > 1 {
					workers = append(workers, workersChart(fmt.Sprintf("%s, partitioned by %s", title, key), sr, parts))
				}
			}
		}
	}
	var out []results.Chart
	for _, kind := range [][]results.Chart{expected, sawtooth, workers} {
		if len(kind) > maxChartsOfKind {
			n := len(kind)
			kind = kind[:maxChartsOfKind]
			kind[0].Note = strings.TrimSpace(kind[0].Note + fmt.Sprintf(
				" Charts of this kind are drawn for the first %d of %d combinations; the grid sheet holds every figure.", maxChartsOfKind, n))
		}
		out = append(out, kind...)
	}
	return out
}

// expectedChart plots E_k(p) against p on [0, 1] for representative
// intervals: those best at some plotted probability first.
func expectedChart(title string, costs []model.Cost, stateRows int, probabilities []float64) results.Chart {
	xs := chartProbabilities(probabilities)
	var best []int
	for _, p := range xs {
		if b := bestLeft(costs, nil, p, stateRows); !slices.Contains(best, b) {
			best = append(best, b)
		}
	}
	shown := representatives(len(costs), best)
	c := results.Chart{
		Data:   results.Block{Title: "Expected total against failure probability: " + title},
		YTitle: "expected total (rows)",
	}
	c.Data.Columns = append(c.Data.Columns, results.Column{Name: "failure probability", Kind: results.Float, Decimals: -1})
	for _, i := range shown {
		c.Data.Columns = append(c.Data.Columns, results.Column{Name: "interval " + costs[i].Interval.String(), Kind: results.Float, Decimals: 1})
	}
	for _, p := range xs {
		row := []results.Value{results.FloatValue(p)}
		for _, i := range shown {
			row = append(row, results.FloatValue(expectedTotal(costs[i], p, stateRows)))
		}
		c.Data.Rows = append(c.Data.Rows, row)
	}
	c.Note = "Each line is straight in the probability, so it is drawn over 0 to 1; the lowest line at a probability is the best interval there."
	if len(shown) < len(costs) {
		c.Note += " " + shownNote(costs, shown, "the intervals best at some probability, then others spread evenly")
	}
	return c
}

// chartProbabilities returns the x values of the expected-total chart: 0,
// 1 and the declared probabilities, ascending and each once, or an even
// grid over [0, 1] when there are too many.
func chartProbabilities(declared []float64) []float64 {
	xs := append([]float64{0, 1}, declared...)
	slices.Sort(xs)
	xs = slices.Compact(xs)
	if len(xs) <= maxChartPoints {
		return xs
	}
	xs = xs[:0]
	for i := range maxChartPoints {
		xs = append(xs, float64(i)/float64(maxChartPoints-1))
	}
	return xs
}

// sawtoothChart plots the rows recomputed at each failure of the failure
// set, a line per representative interval of the given ones.
func (sr *SourceResult) sawtoothChart(title string, intervals []model.Interval) results.Chart {
	shown := representatives(len(intervals), nil)
	c := results.Chart{
		Data:   results.Block{Title: "Rows recomputed against the failure period: " + title},
		YTitle: "rows recomputed",
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
		c.Note += " " + shownNote(intervalCosts(intervals), shown, "spread evenly over the declared ones")
	}
	return c
}

// workersChart plots the busiest worker's recovery at the named failure
// against the number of workers, a line per representative interval.
func workersChart(title string, sr *SourceResult, parts []*PartResult) results.Chart {
	costs := parts[0].Costs
	shown := representatives(len(costs), nil)
	c := results.Chart{
		Data: results.Block{Title: fmt.Sprintf("Rows the busiest worker recomputes at %s against workers: %s",
			sr.Source.Label(sr.Failure), title)},
		YTitle: "rows the busiest worker recomputes",
	}
	c.Data.Columns = append(c.Data.Columns, results.Column{Name: "workers", Kind: results.Int})
	for _, i := range shown {
		c.Data.Columns = append(c.Data.Columns, results.Column{Name: "interval " + costs[i].Interval.String(), Kind: results.Int})
	}
	for _, pr := range parts {
		row := []results.Value{results.IntValue(int64(pr.Partitioning.Workers))}
		for _, i := range shown {
			row = append(row, results.IntValue(pr.Costs[i].Busiest))
		}
		c.Data.Rows = append(c.Data.Rows, row)
	}
	c.Note = fmt.Sprintf("Rows the one failed worker recomputes after a failure in %s, with its state partitioned by %s.",
		sr.Source.Label(sr.Failure), parts[0].Key)
	if len(shown) < len(costs) {
		c.Note += " " + shownNote(costs, shown, "spread evenly over the declared ones")
	}
	return c
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
