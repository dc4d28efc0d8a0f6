package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// newMergeCmd returns ckptlab merge, which merges the shard files of each
// experiment, made by `ckptlab run --shard I/N`, into the tables an
// unsharded run writes.
func newMergeCmd(stdout, stderr io.Writer) *cobra.Command {
	var (
		out     string
		sets    []string
		formats formatsFlag
		quiet   bool
	)
	cmd := &cobra.Command{
		Use:   "merge [-o OUT] [--set key=value]... [--format csv,xlsx,md] [-q] FILE...",
		Short: "Merge the shard files in OUT/<name>/shards/ into the tables of one run",
		Long: `Merge the shard files that ckptlab run --shard I/N wrote into
OUT/<name>/shards/ and write the tables into OUT/<name>/, byte for byte
those of an unsharded run. Give the same FILE, CKPTLAB_ variables and
--set as the shards. Missing shards are listed by index (exit 1); shard
files of another experiment or N, present twice, or damaged are refused.`,
		Args:                  experimentFiles,
		DisableFlagsInUseLine: true,
		RunE: func(cmd *cobra.Command, files []string) error {
			if err := checkOut(cmd, out); err != nil {
				return err
			}
			if out == "-" {
				return usagef(cmd, "merge reads OUT/<name>/shards/, and -o - names no folder")
			}
			exps, err := experiment.LoadAll(files, experiment.OverridesFromEnv(sets))
			if err != nil {
				return loadFailed(stderr, err)
			}
			ctx, stop := interruptContext()
			defer stop()
			ctx = results.OnLockWait(ctx, func(folder string) {
				fmt.Fprintf(stderr, "ckptlab merge: another ckptlab is writing %s; waiting for it to finish (Ctrl-C to give up)\n", folder)
			})
			for _, e := range exps {
				if err := mergeOne(ctx, e, out, formats.list, quiet, stdout, stderr); err != nil {
					if ctx.Err() != nil {
						return exitCode(interrupted(ctx, stderr))
					}
					fmt.Fprintf(stderr, "ckptlab merge: %s: %v%s\n", e.File, err, writeHint(err))
					return exitCode(exitFailed)
				}
			}
			return nil
		},
	}
	addOutFlag(cmd, &out, "read OUT/<name>/shards/ and write results into `OUT`/<name>/")
	cmd.Flags().StringArrayVar(&sets, "set", nil, "override a key as the shards did, `key=value` with the value in YAML flow syntax (repeatable)")
	addFormatFlag(cmd, &formats)
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "show no progress bar (one is shown only when stderr is a terminal)")
	return cmd
}

// mergeOne merges one experiment's shards and writes its set, as run does.
func mergeOne(ctx context.Context, e *experiment.Experiment, out string, formats []string, quiet bool, stdout, stderr io.Writer) error {
	res, err := runner.Merge(ctx, e, out)
	if err != nil {
		return err
	}
	set, err := buildSet(ctx, res, formats)
	if err != nil {
		return err
	}
	set = withRowsProgress(set, e.GridRows(), stderr, quiet)
	if err := set.WriteContext(ctx, out, formats); err != nil {
		return err
	}
	for _, name := range results.Files(e.Name, formats) {
		fmt.Fprintln(stdout, filepath.Join(out, e.Name, name))
	}
	fmt.Fprint(stdout, results.HeadlineText(set.Headline)) // the answer, as run prints it
	return nil
}
