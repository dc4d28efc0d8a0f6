package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"ckptlab/runner/experiment"
)

// newValidateCmd returns ckptlab validate, which checks experiment files
// and prints every error of every file, or FILE: ok for each when there is
// none. It evaluates and writes nothing.
func newValidateCmd(stdout, stderr io.Writer) *cobra.Command {
	var sets []string
	cmd := &cobra.Command{
		Use:                   "validate [--set key=value]... FILE...",
		Short:                 "Check experiment files, print every error, write nothing",
		Args:                  experimentFiles,
		DisableFlagsInUseLine: true,
		RunE: func(cmd *cobra.Command, files []string) error {
			if _, err := experiment.LoadAll(files, experiment.OverridesFromEnv(sets)); err != nil {
				return loadFailed(stderr, err)
			}
			for _, f := range files {
				if f == experiment.StdinPath {
					f = experiment.StdinName
				}
				fmt.Fprintf(stdout, "%s: ok\n", f)
			}
			return nil
		},
	}
	addSetFlag(cmd, &sets)
	return cmd
}
