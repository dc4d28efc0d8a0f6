// Package fifotest makes FIFOs for tests.
// The tests check that a FIFO is refused without being waited on.
// Systems without FIFOs, such as Windows, still compile those tests, which skip.
package fifotest

import (
	"errors"
	"testing"
)

// Make makes a FIFO at path. It skips the test where the system has none.
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
