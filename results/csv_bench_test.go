package results

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
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
	got, want := writeBothWays(t, cols, rows)
	if !bytes.Equal(got, want) {
		t.Errorf("WriteCSV wrote\n%s\nwant\n%s", got, want)
	}
}

// writeBothWays writes the rows with WriteCSV, yielded in one reused slice
// as tables do, and the plain way: one Value.String per cell through
// encoding/csv.
func writeBothWays(t *testing.T, cols []Column, rows [][]Value) (got, want []byte) {
	t.Helper()
	table := Table{Columns: cols, Rows: func(yield func([]Value) bool) {
		cells := make([]Value, len(cols))
		for _, r := range rows {
			copy(cells, r)
			if !yield(cells) {
				return
			}
		}
	}}
	var g, w bytes.Buffer
	if err := WriteCSV(&g, table); err != nil {
		t.Fatal(err)
	}
	cw := csv.NewWriter(&w)
	cw.Write(table.Header())
	for _, r := range rows {
		record := make([]string, len(r))
		for c, v := range r {
			record[c] = v.String()
		}
		cw.Write(record)
	}
	cw.Flush()
	return g.Bytes(), w.Bytes()
}

// TestWriteCSVMatchesEncodingCSV holds WriteCSV to encoding/csv, byte for
// byte, on random tables: text that needs quoting in every way the library
// knows (commas, quotes, line ends, leading spaces of any script, `\.`),
// more distinct texts than WriteCSV remembers, numbers of every kind and
// size, and enough rows to pass its flushes.
func TestWriteCSVMatchesEncodingCSV(t *testing.T) {
	texts := []string{"", "a", "none", "a,b", `say "x"`, "two\nlines", "cr\rhere",
		"crlf\r\n", " lead", "\tlead", "\u00a0nbsp", "\u3000ideo", `\.`, `\..`,
		"trail ", "é,", "\"", ",", "\n"}
	floats := []float64{0, math.Copysign(0, -1), 1, -1.5, 1.0 / 3, 1e-300, 1e300,
		math.SmallestNonzeroFloat64, math.MaxFloat64, math.NaN(), math.Inf(1),
		math.Inf(-1), 927.3, 0.916666666666666}
	ints := []int64{0, -1, 7, math.MaxInt64, math.MinInt64, 1 << 53}
	rng := rand.New(rand.NewPCG(1, 2))
	const cols, rows = 7, 20000
	cells := make([][]Value, rows)
	for r := range cells {
		cells[r] = make([]Value, cols)
		for c := range cols {
			var v Value
			switch rng.IntN(5) {
			case 0:
				v = TextValue(texts[rng.IntN(len(texts))])
			case 1: // distinct texts, past what WriteCSV keeps
				v = TextValue(fmt.Sprintf("t%d,%d", r, c))
			case 2:
				v = FloatValue(floats[rng.IntN(len(floats))])
			case 3:
				v = IntValue(ints[rng.IntN(len(ints))])
			default:
				v = BoolValue(rng.IntN(2) == 0)
			}
			if c == 0 { // a column that repeats, as grid columns do
				v = FloatValue(float64(r/10) * 0.05)
			}
			cells[r][c] = v
		}
	}
	columns := make([]Column, cols)
	for c := range columns {
		columns[c] = Column{Name: texts[c+3]} // headers need quoting too
	}
	got, want := writeBothWays(t, columns, cells)
	if len(got) < 2*csvFlushAt {
		t.Fatalf("the table is %d bytes, too few to pass two flushes", len(got))
	}
	if !bytes.Equal(got, want) {
		g, w := got, want
		i := 0
		for i < len(g) && i < len(w) && g[i] == w[i] {
			i++
		}
		t.Fatalf("WriteCSV differs from encoding/csv at byte %d: %q, want %q",
			i, g[i:min(i+40, len(g))], w[i:min(i+40, len(w))])
	}
}

// TestWriteCSVReportsWriteErrors checks that a writer's failure, at the
// first flush or the last, comes back from WriteCSV.
func TestWriteCSVReportsWriteErrors(t *testing.T) {
	for _, n := range []int{1, 7 * 21 * 121} {
		err := WriteCSV(failingWriter{}, scaleGrid(n))
		if !errors.Is(err, errDiskFull) {
			t.Errorf("%d rows: WriteCSV returned %v, want %v", n, err, errDiskFull)
		}
	}
}

var errDiskFull = errors.New("no space left on device")

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errDiskFull }
