package atomicfs

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile writes a file atomically.
// write fills a temporary file in the same folder.
// The file is synced and renamed over path only when write succeeded.
// Readers see the old file or the new one, never a part.
// On any error the temporary file is removed and the old file stays.
func WriteFile(path string, write func(w *bufio.Writer) error) error {
	var b batch
	defer b.discard()
	if err := b.add(path, write); err != nil {
		return err
	}
	return b.commit()
}

// A batch writes several files to temporary names in their folders.
// It renames them into place together, once every one of them is complete.
// An interrupted batch leaves all the previous files as they were.
type batch struct {
	tmps, finals []string
}

// add writes path's content to a temporary file next to it, syncs it and
// keeps it for commit. On error the temporary file is removed.
func (b *batch) add(path string, write func(w *bufio.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := temps.createTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			temps.remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := write(bw); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	b.tmps = append(b.tmps, tmp)
	b.finals = append(b.finals, path)
	return nil
}

// commit renames every file of the batch into place and syncs their folders.
// So the renames survive a crash.
func (b *batch) commit() error {
	if err := temps.rename(b.tmps, b.finals); err != nil {
		return err
	}
	dirs := map[string]bool{}
	var errs []error
	for _, path := range b.finals {
		dir := filepath.Dir(path)
		if !dirs[dir] {
			dirs[dir] = true
			errs = append(errs, syncDir(dir))
		}
	}
	b.tmps, b.finals = nil, nil
	return errors.Join(errs...)
}

// discard removes the temporary files of a batch that was not committed.
func (b *batch) discard() {
	for _, tmp := range b.tmps {
		temps.remove(tmp)
	}
	b.tmps, b.finals = nil, nil
}

// syncDir flushes a folder's entries to disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("syncing folder %s: %w", dir, err)
	}
	return nil
}
