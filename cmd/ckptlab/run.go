package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"ckptlab/results"
	"ckptlab/runner"
)

const runSynopsis = "run [-o OUT] [--set key=value]... [--format csv,xlsx,md] [-j N] [-q] [--max-points N] [--max-memory MiB] [--check] [--shard I/N|auto[/N]] FILE..."

// defaultFormats are the formats run writes, and plan lists, without --format.
const defaultFormats = "csv,xlsx"

// runFlags are the flags of run.
type runFlags struct {
	out       string
	sets      stringList
	format    string
	formats   []string // format, parsed
	jobs      int
	maxPoints int64
	maxMemory int64 // MiB
	quiet     bool
	check     bool
	shard     string
	shardOf   runner.Shard // shard, parsed; zero for an unsharded run
}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	f, files, code, done := parseRunFlags(args, stderr)
	if done {
		return code
	}
	exps, err := runner.LoadAll(files, runner.OverridesFromEnv(f.sets))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadUser
	}
	for _, e := range exps {
		if n := e.GridRows(); n > f.maxPoints {
			fmt.Fprintf(stderr, "%s: the grid has %d points, more than --max-points %d; raise the limit with --max-points %d to run it\n",
				e.File, n, f.maxPoints, n)
			return exitBadUser
		}
		if n := e.MemoryBytes(f.jobs, results.ShowsViews(f.formats)); n > f.maxMemory<<20 {
			fmt.Fprintf(stderr, "%s: the run would hold up to %s of counts and views (sources × periods × workers), more than --max-memory %d; lower workers or periods, or raise the limit with --max-memory %d\n",
				e.File, runner.MiB(n), f.maxMemory, (n>>20)+1)
			return exitBadUser
		}
	}

	ctx, stop := interruptContext()
	defer stop()
	var checked, differ int
	for _, e := range exps {
		if f.shardOf.Valid() {
			if err := runShard(ctx, e, f.shardOf, f, stdout, stderr); err != nil {
				if ctx.Err() != nil {
					return interrupted(ctx, stderr)
				}
				fmt.Fprintf(stderr, "ckptlab run: %s: %v\n", e.File, err)
				return exitFailed
			}
			continue
		}
		n, d, err := runOne(ctx, e, f, stdout, stderr)
		if err != nil && ctx.Err() != nil {
			return interrupted(ctx, stderr)
		}
		if err != nil {
			fmt.Fprintf(stderr, "ckptlab run: %s: %v\n", e.File, err)
			return exitFailed
		}
		checked, differ = checked+n, differ+d
	}
	if f.check {
		return reportCheck(checked, differ, stdout)
	}
	return exitOK
}

// parseRunFlags reads run's flags and files. done is set when the command
// ends here, with code as its exit code.
func parseRunFlags(args []string, stderr io.Writer) (f runFlags, files []string, code int, done bool) {
	fs := newFlagSet("run", runSynopsis, stderr)
	fs.StringVar(&f.out, "o", "out", "write results into `OUT`/<name>/")
	fs.Var(&f.sets, "set", "override a key, `key=value` with the value in YAML flow syntax (repeatable)")
	fs.StringVar(&f.format, "format", defaultFormats, "comma-separated output `formats`: csv, xlsx, md")
	fs.IntVar(&f.jobs, "j", 0, "draw sources on `N` goroutines (default GOMAXPROCS)")
	fs.Int64Var(&f.maxPoints, "max-points", 10_000_000, "refuse a grid of more than `N` rows of grid.csv")
	fs.Int64Var(&f.maxMemory, "max-memory", 4096, "refuse a run that would hold more than `MiB` mebibytes of counts and views")
	fs.BoolVar(&f.quiet, "q", false, "show no progress bar (one is shown only when stderr is a terminal)")
	fs.StringVar(&f.shard, "shard", "", "count only shard `I/N` (1-based) into OUT/<name>/shards/I-of-N, for ckptlab merge; auto or auto/N reads I (and N) from the batch engine's environment")
	fs.BoolVar(&f.check, "check", false, "write nothing: compare the files in OUT/<name>/ with a fresh run, list those that differ, exit 1 if any")
	files, code, done = parseFlags(fs, args)
	if done {
		return f, nil, code, true
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "ckptlab run: no experiment file given\n")
		fs.Usage()
		return f, nil, exitBadUser, true
	}
	var err error
	if f.formats, err = parseFormats(f.format); err != nil {
		fmt.Fprintf(stderr, "ckptlab run: %v\n", err)
		return f, nil, exitBadUser, true
	}
	if f.shard != "" {
		if f.shardOf, err = parseShard(f.shard, os.Getenv); err != nil {
			fmt.Fprintf(stderr, "ckptlab run: %v\n", err)
			return f, nil, exitBadUser, true
		}
		if f.check {
			fmt.Fprintf(stderr, "ckptlab run: --check compares tables, and a shard writes none; run ckptlab merge, then --check\n")
			return f, nil, exitBadUser, true
		}
	}
	if f.jobs < 0 {
		fmt.Fprintf(stderr, "ckptlab run: -j %d is not a number of jobs (want >= 1)\n", f.jobs)
		return f, nil, exitBadUser, true
	}
	return f, files, exitOK, false
}

// runOne evaluates one experiment and writes its files, or with --check
// compares them, returning how many files it compared and how many differ.
func runOne(ctx context.Context, e *runner.Experiment, f runFlags, stdout, stderr io.Writer) (checked, differ int, err error) {
	report, finish := newProgress(stderr, f.quiet)
	res, err := runner.Evaluate(ctx, e, runner.Options{Jobs: f.jobs, Progress: report})
	finish()
	if err != nil {
		return 0, 0, err
	}
	set := withRowsProgress(res.Set(f.formats), e.GridRows(), stderr, f.quiet)
	if f.check {
		return checkSet(ctx, set, f.out, f.formats, stdout)
	}
	if err := set.WriteContext(ctx, f.out, f.formats); err != nil {
		return 0, 0, err
	}
	for _, name := range results.Files(e.Name, f.formats) {
		fmt.Fprintln(stdout, filepath.Join(f.out, e.Name, name))
	}
	return 0, 0, nil
}

// parseFormats reads the --format list.
func parseFormats(s string) ([]string, error) {
	known := []string{results.FormatCSV, results.FormatXLSX, results.FormatMD}
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if !slices.Contains(known, f) {
			return nil, fmt.Errorf("--format: %q is not a format (want a list of csv, xlsx, md)", f)
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out, nil
}
