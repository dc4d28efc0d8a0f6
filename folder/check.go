package folder

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"

	"ckptlab/results"
)

// Check compares set in the given formats with the files in dir/<name>/, for run --check.
// It writes nothing there.
// It returns a results.Difference per file that differs or is missing, in the order of results.Files.
// Then it returns one per entry that no set has in any format (shards/ aside).
// A set written in more formats than those checked is as it should be.
// It reads under the folder's shared lock, so it compares the files of one set.
func Check(ctx context.Context, dir string, set results.Set, formats []string) ([]results.Difference, error) {
	if err := results.CheckFormats(formats); err != nil {
		return nil, err
	}
	var diffs []results.Difference
	err := readLocked(ctx, dir, set.Name, func() error {
		var err error
		diffs, err = compare(ctx, filepath.Join(dir, set.Name), set, formats)
		return err
	})
	if err != nil {
		return nil, err
	}
	return diffs, nil
}

// compare compares the files of set with those in folder, then lists the
// entries there that no set has, as Check says.
func compare(ctx context.Context, folder string, set results.Set, formats []string) ([]results.Difference, error) {
	diffs, err := compareFiles(ctx, folder, set, formats)
	if err != nil {
		return nil, err
	}
	extra, err := extraFiles(folder, set.Files(results.Formats()))
	if err != nil {
		return nil, err
	}
	for _, path := range extra {
		diffs = append(diffs, results.Difference{File: path, Extra: true})
	}
	return diffs, nil
}

// extraFiles returns the paths of the entries of folder that are neither
// among files nor shards/ nor the marker, in name order.
// It returns none when the folder does not exist.
func extraFiles(folder string, files []string) ([]string, error) {
	entries, err := listFolder(folder)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if name == ShardsDir || name == MarkerFile || slices.Contains(files, name) {
			continue
		}
		out = append(out, filepath.Join(folder, name))
	}
	return out, nil
}
