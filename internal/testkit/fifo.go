// FIFOs: the tests check that a FIFO is refused without being waited on.
// Systems without FIFOs, such as Windows, still compile those tests, which
// skip.

package testkit

import (
	"errors"
	"testing"
)

// MakeFIFO makes a FIFO at path. It skips the test where the system has none.
func MakeFIFO(t testing.TB, path string) {
	t.Helper()
	err := mkfifo(path)
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skip("no FIFOs on this system")
	}
	if err != nil {
		t.Fatal(err)
	}
}
