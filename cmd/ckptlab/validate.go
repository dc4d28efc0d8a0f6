package main

import (
	"fmt"
	"io"
)

// cmdValidate is replaced by the full validator.
func cmdValidate(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "ckptlab validate: not built yet")
	return exitFailed
}

// cmdPlan is replaced by the full planner.
func cmdPlan(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "ckptlab plan: not built yet")
	return exitFailed
}
