package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"ckptlab/runner"
)

// newPlanCmd returns ckptlab plan, which evaluates nothing.
// For each experiment file it prints its values and where each came from.
// It also prints the sizes of its tables and the files a run would write.
func newPlanCmd(stdout, stderr io.Writer) *cobra.Command {
	var (
		out     string
		sets    []string
		formats formatsFlag
		limits  limitFlags
		outside bool
	)
	cmd := &cobra.Command{
		Use:   "plan [-o OUT] [--set key=value]... [--format csv,xlsx,md,json] [-j N] [--max-points N] [--max-memory MiB] FILE...",
		Short: "Print the values, table sizes and outputs of a run without evaluating",
		Long: `Print the values, table sizes and outputs of a run without evaluating.

A plan whose run would be refused by --max-points or --max-memory says so
on a line "refused"; the plan itself succeeded, so it exits 0.`,
		Args:                  experimentFiles,
		DisableFlagsInUseLine: true,
		RunE: func(cmd *cobra.Command, files []string) error {
			if err := checkOut(cmd, out); err != nil {
				return err
			}
			if err := limits.check(cmd); err != nil {
				return err
			}
			exps, err := loadExperiments("plan", files, sets, outside, stderr)
			if err != nil {
				return err
			}
			for i, e := range exps {
				if i > 0 {
					fmt.Fprintln(stdout)
				}
				if err := runner.WritePlan(stdout, e, out, formats.list, limits.limits(formats.list)); err != nil {
					fmt.Fprintf(stderr, "ckptlab plan: %v\n", err)
					return exitCode(exitFailed)
				}
			}
			return nil
		},
	}
	addOutFlag(cmd, &out, "a run would write results into `OUT`/<name>/")
	addSetFlag(cmd, &sets)
	addRootFlag(cmd, &outside)
	addFormatFlag(cmd, &formats)
	addLimitFlags(cmd, &limits, "say that it would refuse a run")
	return cmd
}
