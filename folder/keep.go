package folder

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"ckptlab/internal/safefile"
	"ckptlab/results"
)

// A run that writes fewer formats than the set in its folder may keep the
// other formats' files.
// It does when the old set is of the same resolved experiment and ckptlab
// version, as its marker says.
// The same experiment gives the same bytes, so they are still this run's files.
// Otherwise they go with the old set, and the run names each file it removed.

// removedKey is the context key of OnRemoved's function.
type removedKey struct{}

// OnRemoved returns a context with which Replace calls removed for each file it removed.
// Such a file is of the previous set, and this write did not write it again:
// a file of a format this run does not write, of another experiment or version.
// removed gets the file's path.
func OnRemoved(ctx context.Context, removed func(path string)) context.Context {
	return context.WithValue(ctx, removedKey{}, removed)
}

// keepOthers links into stage the files of the old set in final that set does not write.
// It does so only when the old set is of the same experiment and version (by its marker).
// It returns the names of the files kept.
// A link keeps the old set whole until the swap.
// Where the file system has no links, the file is copied.
func keepOthers(set results.Set, final, stage string, written []string) ([]string, error) {
	old, ok := readMarker(final)
	if !ok || old.Hash != set.ConfigHash() || old.Tool != set.Version {
		return nil, nil
	}
	var kept []string
	for _, name := range old.Files {
		if slices.Contains(written, name) || !slices.Contains(allFiles(set.Name), name) {
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

// copyFile copies a regular file, synced.
// Anything swapped in for it since it was looked at is refused, not waited on (see package safefile).
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

// setMarker returns the marker of set: the files written and kept, in the canonical order.
func setMarker(set results.Set, written, kept []string) marker {
	m := marker{Tool: set.Version, Hash: set.ConfigHash()}
	for _, name := range allFiles(set.Name) {
		if slices.Contains(written, name) || slices.Contains(kept, name) {
			m.Files = append(m.Files, name)
		}
	}
	return m
}

// reportRemoved calls the context's OnRemoved function for each file the swap removed.
// Those are the files of the old set, now in stage, that the new set in final lacks.
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
		if name == MarkerFile || name == ShardsDir {
			continue
		}
		if _, err := os.Lstat(filepath.Join(final, name)); errors.Is(err, fs.ErrNotExist) {
			removed(filepath.Join(final, name))
		}
	}
	return nil
}
