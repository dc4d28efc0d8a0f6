//go:build unix

package folder

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes flock(2) on f, exclusive or shared, without waiting.
// busy reports that another process holds a lock that excludes it.
func tryLock(f *os.File, exclusive bool) (busy bool, err error) {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	err = syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EINTR) {
		return true, nil
	}
	return false, err
}
