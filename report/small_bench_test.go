package report

import (
	"context"
	"io"
	"testing"
	"time"

	"ckptlab/folder"
	"ckptlab/internal/testkit"
	"ckptlab/results"
	"ckptlab/results/workbook"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// smallFile is the experiment of the small-workbook benchmarks: sixteen
// worker counts of the lesson's stream, a workbook of 31 parts.
const smallFile = "../experiments/workers.yaml"

// BenchmarkSmallWorkbook writes workers.yaml's tables as CSV and as a
// workbook, to io.Discard: the writers alone, from an evaluated result.
// Besides the wall time it reports the CPU time per run (cpu-ns/op), the
// workbook's compression on other goroutines included.
func BenchmarkSmallWorkbook(b *testing.B) {
	e, err := experiment.Load(smallFile, experiment.Overrides{})
	if err != nil {
		b.Fatal(err)
	}
	res, err := evaluateRun(context.Background(), e, runner.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range []string{results.FormatCSV, results.FormatXLSX} {
		b.Run(f, func(b *testing.B) {
			set := res.set([]string{f})
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				if f == results.FormatCSV {
					for _, t := range []results.Table{set.Grid, set.Failures, set.Decisions, set.Breakeven} {
						if err := results.WriteCSV(io.Discard, t); err != nil {
							b.Fatal(err)
						}
					}
				} else {
					if err := workbook.Write(context.Background(), io.Discard, set, ""); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkSmallRun is a whole run of workers.yaml in process, as
// `ckptlab run --format F` makes it once its flags are read: load the
// file, evaluate it, make the set and write its files into a folder (each
// synced and swapped in), and reports its CPU time as
// BenchmarkSmallWorkbook does. What it leaves out is the program's start, the
// same for every format, so csv against xlsx here is the ratio of the
// work each format asks for.
func BenchmarkSmallRun(b *testing.B) {
	for _, f := range []string{results.FormatCSV, results.FormatXLSX} {
		b.Run(f, func(b *testing.B) {
			ctx := context.Background()
			dir := b.TempDir()
			formats := []string{f}
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				e, err := experiment.Load(smallFile, experiment.Overrides{})
				if err != nil {
					b.Fatal(err)
				}
				res, err := runner.Evaluate(ctx, e, runner.Options{})
				if err != nil {
					b.Fatal(err)
				}
				set, err := Set(ctx, res, formats)
				if err != nil {
					b.Fatal(err)
				}
				if err := folder.Replace(ctx, dir, set, formats); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// reportCPU starts counting the process's CPU time; the function it
// returns, deferred, reports it per op as cpu-ns/op. On a machine shared
// with other work the CPU time moves less than the wall time does.
func reportCPU(b *testing.B) func() {
	start, ok := testkit.CPUTime()
	return func() {
		end, _ := testkit.CPUTime()
		if ok && b.N > 0 {
			b.ReportMetric(float64((end-start)/time.Nanosecond)/float64(b.N), "cpu-ns/op")
		}
	}
}
