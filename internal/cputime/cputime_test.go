package cputime

import (
	"runtime"
	"testing"
)

// TestUsedGrows checks that work done shows in the time used, where the
// system tells it.
func TestUsedGrows(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no CPU time on", runtime.GOOS)
	}
	before := Used()
	x := uint64(1)
	for i := 0; Used() == before; i++ {
		if i == 4096 { // 2^32 steps, seconds of CPU
			t.Fatalf("CPU time used stayed at %v", before)
		}
		for range 1 << 20 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	if Used() < before || x == 0 {
		t.Errorf("CPU time used went from %v to %v", before, Used())
	}
}
