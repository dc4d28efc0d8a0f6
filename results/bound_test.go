package results_test

import (
	"context"
	"io"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ckptlab/report"
	"ckptlab/results"
	"ckptlab/results/workbook"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// boundCase is a set each writer's bound is checked on, and the writers
// it is representative of: those whose bound must be within three times
// of what they hold on it (on the others they hold less than their fixed
// parts: the small tables are written one after the other, the Markdown
// is far from its limit).
type boundCase struct {
	name  string
	set   results.Set
	tight []string
}

// boundCases are a small workbook, long tables, a sweep of probabilities
// whose views and decisions are large, and a Markdown at its limit.
func boundCases(t *testing.T) []boundCase {
	t.Helper()
	probabilities := experiment.Lesson("probabilities")
	probabilities.Subscribers, probabilities.Periods = []int{200}, []int{120}
	probabilities.IntervalsAll = true
	probabilities.Probabilities = floatRange(0, 1, 101)
	long := syntheticSet(t, 150_000, 60_000)
	four := long
	four.Decisions, four.Breakeven = syntheticGrid(150_000), syntheticFailures(150_000)
	full := runSet(t, experiment.Lesson("full"))
	full.Description = strings.Repeat("A description that fills the Markdown near its limit. ", results.MarkdownLimit*9/10/55)
	return []boundCase{
		{"lesson", runSet(t, experiment.Lesson("lesson")), []string{"xlsx", "json"}},
		{"long tables", long, []string{"xlsx", "json"}},
		{"four long tables", four, []string{"csv"}},
		{"probabilities", runSet(t, probabilities), []string{"xlsx", "json"}},
		{"full", full, []string{"md"}},
	}
}

// runSet evaluates the experiment and returns its set, views made one
// block at a time as a run makes them.
func runSet(t *testing.T, e experiment.Experiment) results.Set {
	t.Helper()
	res, err := runner.Evaluate(context.Background(), &e, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	set, err := report.Set(context.Background(), res, []string{results.FormatCSV, results.FormatXLSX, results.FormatMD, results.FormatJSON})
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// TestWritersBoundTheirMemory writes each set in each format alone and
// checks that the writer's bound covers the most heap it holds, and is
// within three times of it.
func TestWritersBoundTheirMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes tables of 600,000 rows and workbooks of 210,000, several times")
	}
	if raceDetector {
		t.Skip("the race detector's bookkeeping is heap the writers do not hold")
	}
	writers := []struct {
		name  string
		bound func(results.Sizes) int64
		write func(results.Set) error
	}{
		{"csv", results.CSVBound, writeCSVs},
		{"xlsx", workbook.Bound, func(s results.Set) error { return workbook.Write(context.Background(), io.Discard, s, "") }},
		{"md", results.MarkdownBound, func(s results.Set) error { return results.WriteMarkdown(io.Discard, s) }},
		{"json", results.JSONBound, func(s results.Set) error { return results.WriteJSON(io.Discard, s) }},
	}
	for _, c := range boundCases(t) {
		sizes := measuredSizes(c.set)
		set := heldRows(c.set)
		for _, w := range writers {
			if c.name == "four long tables" && w.name != "csv" {
				continue // its decisions and break-evens are grids: for the CSV alone
			}
			var err error
			peak := peakHeap(func() { err = w.write(set) })
			if err != nil {
				t.Fatalf("%s as %s: %v", c.name, w.name, err)
			}
			bound := w.bound(sizes)
			t.Logf("%-13s %-4s peak %6.2f MiB, bound %6.2f MiB (%.1f×)", c.name, w.name, mib(peak), mib(bound), float64(bound)/float64(peak))
			if bound < peak {
				t.Errorf("%s as %s: held %.2f MiB, more than its bound of %.2f MiB", c.name, w.name, mib(peak), mib(bound))
			}
			if slices.Contains(c.tight, w.name) && bound > 3*peak {
				t.Errorf("%s as %s: bound %.2f MiB, more than three times the %.2f MiB held", c.name, w.name, mib(bound), mib(peak))
			}
		}
	}
}

// heldRows returns the set with the rows of its failures, decisions and
// break-even tables held in memory, so that what making them holds is
// not counted as the writer's. The grid's rows are made as a run makes
// them, holding the outcomes of a source (TableSize.Held): held, they
// would make the heap the collector paces by, and so the figures, larger.
func heldRows(s results.Set) results.Set {
	for _, t := range []*results.Table{&s.Failures, &s.Decisions, &s.Breakeven} {
		rows := [][]results.Value{}
		for r := range t.Rows {
			rows = append(rows, slices.Clone(r))
		}
		t.Rows = slices.Values(rows)
	}
	return s
}

// writeCSVs writes the set's four tables as CSV at the same time, as a set
// is written.
func writeCSVs(s results.Set) error {
	tables := []results.Table{s.Grid, s.Failures, s.Decisions, s.Breakeven}
	errs := make([]error, len(tables))
	var wg sync.WaitGroup
	for i, tab := range tables {
		wg.Go(func() { errs[i] = results.WriteCSV(io.Discard, tab) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// measuredSizes returns the sizes of the set, counted from its tables and
// views.
func measuredSizes(s results.Set) results.Sizes {
	sz := results.Sizes{Grid: tableSize(s.Grid), Failures: tableSize(s.Failures),
		Decisions: tableSize(s.Decisions), Breakeven: tableSize(s.Breakeven), Text: int64(len(s.Description))}
	for _, v := range s.Views {
		var largest, blocks int64
		for b := range v.All() {
			cells := int64(len(b.Columns))
			for _, r := range b.Rows {
				cells += int64(len(r))
			}
			largest, blocks = max(largest, cells), blocks+1
			sz.Views.Cells += cells
		}
		sz.Views.Largest = append(sz.Views.Largest, largest)
		sz.Views.Blocks += blocks
		sz.Views.MostBlocks = max(sz.Views.MostBlocks, blocks)
	}
	// The decision maps' axes: the sources, state rows and probabilities
	// the decisions hold.
	col := func(name string) int {
		return slices.IndexFunc(s.Decisions.Columns, func(c results.Column) bool { return c.Name == name })
	}
	seed, subs, periods, sr, p := col("seed"), col("subscribers"), col("periods"), col("state_rows"), col("probability")
	if min(seed, subs, periods, sr, p) < 0 {
		return sz // decisions of other columns: no maps
	}
	sources, rows, probs := map[[3]results.Value]bool{}, map[results.Value]bool{}, map[results.Value]bool{}
	for r := range s.Decisions.Rows {
		sources[[3]results.Value{r[seed], r[subs], r[periods]}] = true
		rows[r[sr]], probs[r[p]] = true, true
	}
	sz.Sources = int64(len(sources))
	sz.Maps = []results.MapSize{{StateRows: int64(len(rows)), Probabilities: int64(len(probs))}}
	return sz
}

// tableSize counts the table's rows.
func tableSize(t results.Table) results.TableSize {
	var n int64
	for range t.Rows {
		n++
	}
	texts := 0
	for _, c := range t.Columns {
		if c.Kind == results.Text {
			texts++
		}
	}
	return results.TableSize{Rows: n, Columns: len(t.Columns), Texts: texts}
}

// peakHeap runs f three times and returns the most heap it held at once: the
// most the collector found live, the collector set to run at every 5 % of
// growth so that it looks often. A write too short for a collection is
// measured by the heap it took, garbage and all. Both are sampled every
// 100 µs.
func peakHeap(f func()) int64 {
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	var most int64
	for range 3 {
		most = max(most, peakOnce(f))
	}
	return most
}

func peakOnce(f func()) int64 {
	runtime.GC()
	runtime.GC() // and the pools' victims
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}, {Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(sample)
	base, cycles := sample[0].Value.Uint64(), sample[2].Value.Uint64()
	stop, peak := make(chan struct{}), make(chan uint64)
	go func() {
		var heap, live uint64
		tick := time.NewTicker(100 * time.Microsecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			heap = max(heap, sample[0].Value.Uint64())
			if sample[2].Value.Uint64() > cycles {
				live = max(live, sample[1].Value.Uint64())
			}
			select {
			case <-stop:
				if live > 0 {
					heap = live
				}
				peak <- heap
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(stop)
	return int64(<-peak) - int64(base)
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }

// floatRange returns n values evenly from lo to hi.
func floatRange(lo, hi float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = lo + (hi-lo)*float64(i)/float64(n-1)
	}
	return out
}
