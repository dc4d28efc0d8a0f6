package report

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"ckptlab/results"
	"ckptlab/results/workbook"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// largeWorkbookExperiment is the 2M-row workbook of bench/README.md: the
// lesson over state_rows {from: 0, to: 2000000, step: 25}, 80,001 values,
// 1,920,024 grid rows and as many cost and probability blocks as values.
func largeWorkbookExperiment(tb testing.TB) *experiment.Experiment {
	file := filepath.Join(tb.TempDir(), "big.yaml")
	if err := os.WriteFile(file, []byte(largeWorkbookYAML), 0o644); err != nil {
		tb.Fatal(err)
	}
	e, err := experiment.Load(file, experiment.Overrides{})
	if err != nil {
		tb.Fatal(err)
	}
	return e
}

// largeWorkbookYAML is the experiment file of the 2M-row workbook, which
// runner's memory tests run too.
const largeWorkbookYAML = "name: big\nstate_rows: {from: 0, to: 2000000, step: 25}\n"

// BenchmarkLargeWorkbook writes the 2M-row workbook to io.Discard from an
// evaluated result; it reports the CPU time too, as its floor does
// (results' BenchmarkLargeWorkbookFloor).
func BenchmarkLargeWorkbook(b *testing.B) {
	res, err := evaluateRun(context.Background(), largeWorkbookExperiment(b), runner.Options{})
	if err != nil {
		b.Fatal(err)
	}
	set := res.set([]string{"xlsx"})
	defer reportCPU(b)()
	for b.Loop() {
		if err := workbook.Write(context.Background(), io.Discard, set, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLargeViews makes every block of the 2M-row workbook's views
// once, as a workbook does twice: the cost of making a block, with
// -benchmem its allocations.
func BenchmarkLargeViews(b *testing.B) {
	res, err := evaluateRun(context.Background(), largeWorkbookExperiment(b), runner.Options{})
	if err != nil {
		b.Fatal(err)
	}
	views := res.views()
	b.ResetTimer()
	for b.Loop() {
		blocks := 0
		for _, v := range views {
			for range v.All() {
				blocks++
			}
		}
		b.ReportMetric(float64(blocks), "blocks/op")
	}
}

// BenchmarkLargeDecisions makes the 2M-row workbook's 320,004 decisions,
// as decisions.csv's rows, and their best intervals alone, as the
// summary's decision maps read them.
func BenchmarkLargeDecisions(b *testing.B) {
	res, err := evaluateRun(context.Background(), largeWorkbookExperiment(b), runner.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, t := range []results.Table{res.decisionsTable(), res.bestIntervalsTable()} {
		b.Run(t.Name, func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				for range t.Rows {
				}
			}
		})
	}
}

// BenchmarkLargeBreakeven makes the 2M-row workbook's envelopes, one per
// state rows value, alone and as breakeven.csv's rows.
func BenchmarkLargeBreakeven(b *testing.B) {
	res, err := evaluateRun(context.Background(), largeWorkbookExperiment(b), runner.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("envelopes", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			for range res.breakevens {
			}
		}
	})
	b.Run("rows", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			for range res.breakevenTable().Rows {
			}
		}
	})
}
