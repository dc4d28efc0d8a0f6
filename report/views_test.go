package report

import (
	"context"
	"io"
	"slices"
	"sync"
	"testing"

	"ckptlab/results"
	"ckptlab/results/workbook"
	"ckptlab/runner/experiment"
)

// TestLessonViews checks the views' shape and the figures that set them apart
// from the grid: the best interval per probability and its marked cell, and
// one block per combination of the axes a view depends on.
func TestLessonViews(t *testing.T) {
	views := heldViews(evaluate(t, experiment.Lesson("lesson")).views())
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
	views := heldViews(evaluate(t, smallGrid()).views())
	sources, stateRows := 8, 2
	want := map[string]int{
		"recovery":    sources,
		"matrix":      sources,
		"cost":        sources * stateRows,
		"probability": sources * stateRows,
		"partition":   sources, // one table of the partitionings
	}
	for _, v := range views {
		if len(v.Blocks) != want[v.Name] {
			t.Errorf("view %s has %d blocks, want %d", v.Name, len(v.Blocks), want[v.Name])
		}
	}
}

// TestPartitionViewOfAWorkerSweep checks that a sweep over worker counts
// has one partition table per source, its partitionings as leading
// columns, in the grid's order, and each row the lesson's figures of its
// own partitioning.
func TestPartitionViewOfAWorkerSweep(t *testing.T) {
	exp := experiment.Lesson("workers")
	exp.Workers = []int{1, 2, 4}
	res := evaluate(t, exp)
	views := heldViews(res.views())
	blocks := views[4].Blocks
	if len(blocks) != 1 {
		t.Fatalf("partition view has %d blocks, want 1", len(blocks))
	}
	blk := blocks[0]
	var names []string
	for _, c := range blk.Columns {
		names = append(names, c.Name)
	}
	if want := []string{"partitioned by", "workers", "interval", "whole job from scratch", "busiest worker with partitioned state", "exactly-once state"}; !slices.Equal(names, want) {
		t.Fatalf("columns %q, want %q", names, want)
	}
	sr := res.Sources[0]
	if n := len(sr.Parts) * len(sr.Parts[0].Costs); len(blk.Rows) != n {
		t.Fatalf("%d rows, want %d (every partitioning × interval)", len(blk.Rows), n)
	}
	for i, row := range blk.Rows {
		pr := sr.Parts[i/len(sr.Parts[0].Costs)]
		c := pr.Costs[i%len(pr.Costs)]
		if row[0].Text != pr.Key.String() || row[1].Int != int64(pr.Partitioning.Workers) || row[2].Text != c.Interval.String() || row[4].Int != c.Busiest {
			t.Errorf("row %d = %v, want %s, %d workers, interval %s, busiest %d", i, row, pr.Key, pr.Partitioning.Workers, c.Interval, c.Busiest)
		}
	}
	// Interval 6 at the named failure: the lesson's 408 rows at 4 workers.
	if got := blk.Rows[2*len(sr.Parts[0].Costs)]; got[1].Int != 4 || got[4].Int != 408 {
		t.Errorf("the first row at 4 workers is %v, want the lesson's 408 rows for the busiest worker", got)
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
		if got := len(res.set(tt.formats).Views) > 0; got != tt.views {
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

// TestWorkbookMakesViewBlocksTwice checks that writing a workbook makes
// each view's blocks twice, the views of a state_rows sweep among them:
// once as its sheet is made and once as the workbook is saved.
func TestWorkbookMakesViewBlocksTwice(t *testing.T) {
	res := evaluate(t, smallGrid())
	set := res.set([]string{results.FormatXLSX})
	ranged := make(map[string]int)
	var mu sync.Mutex // views are written on several goroutines at once
	for i, v := range set.Views {
		all := v.All()
		set.Views[i].Blocks, set.Views[i].Each = nil, func(yield func(results.Block) bool) {
			mu.Lock()
			ranged[v.Name]++
			mu.Unlock()
			all(yield)
		}
	}
	if err := workbook.Write(context.Background(), io.Discard, set, ""); err != nil {
		t.Fatal(err)
	}
	for _, name := range results.ViewNames {
		if ranged[name] != 2 {
			t.Errorf("view %s: its blocks were made %d times, want 2", name, ranged[name])
		}
	}
}
