package runner

import (
	"slices"
	"testing"

	"ckptlab/results"
	"ckptlab/runner/experiment"
)

// TestLessonViews checks the views' shape and the figures that set them apart
// from the grid: the best interval per probability and its marked cell, and
// one block per combination of the axes a view depends on.
func TestLessonViews(t *testing.T) {
	views := heldViews(evaluate(t, experiment.Lesson("lesson")).Views())
	var names []string
	for _, v := range views {
		names = append(names, v.Name)
		if len(v.Blocks) != 1 {
			t.Errorf("view %s has %d blocks, want 1 for the lesson", v.Name, len(v.Blocks))
		}
	}
	if !slices.Equal(names, results.ViewNames) {
		t.Errorf("views = %v, want %v", names, results.ViewNames)
	}
	prob := views[3].Blocks[0]
	var best []string
	for i, row := range prob.Rows {
		best = append(best, row[len(row)-1].Text)
		if m := prob.Marked[i]; m[0] != i || prob.Columns[m[1]].Name != row[len(row)-1].Text {
			t.Errorf("row %d marks column %q, best is %q", i, prob.Columns[m[1]].Name, row[len(row)-1].Text)
		}
	}
	if want := []string{"4", "6", "none", "none"}; !slices.Equal(best, want) {
		t.Errorf("best intervals = %v, want %v", best, want)
	}
	if got := views[1].Blocks[0].Rows[7]; got[0].Text != "2026-09" || got[1].Int != 1600 || got[3].Int != 0 {
		t.Errorf("matrix row 2026-09 = %v, want 2026-09 with none 1600 and interval 4 at 0", got)
	}
}

func TestViewBlocksPerCombination(t *testing.T) {
	views := heldViews(evaluate(t, smallGrid()).Views())
	sources, stateRows, parts := 8, 2, 4
	want := map[string]int{
		"recovery":    sources,
		"matrix":      sources,
		"cost":        sources * stateRows,
		"probability": sources * stateRows,
		"partition":   sources * parts,
	}
	for _, v := range views {
		if len(v.Blocks) != want[v.Name] {
			t.Errorf("view %s has %d blocks, want %d", v.Name, len(v.Blocks), want[v.Name])
		}
	}
}

// TestSetViewsOnlyWhenShown checks that the views are built for the
// workbook and the Markdown summary, and not for CSV alone.
func TestSetViewsOnlyWhenShown(t *testing.T) {
	res := evaluate(t, experiment.Lesson("lesson"))
	for _, tt := range []struct {
		formats []string
		views   bool
	}{
		{[]string{results.FormatCSV}, false},
		{[]string{results.FormatCSV, results.FormatXLSX}, true},
		{[]string{results.FormatMD}, true},
	} {
		if got := len(res.Set(tt.formats).Views) > 0; got != tt.views {
			t.Errorf("Set(%v) has views: %v, want %v", tt.formats, got, tt.views)
		}
	}
}

// heldViews returns the views with their blocks made and held, for tests
// that index them.
func heldViews(views []results.View) []results.View {
	for i := range views {
		views[i].Blocks, views[i].Each = slices.Collect(views[i].All()), nil
	}
	return views
}
