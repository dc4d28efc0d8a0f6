package main

import (
	"context"
	"fmt"
	"io"

	"ckptlab/results"
)

// checkSet is run --check for one experiment: it compares the set with the
// files in out/<name>/ for the given formats, writing nothing, and prints
// each file that differs or is missing to stdout. It returns how many files
// it compared and how many differ.
func checkSet(ctx context.Context, set results.Set, out string, formats []string, stdout io.Writer) (checked, differ int, err error) {
	diffs, err := set.Check(ctx, out, formats)
	if err != nil {
		return 0, 0, err
	}
	for _, d := range diffs {
		fmt.Fprintln(stdout, d)
	}
	return len(results.Files(set.Name, formats)), len(diffs), nil
}

// reportCheck prints the outcome of run --check and returns its exit code:
// 0 when every file is as computed, 1 when one differs or is missing.
func reportCheck(checked, differ int, stdout io.Writer) int {
	if differ > 0 {
		fmt.Fprintf(stdout, "%d of %d files differ from what the experiments give now\n", differ, checked)
		return exitFailed
	}
	fmt.Fprintf(stdout, "all %d files are as the experiments give them\n", checked)
	return exitOK
}
