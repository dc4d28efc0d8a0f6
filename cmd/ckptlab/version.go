package main

import (
	"fmt"
	"io"

	"ckptlab/runner"
)

func cmdVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", "version", stderr)
	files, code, done := parseFlags(fs, args)
	if done {
		return code
	}
	if len(files) > 0 {
		fmt.Fprintf(stderr, "ckptlab version: takes no arguments\n")
		return exitBadUser
	}
	fmt.Fprintf(stdout, "ckptlab %s\n", runner.Version)
	return exitOK
}
