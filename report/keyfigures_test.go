package report

import (
	"testing"

	"ckptlab/runner/experiment"
)

// TestKeyFigures checks the lesson's key figures against its printed
// totals, and that a long sweep gives an even selection of its points.
func TestKeyFigures(t *testing.T) {
	blk := evaluate(t, experiment.Lesson("lesson")).keyFigures()
	if len(blk.Rows) != 4 {
		t.Fatalf("%d rows, want the lesson's 4 probabilities", len(blk.Rows))
	}
	// At p = 1 the lesson prints 4 at 927.3, none at 1200.0, 6 at 945.5.
	var got []string
	for _, v := range blk.Rows[0] {
		got = append(got, v.String())
	}
	want := []string{"1", "4", "927.3", "272.7 (1.29×)", "6", "18.2 (1.02×)"}
	if len(got) != len(want) {
		t.Fatalf("row %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %q, want %q", got, want)
			break
		}
	}

	e := experiment.Lesson("sweep")
	e.Probabilities = nil
	for i := range 101 {
		e.Probabilities = append(e.Probabilities, float64(i)/100)
	}
	if n := len(evaluate(t, e).keyFigures().Rows); n != keyProbabilities {
		t.Errorf("a sweep of 101 probabilities gives %d key figures, want %d", n, keyProbabilities)
	}
}
