package runner

import "testing"

// TestMemoryBytes checks the estimate's shape: it grows with workers and
// periods, not with subscribers, and covers the views only when asked.
func TestMemoryBytes(t *testing.T) {
	base := Lesson("m")
	size := func(change func(e *Experiment), views bool) int64 {
		e := base
		change(&e)
		return e.MemoryBytes(2, views)
	}
	same := func(*Experiment) {}
	lesson := size(same, false)
	if lesson <= 0 {
		t.Fatalf("MemoryBytes = %d, want > 0", lesson)
	}
	if got := size(func(e *Experiment) { e.Subscribers = []int{1_000_000} }, false); got != lesson {
		t.Errorf("a million subscribers: %d bytes, want %d as for 200", got, lesson)
	}
	if got := size(func(e *Experiment) { e.Workers = []int{4, 400} }, false); got <= 50*lesson {
		t.Errorf("workers 4 and 400: %d bytes, want far more than %d", got, lesson)
	}
	if got := size(same, true); got <= lesson {
		t.Errorf("with views: %d bytes, want more than %d", got, lesson)
	}
}
