// Package atomicfs holds the file-system operations that put files in place.
// A file appears at its name whole or not at all (WriteFile).
// A step that puts files in place runs whole or not at all (Commit).
// A process stopped by a signal leaves no temporary file behind (RemoveTemporaries).
// Package folder builds an output folder's rules on them.
package atomicfs

import (
	"io"
	"os"
)

// Commit runs step, which puts files in place, unless RemoveTemporaries has run.
// Then it returns ErrInterrupted and runs nothing.
// So step happens wholly before the removal, or not at all.
func Commit(step func() error) error { return temps.locked(step) }

// SyncDir flushes a folder's entries to disk.
// So the files created or renamed in it survive a crash.
func SyncDir(dir string) error { return syncDir(dir) }

// MkdirTemp creates a temporary folder as os.MkdirTemp does.
// RemoveTemporaries removes it if the process is stopped before Remove.
func MkdirTemp(dir, pattern string) (string, error) { return temps.mkdirTemp(dir, pattern) }

// Remove removes a temporary file or folder, and everything under it.
// The path comes from MkdirTemp.
func Remove(path string) error { return temps.remove(path) }

// NewWriteback returns a writer to f.
// The kernel starts writing each MiB to disk as soon as it is written.
// So the f.Sync that ends the file waits for its last MiB only.
func NewWriteback(f *os.File) io.Writer { return &writebackFile{f: f} }
