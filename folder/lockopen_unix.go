//go:build unix

package folder

import "syscall"

// noFollow opens a lock file without following a final symbolic link and
// without waiting for a FIFO's other end.
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
