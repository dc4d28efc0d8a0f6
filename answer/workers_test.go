package answer

import (
	"slices"
	"testing"
)

// TestNewWorkerLine checks the worker line of the lesson at interval 4
// over 1 to 16 workers.
// The line stops falling from 8 to 9, 12 to 13 and 14 to 15 workers.
// It is least, 45 rows, at 16.
func TestNewWorkerLine(t *testing.T) {
	worst := []int64{600, 300, 216, 153, 129, 120, 99, 78, 87, 72, 63, 60, 60, 51, 51, 45}
	var workers []int
	for w := 1; w <= 16; w++ {
		workers = append(workers, w)
	}
	l := NewWorkerLine(4, workers, worst)
	if want := []int{8, 12, 14}; !slices.Equal(l.Steps, want) {
		t.Errorf("steps at %v, want %v", l.Steps, want)
	}
	if l.Least != 15 {
		t.Errorf("least at %d, want 15 (16 workers)", l.Least)
	}
	if l := NewWorkerLine(4, []int{1, 2, 4}, []int64{600, 300, 153}); len(l.Steps) != 0 || l.Least != 2 {
		t.Errorf("a line falling throughout: steps %v, least %d", l.Steps, l.Least)
	}
}
