//go:build !unix && !windows

package folder

import (
	"errors"
	"os"
)

// tryLock refuses where the system has neither flock(2) nor LockFileEx.
// Without a lock, two runs could write one folder at once.
func tryLock(f *os.File, exclusive bool) (busy bool, err error) {
	return false, errors.ErrUnsupported
}
