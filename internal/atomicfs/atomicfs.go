// Package atomicfs holds the file-system transactions of ckptlab's output.
// A file appears at its name whole or not at all (WriteFile).
// An output folder's set of files is swapped in whole (SwapIn).
// One process at a time writes into an output folder (LockFolder).
// A process stopped by a signal leaves no temporary file behind (RemoveTemporaries).
// folder.go tells how the output folder is kept consistent.
package atomicfs

import (
	"context"
	"io"
	"os"
)

// ReadLocked calls read with the shared lock of the output folder dir/<name>/ held.
// A write's exclusive lock (LockFolder) excludes it.
// So read sees the files of one set.
// Where there is no lock file yet, read runs without the lock.
// It runs again under the lock if a write began meanwhile.
// The error, or the result read leaves, is that of its last call.
func ReadLocked(ctx context.Context, dir, name string, read func() error) error {
	return readLocked(ctx, dir, name, read)
}

// MkdirStaging removes what killed processes left (CleanLeftovers).
// Then it creates a new staging folder for the set, which SwapIn puts in place.
// The caller holds the folder's lock (LockFolder).
// It removes the staging folder with Remove when it is done.
func MkdirStaging(dir, name string) (string, error) {
	if err := CleanLeftovers(dir, name); err != nil {
		return "", err
	}
	return temps.mkdirTemp(dir, stagingPattern(name))
}

// SwapIn puts the complete staging folder stage in place of final.
// It does so in one step where the system can.
// It keeps final's shards folder (ShardsDir).
// Afterwards stage holds the old set, if there was one, for the caller to remove.
// After RemoveTemporaries it swaps nothing and returns ErrInterrupted.
func SwapIn(stage, final string) error {
	return temps.locked(func() error { return swapIn(stage, final) })
}

// SyncDir flushes a folder's entries to disk.
// So the files created or renamed in it survive a crash.
func SyncDir(dir string) error { return syncDir(dir) }

// MkdirTemp creates a temporary folder as os.MkdirTemp does.
// RemoveTemporaries removes it if the process is stopped before Remove.
func MkdirTemp(dir, pattern string) (string, error) { return temps.mkdirTemp(dir, pattern) }

// CreateTemp creates a temporary file as os.CreateTemp does.
// RemoveTemporaries removes it if the process is stopped before Remove.
func CreateTemp(dir, pattern string) (*os.File, error) { return temps.createTemp(dir, pattern) }

// Remove removes a temporary file or folder, and everything under it.
// The path comes from MkdirTemp, CreateTemp or MkdirStaging.
func Remove(path string) error { return temps.remove(path) }

// NewWriteback returns a writer to f.
// The kernel starts writing each MiB to disk as soon as it is written.
// So the f.Sync that ends the file waits for its last MiB only.
func NewWriteback(f *os.File) io.Writer { return &writebackFile{f: f} }

// WithoutExchange makes swaps take the fallback of a system without an
// atomic exchange of folders.
// This lasts until the returned function is called.
// Tests use it to cover both ways of swapping a set in.
func WithoutExchange() (restore func()) {
	exchangeFolders = func(a, b string) error { return errNoExchange }
	return func() { exchangeFolders = exchange }
}
