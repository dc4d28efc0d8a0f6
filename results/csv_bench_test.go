package results

import (
	"bytes"
	"encoding/csv"
	"io"
	"math"
	"testing"
)

// scaleGrid returns a table shaped like grid.csv of experiments/scale.yaml
// (a million subscribers, 120 periods, seven worker counts, probabilities
// 0..1 by 0.05, intervals none and 1..120), cycled up to n rows. The metric
// values are made up but behave like the real ones: every one but
// expected_total and best depends only on the workers and the interval, and
// averages have as many digits as sums divided by 119 failures have.
func scaleGrid(n int) Table {
	return Table{Name: "grid", Columns: GridColumns, Rows: func(yield func([]Value) bool) {
		var cells []Value
		for i := 0; i < n; {
			for _, workers := range []int{1, 2, 4, 8, 16, 32, 64} {
				for p := range 21 {
					prob := float64(p) * 0.05
					for k := range 121 {
						if i == n {
							return
						}
						i++
						row := scaleGridRow(workers, prob, k)
						cells = row.AppendValues(cells[:0])
						if !yield(cells) {
							return
						}
					}
				}
			}
		}
	}}
}

func scaleGridRow(workers int, prob float64, k int) GridRow {
	const periods, failures, stateRows, rowsPerPeriod = 120, 119, 200, 1_000_000
	checkpoints, interval := 0, "none"
	if k > 0 {
		checkpoints, interval = periods/k, intervalNames[k]
	}
	// A made-up recovery: the rows of the periods since the last point.
	sum := int64(rowsPerPeriod * (k*k + 7*k + 3) / 2)
	worst := int64(rowsPerPeriod * max(k, 1))
	certain := int64(checkpoints) * stateRows
	average := float64(sum) / failures
	return GridRow{
		Seed: 20260218, Subscribers: 1_000_000, Periods: periods,
		PartitionKey: "subscriber", Workers: workers, StateRows: stateRows,
		Probability: prob, Interval: interval,
		Rows: 119_000_000, Checkpoints: checkpoints, CertainCost: certain,
		Recomputed: worst / 2, Busiest: worst / 2 / int64(workers), ExactlyOnce: worst / 2,
		Worst: worst, WorstTotal: worst + certain,
		Average: average, AverageTotal: average + float64(certain),
		ExpectedTotal: prob*float64(sum)/failures + float64(certain),
		Best:          k == 7,
	}
}

var intervalNames = func() []string {
	out := make([]string, 121)
	for k := range out {
		out[k] = IntValue(int64(k)).String()
	}
	return out
}()

// BenchmarkWriteGridCSV measures how fast grid rows are written as CSV, on
// whatever GOMAXPROCS the run gives (WriteCSV itself is sequential).
func BenchmarkWriteGridCSV(b *testing.B) {
	const n = 7 * 21 * 121 // the scale experiment's grid
	t := scaleGrid(n)
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteCSV(io.Discard, t); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// TestWriteCSVReusesOnlyEqualText checks the shortcuts of WriteCSV against
// the plain way, one Value.String per cell: a number its column held
// lately reuses its text, but 0 and -0, and an integer and a float of the
// same bits (which share a slot), are written anew, and a text cell in a
// column of numbers is passed as it is.
func TestWriteCSVReusesOnlyEqualText(t *testing.T) {
	negZero, third := math.Copysign(0, -1), 1.0/3
	rows := [][]Value{
		{IntValue(0), FloatValue(0), TextValue("a,b"), BoolValue(true)},
		{IntValue(0), FloatValue(negZero), TextValue(`say "x"`), BoolValue(false)},
		{IntValue(int64(math.Float64bits(0.5))), FloatValue(0.5), IntValue(7), BoolValue(false)},
		{FloatValue(0.5), FloatValue(0.5), TextValue("7"), TextValue("")},
		{TextValue("0"), FloatValue(third), IntValue(7), IntValue(-1)},
		{IntValue(0), FloatValue(third), IntValue(7), IntValue(-1)},
	}
	cols := []Column{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}}
	table := Table{Columns: cols, Rows: func(yield func([]Value) bool) {
		cells := make([]Value, len(cols)) // reused, as tables do
		for _, r := range rows {
			copy(cells, r)
			if !yield(cells) {
				return
			}
		}
	}}
	var got, want bytes.Buffer
	if err := WriteCSV(&got, table); err != nil {
		t.Fatal(err)
	}
	cw := csv.NewWriter(&want)
	cw.Write(table.Header())
	for _, r := range rows {
		var record []string
		for _, v := range r {
			record = append(record, v.String())
		}
		cw.Write(record)
	}
	cw.Flush()
	if got.String() != want.String() {
		t.Errorf("WriteCSV wrote\n%s\nwant\n%s", got.String(), want.String())
	}
}
