package runner

import (
	"strings"
	"testing"

	"ckptlab/runner/experiment"
)

// load loads a file of the given text, failing the test on an error.
func load(t *testing.T, src string) *experiment.Experiment {
	t.Helper()
	e, err := experiment.LoadBytes("x.yaml", []byte(src), experiment.Overrides{})
	if err != nil {
		t.Fatalf("LoadBytes(%q):\n%v", src, err)
	}
	return e
}

func TestWritePlan(t *testing.T) {
	e := load(t, "name: lesson\ndescription: State in Stream Engines, all tables\n")
	e.File = "experiments/lesson.yaml"
	var b strings.Builder
	if err := WritePlan(&b, e, "out", []string{"csv", "xlsx", "md"}, Limits{}); err != nil {
		t.Fatal(err)
	}
	want := `lesson  experiments/lesson.yaml
  version          1  # default
  description      State in Stream Engines, all tables
  seeds            20260218  # default
  subscribers      200  # default
  periods          12  # default
  start            2026-01  # default
  missing          0  # default
  duplicates       0  # default
  partition_key    subscriber  # default
  workers          4  # default
  state_rows       subscribers  # default
  risk_level       0.95  # default
  probabilities    1, 0.75, 0.5, 0.25  # default
  intervals        none, 6, 4, 3, 2, 1  # default
  failure_period   2026-09  # default
  failure_periods  all (every period but the first)  # default
  sources          1
  grid rows        24
  failures rows    66
  memory           at most ` + MiB(MemoryBytes(e, 0, []string{"csv", "xlsx", "md"})) + `
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
	if err := WritePlan(&b, e, "o", []string{"xlsx"}, Limits{}); err != nil {
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
	e := experiment.Lesson("x")
	err := WritePlan(&strings.Builder{}, &e, "out", []string{"pdf"}, Limits{})
	if err == nil || err.Error() != `"pdf" is not a format (want csv, xlsx, md or json)` {
		t.Errorf("WritePlan = %v", err)
	}
}
