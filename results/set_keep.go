package results

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"ckptlab/internal/atomicfs"
	"ckptlab/internal/safefile"
)

// A run that writes fewer formats than the set in its folder keeps the
// other formats' files when the old set is of the same resolved experiment
// and ckptlab version, as its marker says: the same experiment gives the
// same bytes, so they are still this run's files. Otherwise they go with
// the old set, and the run names each file it removed.

// removedKey is the context key of OnRemoved's function.
type removedKey struct{}

// OnRemoved returns a context with which a write calls removed with the
// path of each file of the previous set that it removed and did not write
// again: a file of a format this run does not write, of an experiment or
// version other than this run's.
func OnRemoved(ctx context.Context, removed func(path string)) context.Context {
	return context.WithValue(ctx, removedKey{}, removed)
}

// allFiles is the canonical order of the files of a set: that of Files
// over every format, the time model's tables included.
func allFiles(name string) []string {
	return FilesOf(name, allFormats, true)
}

// keepOthers links into the staging folder the files of the set in final
// that this set does not write, when that set is of the same experiment
// and version (by its marker), and returns their names. A link keeps the
// old set whole until the swap; where the file system has no links, the
// file is copied.
func (s Set) keepOthers(final, stage string, written []string) ([]string, error) {
	old, ok := readMarker(final)
	if !ok || old.Hash != s.ConfigHash() || old.Tool != s.Version {
		return nil, nil
	}
	var kept []string
	for _, name := range old.Files {
		if slices.Contains(written, name) || !slices.Contains(allFiles(s.Name), name) {
			continue
		}
		from, to := filepath.Join(final, name), filepath.Join(stage, name)
		if fi, err := os.Lstat(from); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if err := os.Link(from, to); err != nil {
			if err := copyFile(from, to); err != nil {
				return nil, err
			}
		}
		kept = append(kept, name)
	}
	return kept, nil
}

// copyFile copies a regular file, synced; anything swapped in for it since
// it was looked at is refused, not waited on (see package safefile).
func copyFile(from, to string) error {
	in, _, err := safefile.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	defer out.Close()
	if _, err := io.Copy(out, in); err != nil {
		return err
	}
	if err := out.Sync(); err != nil {
		return err
	}
	return out.Close()
}

// markerFile is the set's marker as a file of the staging folder: the
// files written and kept, in the canonical order.
func (s Set) markerFile(written, kept []string) setFile {
	m := marker{Tool: s.Version, Hash: s.ConfigHash()}
	for _, name := range allFiles(s.Name) {
		if slices.Contains(written, name) || slices.Contains(kept, name) {
			m.Files = append(m.Files, name)
		}
	}
	return setFile{name: MarkerFile, render: func(_ context.Context, w io.Writer, _ string) error {
		return m.writeTo(w)
	}}
}

// reportRemoved calls the context's OnRemoved function with each file of
// the old set, now in stage after the swap, that the new set in final
// lacks.
func reportRemoved(ctx context.Context, stage, final string) error {
	removed, ok := ctx.Value(removedKey{}).(func(string))
	if !ok {
		return nil
	}
	entries, err := os.ReadDir(stage)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if name == MarkerFile || name == atomicfs.ShardsDir {
			continue
		}
		if _, err := os.Lstat(filepath.Join(final, name)); errors.Is(err, fs.ErrNotExist) {
			removed(filepath.Join(final, name))
		}
	}
	return nil
}
