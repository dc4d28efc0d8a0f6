package testkit

import (
	"testing"
	"time"
)

// TestProcessCounts checks that CPU time spent shows, where the system tells it.
// Busy work advances it within ten seconds, however loaded the machine.
func TestProcessCounts(t *testing.T) {
	before, ok := CPUTime()
	if !ok {
		t.Skip("the system does not tell the CPU time")
	}
	for give := time.Now().Add(10 * time.Second); time.Now().Before(give); {
		if after, _ := CPUTime(); after > before {
			return
		}
	}
	t.Errorf("CPU time still %v after ten seconds of busy work", before)
}
