package runner

import (
	"math"
	"testing"

	"ckptlab/runner/experiment"
)

// TestMemoryBytes checks the estimate's shape: it grows with workers and
// periods, hardly with subscribers (the list of tasks), and covers the views
// and workbook only when asked. TestMemoryBoundHolds checks it is a bound.
func TestMemoryBytes(t *testing.T) {
	base := experiment.Lesson("m")
	size := func(change func(e *experiment.Experiment), views bool) int64 {
		e := base
		change(&e)
		return MemoryBytes(&e, 2, views)
	}
	same := func(*experiment.Experiment) {}
	lesson := size(same, false)
	if lesson <= 0 {
		t.Fatalf("MemoryBytes = %d, want > 0", lesson)
	}
	if got := size(func(e *experiment.Experiment) { e.Subscribers = []int{1_000_000} }, false); got < lesson || got > lesson+1<<10 {
		t.Errorf("a million subscribers: %d bytes, want within 1 KiB above %d as for 200", got, lesson)
	}
	// Subscribers per worker, in each goroutine's tally, twice for the heap.
	if got, want := size(func(e *experiment.Experiment) { e.Workers = []int{4, 400} }, false), lesson+2*2*8*400; got < want {
		t.Errorf("workers 4 and 400: %d bytes, want at least %d", got, want)
	}
	// With faults, every worker can be touched: rows per period of each.
	if got, want := size(func(e *experiment.Experiment) { e.Workers, e.Missing = []int{400}, 1000 }, false), lesson+2*2*8*12*400; got < want {
		t.Errorf("400 workers with faults: %d bytes, want at least %d", got, want)
	}
	if got := size(same, true); got <= lesson {
		t.Errorf("with views: %d bytes, want more than %d", got, lesson)
	}
}

func TestMiBBytesSaturates(t *testing.T) {
	for _, tt := range []struct{ mib, want int64 }{
		{0, 0}, {1, 1 << 20}, {4096, 4096 << 20}, {math.MaxInt64 >> 20, (math.MaxInt64 >> 20) << 20},
		{math.MaxInt64>>20 + 1, math.MaxInt64}, {math.MaxInt64, math.MaxInt64},
	} {
		if got := MiBBytes(tt.mib); got != tt.want {
			t.Errorf("MiBBytes(%d) = %d, want %d", tt.mib, got, tt.want)
		}
	}
}
