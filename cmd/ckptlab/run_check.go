package main

import (
	"context"
	"fmt"
	"io"

	"ckptlab/folder"
	"ckptlab/internal/words"
	"ckptlab/results"
)

// checkCounts are what run --check found: the files of the sets it
// compared, how many of them differ or are missing, and the files that
// belong to no set.
type checkCounts struct {
	checked, differ, extra int
}

func (c checkCounts) add(d checkCounts) checkCounts {
	return checkCounts{c.checked + d.checked, c.differ + d.differ, c.extra + d.extra}
}

// checkSet is run --check for one experiment: it compares the set with the
// files in out/<name>/ for the given formats, writing nothing, and prints
// each file that differs, is missing or is of no set to stdout.
func checkSet(ctx context.Context, set results.Set, out string, formats []string, stdout io.Writer) (checkCounts, error) {
	diffs, err := folder.Check(ctx, out, set, formats)
	if err != nil {
		return checkCounts{}, err
	}
	c := checkCounts{checked: len(set.Files(formats))}
	for _, d := range diffs {
		fmt.Fprintln(stdout, d)
		if d.Extra {
			c.extra++
		} else {
			c.differ++
		}
	}
	return c, nil
}

// reportCheck prints the outcome of run --check and returns its exit code:
// 0 when every file is as computed, 1 when one differs or is missing, or
// a file of no set lies beside them.
func reportCheck(c checkCounts, stdout io.Writer) int {
	extra := ""
	if c.extra > 0 {
		extra = fmt.Sprintf("; %d %s of no set", c.extra, words.Plural(c.extra, "file is", "files are"))
	}
	switch {
	case c.differ > 0:
		fmt.Fprintf(stdout, "%d of %d files differ from what the experiments give now%s\n", c.differ, c.checked, extra)
	case c.extra > 0:
		fmt.Fprintf(stdout, "all %d files are as the experiments give them%s\n", c.checked, extra)
	default:
		fmt.Fprintf(stdout, "all %d files are as the experiments give them\n", c.checked)
		return exitOK
	}
	return exitFailed
}
