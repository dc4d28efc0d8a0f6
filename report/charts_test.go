package report

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ckptlab/internal/lessonfigures"
	"ckptlab/results"
	"ckptlab/runner/experiment"
)

func TestLessonCharts(t *testing.T) {
	charts := evaluate(t, experiment.Lesson("lesson")).charts()
	if len(charts) != 2 {
		t.Fatalf("%d charts, want expected total and the saw-tooth (one worker count: no workers chart)", len(charts))
	}
	// Expected total against probability: from 0 to 1, with the lesson's
	// probabilities; at each the lesson's printed figures.
	exp := charts[0]
	if !exp.Numeric() || exp.Data.Columns[0].Name != "failure probability" {
		t.Errorf("the first chart's x axis is %+v, want failure probability, numeric", exp.Data.Columns[0])
	}
	// The rows are 0, 1, the lesson's probabilities and the break-evens
	// 11/18 and 11/12, where the envelope bends.
	var xs []float64
	for _, r := range exp.Data.Rows {
		xs = append(xs, r[0].Float)
	}
	if want := []float64{0, 0.25, 0.5, 11.0 / 18, 0.75, 11.0 / 12, 1}; !slices.Equal(xs, want) {
		t.Errorf("probabilities %v, want %v", xs, want)
	}
	var names []string
	for _, c := range exp.Data.Columns[1:] {
		names = append(names, c.Name)
	}
	// the recommended intervals first, in increasing probability, then
	// the envelope, then the others
	if want := []string{"interval none", "interval 6", "interval 4", "envelope", "interval 3", "interval 2", "interval 1"}; !slices.Equal(names, want) {
		t.Errorf("lines %q, want %q", names, want)
	}
	if want := []string{"interval none", "interval 6", "interval 4"}; !slices.Equal(exp.Recommended, want) {
		t.Errorf("recommended %q, want %q", exp.Recommended, want)
	}
	lesson := []string{"interval none", "interval 6", "interval 4", "interval 3", "interval 2", "interval 1"}
	for _, printed := range lessonfigures.Probability[1:] {
		row := exp.Data.Rows[slices.IndexFunc(exp.Data.Rows, func(r []results.Value) bool {
			return r[0].String() == lessonfigures.Canon(printed[0])
		})]
		least := ""
		for j, name := range lesson {
			got := appendOne(results.FloatValue(row[1+slices.Index(names, name)].Float))
			if got != printed[j+1] {
				t.Errorf("expected total at p=%s, %s: %s, the lesson prints %s", printed[0], name, got, printed[j+1])
			}
			if least == "" || results.FloatValue(row[1+slices.Index(names, name)].Float).Float < mustFloat(t, least) {
				least = got
			}
		}
		if got := appendOne(row[1+slices.Index(names, "envelope")]); got != least {
			t.Errorf("envelope at p=%s: %s, want the least, %s", printed[0], got, least)
		}
	}
	// The saw-tooth: the lesson's matrix.
	saw := charts[1]
	if saw.Numeric() || len(saw.Data.Rows) != 11 {
		t.Fatalf("the saw-tooth has %d rows, numeric %v: want the 11 failures as categories", len(saw.Data.Rows), saw.Numeric())
	}
	for i, printed := range lessonfigures.Matrix[1:] {
		for j, cell := range printed {
			if got := saw.Data.Rows[i][j].String(); got != cell {
				t.Errorf("saw-tooth row %d column %d: %s, the lesson prints %s", i, j, got, cell)
			}
		}
	}
}

// mustFloat parses a number the test wrote.
func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// appendOne shows a float with one decimal, as the lesson prints totals.
func appendOne(v results.Value) string { return strconv.FormatFloat(v.Float, 'f', 1, 64) }

func TestWorkersChart(t *testing.T) {
	e := experiment.Lesson("workers")
	e.Workers = []int{1, 2, 4, 8}
	charts := evaluate(t, e).charts()
	if len(charts) != 3 {
		t.Fatalf("%d charts, want 3 with a workers chart", len(charts))
	}
	c := charts[2]
	if !c.Numeric() || c.Data.Columns[0].Name != "workers" || len(c.Data.Rows) != 4 {
		t.Fatalf("workers chart %+v, want 4 numeric worker counts", c.Data)
	}
	// It plots what the headline says, busiest_worker_worst, the
	// recommended intervals first (none, best at two of the lesson's
	// probabilities, then 6 and 4): at interval 4 600 rows at 1 worker,
	// 153 at 4.
	if !slices.Equal(c.Recommended, []string{"interval none", "interval 6", "interval 4"}) || c.Data.Columns[3].Name != "interval 4" {
		t.Errorf("workers chart emphasises %q (columns %v), want interval 4", c.Recommended, c.Data.Table("").Header())
	}
	if r := c.Data.Rows[2]; r[0].Int != 4 || r[3].Int != 153 || r[1].Int != 561 {
		t.Errorf("at 4 workers %v, want 153 (interval 4) and 561 (none)", r)
	}
	// One worker holds the whole job: 2200 for none at the last failure.
	if r := c.Data.Rows[0]; r[1].Int != 2200 || r[3].Int != 600 {
		t.Errorf("at 1 worker %v, want the whole job's 2200 for none and 600 for interval 4", r)
	}
}

