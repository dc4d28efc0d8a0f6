package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
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
			exps, err := loadExperiments(files, sets, stderr)
			if err != nil {
				return err
			}
			for _, e := range exps {
				fmt.Fprintf(stdout, "%s: ok\n", e.File)
			}
			return nil
		},
	}
	addSetFlag(cmd, &sets)
	return cmd
}
