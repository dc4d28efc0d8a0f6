package folder

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// lockPoll is how often a write waiting for the folder's lock checks whether
// its context is done.
const lockPoll = 50 * time.Millisecond

// Lock takes the exclusive lock of the output folder dir/<name>/ for a write.
// It makes dir first if need be.
// It waits while another process holds the lock, until ctx is done.
// Under the lock it refuses a folder that is not the run's to replace
// (CheckReplace; inputs are the run's files).
// Then it removes what killed processes left.
// It returns the function that releases the lock.
// The lock goes with the process, so a killed process releases it.
func Lock(ctx context.Context, dir, name string, inputs []string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	unlock, err = lockExclusive(ctx, dir, name)
	if err != nil {
		return nil, err
	}
	if err := checkReplace(dir, name, inputs); err != nil {
		unlock()
		return nil, err
	}
	if err := clean(dir, name); err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

// lockExclusive takes the exclusive lock of dir/<name>/.
//
// The lock file is opened without following a symbolic link.
// A dangling link would make the open create its target, outside OUT.
// It is opened without waiting, since a FIFO there would block the open.
// Only a regular file is taken for a lock file.
func lockExclusive(ctx context.Context, dir, name string) (unlock func(), err error) {
	f, err := openLock(LockPath(dir, name), true)
	if err != nil {
		return nil, err
	}
	return flock(ctx, f, true, filepath.Join(dir, name))
}

// openLock opens the lock file at path, creating it if create is set.
// It refuses anything but a regular file, unfollowed and unwaited.
func openLock(path string, create bool) (*os.File, error) {
	flags := os.O_RDONLY
	if create {
		flags = os.O_RDWR | os.O_CREATE
	}
	f, err := os.OpenFile(path, flags|noFollow, 0o644)
	if err != nil {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("cannot lock the output folder: %s is a symbolic link, not a lock file ckptlab made (remove it)", path)
		}
		return nil, fmt.Errorf("cannot lock the output folder: %w", err)
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file, so not a lock file ckptlab made (remove it)", path)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot lock the output folder: %w", err)
	}
	return f, nil
}

// lockWaitKey is the context key of OnLockWait's function.
type lockWaitKey struct{}

// OnLockWait returns a context that makes a write or a read call wait once
// when it finds the output folder locked by another process.
// wait gets the folder's path, before the write or read waits.
// So a command tells its user why it pauses.
func OnLockWait(ctx context.Context, wait func(folder string)) context.Context {
	return context.WithValue(ctx, lockWaitKey{}, wait)
}

// readLocked calls read under the shared lock of dir/<name>/.
// A write's exclusive lock excludes it, so read sees the files of one set.
// The error, or the result read leaves, is that of its last call.
//
// Where there is no lock file, locking would mean making one, which a read
// must not do.
// So read is first called without the lock.
// If the lock file exists once it returns, a write began meanwhile.
// That write may have swapped the folder under read.
// The first write of a folder removes the folder that read may be listing.
// The listing then fails with ENOENT.
// So read is called again, under the lock.
//
// Every write makes the lock file before it touches the folder (Lock).
// Nothing removes the lock file.
// So a lock file still absent after read proves that no write overlapped it.
// The second call holds the lock, so there is no third.
func readLocked(ctx context.Context, dir, name string, read func() error) error {
	f, err := openLock(LockPath(dir, name), false)
	if errors.Is(err, fs.ErrNotExist) {
		err = read()
		if _, statErr := os.Lstat(LockPath(dir, name)); errors.Is(statErr, fs.ErrNotExist) {
			return err // no write began while read ran
		}
		f, err = openLock(LockPath(dir, name), false)
	}
	if err != nil {
		return err
	}
	unlock, err := flock(ctx, f, false, filepath.Join(dir, name))
	if err != nil {
		return err
	}
	defer unlock()
	return read()
}

// LockPath returns the path of the lock file of the output folder dir/<name>/.
// That is dir/.<name>.lock.
func LockPath(dir, name string) string { return filepath.Join(dir, "."+name+".lock") }

// flock locks f, the lock file of folder, exclusively or shared.
// It polls, so that it can give up when ctx is done.
// It closes f on failure, and the returned unlock closes it.
// tryLock is the system's lock, flock(2) on Unix and LockFileEx on Windows.
// Both go with the process.
func flock(ctx context.Context, f *os.File, exclusive bool, folder string) (unlock func(), err error) {
	for told := false; ; told = true {
		busy, err := tryLock(f, exclusive)
		if err == nil && !busy {
			return func() { f.Close() }, nil
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("cannot lock the output folder with %s: %w", f.Name(), err)
		}
		if wait, ok := ctx.Value(lockWaitKey{}).(func(string)); ok && !told {
			wait(folder)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, context.Cause(ctx)
		case <-time.After(lockPoll):
		}
	}
}
