package runner

import (
	"context"
	"io"
	"testing"

	"ckptlab/results"
	"ckptlab/runner/experiment"
)

// BenchmarkSmallWorkbook writes workers.yaml's tables as CSV and as a
// workbook, to io.Discard: a small workbook should cost a few times its
// CSV, not more.
func BenchmarkSmallWorkbook(b *testing.B) {
	e, err := experiment.Load("../experiments/workers.yaml", experiment.Overrides{})
	if err != nil {
		b.Fatal(err)
	}
	res, err := Evaluate(context.Background(), e, Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range []string{"csv", "xlsx"} {
		b.Run(f, func(b *testing.B) {
			set := res.Set([]string{f})
			for b.Loop() {
				if f == "csv" {
					for _, t := range []results.Table{set.Grid, set.Failures, set.Decisions, set.Breakeven} {
						if err := results.WriteCSV(io.Discard, t); err != nil {
							b.Fatal(err)
						}
					}
				} else {
					if err := results.WriteXLSX(io.Discard, set); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
