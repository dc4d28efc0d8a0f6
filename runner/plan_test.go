package runner

import (
	"math"
	"strings"
	"testing"

	"ckptlab/model"
)

func TestSizes(t *testing.T) {
	lesson := Lesson("lesson")
	all := Lesson("all")
	all.Periods = []int{6, 12}
	all.IntervalsAll = true
	all.Intervals = nil
	all.FailurePeriod = model.NewMonth(2026, 3)
	listed := Lesson("listed")
	listed.Seeds = []uint32{1, 2, 3}
	listed.PartitionKeys = model.PartitionKeys
	listed.FailurePeriods = []model.Month{model.NewMonth(2026, 3), model.NewMonth(2026, 9)}

	tests := []struct {
		name                  string
		e                     Experiment
		sources, grid, failed int64
	}{
		// The lesson: 4 probabilities × 6 intervals; 6 intervals × 11 failures.
		{"lesson", lesson, 1, 24, 66},
		// P=6: 7 intervals, 5 failures; P=12: 13 intervals, 11 failures.
		{"intervals all", all, 2, 4*7 + 4*13, 7*5 + 13*11},
		{"listed failures", listed, 3, 3 * 3 * 4 * 6, 3 * 3 * 6 * 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.e.Sources(); got != tt.sources {
				t.Errorf("Sources() = %d, want %d", got, tt.sources)
			}
			if got := tt.e.GridRows(); got != tt.grid {
				t.Errorf("GridRows() = %d, want %d", got, tt.grid)
			}
			if got := tt.e.FailureRows(); got != tt.failed {
				t.Errorf("FailureRows() = %d, want %d", got, tt.failed)
			}
		})
	}
}

func TestSizesSaturate(t *testing.T) {
	big := make([]int, 1_000_000)
	e := Lesson("big")
	e.Subscribers, e.Workers, e.StateRows = big, big, big
	e.Periods = make([]int, 1_000_000)
	for i := range e.Periods {
		e.Periods[i] = 12
	}
	if got := e.GridRows(); got != math.MaxInt64 {
		t.Errorf("GridRows() = %d, want math.MaxInt64", got)
	}
	if got := e.FailureRows(); got != math.MaxInt64 {
		t.Errorf("FailureRows() = %d, want math.MaxInt64", got)
	}
	if got := e.Sources(); got != 1_000_000*1_000_000 {
		t.Errorf("Sources() = %d, want 10^12", got)
	}
}

func TestSaturatingArithmetic(t *testing.T) {
	tests := []struct {
		factors []int64
		want    int64
	}{
		{nil, 1},
		{[]int64{3, 4}, 12},
		{[]int64{math.MaxInt64, 0}, 0},
		{[]int64{1 << 32, 1 << 31}, 1<<63 - 1},
		{[]int64{1 << 32, 1 << 30}, 1 << 62},
		{[]int64{math.MaxInt64, 2, 0}, 0},
	}
	for _, tt := range tests {
		if got := mulSat(tt.factors...); got != tt.want {
			t.Errorf("mulSat(%v) = %d, want %d", tt.factors, got, tt.want)
		}
	}
	if got := addSat(math.MaxInt64-1, 2); got != math.MaxInt64 {
		t.Errorf("addSat overflowed: %d", got)
	}
}

func TestWritePlan(t *testing.T) {
	e := load(t, "name: lesson\ndescription: State in Stream Engines, all tables\n")
	e.File = "experiments/lesson.yaml"
	var b strings.Builder
	if err := WritePlan(&b, e, "out", []string{"csv", "xlsx", "md"}); err != nil {
		t.Fatal(err)
	}
	want := `lesson  experiments/lesson.yaml
  description      State in Stream Engines, all tables
  version          1  # default
  seeds            20260218  # default
  subscribers      200  # default
  periods          12  # default
  partition_key    subscriber  # default
  workers          4  # default
  state_rows       subscribers  # default
  risk_level       0.95  # default
  probabilities    1, 0.75, 0.5, 0.25  # default
  intervals        none, 6, 4, 3, 2, 1  # default
  start            2026-01  # default
  missing          0  # default
  duplicates       0  # default
  failure_period   2026-09  # default
  failure_periods  all (every period but the first)  # default
  sources          1
  grid rows        24
  failures rows    66
  memory           at most ` + MiB(e.MemoryBytes(0, true)) + `
  writes           out/lesson/grid.csv
                   out/lesson/failures.csv
                   out/lesson/decisions.csv
                   out/lesson/breakeven.csv
                   out/lesson/lesson.xlsx
                   out/lesson/lesson.md
                   out/lesson/experiment.yaml
`
	if got := b.String(); got != want {
		t.Errorf("WritePlan wrote\n%s\nwant\n%s", got, want)
	}
}

func TestWritePlanShortensLongAxes(t *testing.T) {
	e := load(t, "name: sweep\nintervals: all\nprobabilities: {from: 0, to: 1, step: 0.05}\n"+
		"workers: {from: 1, to: 5}\nfailure_periods: [2026-02, 2026-03, 2026-04, 2026-05, 2026-06, 2026-07, 2026-08, 2026-09, 2026-10]\n")
	var b strings.Builder
	if err := WritePlan(&b, e, "o", []string{"xlsx"}); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"  probabilities    0, 0.05, 0.1, … 1 (21 values)\n",
		"  intervals        all (none and 1..P for each periods value P)\n",
		"  workers          1, 2, 3, 4, 5\n",
		"  failure_periods  2026-02, 2026-03, 2026-04, … 2026-10 (9 values)\n",
		"  grid rows        1365\n", // 5 workers × 21 probabilities × 13 intervals
		"  failures rows    585\n",  // 5 workers × 13 intervals × 9 failures
		"  writes           o/sweep/sweep.xlsx\n",
	} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("the plan lacks %q:\n%s", line, b.String())
		}
	}
	if strings.Contains(b.String(), "grid.csv") {
		t.Error("the plan lists grid.csv, which --format xlsx does not write")
	}
}

func TestWritePlanRefusesUnknownFormat(t *testing.T) {
	e := Lesson("x")
	err := WritePlan(&strings.Builder{}, &e, "out", []string{"pdf"})
	if err == nil || err.Error() != `"pdf" is not a format (want csv, xlsx or md)` {
		t.Errorf("WritePlan = %v", err)
	}
}
