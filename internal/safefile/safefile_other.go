//go:build !unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
)

// errLink marks a path that is a symbolic link.
var errLink = errors.New("symbolic link")

// openNonblock refuses a symbolic link by Lstat before opening, unless follow.
// The systems without O_NOFOLLOW have no FIFOs that block an open either.
func openNonblock(path string, follow bool) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && !follow && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, errLink
	}
	return os.Open(path)
}

func isLoop(err error) bool { return errors.Is(err, errLink) }
