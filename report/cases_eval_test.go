package report

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"ckptlab/model"
	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// casesFile has three cases, one of them paired values, and exclusions
// that cut a decision (interval 4 at probability 1), a partitioning of one
// case, and every point of one source.
const casesFile = `name: union
missing: 5
duplicates: 5
partition_key: [subscriber, type]
workers: [2, 3]
probabilities: [1, 0.5]
state_rows: [0, 200]
intervals: [none, 6, 4, 3]
cases:
  - {subscribers: 200, periods: 12}
  - {subscribers: 30, periods: [10, 12], intervals: all, seeds: [1, 2]}
  - {subscribers: 200, periods: 12, workers: 5, partition_key: region}
exclude:
  - {interval: 4, probability: 1}
  - {partition_key: type, workers: 3, subscribers: 30}
  - {seed: 2, periods: 10}
`

// casesExperiment returns the experiment of casesFile.
func casesExperiment() *experiment.Experiment {
	e, err := experiment.LoadBytes("union.yaml", []byte(casesFile), experiment.Overrides{})
	if err != nil {
		panic(err) // casesFile is valid; TestCasesEqualSeparateRuns says so
	}
	return e
}

// rowsOf returns the rows of a table as text, one string per row.
func rowsOf(t results.Table) [][]results.Value {
	var out [][]results.Value
	for row := range t.Rows {
		out = append(out, slices.Clone(row))
	}
	return out
}

// separate returns the experiment of one case alone: the case's axes as
// the file's, no cases and no exclusions.
func separate(e *experiment.Experiment, g experiment.Grid) experiment.Experiment {
	one := *e
	one.Cases, one.Exclude = nil, nil
	one.Seeds, one.Subscribers, one.Periods = g.Seeds, g.Subscribers, g.Periods
	one.PartitionKeys, one.Workers, one.StateRows = g.PartitionKeys, g.Workers, g.StateRows
	one.Probabilities, one.Intervals, one.IntervalsAll = g.Probabilities, g.Intervals, g.IntervalsAll
	return one
}

// rowPoint reads the point of a row of grid.csv.
func rowPoint(row []results.Value) experiment.Point {
	key, _ := model.ParsePartitionKey(row[3].Text)
	k := model.None
	if row[7].Text != "none" {
		k = model.Interval(mustAtoi(row[7].Text))
	}
	return experiment.Point{Seed: uint32(row[0].Int), Subscribers: int(row[1].Int), Periods: int(row[2].Int), PartitionKey: key,
		Workers: int(row[4].Int), StateRows: int(row[5].Int), Probability: row[6].Float, Interval: k}
}

func mustAtoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// TestCasesEqualSeparateRuns checks that the tables of a file with cases
// are those of one run per case, concatenated, less the excluded points,
// with best recomputed among the points left of each decision, and the
// failures of the (source, partitioning, interval) left.
func TestCasesEqualSeparateRuns(t *testing.T) {
	e, err := experiment.LoadBytes("union.yaml", []byte(casesFile), experiment.Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	res := evaluate(t, *e)
	var wantGrid, wantFailures [][]results.Value
	for _, g := range e.Cases {
		sep := evaluate(t, separate(e, g))
		var kept [][]results.Value
		combos := map[string]bool{} // seed..interval of failures.csv with a point left
		for _, row := range rowsOf(sep.gridTable()) {
			if !e.Excluded(rowPoint(row)) {
				kept = append(kept, row)
				combos[comboKey(row[:5], row[7])] = true
			}
		}
		wantGrid = append(wantGrid, recomputeBest(kept)...)
		for _, row := range rowsOf(sep.failuresTable()) {
			if combos[comboKey(row[:5], row[5])] {
				wantFailures = append(wantFailures, row)
			}
		}
	}
	compareRows(t, "grid", rowsOf(res.gridTable()), wantGrid)
	compareRows(t, "failures", rowsOf(res.failuresTable()), wantFailures)
	if n := int64(len(wantGrid)); n != e.GridRows() || n == 0 {
		t.Errorf("GridRows() = %d, the tables have %d rows", e.GridRows(), n)
	}
	if n := int64(len(wantFailures)); n != e.FailureRows() {
		t.Errorf("FailureRows() = %d, the tables have %d rows", e.FailureRows(), n)
	}
	// Cases 0 and 2 share their source, drawn once; seed 2's source of 10
	// periods is wholly excluded.
	if n := len(res.Sources); n != 1+3+1 || e.Sources() != 4 {
		t.Errorf("%d sources evaluated, %d drawn; want 5 evaluated, 4 drawn", n, e.Sources())
	}
}

// TestCasesViewsEqualSeparateRuns checks that without exclusions the
// lesson's views of a file with cases are those of the separate runs.
func TestCasesViewsEqualSeparateRuns(t *testing.T) {
	src, _, _ := strings.Cut(casesFile, "exclude:")
	e, err := experiment.LoadBytes("union.yaml", []byte(src), experiment.Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	got := heldViews(evaluate(t, *e).views())
	var want []results.View
	for _, g := range e.Cases {
		views := heldViews(evaluate(t, separate(e, g)).views())
		if want == nil {
			want = views
			continue
		}
		for i := range want {
			want[i].Blocks = append(want[i].Blocks, views[i].Blocks...)
		}
	}
	if !viewsEqual(got, want) {
		t.Errorf("the views of the cases differ from those of separate runs")
	}
}

func viewsEqual(a, b []results.View) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || len(a[i].Blocks) != len(b[i].Blocks) {
			return false
		}
		for j := range a[i].Blocks {
			x, y := a[i].Blocks[j], b[i].Blocks[j]
			if x.Title != y.Title || !slices.Equal(x.Columns, y.Columns) || !slices.Equal(x.Marked, y.Marked) ||
				!slices.EqualFunc(x.Rows, y.Rows, slices.Equal) {
				return false
			}
		}
	}
	return true
}

// comboKey names a (source, partitioning, interval) by its cells.
func comboKey(cells []results.Value, interval results.Value) string {
	var b strings.Builder
	for _, c := range append(slices.Clone(cells), interval) {
		b.WriteString(c.String() + ",")
	}
	return b.String()
}

// recomputeBest sets best afresh in rows of grid.csv: per decision (the
// first seven columns), the least expected_total, ties to the first row.
func recomputeBest(rows [][]results.Value) [][]results.Value {
	bestCol := slices.IndexFunc(gridColumns, func(c tableColumn[gridRow]) bool { return c.Name == "best" })
	expCol := slices.IndexFunc(gridColumns, func(c tableColumn[gridRow]) bool { return c.Name == "expected_total" })
	best := map[string]int{}
	for i, row := range rows {
		key := comboKey(row[:6], row[6])
		if j, ok := best[key]; !ok || row[expCol].Float < rows[j][expCol].Float {
			best[key] = i
		}
	}
	for i, row := range rows {
		row[bestCol] = results.BoolValue(best[comboKey(row[:6], row[6])] == i)
	}
	return rows
}

func compareRows(t *testing.T, name string, got, want [][]results.Value) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d rows, want %d", name, len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("%s row %d = %v\nwant %v", name, i, got[i], want[i])
			return
		}
	}
}

