package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"ckptlab/report"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// newMergeCmd returns ckptlab merge, which merges the shard files of each
// experiment into the tables an unsharded run writes.
// The shard files are those `ckptlab run --shard I/N` made.
func newMergeCmd(stdout, stderr io.Writer) *cobra.Command {
	var (
		out     string
		sets    []string
		formats formatsFlag
		quiet   bool
		verify  string
		outside bool
	)
	cmd := &cobra.Command{
		Use:   "merge [-o OUT] [--set key=value]... [--format csv,xlsx,md,json] [-q] [--verify sample|all|none] FILE...",
		Short: "Merge the shard files in OUT/<name>/shards/ into the tables of one run",
		Long: `Merge the shard files that ckptlab run --shard I/N wrote into
OUT/<name>/shards/ and write the tables into OUT/<name>/, byte for byte
those of an unsharded run. Give the same FILE, CKPTLAB_ variables and
--set as the shards. Missing shards are listed by index (exit 1); shard
files of another experiment or N, present twice, or damaged are refused
(exit 1). Merge counts again one range of subscribers in 32 of each
shard file (--verify all: every range, none: none) and refuses a file
whose count differs; with CKPTLAB_SHARD_KEY set, it refuses files not
signed with that key.`,
		Args:                  experimentFiles,
		DisableFlagsInUseLine: true,
		RunE: func(cmd *cobra.Command, files []string) error {
			if err := checkOut(cmd, out); err != nil {
				return err
			}
			if out == "-" {
				return usagef(cmd, "merge reads OUT/<name>/shards/, and -o - names no folder")
			}
			v, err := runner.ParseVerify(verify)
			if err != nil {
				return usagef(cmd, "%v", err)
			}
			key, err := shardKey()
			if err != nil {
				return usagef(cmd, "%v", err)
			}
			opt := runner.Options{Verify: v, ShardKey: key}
			exps, err := loadExperiments("merge", files, sets, outside, stderr)
			if err != nil {
				return err
			}
			ctx, stop := commandContext("merge", stderr)
			defer stop()
			if code := checkFolders(ctx, "merge", exps, out, stderr); code != exitOK {
				return exitCode(code)
			}
			for _, e := range exps {
				if err := mergeOne(ctx, e, out, opt, formats.list, quiet, stdout, stderr); err != nil {
					return exitCode(failed(ctx, "merge", e.File, err, stderr))
				}
			}
			return nil
		},
	}
	addOutFlag(cmd, &out, "read OUT/<name>/shards/ and write results into `OUT`/<name>/")
	addSetFlagUsage(cmd, &sets, "override a key as the shards did, `key=value` with the value in YAML flow syntax (repeatable)")
	addFormatFlag(cmd, &formats)
	addQuietFlag(cmd, &quiet)
	cmd.Flags().StringVar(&verify, "verify", "sample", "count again one subscriber range in 32 of each shard file (`sample`), every range (all) or none, and refuse a shard whose count differs")
	addRootFlag(cmd, &outside)
	return cmd
}

// mergeOne merges one experiment's shards and writes its set, as run does.
func mergeOne(ctx context.Context, e *experiment.Experiment, out string, opt runner.Options, formats []string, quiet bool, stdout, stderr io.Writer) error {
	res, err := runner.Merge(ctx, e, out, opt)
	if err != nil {
		return err
	}
	set, err := report.Set(ctx, res, formats)
	if err != nil {
		return err
	}
	return writeSet(ctx, withRowsProgress(set, e.GridRows(), stderr, quiet), out, formats, stdout, stderr)
}
