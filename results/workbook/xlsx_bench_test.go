package workbook_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"ckptlab/folder"
	"ckptlab/results"
)

// benchGridRows is the grid of the workbook benchmarks: a million rows,
// the size at which a grid no longer fits on one sheet of a spreadsheet
// program that still opens it in reasonable time.
const benchGridRows = 1_000_000

// BenchmarkXLSXWriter writes a workbook whose grid sheet has a million
// synthetic rows with Write: every sheet, the normalization and the
// file in place. Compare with BenchmarkXLSXBareStreamWriter.
func BenchmarkXLSXWriter(b *testing.B) {
	set := results.Set{
		Name:     "bench",
		Grid:     syntheticGrid(benchGridRows),
		Failures: syntheticFailures(0),
		Config:   []results.Setting{{Key: "name", Value: "bench"}},
		Version:  "bench",
	}
	dir := b.TempDir()
	benchPeakHeap(b, func() {
		if err := folder.Replace(context.Background(), dir, set, []string{results.FormatXLSX}); err != nil {
			b.Fatal(err)
		}
	})
	reportFileSize(b, filepath.Join(dir, "bench", "bench.xlsx"))
}

// BenchmarkXLSXBareStreamWriter writes the same cells with excelize's
// stream writer and nothing else: no styles, widths, panes, filter or
// other sheet, excelize's own save to a file. It is the floor the workbook
// writer is measured against.
func BenchmarkXLSXBareStreamWriter(b *testing.B) {
	grid := syntheticGrid(benchGridRows)
	path := filepath.Join(b.TempDir(), "bare.xlsx")
	benchPeakHeap(b, func() {
		f := excelize.NewFile()
		defer f.Close()
		sw, err := f.NewStreamWriter("Sheet1")
		if err != nil {
			b.Fatal(err)
		}
		header := make([]any, len(grid.Columns))
		for i, c := range grid.Columns {
			header[i] = c.Name
		}
		if err := sw.SetRow("A1", header); err != nil {
			b.Fatal(err)
		}
		cells := make([]any, len(grid.Columns))
		n := 1
		for row := range grid.Rows {
			n++
			for i, v := range row {
				switch v.Kind {
				case results.Int:
					cells[i] = v.Int
				case results.Float:
					cells[i] = v.Float
				case results.Bool:
					cells[i] = v.Bool
				default:
					cells[i] = v.Text
				}
			}
			cell, _ := excelize.CoordinatesToCellName(1, n)
			if err := sw.SetRow(cell, cells); err != nil {
				b.Fatal(err)
			}
		}
		if err := sw.Flush(); err != nil {
			b.Fatal(err)
		}
		if err := f.SaveAs(path); err != nil {
			b.Fatal(err)
		}
	})
	reportFileSize(b, path)
}

// benchPeakHeap runs write b.N times and reports, besides time and
// allocations, the peak of live heap seen while it ran (peak-heap-MiB),
// sampled every few milliseconds.
func benchPeakHeap(b *testing.B, write func()) {
	b.ReportAllocs()
	runtime.GC()
	stop := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var most uint64
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			most = max(most, sample[0].Value.Uint64())
			select {
			case <-stop:
				peak <- most
				return
			case <-tick.C:
			}
		}
	}()
	for b.Loop() {
		write()
	}
	close(stop)
	b.ReportMetric(float64(<-peak)/(1<<20), "peak-heap-MiB")
}

func reportFileSize(b *testing.B, path string) {
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(fi.Size())/(1<<20), "file-MiB")
}
