package main

import (
	"fmt"
	"io"

	"ckptlab/runner"
)

const planSynopsis = "plan [-o OUT] [--set key=value]... [--format csv,xlsx,md] FILE..."

// cmdPlan prints, for each experiment file, its axes, the size of its grid
// and the files a run would write, without evaluating anything.
func cmdPlan(args []string, stdout, stderr io.Writer) int {
	var (
		out, format string
		sets        stringList
	)
	fs := newFlagSet("plan", planSynopsis, stderr)
	fs.StringVar(&out, "o", "out", "a run would write results into `OUT`/<name>/")
	fs.Var(&sets, "set", "override a key, `key=value` with the value in YAML flow syntax (repeatable)")
	fs.StringVar(&format, "format", defaultFormats, "comma-separated output `formats`: csv, xlsx, md")
	files, code, done := parseFlags(fs, args)
	if done {
		return code
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "ckptlab plan: no experiment file given\n")
		fs.Usage()
		return exitBadUser
	}
	formats, err := parseFormats(format)
	if err != nil {
		fmt.Fprintf(stderr, "ckptlab plan: %v\n", err)
		return exitBadUser
	}
	exps, err := runner.LoadAll(files, runner.OverridesFromEnv(sets))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadUser
	}
	for i, e := range exps {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if err := runner.WritePlan(stdout, e, out, formats); err != nil {
			fmt.Fprintf(stderr, "ckptlab plan: %v\n", err)
			return exitFailed
		}
	}
	return exitOK
}
