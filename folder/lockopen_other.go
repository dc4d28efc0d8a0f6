//go:build !unix

package folder

// noFollow is 0 where the system has no O_NOFOLLOW.
// openLock then checks for a symbolic link after a failed open only.
const noFollow = 0