// BenchmarkGridTableExcluded writes grid.csv of 100 sources of every
// interval (121 × 7 workers × 21 probabilities per source), without and
// with three exclude entries, to show what checking each point costs.
func BenchmarkGridTableExcluded(b *testing.B) {
	const src = "name: x\nseeds: {from: 1, to: 100}\nsubscribers: 20\nperiods: 120\nintervals: all\n" +
		"workers: [1, 2, 4, 8, 16, 32, 64]\nprobabilities: {from: 0, to: 1, step: 0.05}\nfailure_period: 2026-09\n"
	const exclude = "exclude:\n  - {workers: 64, interval: [1, 2, 3]}\n  - {probability: 0, interval: none}\n  - {seed: [3, 5], workers: 32}\n"
	for _, tt := range []struct{ name, src string }{{"none", src}, {"three", src + exclude}} {
		e, err := experiment.LoadBytes("x.yaml", []byte(tt.src), experiment.Overrides{})
		if err != nil {
			b.Fatal(err)
		}
		res, err := evaluateRun(context.Background(), e, runner.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(tt.name, func(b *testing.B) {
			for b.Loop() {
				if err := results.WriteCSV(io.Discard, res.gridTable()); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(e.GridRows()), "rows/op")
		})
	}
}

// TestCasesDecisionsEqualSeparateRuns checks that without exclusions
// decisions.csv and breakeven.csv of a file with cases are those of one
// run per case, concatenated, a row that repeats an earlier one of another
// case (cases 0 and 2 share their source) left out.
func TestCasesDecisionsEqualSeparateRuns(t *testing.T) {
	src, _, _ := strings.Cut(casesFile, "exclude:")
	e, err := experiment.LoadBytes("union.yaml", []byte(src), experiment.Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	res := evaluate(t, *e)
	var decisions, breakeven [][]results.Value
	for _, g := range e.Cases {
		sep := evaluate(t, separate(e, g))
		decisions = appendNew(decisions, rowsOf(sep.decisionsTable()), 5)
		breakeven = appendNew(breakeven, rowsOf(sep.breakevenTable()), 4)
	}
	compareRows(t, "decisions", rowsOf(res.decisionsTable()), decisions)
	compareRows(t, "breakeven", rowsOf(res.breakevenTable()), breakeven)
}

// appendNew appends the groups of rows (rows equal in their first key
// columns) that dst does not hold yet.
func appendNew(dst, rows [][]results.Value, key int) [][]results.Value {
	have := map[string]bool{}
	for _, row := range dst {
		have[comboKey(row[:key-1], row[key-1])] = true
	}
	for _, row := range rows {
		if !have[comboKey(row[:key-1], row[key-1])] {
			dst = append(dst, row)
		}
	}
	return dst
}

// TestExcludedDecisions checks that the decisions weigh only the
// intervals left: the lesson without interval 4 at probability 1, where
// it is best by the expected total and by the worst case.
func TestExcludedDecisions(t *testing.T) {
	src := "name: x\nexclude:\n  - {interval: 4, probability: 1}\n"
	e, err := experiment.LoadBytes("x.yaml", []byte(src), experiment.Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	res := evaluate(t, *e)
	whole := evaluate(t, experiment.Lesson("x"))
	wantBest := map[float64]string{} // from grid.csv's best rows
	for _, row := range rowsOf(res.gridTable()) {
		if row[len(gridColumns)-1-2].Bool { // best
			wantBest[row[6].Float] = row[7].Text
		}
	}
	rows, before := rowsOf(res.decisionsTable()), rowsOf(whole.decisionsTable())
	if len(rows) != 4 || len(before) != 4 {
		t.Fatalf("%d and %d decisions, want 4", len(rows), len(before))
	}
	for i, row := range rows {
		prob := row[4].Float
		if got := row[5].Text; got != wantBest[prob] {
			t.Errorf("probability %v: best_interval %s, grid.csv's best is %s", prob, got, wantBest[prob])
		}
		if was := before[i][5].Text; prob != 1 && row[5].Text != was || prob == 1 && (was != "4" || row[5].Text == "4") {
			t.Errorf("probability %v: best_interval %s, %s without exclusions", prob, row[5].Text, was)
		}
		if prob == 1 && (row[7].Text == "4" || before[i][7].Text != "4") {
			t.Errorf("probability 1: worst_case_interval %s, %s without exclusions", row[7].Text, before[i][7].Text)
		}
	}
	// Interval 4 is left at other probabilities: the envelope has it. Left
	// out at every one, the envelope is over the others, still from 0 to 1.
	has4 := func(src string) (bool, string) {
		e, err := experiment.LoadBytes("x.yaml", []byte(src), experiment.Overrides{})
		if err != nil {
			t.Fatal(err)
		}
		rows := rowsOf(evaluate(t, *e).breakevenTable())
		found := slices.ContainsFunc(rows, func(row []results.Value) bool { return row[4].Text == "4" })
		return found, rows[0][7].Text + ".." + rows[len(rows)-1][8].Text
	}
	if found, span := has4(src); !found || span != "0..1" {
		t.Errorf("breakeven without interval 4 at probability 1: has 4 %v, spans %s; want true, 0..1", found, span)
	}
	if found, span := has4("name: x\nexclude: [{interval: 4}]\n"); found || span != "0..1" {
		t.Errorf("breakeven without interval 4: has 4 %v, spans %s; want false, 0..1", found, span)
	}
}

// TestCasesShardsMerge checks that a file with cases and exclusions run
// in shards and merged gives one run's tables, byte for byte: every source
// is counted over the partitionings of every case.
func TestCasesShardsMerge(t *testing.T) {
	ctx := context.Background()
	e := casesExperiment()
	if n := len(e.SourceList()); n != 4 {
		t.Fatalf("%d sources to draw, want 4", n)
	}
	one, err := evaluateRun(ctx, e, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i := 1; i <= 3; i++ {
		if _, err := runner.RunShard(ctx, e, runner.Options{Jobs: 2}, runner.Shard{I: i, N: 3}, dir); err != nil {
			t.Fatal(err)
		}
	}
	res, err := runner.Merge(ctx, e, dir, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	merged := newResult(res)
	for _, tab := range []struct{ one, merged results.Table }{
		{one.gridTable(), merged.gridTable()}, {one.failuresTable(), merged.failuresTable()},
		{one.decisionsTable(), merged.decisionsTable()}, {one.breakevenTable(), merged.breakevenTable()},
	} {
		var a, b bytes.Buffer
		if err := results.WriteCSV(&a, tab.one); err != nil {
			t.Fatal(err)
		}
		if err := results.WriteCSV(&b, tab.merged); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("%s.csv of the merged shards differs from one run's", tab.one.Name)
		}
	}
}

// TestExcludedViews checks that the lesson's views show what is left: no
// block of a partitioning every point of which is excluded, and the best
// interval among those left.
func TestExcludedViews(t *testing.T) {
	e, err := experiment.LoadBytes("union.yaml", []byte(casesFile), experiment.Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	res := evaluate(t, *e)
	if h := res.headline(); len(h) == 0 || len(h) > maxHeadline {
		t.Errorf("headline of %d lines", len(h))
	}
	for _, c := range res.charts() {
		if strings.Contains(c.Data.Title, "Expected total") && strings.Contains(c.Data.Title, "200 subscribers") &&
			len(c.Data.Columns) != 1+4+1 {
			t.Errorf("chart %q has %d columns, want the probability, the 4 intervals and the envelope", c.Data.Title, len(c.Data.Columns))
		}
	}
	for _, v := range heldViews(res.views()) {
		for _, b := range v.Blocks {
			if strings.Contains(b.Title, "30 subscribers") && strings.Contains(b.Title, "by type over 3 workers") {
				t.Errorf("view %s has a block of an excluded partitioning: %s", v.Name, b.Title)
			}
			if v.Name != "probability" || !strings.Contains(b.Title, "200 subscribers") {
				continue
			}
			for _, row := range b.Rows {
				if row[0].Float == 1 && row[len(row)-1].Text == "4" {
					t.Errorf("%s: best at probability 1 is 4, which is excluded there", b.Title)
				}
			}
		}
	}
}
