package runner

import (
	"slices"
	"strconv"
	"testing"

	"ckptlab/internal/lessonfigures"
	"ckptlab/results"
	"ckptlab/runner/experiment"
)

func TestLessonCharts(t *testing.T) {
	charts := evaluate(t, experiment.Lesson("lesson")).Charts()
	if len(charts) != 2 {
		t.Fatalf("%d charts, want expected total and the saw-tooth (one worker count: no workers chart)", len(charts))
	}
	// Expected total against probability: from 0 to 1, with the lesson's
	// probabilities; at each the lesson's printed figures.
	exp := charts[0]
	if !exp.Numeric() || exp.Data.Columns[0].Name != "failure probability" {
		t.Errorf("the first chart's x axis is %+v, want failure probability, numeric", exp.Data.Columns[0])
	}
	var xs []float64
	for _, r := range exp.Data.Rows {
		xs = append(xs, r[0].Float)
	}
	if want := []float64{0, 0.25, 0.5, 0.75, 1}; !slices.Equal(xs, want) {
		t.Errorf("probabilities %v, want %v", xs, want)
	}
	for _, printed := range lessonfigures.Probability[1:] {
		row := exp.Data.Rows[slices.IndexFunc(exp.Data.Rows, func(r []results.Value) bool {
			return r[0].String() == lessonfigures.Canon(printed[0])
		})]
		for j := 1; j < 7; j++ {
			if got := results.FloatValue(row[j].Float); appendOne(got) != printed[j] {
				t.Errorf("expected total at p=%s, %s: %s, the lesson prints %s", printed[0], exp.Data.Columns[j].Name, appendOne(got), printed[j])
			}
		}
	}
	var names []string
	for _, c := range exp.Data.Columns[1:] {
		names = append(names, c.Name)
	}
	if want := []string{"interval none", "interval 6", "interval 4", "interval 3", "interval 2", "interval 1"}; !slices.Equal(names, want) {
		t.Errorf("lines %q, want %q", names, want)
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

// appendOne shows a float with one decimal, as the lesson prints totals.
func appendOne(v results.Value) string { return strconv.FormatFloat(v.Float, 'f', 1, 64) }

func TestWorkersChart(t *testing.T) {
	e := experiment.Lesson("workers")
	e.Workers = []int{1, 2, 4, 8}
	charts := evaluate(t, e).Charts()
	if len(charts) != 3 {
		t.Fatalf("%d charts, want 3 with a workers chart", len(charts))
	}
	c := charts[2]
	if !c.Numeric() || c.Data.Columns[0].Name != "workers" || len(c.Data.Rows) != 4 {
		t.Fatalf("workers chart %+v, want 4 numeric worker counts", c.Data)
	}
	// Four workers: the lesson's partitioned recovery, 408 for none and 102 for 6.
	if r := c.Data.Rows[2]; r[0].Int != 4 || r[1].Int != 408 || r[2].Int != 102 {
		t.Errorf("at 4 workers %v, want 408 (none) and 102 (6)", r)
	}
	// One worker holds the whole job: 1600 for none.
	if r := c.Data.Rows[0]; r[1].Int != 1600 {
		t.Errorf("at 1 worker %v, want the whole job's 1600", r)
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
