package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// defaultFormats are the formats run writes, and plan lists, without --format.
const defaultFormats = "csv,xlsx"

// runFlags are the flags of run.
type runFlags struct {
	out       string
	sets      []string
	formats   formatsFlag
	jobs      int
	maxPoints int64
	maxMemory int64 // MiB
	quiet     bool
	check     bool
	shard     string
	shardOf   runner.Shard // shard, parsed; zero for an unsharded run
}

// newRunCmd returns ckptlab run, which evaluates experiments and writes
// their tables, or with --check compares them with what is written.
func newRunCmd(stdout, stderr io.Writer) *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run [-o OUT] [--set key=value]... [--format csv,xlsx,md] [-j N] [-q] [--max-points N] [--max-memory MiB] [--check] [--shard I/N|auto[/N]] FILE...",
		Short: "Evaluate experiments and write their tables into OUT/<name>/",
		Long: `Evaluate experiments and write their tables into OUT/<name>/.

Each run replaces the whole folder OUT/<name>/ at once with its own files
and experiment.yaml (the resolved experiment and where each value came
from); OUT/<name>/shards/ stays. Runs on one folder wait for each other.`,
		Args:                  experimentFiles,
		DisableFlagsInUseLine: true,
		RunE: func(cmd *cobra.Command, files []string) error {
			if err := checkOut(cmd, f.out); err != nil {
				return err
			}
			if f.maxPoints < 1 {
				return usagef(cmd, "--max-points %d is not a number of rows (want >= 1)", f.maxPoints)
			}
			if f.maxMemory < 1 {
				return usagef(cmd, "--max-memory %d is not a number of mebibytes (want >= 1)", f.maxMemory)
			}
			if f.jobs < 0 {
				return usagef(cmd, "-j %d is not a number of jobs (want >= 1, or 0 for one per core)", f.jobs)
			}
			if err := parseShardFlag(cmd, &f); err != nil {
				return err
			}
			if f.out == "-" && (f.check || !slices.Equal(f.formats.list, []string{results.FormatMD})) {
				return usagef(cmd, "-o - writes the Markdown to stdout: it takes --format md alone, without --check")
			}
			return exitCode(run(files, f, stdout, stderr))
		},
	}
	fl := cmd.Flags()
	addOutFlag(cmd, &f.out, "write results into `OUT`/<name>/")
	addSetFlag(cmd, &f.sets)
	addFormatFlag(cmd, &f.formats)
	fl.IntVarP(&f.jobs, "jobs", "j", 0, "draw sources on `N` goroutines (0, the default: one per core)")
	fl.Int64Var(&f.maxPoints, "max-points", 10_000_000, "refuse a run any of whose tables (grid.csv, failures.csv) would have more than `N` rows")
	fl.Int64Var(&f.maxMemory, "max-memory", 4096, "refuse a run that would hold more than `MiB` mebibytes of counts and views")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "show no progress bar (one is shown only when stderr is a terminal)")
	fl.StringVar(&f.shard, "shard", "", "count only shard `I/N` (1-based) into OUT/<name>/shards/I-of-N, for ckptlab merge; auto or auto/N reads I (and N) from the batch engine's environment")
	fl.BoolVar(&f.check, "check", false, "write nothing: compare the files in OUT/<name>/ with a fresh run, list those that differ, exit 1 if any")
	return cmd
}

// run is ckptlab run once its flags are read; it returns the exit code.
func run(files []string, f runFlags, stdout, stderr io.Writer) int {
	exps, err := experiment.LoadAll(files, experiment.OverridesFromEnv(f.sets))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadUser
	}
	for _, e := range exps {
		if msg := tooLarge(e, f); msg != "" {
			fmt.Fprintf(stderr, "ckptlab run: %s: %s\n", e.File, msg)
			return exitBadUser
		}
	}

	ctx, stop := interruptContext()
	defer stop()
	ctx = results.OnLockWait(ctx, func(folder string) {
		fmt.Fprintf(stderr, "ckptlab run: another ckptlab is writing %s; waiting for it to finish (Ctrl-C to give up)\n", folder)
	})
	var checked, differ int
	for _, e := range exps {
		if f.shardOf.Valid() {
			if err := runShard(ctx, e, f.shardOf, f, stdout, stderr); err != nil {
				if ctx.Err() != nil {
					return interrupted(ctx, stderr)
				}
				fmt.Fprintf(stderr, "ckptlab run: %s: %v%s\n", e.File, err, writeHint(err))
				return exitFailed
			}
			continue
		}
		n, d, err := runOne(ctx, e, f, stdout, stderr)
		if err != nil && ctx.Err() != nil {
			return interrupted(ctx, stderr)
		}
		if err != nil {
			fmt.Fprintf(stderr, "ckptlab run: %s: %v%s\n", e.File, err, writeHint(err))
			return exitFailed
		}
		checked, differ = checked+n, differ+d
	}
	if f.check {
		return reportCheck(checked, differ, stdout)
	}
	return exitOK
}

