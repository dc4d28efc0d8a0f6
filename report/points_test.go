package report

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"ckptlab/criteria"
	"ckptlab/results"
	"ckptlab/runner/experiment"
)

// exclusionFiles are experiments whose exclusions tell the partitionings,
// state rows and probabilities apart.
var exclusionFiles = []string{
	casesFile,
	"name: x\nworkers: [1, 4]\nprobabilities: [1, 0.5, 0]\nexclude:\n  - {workers: 4, interval: [3, 4]}\n  - {probability: 0.5, interval: 6}\n",
	"name: x\nsubscribers: 20\nstate_rows: [subscribers, 10, 0]\npartition_key: [subscriber, region]\n" +
		"exclude:\n  - {state_rows: subscribers, partition_key: region, interval: [none, 1]}\n  - {state_rows: 0, probability: 0.25}\n",
}

// walkResults are the results the walk is held to: the shipped
// experiments and exclusionFiles.
func walkResults(t *testing.T) []*result {
	out := shippedResults(t)
	for _, src := range exclusionFiles {
		e, err := experiment.LoadBytes("x.yaml", []byte(src), experiment.Overrides{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, evaluate(t, *e))
	}
	return out
}

// nestedPoints are the points of the grid at the levels kept as nested
// loops over the axes find them, each interval's exclusion asked of every
// entry (Experiment.Excluded): the walk's reference.
func nestedPoints(r *result, keep levels) []string {
	var out []string
	for si, sr := range r.Sources {
		states := sr.Grid.StateRowsFor(sr.Source.Subscribers)
		probs := sr.Grid.Probabilities
		each := func(kept bool, n int) []int {
			if !kept {
				return []int{-1}
			}
			out := make([]int, n)
			for i := range out {
				out[i] = i
			}
			return out
		}
		at := func(i, n int) []int {
			if i >= 0 {
				return []int{i}
			}
			return each(true, n)
		}
		for _, i := range each(keep&byPart != 0, len(sr.Parts)) {
			for _, j := range each(keep&byState != 0, len(states)) {
				for _, k := range each(keep&byDecision != 0, len(probs)) {
					left := make([]bool, len(sr.Intervals))
					for _, ii := range at(i, len(sr.Parts)) {
						for _, jj := range at(j, len(states)) {
							for _, kk := range at(k, len(probs)) {
								for x, iv := range sr.Intervals {
									p := experiment.Point{Seed: sr.Source.Seed, Subscribers: sr.Source.Subscribers,
										Periods: sr.Source.Periods, PartitionKey: sr.Parts[ii].Key, Workers: sr.Parts[ii].Partitioning.Workers,
										StateRows: states[jj], Probability: probs[kk], Interval: iv}
									left[x] = left[x] || !r.Exp.Excluded(p)
								}
							}
						}
					}
					if slices.Contains(left, true) {
						out = append(out, fmt.Sprint(si, i, j, k, left))
					}
				}
			}
		}
	}
	return out
}

// TestWalkIsNestedLoops holds walk, at every choice of levels kept, to the
// nested loops over the axes, on the shipped experiments and on files of
// cases and exclusions.
func TestWalkIsNestedLoops(t *testing.T) {
	keeps := []struct {
		name string
		keep levels
	}{
		{"source", bySource},
		{"part", byPart},
		{"state", byState},
		{"decision", byState | byDecision},
		{"point", byPoint},
	}
	for n, r := range walkResults(t) {
		for _, k := range keeps {
			var got []string
			for pt := range r.walk(k.keep) {
				if pt.sr != r.Sources[pt.si] {
					t.Fatalf("%s %s: point of source %d holds another source", r.Exp.Name, k.name, pt.si)
				}
				got = append(got, fmt.Sprint(pt.si, pt.part, pt.state, pt.decision, pt.left))
			}
			if want := nestedPoints(r, k.keep); !slices.Equal(got, want) {
				t.Errorf("experiment %d (%s), by %s: walk yields %d points, nested loops %d\n got %.300v\nwant %.300v",
					n, r.Exp.Name, k.name, len(got), len(want), got, want)
			}
		}
	}
}

// TestGridBestIsLeastLeft checks the grid's best column, read from the
// answer, against the rows themselves: at each point exactly one row is
// best, the first with the least expected total.
func TestGridBestIsLeastLeft(t *testing.T) {
	for _, r := range walkResults(t) {
		cols := gridColumnIndex()
		key := func(row []results.Value) string {
			var b strings.Builder
			for _, c := range experiment.Columns(experiment.SourceLevel, experiment.PartLevel, experiment.StateLevel, experiment.DecisionLevel) {
				b.WriteString(row[cols[c]].String() + " ")
			}
			return b.String()
		}
		type point struct {
			totals []float64
			best   int
		}
		var order []string
		points := map[string]*point{}
		for _, row := range rowsOf(r.gridTable()) {
			k := key(row)
			p := points[k]
			if p == nil {
				p = &point{best: -1}
				points[k] = p
				order = append(order, k)
			}
			if row[cols["best"]].Bool {
				if p.best >= 0 {
					t.Fatalf("%s: two best rows at %s", r.Exp.Name, k)
				}
				p.best = len(p.totals)
			}
			p.totals = append(p.totals, row[cols["expected_total"]].Float)
		}
		for _, k := range order {
			p := points[k]
			want := criteria.Best(len(p.totals), nil, func(i int) float64 { return p.totals[i] })
			if p.best != want {
				t.Errorf("%s at %s: best is row %d, the least expected total is row %d of %v", r.Exp.Name, k, p.best, want, p.totals)
			}
		}
	}
}

// gridColumnIndex maps grid.csv's column names to their places.
func gridColumnIndex() map[string]int {
	out := map[string]int{}
	for i, c := range header(gridColumns) {
		out[c.Name] = i
	}
	return out
}

// TestTablesHoldEveryAxis fails when an axis of the axis table is missing
// from a table's columns: each table's leading columns are the columns of
// the axes of its levels, in the axis table's order.
func TestTablesHoldEveryAxis(t *testing.T) {
	const (
		src  = experiment.SourceLevel
		part = experiment.PartLevel
		st   = experiment.StateLevel
		dec  = experiment.DecisionLevel
		iv   = experiment.IntervalLevel
	)
	tests := []struct {
		table  string
		header []results.Column
		levels []experiment.Level
	}{
		{"grid", header(gridColumns), []experiment.Level{src, part, st, dec, iv}},
		{"failures", header(failureColumns), []experiment.Level{src, part, iv}},
		{"decisions", header(decisionColumns), []experiment.Level{src, st, dec}},
		{"breakeven", header(breakevenColumns), []experiment.Level{src, st}},
	}
	for _, tt := range tests {
		want := experiment.Columns(tt.levels...)
		var got []string
		for _, c := range tt.header[:min(len(want), len(tt.header))] {
			got = append(got, c.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s.csv leads with %v, want the axes %v", tt.table, got, want)
		}
	}
	var process []string
	for _, c := range timeHeader(processDecisionColumns) {
		process = append(process, c.Name)
	}
	for _, c := range experiment.Columns(src, experiment.ProcessLevel) {
		if !slices.Contains(process, c) {
			t.Errorf("process_decisions.csv has no column %s", c)
		}
	}
}
