package report

import (
	"context"
	"testing"

	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// benchResult is a source of 120 periods with every interval, three state
// sizes and 21 probabilities: the decisions' share of scale.yaml's tables,
// with few subscribers so that drawing does not dominate.
func benchResult(b *testing.B) *result {
	b.Helper()
	e, err := experiment.LoadBytes("bench.yaml", []byte("name: bench\nsubscribers: 100\nperiods: 120\nintervals: all\n"+
		"workers: [1, 4, 16]\nstate_rows: [subscribers, 10, 1000]\nprobabilities: {from: 0, to: 1, step: 0.05}\n"), experiment.Overrides{})
	if err != nil {
		b.Fatal(err)
	}
	res, err := evaluateRun(context.Background(), e, runner.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return res
}

func drain(t results.Table) (n int) {
	for range t.Rows {
		n++
	}
	return n
}

// BenchmarkGridTable is the grid's rows, tail_total included, for scale.
func BenchmarkGridTable(b *testing.B) {
	r := benchResult(b)
	for b.Loop() {
		drain(r.gridTable())
	}
}

// BenchmarkDecisions is decisions.csv, breakeven.csv and the headline, as
// a run makes them once: the schedules found are forgotten each time.
func BenchmarkDecisions(b *testing.B) {
	r := benchResult(b)
	for b.Loop() {
		r.schedules = scheduleMemo{}
		drain(r.decisionsTable())
		drain(r.breakevenTable())
		r.headline()
	}
}
