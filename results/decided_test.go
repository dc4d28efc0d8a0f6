package results_test

import (
	"testing"

	"ckptlab/results"
)

// tableOf returns a table of the given rows.
func tableOf(name string, cols []results.Column, rows [][]results.Value) results.Table {
	return results.Block{Columns: cols, Rows: rows}.Table(name)
}

// decidedSet returns the lesson's set with decision tables, break-even
// pieces and a headline made up for the writers to show: two state-row
// counts, so that the decision map has two columns. Their figures are
// inputs, not checked against the model.
func decidedSet(t testing.TB) results.Set {
	s := lessonSet(t)
	i, f, x := results.IntValue, results.FloatValue, results.TextValue
	var decisions [][]results.Value
	for _, sr := range []int64{200, 400} {
		for _, d := range []struct {
			p    float64
			best string
		}{{1, "4"}, {0.75, "6"}, {0.5, "none"}, {0.25, "none"}} {
			best := d.best
			if sr == 400 && d.p == 1 {
				best = "6"
			}
			decisions = append(decisions, []results.Value{
				i(20260218), i(200), i(12), i(sr), f(d.p), x(best), f(927.3), x("4"), i(1200),
				x("4"), f(1200), x("7"), f(763.6), x("3.7"), x("none"),
				i(2), x("2026-05 2026-09"), f(727.3),
			})
		}
	}
	s.Decisions = tableOf("decisions", results.DecisionColumns, decisions)
	s.BestIntervals = results.Table{} // the maps read these decisions
	s.Breakeven = tableOf("breakeven", results.BreakevenColumns, [][]results.Value{
		{i(20260218), i(200), i(12), i(200), x("none"), f(0), f(11.0 / 18), x("0"), x("11/18")},
		{i(20260218), i(200), i(12), i(200), x("6"), f(11.0 / 18), f(11.0 / 12), x("11/18"), x("11/12")},
		{i(20260218), i(200), i(12), i(200), x("4"), f(11.0 / 12), f(1), x("11/12"), x("1")},
	})
	s.Headline = []string{
		"lesson: interval none is best for probabilities up to 11/18, 6 up to 11/12, then 4.",
		"Over every interval, 7 beats every declared one at probability 1.",
	}
	return s
}
