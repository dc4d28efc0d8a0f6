package folder

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// tryLock takes LockFileEx on the first byte of f, exclusive or shared, without waiting.
// busy reports that another process holds a lock that excludes it.
// Like flock(2), the lock is the open file's.
// Closing f, or the end of the process, releases it.
// An exclusive lock excludes shared ones, and a shared one exclusive ones.
// The byte need not exist, since Windows locks ranges beyond the end of a file.
func tryLock(f *os.File, exclusive bool) (busy bool, err error) {
	flags := uint32(windows.LOCKFILE_FAIL_IMMEDIATELY)
	if exclusive {
		flags |= windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	err = windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, new(windows.Overlapped))
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return true, nil
	}
	return false, err
}
