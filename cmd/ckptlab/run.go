package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"ckptlab/folder"
	"ckptlab/report"
	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// defaultFormats are the formats run writes, and plan lists, without --format.
const defaultFormats = "csv,xlsx"

// runFlags are the flags of run.
type runFlags struct {
	out     string
	sets    []string
	outside bool // --allow-outside-root
	formats formatsFlag
	limitFlags
	quiet   bool
	check   bool
	shard   string
	shardOf runner.Shard // shard, parsed; zero for an unsharded run
	// runs, with -o - and --format json for a folder or several files,
	// is the one document every experiment's run goes into.
	runs *results.RunsJSON
}

// newRunCmd returns ckptlab run, which evaluates experiments and writes
// their tables, or with --check compares them with what is written.
func newRunCmd(stdout, stderr io.Writer) *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run [-o OUT] [--set key=value]... [--format csv,xlsx,md,json] [-j N] [-q] [--max-points N] [--max-memory MiB] [--check] [--shard I/N|auto[/N]] FILE...",
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
			if err := f.limitFlags.check(cmd); err != nil {
				return err
			}
			if err := parseShardFlag(cmd, &f); err != nil {
				return err
			}
			if f.out == "-" && (f.check || len(f.formats.list) != 1 || !slices.Contains([]string{results.FormatMD, results.FormatJSON}, f.formats.list[0])) {
				return usagef(cmd, "-o - writes the Markdown or the JSON to stdout: it takes --format md or --format json alone, without --check")
			}
			if code := run(files, f, stdout, stderr); code != exitOK {
				return exitCode(code)
			}
			return nil
		},
	}
	fl := cmd.Flags()
	addOutFlag(cmd, &f.out, "write results into `OUT`/<name>/")
	addSetFlag(cmd, &f.sets)
	addRootFlag(cmd, &f.outside)
	addFormatFlag(cmd, &f.formats)
	addLimitFlags(cmd, &f.limitFlags, "refuse a run")
	addQuietFlag(cmd, &f.quiet)
	fl.StringVar(&f.shard, "shard", "", "count only shard `I/N` (1-based) into OUT/<name>/shards/I-of-N, for ckptlab merge; auto or auto/N reads I (and N) from the batch engine's environment")
	fl.BoolVar(&f.check, "check", false, "write nothing: compare the files in OUT/<name>/ with a fresh run, list those that differ, exit 1 if any")
	return cmd
}

// run is ckptlab run once its flags are read; it returns the exit code.
func run(files []string, f runFlags, stdout, stderr io.Writer) int {
	exps, err := loadExperiments("run", files, f.sets, f.outside, stderr)
	if err != nil {
		return exitBadUser
	}
	limits := f.limits(f.formats.list)
	for _, e := range exps {
		if msg := limits.Exceeded(e); msg != "" {
			fmt.Fprintf(stderr, "ckptlab run: %s: %s\n", e.File, msg)
			return exitBadUser
		}
	}
	if os.Getenv("GOMEMLIMIT") == "" { // the user's own limit wins
		debug.SetMemoryLimit(runner.HeapLimit(exps, limits.Jobs, limits.Formats))
	}

	ctx, stop := commandContext("run", stderr)
	defer stop()
	if !f.check && f.out != "-" {
		checkCtx := ctx
		if f.shardOf.Valid() {
			checkCtx = folder.OnLockWait(ctx, func(string) {}) // shards wait in silence
		}
		if code := checkFolders(checkCtx, "run", exps, f.out, stderr); code != exitOK {
			return code
		}
	}
	if f.out == "-" && f.formats.list[0] == results.FormatJSON && (len(exps) > 1 || namesFolder(files)) {
		f.runs = results.NewRunsJSON(stdout)
	}
	var counts checkCounts
	for _, e := range exps {
		var c checkCounts
		if f.shardOf.Valid() {
			err = runShard(ctx, e, f.shardOf, f, stdout, stderr)
		} else {
			c, err = runOne(ctx, e, f, stdout, stderr)
		}
		if err != nil {
			return failed(ctx, "run", e.File, err, stderr)
		}
		counts = counts.add(c)
	}
	if f.runs != nil {
		if err := f.runs.Close(); err != nil {
			return failed(ctx, "run", "standard output", err, stderr)
		}
	}
	if f.check {
		return reportCheck(counts, stdout)
	}
	return exitOK
}

// namesFolder reports whether any of the arguments is a folder.
func namesFolder(args []string) bool {
	for _, a := range args {
		if fi, err := os.Stat(a); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}

// runOne evaluates one experiment and writes its files, or with --check
// compares them, returning what the comparison found.
func runOne(ctx context.Context, e *experiment.Experiment, f runFlags, stdout, stderr io.Writer) (checkCounts, error) {
	progress, finish := newProgress(stderr, f.quiet)
	res, err := runner.Evaluate(ctx, e, runner.Options{Jobs: f.jobs, Progress: progress})
	finish()
	if err != nil {
		return checkCounts{}, err
	}
	set, err := report.Set(ctx, res, f.formats.list)
	if err != nil {
		return checkCounts{}, err
	}
	set = withRowsProgress(set, e.GridRows(), stderr, f.quiet)
	if f.check {
		return checkSet(ctx, set, f.out, f.formats.list, stdout)
	}
	if f.out == "-" { // the Markdown on stdout, for >> "$GITHUB_STEP_SUMMARY", or the JSON
		if f.runs != nil {
			return checkCounts{}, f.runs.Add(set)
		}
		if f.formats.list[0] == results.FormatJSON {
			return checkCounts{}, results.WriteJSON(stdout, set)
		}
		return checkCounts{}, results.WriteMarkdown(stdout, set)
	}
	return checkCounts{}, writeSet(ctx, set, f.out, f.formats.list, stdout, stderr)
}

// writeSet writes the set into out, then prints the paths of its files
// and its headline: the answer, under -q too. Each file of the previous set
// that the write removed is named on stderr, as it goes.
func writeSet(ctx context.Context, set results.Set, out string, formats []string, stdout, stderr io.Writer) error {
	ctx = folder.OnRemoved(ctx, func(path string) {
		fmt.Fprintf(stderr, "ckptlab: removed %s: of the previous set in %s, of another experiment or version, and of a format this run does not write\n",
			path, filepath.Dir(path))
	})
	if err := folder.Replace(ctx, out, set, formats); err != nil {
		return err
	}
	for _, name := range set.Files(formats) {
		fmt.Fprintln(stdout, filepath.Join(out, set.Name, name))
	}
	fmt.Fprint(stdout, results.HeadlineText(set.Headline))
	return nil
}

// parseFormats reads the --format list, in any case: CSV is csv.
func parseFormats(s string) ([]string, error) {
	known := []string{results.FormatCSV, results.FormatXLSX, results.FormatMD, results.FormatJSON}
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if !slices.Contains(known, f) {
			return nil, fmt.Errorf("%q is not a format (want a list of csv, xlsx, md, json)", f)
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
