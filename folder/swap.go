package folder

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"ckptlab/internal/atomicfs"
)

// stagingPattern returns the pattern of the staging folders of the set name
// in its output folder.
// Names hold no dot.
// So the patterns of two names never match each other's folders.
func stagingPattern(name string) string { return "." + name + ".tmp-*" }

// mkdirStaging creates a new staging folder for the set name in dir.
// The caller holds the folder's lock.
// It removes the folder with atomicfs.Remove when it is done.
func mkdirStaging(dir, name string) (string, error) {
	return atomicfs.MkdirTemp(dir, stagingPattern(name))
}

// swap puts the complete staging folder stage in place of final.
// Afterwards stage holds the old set, if there was one, for the caller to remove.
// After atomicfs.RemoveTemporaries it swaps nothing and returns atomicfs.ErrInterrupted.
func swap(stage, final string) error {
	return atomicfs.Commit(func() error { return swapIn(stage, final) })
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
