package folder

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"ckptlab/internal/atomicfs"
)

// ShardsDir is the folder in OUT/<name>/ that holds shard files.
// It is input to a later merge, not part of the set, and every swap keeps it.
const ShardsDir = "shards"

// Shards returns the path of the shards folder of dir/<name>/.
func Shards(dir, name string) string { return filepath.Join(dir, name, ShardsDir) }

// clean removes what killed processes left in the output folder dir/<name>/
// and beside it.
// It removes the staging folders of killed writes.
// It first moves back the shards they held, so that a merge finds them.
// It removes the temporary files of killed shards in shards/.
// The caller holds the folder's lock, so nothing it removes is in use.
func clean(dir, name string) error {
	if err := cleanStaging(dir, name); err != nil {
		return err
	}
	return cleanShardTemps(Shards(dir, name))
}

// cleanShardTemps removes the hidden temporary files of shard files in folder.
// They are named .I-of-N.tmp-* (see atomicfs.WriteFile).
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
		if err := atomicfs.Remove(path); err != nil {
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
