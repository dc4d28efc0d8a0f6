package folder

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"ckptlab/internal/atomicfs"
	"ckptlab/results"
)

// Replace writes set in the given formats into dir/<name>/ as one consistent set.
// The set's files, experiment.yaml and the marker go into a staging folder.
// Only when all of them are complete is it swapped in for dir/<name>/.
// Files of the previous set go with it, unless keepOthers keeps them.
// Each file it removed is told to the context's OnRemoved function.
// A folder that is not the run's to replace is refused with a *RefusedError.
// Replace holds the folder's lock throughout (Lock).
// A write that fails or is cancelled through ctx leaves the previous set as it was.
func Replace(ctx context.Context, dir string, set results.Set, formats []string) error {
	if dir == "" {
		return errors.New("the output folder is the empty path (want a folder, such as out)")
	}
	if err := results.CheckFormats(formats); err != nil {
		return err
	}
	unlock, err := Lock(ctx, dir, set.Name, set.Inputs)
	if err != nil {
		return err
	}
	defer unlock()
	final := filepath.Join(dir, set.Name)
	stage, err := mkdirStaging(dir, set.Name)
	if err != nil {
		return err
	}
	defer atomicfs.Remove(stage) // after the swap, the previous set
	written := set.Files(formats)
	kept, err := keepOthers(set, final, stage, written)
	if err != nil {
		return fmt.Errorf("keeping the files of other formats in %s: %w", final, err)
	}
	if err := writeFiles(ctx, set, stage, final, formats); err != nil {
		return err
	}
	if len(written) > 0 {
		if err := writeMarker(ctx, stage, setMarker(set, written, kept)); err != nil {
			return fmt.Errorf("writing %s: %w", filepath.Join(final, MarkerFile), err)
		}
	}
	if err := os.Chmod(stage, 0o755); err != nil {
		return err
	}
	if err := atomicfs.SyncDir(stage); err != nil {
		return err
	}
	if err := swap(stage, final); err != nil {
		return err
	}
	if err := atomicfs.SyncDir(dir); err != nil {
		return err
	}
	return reportRemoved(ctx, stage, final)
}

// writeMarker writes the marker m into the staging folder and syncs it.
func writeMarker(ctx context.Context, stage string, m marker) error {
	f, err := os.OpenFile(filepath.Join(stage, MarkerFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := m.writeTo(f); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	return f.Close()
}
