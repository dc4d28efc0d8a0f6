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
		formats := []string{"csv"}
		if views {
			formats = append(formats, "xlsx")
		}
		return MemoryBytes(&e, 2, formats)
	}
	same := func(*experiment.Experiment) {}
	lesson := size(same, false)
	if lesson <= 0 {
		t.Fatalf("MemoryBytes = %d, want > 0", lesson)
	}
	if got := size(func(e *experiment.Experiment) { e.Subscribers = []int{1_000_000} }, false); got < lesson || got > lesson+1<<10 {
		t.Errorf("a million subscribers: %d bytes, want within 1 KiB above %d as for 200", got, lesson)
	}
	// Subscribers per worker, in the source's tally, twice for the heap.
	few := size(func(e *experiment.Experiment) { e.Workers = []int{1_000_000} }, false)
	if got, want := size(func(e *experiment.Experiment) { e.Workers = []int{2_000_000} }, false), few+2*8*1_000_000; got < want {
		t.Errorf("2,000,000 workers: %d bytes, want at least %d, a million more than for %d", got, want, few)
	}
	// With faults, every worker can be touched: rows per period of each.
	clean := size(func(e *experiment.Experiment) { e.Workers, e.Subscribers = []int{1_000_000}, []int{1_000_000} }, false)
	if got, want := size(func(e *experiment.Experiment) {
		e.Workers, e.Subscribers, e.Missing = []int{1_000_000}, []int{1_000_000}, 1_000_000
	}, false), clean+2*8*12*1_000_000; got < want {
		t.Errorf("a million workers with faults: %d bytes, want at least %d", got, want)
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
		if got := mibBytes(tt.mib); got != tt.want {
			t.Errorf("MiBBytes(%d) = %d, want %d", tt.mib, got, tt.want)
		}
	}
}
