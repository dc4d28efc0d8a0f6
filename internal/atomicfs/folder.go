package atomicfs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The output folder OUT/<name>/ holds the files of exactly one run (docs/outputs.md#the-output-folder).
// A run builds its whole set in a staging folder beside it, OUT/.<name>.tmp-*,
// and swaps the staging folder and OUT/<name> in one step: on Linux with
// renameat2(RENAME_EXCHANGE), which exchanges two folders atomically, so
// that OUT/<name> is at every moment either the old set or the new one.
// Where the exchange is not supported (another system, a file system without
// it), the old folder is renamed aside and the new one into place: there is
// then a moment when OUT/<name> does not exist, but never one when it holds
// files of two runs. Files of a format the run does not write go with the
// old folder.
//
// OUT/<name>/shards/ is not part of a set: it is moved from the old folder
// into the new one just before the exchange, so it stays at OUT/<name>/shards.
//
// Every write holds an exclusive lock, flock(2) on OUT/.<name>.lock
// (LockFileEx on Windows), from
// before it cleans up until after the swap: concurrent runs on one folder
// are serialized, each one's set arriving whole. Under the lock no other
// write is in progress, so a staging folder found then is a leftover of a
// killed run: it is removed, after its shards/ folder, if it holds one that
// OUT/<name> lacks, is moved back. The lock file itself stays: removing it
// would let two runs lock two different files.
//
// A reader (a run's check before its work) takes the shared lock, which the
// write's excludes. A folder with no lock file yet has no write begun on
// it, and a read makes none: it reads unlocked, and reads again under the
// lock if the lock file appeared meanwhile (readLocked).

// ShardsDir is the folder in OUT/<name>/ that the swap of a set leaves in place.
// It is input to a later merge, not part of the set.
const ShardsDir = "shards"

// lockPoll is how often a write waiting for the folder's lock checks whether
// its context is done.
const lockPoll = 50 * time.Millisecond

// stagingPattern returns the pattern of the staging folders of the set name
// in its output folder.
// Names hold no dot.
// So the patterns of two names never match each other's folders.
func stagingPattern(name string) string { return "." + name + ".tmp-*" }

// LockFolder takes the exclusive lock of the output folder dir/<name>/.
// It waits while another process holds it.
// It returns the function that releases it.
// A process holds the lock while it writes anything into dir/<name>/, such as
// a set or a shard.
// The wait ends with ctx's error when ctx is done.
// The lock goes with the process, so a killed process releases it.
//
// The lock file is opened without following a symbolic link.
// A dangling link would make the open create its target, outside OUT.
// It is opened without waiting, since a FIFO there would block the open.
// Only a regular file is taken for a lock file.
func LockFolder(ctx context.Context, dir, name string) (unlock func(), err error) {
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

// OnLockWait returns a context that makes a write or check call wait once
// when it finds the output folder locked by another process.
// wait gets the folder's path, before the write or check waits.
// So a command tells its user why it pauses.
func OnLockWait(ctx context.Context, wait func(folder string)) context.Context {
	return context.WithValue(ctx, lockWaitKey{}, wait)
}

// readLocked calls read under the shared lock of dir/<name>/.
// Where there is no lock file, locking would mean making one, which a read
// must not do.
// So read is first called without the lock.
// If the lock file exists once it returns, a write began meanwhile.
// That write may have swapped the folder under read.
// The first write of a folder removes the folder that read may be listing.
// The listing then fails with ENOENT.
// So read is called again, under the lock.
//
// Every write makes the lock file before it touches the folder (LockFolder).
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

// CleanLeftovers removes what killed processes left in the output folder
// dir/<name>/ and beside it.
// It removes the staging folders of killed writes.
// It first moves back the shards they held, so that a merge finds them.
// It removes the temporary files of killed shards in shards/.
// The caller holds the folder's lock (LockFolder), so nothing it removes is in use.
func CleanLeftovers(dir, name string) error {
	if err := cleanStaging(dir, name); err != nil {
		return err
	}
	return cleanShardTemps(filepath.Join(dir, name, ShardsDir))
}

// cleanShardTemps removes the hidden temporary files of shard files in folder.
// They are named .I-of-N.tmp-* (see WriteFile).
// Shards write them only under the folder's lock.
// So under the lock, any there is a killed shard's.
func cleanShardTemps(folder string) error {
	stale, err := filepath.Glob(filepath.Join(folder, ".*.tmp-*"))
	if err != nil {
		return err
	}
	for _, path := range stale {
		if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
			continue // not a file a shard writes: left alone
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing %s, left by a shard that was killed: %w", path, err)
		}
	}
	return nil
}

// cleanStaging removes the staging folders that killed writes of the set
// name left in dir.
// It moves back their shards first.
// The caller holds the folder's lock.
func cleanStaging(dir, name string) error {
	stale, err := filepath.Glob(filepath.Join(dir, stagingPattern(name)))
	if err != nil {
		return err
	}
	final := filepath.Join(dir, name)
	for _, path := range stale {
		if err := rescueShards(filepath.Join(path, ShardsDir), final); err != nil {
			return err
		}
		if err := temps.remove(path); err != nil {
			return fmt.Errorf("removing %s, left by a run that was killed: %w", path, err)
		}
	}
	return nil
}

// rescueShards moves the shard files of from into final/shards/, keeping
// those final/shards/ already has.
func rescueShards(from, final string) error {
	entries, err := os.ReadDir(from)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	to := filepath.Join(final, ShardsDir)
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		dst := filepath.Join(to, e.Name())
		if _, err := os.Lstat(dst); err == nil || strings.Contains(e.Name(), ".tmp-") {
			continue
		}
		if err := os.Rename(filepath.Join(from, e.Name()), dst); err != nil {
			return fmt.Errorf("moving back a shard a killed run left: %w", err)
		}
	}
	return nil
}

// swapIn puts the complete folder stage in place of final.
// It moves final's shards/ folder into stage first.
// Afterwards stage holds the old set, if there was one, for the caller to remove.
func swapIn(stage, final string) error {
	fi, err := os.Lstat(final)
	if errors.Is(err, fs.ErrNotExist) {
		return os.Rename(stage, final)
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder (move it away, or choose another -o)", final)
	}
	err = os.Rename(filepath.Join(final, ShardsDir), filepath.Join(stage, ShardsDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("keeping %s: %w", filepath.Join(final, ShardsDir), err)
	}
	if err := exchangeFolders(stage, final); err == nil || !errors.Is(err, errNoExchange) {
		return err
	}
	// No atomic exchange: rename the old folder aside, where the cleanup of
	// a killed run finds it, and the new one into place.
	aside := stage + ".old"
	if err := os.Rename(final, aside); err != nil {
		return err
	}
	if err := os.Rename(stage, final); err != nil {
		os.Rename(aside, final)
		return err
	}
	return os.Rename(aside, stage)
}

// errNoExchange reports that the system or file system cannot exchange two
// folders atomically.
var errNoExchange = errors.New("no atomic exchange of folders")

// exchangeFolders is exchange; tests replace it to take the fallback.
var exchangeFolders = exchange
