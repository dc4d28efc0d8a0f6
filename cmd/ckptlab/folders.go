package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"ckptlab/folder"
	"ckptlab/runner/experiment"
)

// checkFolders refuses, before any work, a run whose output folders it may
// not replace (folder.CheckReplace). Such a folder holds the user's files,
// is a symbolic link, or holds the experiment file. checkFolders prints why
// and returns exit code 2. It returns exitOK when every folder may be
// written.
//
// It reads each folder under the folder's shared lock. While another
// process writes the folder, it waits as ctx says.
func checkFolders(ctx context.Context, name string, exps []*experiment.Experiment, out string, stderr io.Writer) int {
	code := exitOK
	for _, e := range exps {
		err := folder.CheckReplace(ctx, out, e.Name, e.Inputs())
		var r *folder.RefusedError
		switch {
		case errors.As(err, &r):
			fmt.Fprintf(stderr, "ckptlab %s: %v\n", name, err)
			code = exitBadUser
		case err != nil:
			return failed(ctx, name, e.File, err, stderr)
		}
	}
	return code
}

// refused prints a refusal to replace an output folder, found by a write
// only under the folder's lock. It returns exit code 2 for it, bad input
// as when found before the work. ok is false for any other error.
func refused(name string, err error, stderr io.Writer) (code int, ok bool) {
	var r *folder.RefusedError
	if !errors.As(err, &r) {
		return 0, false
	}
	fmt.Fprintf(stderr, "ckptlab %s: %v\n", name, r)
	return exitBadUser, true
}
