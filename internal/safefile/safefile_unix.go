//go:build unix

package safefile

import (
	"errors"
	"os"
	"syscall"
)

// openNonblock opens path read-only without waiting for a FIFO's writer
// (O_NONBLOCK, which changes nothing for a regular file).
// Unless follow, it does not follow a final symbolic link (O_NOFOLLOW).
func openNonblock(path string, follow bool) (*os.File, error) {
	flag := os.O_RDONLY | syscall.O_NONBLOCK
	if !follow {
		flag |= syscall.O_NOFOLLOW
	}
	return os.OpenFile(path, flag, 0)
}

// isLoop reports the error O_NOFOLLOW gives for a symbolic link.
func isLoop(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK) // EMLINK: FreeBSD
}
