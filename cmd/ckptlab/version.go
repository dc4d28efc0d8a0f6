package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"ckptlab/runner"
)

// newVersionCmd returns ckptlab version, which prints what ckptlab
// --version prints.
func newVersionCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef(cmd, "takes no arguments (got %q)", args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintf(stdout, "ckptlab %s\n", runner.Version)
			return nil
		},
	}
}
