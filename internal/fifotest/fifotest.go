// Package fifotest makes FIFOs for tests that check a FIFO is refused
// without being waited on, on the systems that have FIFOs, so that those
// tests compile (and skip) on Windows too.
package fifotest

import (
	"errors"
	"testing"
)

// Make makes a FIFO at path, or skips the test where the system has none.
func Make(t testing.TB, path string) {
	t.Helper()
	err := mkfifo(path)
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skip("no FIFOs on this system")
	}
	if err != nil {
		t.Fatal(err)
	}
}
