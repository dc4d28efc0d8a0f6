//go:build unix

package atomicfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// A scratch folder is a temporary folder outside any output folder, in the
// system's temporary folder, for work that writes nothing where results
// live (run --check renders a workbook there to compare it). A process
// killed with SIGKILL cannot remove it, so every scratch folder holds a
// lock file that its process keeps locked (flock) while it lives: the lock
// goes with the process, and the next one to make a scratch folder removes
// those whose lock it can take.

// scratchLock is the lock file in a scratch folder.
const scratchLock = ".lock"

// scratchGrace is how long a scratch folder without its lock file is left alone.
// Such a folder is being made.
const scratchGrace = time.Minute

// MkdirScratch makes a new scratch folder, locked while this process lives.
// First it removes the scratch folders of pattern (see os.MkdirTemp) that
// killed processes left in the system's temporary folder.
// release removes the new folder.
func MkdirScratch(pattern string) (dir string, release func(), err error) {
	RemoveStaleScratch(pattern)
	dir, err = temps.mkdirTemp("", pattern)
	if err != nil {
		return "", nil, err
	}
	lock, err := os.OpenFile(filepath.Join(dir, scratchLock), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		err = syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	}
	if err != nil {
		if lock != nil {
			lock.Close()
		}
		temps.remove(dir)
		return "", nil, err
	}
	return dir, func() { temps.remove(dir); lock.Close() }, nil
}

// RemoveStaleScratch removes the scratch folders of pattern whose process is gone.
// It looks in the system's temporary folder.
// A folder is stale if it is this user's and its lock file can be locked.
// Folders of the legacy layout, without a lock file, go once they are a day old.
// Errors are ignored. What is left is left for the next try.
func RemoveStaleScratch(pattern string) {
	tmp := os.TempDir()
	prefix, _, _ := strings.Cut(pattern, "*")
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		dir := filepath.Join(tmp, e.Name())
		if stale(dir) {
			os.RemoveAll(dir)
		}
	}
}

// stale reports whether the scratch folder dir belongs to a process gone.
func stale(dir string) bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || !ownedByMe(fi) {
		return false
	}
	f, err := os.OpenFile(filepath.Join(dir, scratchLock), os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return time.Since(fi.ModTime()) > 24*time.Hour || time.Since(fi.ModTime()) > scratchGrace && hasFiles(dir)
	}
	if err != nil {
		return false
	}
	defer f.Close()
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}

// hasFiles reports whether dir holds any entry.
// A folder being made holds none until its lock file.
func hasFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) > 0
}

// ownedByMe reports whether the file is this user's.
func ownedByMe(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
