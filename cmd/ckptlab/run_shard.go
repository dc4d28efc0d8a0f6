package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"ckptlab/folder"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// runShard counts shard s of an experiment and writes its shard file.
// It prints the file's path on stdout.
// A matching file already there is kept, and stderr says so.
func runShard(ctx context.Context, e *experiment.Experiment, s runner.Shard, f runFlags, stdout, stderr io.Writer) error {
	// Shards of one run share the folder's lock while each renames its file in.
	// A wait for it is short and normal, not worth a word.
	ctx = folder.OnLockWait(ctx, func(string) {})
	key, err := shardKey()
	if err != nil {
		return err
	}
	report, finish := newProgress(stderr, f.quiet)
	run, err := runner.RunShard(ctx, e, runner.Options{Jobs: f.jobs, Progress: report, ShardKey: key}, s, f.out)
	finish()
	if run.Replaced != nil {
		fmt.Fprintf(stderr, "ckptlab run: %s: made again: %v\n", run.Path, run.Replaced)
	}
	if err != nil {
		return err
	}
	if run.Kept {
		fmt.Fprintf(stderr, "ckptlab run: %s is already complete for this experiment; not recomputed\n", run.Path)
	}
	fmt.Fprintln(stdout, run.Path)
	return nil
}

// parseShardFlag reads run's --shard into f.shardOf.
// A bad value, or --shard with --check, is a usage error.
func parseShardFlag(cmd *cobra.Command, f *runFlags) error {
	if f.shard == "" {
		if cmd.Flags().Changed("shard") {
			// An unset variable in --shard "$SHARD" must not make every
			// worker of an array run the whole experiment.
			return usagef(cmd, "--shard is empty (want I/N with 1 <= I <= N, auto or auto/N)")
		}
		return nil
	}
	var err error
	if f.shardOf, err = runner.ParseShard(f.shard, os.Getenv); err != nil {
		return usagef(cmd, "%v", err)
	}
	if f.check {
		return usagef(cmd, "--check compares tables, and a shard writes none; run ckptlab merge, then --check")
	}
	if f.out == "-" {
		return usagef(cmd, "a shard writes its file into OUT/<name>/shards/, and -o - names no folder")
	}
	if _, err := shardKey(); err != nil {
		return usagef(cmd, "%v", err)
	}
	return nil
}

// shardKey returns the key of CKPTLAB_SHARD_KEY that signs shard files.
// It returns nil if the variable is not set.
// Set and empty is an error rather than no key: an unset variable in a
// job's template leaves it so.
func shardKey() ([]byte, error) {
	key, ok := os.LookupEnv(experiment.ShardKeyVar)
	if ok && key == "" {
		return nil, fmt.Errorf("%s is set but empty: give it the key that signs shard files, or unset it", experiment.ShardKeyVar)
	}
	return []byte(key), nil
}
