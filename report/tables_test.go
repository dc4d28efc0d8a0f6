package report

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"ckptlab/model"
	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// smallGrid is an experiment with two values on every axis, small enough to
// list its grid by hand.
func smallGrid() experiment.Experiment {
	e := experiment.Lesson("small")
	e.Seeds = []uint32{5, 3}
	e.Subscribers = []int{20, 7}
	e.Periods = []int{12, 10}
	e.PartitionKeys = []model.PartitionKey{model.ByRegion, model.BySubscriber}
	e.Workers = []int{3, 2}
	e.StateRows = []int{0, 50}
	e.Probabilities = []float64{0.5, 1}
	e.Intervals = []model.Interval{4, model.None, 1}
	return e
}

func evaluate(t *testing.T, e experiment.Experiment) *result {
	t.Helper()
	res, err := evaluateRun(context.Background(), &e, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestGridRowOrder checks the row order of docs/outputs.md#result-tables: nested loops over seed,
// subscribers, periods, partition_key, workers, state_rows, probability and
// interval, each in declared order, interval fastest.
func TestGridRowOrder(t *testing.T) {
	e := smallGrid()
	var want []string
	for _, seed := range e.Seeds {
		for _, n := range e.Subscribers {
			for _, p := range e.Periods {
				for _, k := range e.PartitionKeys {
					for _, w := range e.Workers {
						for _, s := range e.StateRows {
							for _, prob := range e.Probabilities {
								for _, iv := range e.Intervals {
									want = append(want, fmt.Sprintln(seed, n, p, k, w, s, prob, iv))
								}
							}
						}
					}
				}
			}
		}
	}
	var got []string
	for row := range evaluate(t, e).gridTable().Rows {
		got = append(got, fmt.Sprintln(row[0].Int, row[1].Int, row[2].Int, row[3].Text, row[4].Int, row[5].Int, row[6].Float, row[7].Text))
	}
	checkOrder(t, got, want)
	if e.GridRows() != int64(len(want)) {
		t.Errorf("GridRows() = %d, want %d", e.GridRows(), len(want))
	}
}

// TestFailureRowOrder checks failures.csv's order: source, partition key,
// workers, interval, then the failure set, failure fastest.
func TestFailureRowOrder(t *testing.T) {
	e := smallGrid()
	e.FailurePeriods = []model.Month{model.NewMonth(2026, 5), model.NewMonth(2026, 2)}
	var want []string
	for _, seed := range e.Seeds {
		for _, n := range e.Subscribers {
			for _, p := range e.Periods {
				for _, k := range e.PartitionKeys {
					for _, w := range e.Workers {
						for _, iv := range e.Intervals {
							for _, f := range e.FailurePeriods {
								want = append(want, fmt.Sprintln(seed, n, p, k, w, iv, f))
							}
						}
					}
				}
			}
		}
	}
	var got []string
	for row := range evaluate(t, e).failuresTable().Rows {
		got = append(got, fmt.Sprintln(row[0].Int, row[1].Int, row[2].Int, row[3].Text, row[4].Int, row[5].Text, row[6].Text))
	}
	checkOrder(t, got, want)
}

// checkOrder reports the first row where got and want part.
func checkOrder(t *testing.T, got, want []string) {
	t.Helper()
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Fatalf("row %d is %q, want %q", i, got[i], want[i])
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
}

// TestBestOncePerGroup checks that exactly one interval is best among the
// points that differ only in interval, and that it has the least expected
// total.
func TestBestOncePerGroup(t *testing.T) {
	e := smallGrid()
	n := len(e.Intervals)
	var group [][]results.Value
	for row := range evaluate(t, e).gridTable().Rows {
		group = append(group, slices.Clone(row))
		if len(group) < n {
			continue
		}
		best, least := -1, 0.0
		for i, r := range group {
			if r[19].Bool {
				if best >= 0 {
					t.Fatalf("two best intervals in %v", group)
				}
				best = i
			}
			if i == 0 || r[18].Float < least {
				least = r[18].Float
			}
		}
		if best < 0 || group[best][18].Float != least {
			t.Fatalf("best is %d in %v", best, group)
		}
		group = group[:0]
	}
}

// TestIntervalsAllPerPeriods checks that intervals: all expands to none,
// 1..P for each periods value.
func TestIntervalsAllPerPeriods(t *testing.T) {
	e := experiment.Lesson("all")
	e.Periods = []int{3, 5}
	e.Intervals, e.IntervalsAll = nil, true
	e.FailurePeriod = model.NewMonth(2026, 2)
	e.Probabilities = []float64{1}
	var got []string
	for row := range evaluate(t, e).gridTable().Rows {
		got = append(got, fmt.Sprint(row[2].Int, ":", row[7].Text))
	}
	want := []string{"3:none", "3:1", "3:2", "3:3", "5:none", "5:1", "5:2", "5:3", "5:4", "5:5"}
	if !slices.Equal(got, want) {
		t.Errorf("intervals = %v, want %v", got, want)
	}
}

// TestTableLenIsRowCount checks that the grid and failures tables know
// their length, as the experiment's sizes give it, and keep to it, on
// every experiment of experiments/ (with fewer subscribers: the sizes do
// not depend on them) and the small grid with exclusions. The workbook
// names its rows by Len before it writes them.
func TestTableLenIsRowCount(t *testing.T) {
	paths, err := filepath.Glob("../experiments/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no experiments found: %v", err)
	}
	var exps []*experiment.Experiment
	for _, path := range paths {
		e, err := experiment.Load(path, experiment.Overrides{Sets: []string{"subscribers=300"}})
		if err != nil { // cases of their own subscribers, which the override makes collide
			e, err = experiment.Load(path, experiment.Overrides{})
		}
		if err != nil {
			t.Fatal(err)
		}
		exps = append(exps, e)
	}
	small := smallGrid()
	small.Exclude = []experiment.Exclusion{{Axes: experiment.Axes{Workers: []int{2}, Probabilities: []float64{1}}}}
	exps = append(exps, &small)
	for _, e := range exps {
		res, err := evaluateRun(context.Background(), e, runner.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, table := range []results.Table{res.gridTable(), res.failuresTable()} {
			n := 0
			for range table.Rows {
				n++
			}
			if table.Len != n || n == 0 {
				t.Errorf("%s: %s has %d rows, Len %d", e.Name, table.Name, n, table.Len)
			}
		}
	}
}

// TestSameBytesForEveryJobs checks "same input, same bytes" (docs/outputs.md#result-tables)
// across -j: the tables do not depend on how many goroutines drew the
// sources, nor on which drew what. The sources have faults and several
// tasks each, and every partition key goes over several worker counts.
func TestSameBytesForEveryJobs(t *testing.T) {
	e := experiment.Lesson("jobs")
	e.Seeds = []uint32{7, 20260218}
	e.Subscribers = []int{5<<16 + 123}
	e.Periods = []int{6, 13}
	e.Missing, e.Duplicates = 5000, 5000
	e.PartitionKeys = model.PartitionKeys
	e.Workers = []int{1, 3, 4, 7}
	e.Probabilities = []float64{1, 0.5, 0.25, 0}
	e.Intervals, e.IntervalsAll = nil, true
	e.FailurePeriod = e.Start + 4
	tables := func(jobs int) []byte {
		r, err := evaluateRun(context.Background(), &e, runner.Options{Jobs: jobs})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		for _, tab := range []results.Table{r.gridTable(), r.failuresTable(), r.decisionsTable(), r.breakevenTable()} {
			if err := results.WriteCSV(&b, tab); err != nil {
				t.Fatal(err)
			}
		}
		return b.Bytes()
	}
	want := tables(1)
	// the grid's header and rows: sources × keys × workers × probabilities × intervals
	if lines := bytes.Count(want, []byte("\n")); lines < 1+2*(7+14)*3*4*4 {
		t.Fatalf("the tables have %d lines", lines)
	}
	for _, jobs := range []int{2, 3, 8} {
		if got := tables(jobs); !bytes.Equal(got, want) {
			t.Errorf("-j %d: the tables differ from -j 1", jobs)
		}
	}
}
