package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"ckptlab/diff"
	"ckptlab/runner/experiment"
)

// newDiffCmd returns ckptlab diff, which says what a change did to the answers.
// It compares settings, decisions, break-even envelopes and the grid's
// columns. The two sides are two files, or files at a git revision against
// now.
func newDiffCmd(stdout, stderr io.Writer) *cobra.Command {
	var (
		rev     string
		format  string
		sets    []string
		limits  limitFlags
		outside bool
	)
	cmd := &cobra.Command{
		Use:   "diff [--format text|md|json] [--set key=value]... [-j N] [--max-points N] [--max-memory MiB] OLD NEW\n  ckptlab diff --rev REV [--format text|md|json] [--set key=value]... FILE...|DIR",
		Short: "Compare two runs: settings, decisions, break-even envelopes and grid columns",
		Long: `Compare two runs and say what changed in the answers.

OLD and NEW are each an output folder (out/lesson, as a run wrote it), an
experiment file (evaluated in memory, nothing written), or REV:PATH, an
experiment file at a git revision of the repository holding the current
folder, read with its bases at that revision: PATH from the repository's
root, as git reads it, or from the current folder as ./PATH. With
--rev REV, each FILE (a folder: its *.yaml and *.yml files) at REV is
compared with the file as it is now; a file new or deleted since REV is
reported as such.

--set applies to every experiment file on both sides, and is refused
for an output folder. An experiment file that run would refuse under
--max-points or --max-memory is refused before any is evaluated.

Exit codes as diff(1): 0 nothing differs, 1 something differs, 2 bad input.`,
		DisableFlagsInUseLine: true,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case rev != "" && len(args) == 0:
				return usagef(cmd, "--rev %s names no file (want FILE... or a folder, such as experiments/)", rev)
			case rev == "" && len(args) != 2:
				return usagef(cmd, "want OLD and NEW, got %d %s (or --rev REV FILE...)", len(args), map[bool]string{true: "argument", false: "arguments"}[len(args) == 1])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(diff.Formats, format) {
				return usagef(cmd, "--format %s is not a format of diff (want %s)", format, strings.Join(diff.Formats, ", "))
			}
			if err := limits.check(cmd); err != nil {
				return err
			}
			ctx, stop := interruptContext()
			defer stop()
			o := &diff.Opener{Ctx: ctx, Overrides: experiment.OverridesFromEnv(sets), Limits: limits.limits(nil), OutsideRoot: outside}
			var report *diff.Report
			var err error
			done := make(chan struct{})
			go func() { // diff writes nothing until the end: a signal ends it at once, blocked in a read or not
				defer close(done)
				if rev != "" {
					report, err = o.Revision(rev, args)
				} else {
					report, err = o.Pair(args[0], args[1])
				}
			}()
			select {
			case <-done:
				o.Close()
			case <-ctx.Done():
				fmt.Fprintf(stderr, "ckptlab diff: stopped by %v\n", context.Cause(ctx))
				return exitCode(exitInterrupted)
			}
			if err != nil {
				if ctx.Err() != nil {
					fmt.Fprintf(stderr, "ckptlab diff: stopped by %v\n", context.Cause(ctx))
					return exitCode(exitInterrupted)
				}
				var list experiment.ErrorList
				if errors.As(err, &list) {
					fmt.Fprintln(stderr, err) // located: file:line:col
				} else {
					fmt.Fprintf(stderr, "ckptlab diff: %v\n", err)
				}
				return exitCode(exitBadUser)
			}
			if err := diff.Write(stdout, report, format); err != nil {
				fmt.Fprintf(stderr, "ckptlab diff: %v\n", err)
				return exitCode(exitBadUser)
			}
			if report.Differs() {
				return exitCode(exitFailed)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&rev, "rev", "", "compare each FILE at git revision `REV` with the file now")
	cmd.Flags().StringVar(&format, "format", diff.FormatText, "report `format`: text, md (GitHub Markdown) or json")
	addSetFlagUsage(cmd, &sets, "override a key of every experiment file compared, on both sides, `key=value` in YAML flow syntax (repeatable; refused for an output folder)")
	addLimitFlags(cmd, &limits, "refuse to evaluate an experiment file")
	addRootFlag(cmd, &outside)
	return cmd
}