// tooLarge says why a run of e passes --max-points or --max-memory, before
// any work, or returns "".
func tooLarge(e *experiment.Experiment, f runFlags) string {
	for _, t := range []struct {
		file string
		rows int64
	}{{"grid.csv", e.GridRows()}, {"failures.csv", e.FailureRows()}} {
		if t.rows > f.maxPoints {
			return fmt.Sprintf("%s would have %s rows, more than --max-points %d; shorten an axis, or raise the limit with --max-points %s to run it",
				t.file, planRows(t.rows), f.maxPoints, planRows(t.rows))
		}
	}
	if n := runner.MemoryBytes(e, f.jobs, results.ShowsViews(f.formats.list)); n > runner.MiBBytes(f.maxMemory) {
		return fmt.Sprintf("the run would hold up to %s (the program, its counts, views and writers), more than --max-memory %d; lower workers or periods, or raise the limit with --max-memory %d",
			runner.MiB(n), f.maxMemory, (n>>20)+1)
	}
	return ""
}

// planRows writes a row count, which may have saturated.
func planRows(n int64) string {
	if n == math.MaxInt64 {
		return "more than " + strconv.FormatInt(n-1, 10)
	}
	return strconv.FormatInt(n, 10)
}

// runOne evaluates one experiment and writes its files, or with --check
// compares them, returning how many files it compared and how many differ.
func runOne(ctx context.Context, e *experiment.Experiment, f runFlags, stdout, stderr io.Writer) (checked, differ int, err error) {
	report, finish := newProgress(stderr, f.quiet)
	res, err := runner.Evaluate(ctx, e, runner.Options{Jobs: f.jobs, Progress: report})
	finish()
	if err != nil {
		return 0, 0, err
	}
	set, err := buildSet(ctx, res, f.formats.list)
	if err != nil {
		return 0, 0, err
	}
	set = withRowsProgress(set, e.GridRows(), stderr, f.quiet)
	if f.check {
		return checkSet(ctx, set, f.out, f.formats.list, stdout)
	}
	if f.out == "-" { // the Markdown on stdout, for >> "$GITHUB_STEP_SUMMARY"
		return 0, 0, results.WriteMarkdown(stdout, set)
	}
	if err := set.WriteContext(ctx, f.out, f.formats.list); err != nil {
		return 0, 0, err
	}
	for _, name := range results.Files(e.Name, f.formats.list) {
		fmt.Fprintln(stdout, filepath.Join(f.out, e.Name, name))
	}
	fmt.Fprint(stdout, results.HeadlineText(set.Headline)) // the answer, under -q too
	return 0, 0, nil
}

// parseFormats reads the --format list, in any case: CSV is csv.
func parseFormats(s string) ([]string, error) {
	known := []string{results.FormatCSV, results.FormatXLSX, results.FormatMD}
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if !slices.Contains(known, f) {
			return nil, fmt.Errorf("%q is not a format (want a list of csv, xlsx, md)", f)
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out, nil
}

// writeHint says what to do about a write that failed for want of space or
// permission, or nothing for another error.
func writeHint(err error) string {
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return "; the previous results are unchanged: free space on that disk, or write elsewhere with -o"
	case errors.Is(err, fs.ErrPermission):
		return "; the previous results are unchanged: make the folder writable, or write elsewhere with -o"
	}
	return ""
}

// buildSet returns the set of res, whose lesson's views take time to build
// for a long sweep and do not look at ctx: when ctx is done first, buildSet
// returns at once and leaves them to the exiting process.
func buildSet(ctx context.Context, res *runner.Result, formats []string) (results.Set, error) {
	done := make(chan results.Set, 1)
	go func() { done <- res.Set(formats) }()
	select {
	case set := <-done:
		return set, nil
	case <-ctx.Done():
		return results.Set{}, context.Cause(ctx)
	}
}
