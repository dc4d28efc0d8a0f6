package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"ckptlab/internal/words"
	"ckptlab/runner/experiment"
)

// newValidateCmd returns ckptlab validate, which checks experiment files.
// It evaluates and writes nothing.
// It prints every error of every file. When there is none, it prints
// FILE: ok for each, and for a base the experiments that extend it.
func newValidateCmd(stdout, stderr io.Writer) *cobra.Command {
	var sets []string
	var outside bool
	cmd := &cobra.Command{
		Use:                   "validate [--set key=value]... FILE...",
		Short:                 "Check experiment files, print every error, write nothing",
		Args:                  experimentFiles,
		DisableFlagsInUseLine: true,
		RunE: func(cmd *cobra.Command, files []string) error {
			b, err := loadBatch(files, sets, outside, experiment.CheckBases, stderr)
			if err != nil {
				return err
			}
			for _, e := range b.Experiments {
				fmt.Fprintf(stdout, "%s: ok\n", e.File)
			}
			for _, base := range b.Bases {
				if len(base.ExtendedBy) == 0 {
					fmt.Fprintf(stdout, "%s: ok (a base)\n", base.Path)
					continue
				}
				fmt.Fprintf(stdout, "%s: ok (a base, extended by %s)\n", base.Path, words.And(base.ExtendedBy))
			}
			return nil
		},
	}
	addSetFlag(cmd, &sets)
	addRootFlag(cmd, &outside)
	return cmd
}
