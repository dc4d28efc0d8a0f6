package folder

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// exchange swaps the folders a and b in one step with renameat2(RENAME_EXCHANGE).
// It returns errNoExchange where the kernel or the file system does not support it.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		return errNoExchange
	}
	if err != nil {
		return fmt.Errorf("swapping %s into place: %w", b, err)
	}
	return nil
}
