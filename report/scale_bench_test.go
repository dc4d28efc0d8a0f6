package report

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"testing"

	"ckptlab/folder"
	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// scaleExperiment returns experiments/scale.yaml: a million subscribers
// over 120 periods, every interval, seven worker counts and probabilities
// 0, 0.05, ..., 1.
func scaleExperiment() *experiment.Experiment {
	e, err := experiment.Load(filepath.Join("..", "experiments", "scale.yaml"), experiment.Overrides{})
	if err != nil {
		panic(err) // a shipped file, which shippedResults loads too
	}
	return e
}

// BenchmarkScale evaluates the scale experiment and writes its grid and
// failures tables as CSV, what `ckptlab run --format csv` does minus the
// files, on one goroutine and on GOMAXPROCS. Compare with
// model.BenchmarkFloorDraw, the least any run must do.
func BenchmarkScale(b *testing.B) {
	e := scaleExperiment()
	for _, jobs := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("j=%d", jobs), func(b *testing.B) {
			for b.Loop() {
				res, err := evaluateRun(context.Background(), e, runner.Options{Jobs: jobs})
				if err != nil {
					b.Fatal(err)
				}
				if err := results.WriteCSV(io.Discard, res.gridTable()); err != nil {
					b.Fatal(err)
				}
				if err := results.WriteCSV(io.Discard, res.failuresTable()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// sweepExperiment is the worker sweep of bench/README.md
// (bench/sweep.yaml): 100,000 subscribers over 60 periods, every worker
// count from 1 to 1024.
func sweepExperiment() *experiment.Experiment {
	e := experiment.Lesson("sweep")
	e.Subscribers = []int{100_000}
	e.Periods = []int{60}
	e.Workers = nil
	for w := 1; w <= 1024; w++ {
		e.Workers = append(e.Workers, w)
	}
	return &e
}

// BenchmarkEvaluate splits the in-process time of BenchmarkScale and of the
// worker sweep: counting and assembling alone, then writing each table as
// CSV to io.Discard from an evaluated result.
func BenchmarkEvaluate(b *testing.B) {
	for _, bm := range []struct {
		name string
		e    *experiment.Experiment
	}{{"scale", scaleExperiment()}, {"sweep", sweepExperiment()}} {
		b.Run(bm.name+"/count", func(b *testing.B) {
			for b.Loop() {
				if _, err := evaluateRun(context.Background(), bm.e, runner.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		res, err := evaluateRun(context.Background(), bm.e, runner.Options{})
		if err != nil {
			b.Fatal(err)
		}
		for _, t := range []results.Table{res.gridTable(), res.failuresTable()} {
			b.Run(bm.name+"/"+t.Name+".csv", func(b *testing.B) {
				for b.Loop() {
					if err := results.WriteCSV(io.Discard, t); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkScaleWorkbook writes the workbook and the Markdown of the scale
// experiment's shape (120 periods, every interval, seven worker counts, 21
// probabilities) with a thousand subscribers: the tables and views have
// the sizes of scale.yaml's, while the evaluation, which is not measured
// here, is cheap.
func BenchmarkScaleWorkbook(b *testing.B) {
	e := scaleExperiment()
	e.Subscribers = []int{1000}
	res, err := evaluateRun(context.Background(), e, runner.Options{})
	if err != nil {
		b.Fatal(err)
	}
	formats := []string{results.FormatXLSX, results.FormatMD}
	set := res.set(formats)
	dir := b.TempDir()
	b.ReportAllocs()
	for b.Loop() {
		if err := folder.Replace(context.Background(), dir, set, formats); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRun is a run in process, as `ckptlab run` does it once the
// experiment is loaded: evaluate, then write the set into a folder, every
// file synced and swapped in. Compare with model.BenchmarkFloorDraw: the
// README's targets are scale.yaml as CSV in a quarter of the floor, and
// the worker sweep as CSV and as XLSX in three floors.
func BenchmarkRun(b *testing.B) {
	for _, bm := range []struct {
		name   string
		e      *experiment.Experiment
		format string
	}{
		{"scale/csv", scaleExperiment(), results.FormatCSV},
		{"sweep/csv", sweepExperiment(), results.FormatCSV},
		{"sweep/xlsx", sweepExperiment(), results.FormatXLSX},
	} {
		b.Run(bm.name, func(b *testing.B) {
			dir := b.TempDir()
			formats := []string{bm.format}
			for b.Loop() {
				res, err := evaluateRun(context.Background(), bm.e, runner.Options{})
				if err != nil {
					b.Fatal(err)
				}
				if err := folder.Replace(context.Background(), dir, res.set(formats), formats); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
