package main

import (
	"fmt"
	"io"

	"ckptlab/runner"
)

const validateSynopsis = "validate [--set key=value]... FILE..."

// cmdValidate checks experiment files and prints every error of every
// file, or FILE: ok for each when there is none. It evaluates and writes
// nothing.
func cmdValidate(args []string, stdout, stderr io.Writer) int {
	var sets stringList
	fs := newFlagSet("validate", validateSynopsis, stderr)
	fs.Var(&sets, "set", "override a key, `key=value` with the value in YAML flow syntax (repeatable)")
	files, code, done := parseFlags(fs, args)
	if done {
		return code
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "ckptlab validate: no experiment file given\n")
		fs.Usage()
		return exitBadUser
	}
	if _, err := runner.LoadAll(files, runner.OverridesFromEnv(sets)); err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadUser
	}
	for _, f := range files {
		fmt.Fprintf(stdout, "%s: ok\n", f)
	}
	return exitOK
}
