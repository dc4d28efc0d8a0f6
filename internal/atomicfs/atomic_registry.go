package atomicfs

import (
	"errors"
	"os"
	"sync"
)

// ErrInterrupted is returned by a write or check that RemoveTemporaries stopped.
// Its temporary files are gone, and nothing was renamed into place.
var ErrInterrupted = errors.New("the write was interrupted; the previous files are unchanged")

// temps is the registry of the temporary files and folders that writes in
// progress hold.
// A process stopped by a signal removes them before it exits.
var temps = new(registry)

// RemoveTemporaries removes every temporary file and folder that a write or
// check in progress holds.
// It makes every later write fail with ErrInterrupted instead of renaming a
// file into place.
// A command calls it once, when a signal tells it to stop.
// Files already renamed into place are complete.
// No other file will appear at a final name afterwards.
func RemoveTemporaries() { temps.removeAll() }

// registry tracks temporary paths.
// Its lock also orders renames into place against removeAll.
// A rename happens wholly before the removal, or not at all.
type registry struct {
	mu      sync.Mutex
	paths   map[string]bool
	stopped bool
}

// createTemp creates a temporary file as os.CreateTemp does and tracks it.
func (r *registry) createTemp(dir, pattern string) (*os.File, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return nil, ErrInterrupted
	}
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	r.track(f.Name())
	return f, nil
}

// mkdirTemp creates a temporary folder as os.MkdirTemp does and tracks it.
func (r *registry) mkdirTemp(dir, pattern string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return "", ErrInterrupted
	}
	path, err := os.MkdirTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	r.track(path)
	return path, nil
}

func (r *registry) track(path string) {
	if r.paths == nil {
		r.paths = make(map[string]bool)
	}
	r.paths[path] = true
}

// remove removes a tracked path and everything under it, and stops tracking it.
func (r *registry) remove(path string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.paths, path)
	return os.RemoveAll(path)
}

// rename renames each temporary file in tmps to the final path of the same index.
// It stops tracking each, all while holding the lock.
// So removeAll sees either every file renamed or none.
func (r *registry) rename(tmps, finals []string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return ErrInterrupted
	}
	for i, tmp := range tmps {
		if err := os.Rename(tmp, finals[i]); err != nil {
			return err
		}
		delete(r.paths, tmp)
	}
	return nil
}

// locked runs step while holding the lock, unless removeAll has run.
// So a step into place happens wholly before the removal, or not at all.
func (r *registry) locked(step func() error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return ErrInterrupted
	}
	return step()
}

// removeAll removes every tracked path.
// It refuses later temporaries and renames.
func (r *registry) removeAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped = true
	for path := range r.paths {
		os.RemoveAll(path)
	}
	r.paths = nil
}
