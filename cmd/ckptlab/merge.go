package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"ckptlab/results"
	"ckptlab/runner"
)

const mergeSynopsis = "merge [-o OUT] [--set key=value]... [--format csv,xlsx,md] [-q] FILE..."

// cmdMerge merges the shard files of each experiment, made by
// `ckptlab run --shard I/N`, into the tables an unsharded run writes.
func cmdMerge(args []string, stdout, stderr io.Writer) int {
	var (
		out, format string
		sets        stringList
		quiet       bool
	)
	fs := newFlagSet("merge", mergeSynopsis, stderr)
	fs.StringVar(&out, "o", "out", "read OUT/<name>/shards/ and write results into `OUT`/<name>/")
	fs.Var(&sets, "set", "override a key as the shards did, `key=value` with the value in YAML flow syntax (repeatable)")
	fs.StringVar(&format, "format", defaultFormats, "comma-separated output `formats`: csv, xlsx, md")
	fs.BoolVar(&quiet, "q", false, "show no progress bar (one is shown only when stderr is a terminal)")
	files, code, done := parseFlags(fs, args)
	if done {
		return code
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "ckptlab merge: no experiment file given\n")
		fs.Usage()
		return exitBadUser
	}
	formats, err := parseFormats(format)
	if err != nil {
		fmt.Fprintf(stderr, "ckptlab merge: %v\n", err)
		return exitBadUser
	}
	exps, err := runner.LoadAll(files, runner.OverridesFromEnv(sets))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadUser
	}
	ctx, stop := interruptContext()
	defer stop()
	for _, e := range exps {
		if err := mergeOne(ctx, e, out, formats, quiet, stdout, stderr); err != nil {
			if ctx.Err() != nil {
				return interrupted(ctx, stderr)
			}
			fmt.Fprintf(stderr, "ckptlab merge: %s: %v\n", e.File, err)
			return exitFailed
		}
	}
	return exitOK
}

// mergeOne merges one experiment's shards and writes its set, as run does.
func mergeOne(ctx context.Context, e *runner.Experiment, out string, formats []string, quiet bool, stdout, stderr io.Writer) error {
	res, err := runner.Merge(ctx, e, out)
	if err != nil {
		return err
	}
	set := withRowsProgress(res.Set(formats), e.GridRows(), stderr, quiet)
	if err := set.WriteContext(ctx, out, formats); err != nil {
		return err
	}
	for _, name := range results.Files(e.Name, formats) {
		fmt.Fprintln(stdout, filepath.Join(out, e.Name, name))
	}
	return nil
}