// TestChartsMergeIdentical checks that identical lines are drawn once and
// the note says which: without checkpoints worth the name, a one-period
// job's intervals all recompute the same.
func TestChartsMergeIdentical(t *testing.T) {
	c := results.Chart{Data: results.Block{Columns: []results.Column{{Name: "x", Kind: results.Int},
		{Name: "interval 4", Kind: results.Int}, {Name: "interval 2", Kind: results.Int}, {Name: "interval 1", Kind: results.Int}}}, Recommended: []string{"interval 2"}}
	for i := range 3 {
		c.Data.Rows = append(c.Data.Rows, []results.Value{results.IntValue(int64(i)), results.IntValue(0), results.IntValue(0), results.IntValue(int64(i))})
	}
	m := mergeIdentical(c)
	if got := m.Data.Table("").Header(); !slices.Equal(got, []string{"x", "interval 2", "interval 1"}) {
		t.Errorf("merged columns %v, want the recommended name for the group of 4 and 2, and 1 apart", got)
	}
	if !strings.Contains(m.Note, "intervals 4, 2 give the same figures") {
		t.Errorf("note %q does not say which lines are one", m.Note)
	}
	if again := mergeIdentical(m); len(again.Data.Columns) != 3 || again.Note != m.Note {
		t.Errorf("a chart without identical lines changes: %v", again.Data.Table("").Header())
	}
}

func TestRepresentatives(t *testing.T) {
	tests := []struct {
		n     int
		first []int
		want  []int
	}{
		{6, nil, []int{0, 1, 2, 3, 4, 5}},
		{6, []int{3}, []int{0, 1, 2, 3, 4, 5}},
		{121, nil, []int{0, 17, 34, 51, 68, 85, 102, 120}},
		{121, []int{0, 7, 9}, []int{0, 7, 9, 17, 34, 51, 68, 85}},
		{9, nil, []int{0, 1, 2, 3, 4, 5, 6, 8}},
	}
	for _, tt := range tests {
		got := representatives(tt.n, tt.first)
		if !slices.Equal(got, tt.want) {
			t.Errorf("representatives(%d, %v) = %v, want %v", tt.n, tt.first, got, tt.want)
		}
	}
}

// TestChartMarksAreTheBreakevens checks, on every experiment of
// experiments/, that each expected-total chart marks the crossings of the
// envelope breakeven.csv gives for it: the start of each piece but the
// first, the charts in the order of the table's envelopes.
func TestChartMarksAreTheBreakevens(t *testing.T) {
	paths, err := filepath.Glob("../experiments/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no experiments found: %v", err)
	}
	marked := 0
	for _, path := range paths {
		e, err := experiment.Load(path, experiment.Overrides{})
		if err != nil {
			t.Fatal(err)
		}
		res := evaluate(t, *e)
		// The crossings of each envelope of breakeven.csv: a new envelope
		// starts at probability 0.
		table := res.breakevenTable()
		from := slices.Index(table.Header(), "from_probability")
		var envelopes [][]float64
		for r := range table.Rows {
			if p := r[from].Float; p == 0 {
				envelopes = append(envelopes, []float64{})
			} else {
				envelopes[len(envelopes)-1] = append(envelopes[len(envelopes)-1], p)
			}
		}
		next := 0
		for _, c := range res.charts() {
			if c.Data.Columns[0].Name != "failure probability" {
				if len(c.Marks) > 0 {
					t.Errorf("%s: %q marks break-evens", e.Name, c.Data.Title)
				}
				continue
			}
			var xs []float64
			for _, m := range c.Marks {
				xs = append(xs, m.X)
				if m.From == m.To || !strings.HasPrefix(m.From, "interval ") {
					t.Errorf("%s: mark %+v does not name the intervals it changes between", e.Name, m)
				}
			}
			marked += len(xs)
			j := slices.IndexFunc(envelopes[next:], func(env []float64) bool { return slices.Equal(env, xs) })
			if j < 0 {
				t.Errorf("%s: %q marks %v, not the crossings of an envelope of breakeven.csv from the %d-th on: %v", e.Name, c.Data.Title, xs, next, envelopes)
				continue
			}
			next += j
		}
	}
	if marked == 0 {
		t.Error("no chart marks a break-even")
	}
}

// TestShippedChartsDrawDistinctLines checks every chart of every
// experiment of experiments/: no two lines are the same figures (one would
// hide the other; they are drawn once and named together), and the
// recommended interval is among the lines.
func TestShippedChartsDrawDistinctLines(t *testing.T) {
	paths, err := filepath.Glob("../experiments/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no experiments found: %v", err)
	}
	for _, path := range paths {
		e, err := experiment.Load(path, experiment.Overrides{})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range evaluate(t, *e).charts() {
			cols := c.Data.Columns
			for _, rec := range c.Recommended {
				if !slices.ContainsFunc(cols[1:], func(col results.Column) bool { return col.Name == rec }) {
					t.Errorf("%s: %q does not draw the recommended %s", e.Name, c.Data.Title, rec)
				}
			}
			for a := 1; a < len(cols); a++ {
				for b := a + 1; b < len(cols); b++ {
					if !slices.ContainsFunc(c.Data.Rows, func(r []results.Value) bool { return r[a] != r[b] }) {
						t.Errorf("%s: %q draws %s and %s, the same figures, as two lines", e.Name, c.Data.Title, cols[a].Name, cols[b].Name)
					}
				}
			}
		}
	}
}
