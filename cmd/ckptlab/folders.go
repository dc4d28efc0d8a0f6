package main

import (
	"errors"
	"fmt"
	"io"

	"ckptlab/results"
	"ckptlab/runner/experiment"
)

// checkFolders refuses, before any work, a run whose output folders it may
// not replace (results.CheckReplace): a folder of the user's files, a
// symbolic link, a folder holding the experiment file. It prints why and
// returns exit code 2, or exitOK when every folder may be written.
func checkFolders(name string, exps []*experiment.Experiment, out string, stderr io.Writer) int {
	code := exitOK
	for _, e := range exps {
		if err := results.CheckReplace(out, e.Name, e.Inputs()); err != nil {
			fmt.Fprintf(stderr, "ckptlab %s: %v\n", name, err)
			code = exitBadUser
		}
	}
	return code
}

// refused prints a refusal to replace an output folder that a write found
// only under the folder's lock, and returns exit code 2 for it: bad input,
// as when found before the work. ok is false for any other error.
func refused(name string, err error, stderr io.Writer) (code int, ok bool) {
	var r *results.RefusedError
	if !errors.As(err, &r) {
		return 0, false
	}
	fmt.Fprintf(stderr, "ckptlab %s: %v\n", name, r)
	return exitBadUser, true
}
