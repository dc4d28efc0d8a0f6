package report

import (
	"context"
	"io"
	"slices"
	"testing"

	"ckptlab/results"
	"ckptlab/results/workbook"
)

// projected returns the rows of t with only the named columns, in the
// order names gives them.
func projected(t *testing.T, tab results.Table, names []string) [][]results.Value {
	t.Helper()
	idx := make([]int, len(names))
	for i, name := range names {
		idx[i] = slices.IndexFunc(tab.Columns, func(c results.Column) bool { return c.Name == name })
		if idx[i] < 0 {
			t.Fatalf("%s: no column %s", tab.Name, name)
		}
	}
	var out [][]results.Value
	for row := range tab.Rows {
		cells := make([]results.Value, len(idx))
		for i, j := range idx {
			cells[i] = row[j]
		}
		out = append(out, cells)
	}
	return out
}

// TestBestIntervalsAreDecisionsColumns holds the best-intervals table to
// decisions.csv: the same rows, in the same order, of the columns it has,
// for every shipped experiment and for cases and exclusions that leave
// decisions out and share sources.
func TestBestIntervalsAreDecisionsColumns(t *testing.T) {
	rs := shippedResults(t)
	rs = append(rs, evaluate(t, *casesExperiment()),
		evaluateYAML(t, "name: x\nstate_rows: [0, 10, subscribers]\nexclude:\n  - {interval: 4, probability: 1}\n  - {state_rows: 10, probability: 0.5}\n"))
	for _, r := range rs {
		best := r.bestIntervalsTable()
		var names []string
		for _, c := range best.Columns {
			names = append(names, c.Name)
		}
		if want := []string{"seed", "subscribers", "periods", "state_rows", "probability", "best_interval"}; !slices.Equal(names, want) {
			t.Fatalf("%s: best intervals' columns %v, want %v", r.Exp.Name, names, want)
		}
		for i, c := range best.Columns {
			if j := slices.IndexFunc(decisionColumns, func(d tableColumn[decision]) bool { return d.Name == c.Name }); decisionColumns[j].Column != c {
				t.Errorf("%s: column %d is %+v, decisions.csv's %+v", r.Exp.Name, i, c, decisionColumns[j].Column)
			}
		}
		got, want := rowsOf(best), projected(t, r.decisionsTable(), names)
		if len(want) == 0 {
			t.Fatalf("%s: no decisions to compare", r.Exp.Name)
		}
		compareRows(t, r.Exp.Name+" best intervals", got, want)
	}
}

// TestBestIntervalsMakeNoSchedule checks that the best intervals are not
// whole decisions in disguise: ranging over them finds no schedule (the
// O(P²) part of a decision), where ranging over the decisions does.
func TestBestIntervalsMakeNoSchedule(t *testing.T) {
	r := evaluateYAML(t, "name: x\nstate_rows: [0, 10, 100]\n")
	n := 0
	for range r.bestIntervalsTable().Rows {
		n++
	}
	if n != 12 {
		t.Fatalf("%d best intervals, want 12", n)
	}
	if len(r.schedules.m) != 0 {
		t.Fatalf("the best intervals found %d schedules, want none", len(r.schedules.m))
	}
	for range r.decisionsTable().Rows {
	}
	if len(r.schedules.m) != n {
		t.Fatalf("the decisions found %d schedules, want %d: the check above cannot fail", len(r.schedules.m), n)
	}
}

// countedPasses returns tab with its Rows counting, into *passes, every
// time they are ranged over.
func countedPasses(tab results.Table, passes *int) results.Table {
	rows := tab.Rows
	tab.Rows = func(yield func([]results.Value) bool) {
		*passes++
		rows(yield)
	}
	return tab
}

// TestWorkbookMakesDecisionsOnce checks that a workbook with decision maps
// ranges over the decisions once, for their sheet, and over the best
// intervals once, for the maps: decisions are made once.
func TestWorkbookMakesDecisionsOnce(t *testing.T) {
	r := evaluateYAML(t, "name: x\nstate_rows: [0, 10, 100, 1000]\n")
	set := r.set([]string{results.FormatXLSX})
	var decisions, best int
	set.Decisions = countedPasses(set.Decisions, &decisions)
	set.BestIntervals = countedPasses(set.BestIntervals, &best)
	if err := workbook.Write(context.Background(), io.Discard, set, ""); err != nil {
		t.Fatal(err)
	}
	if decisions != 1 || best != 1 {
		t.Errorf("the workbook ranged over the decisions %d times and the best intervals %d, want once each", decisions, best)
	}
}
