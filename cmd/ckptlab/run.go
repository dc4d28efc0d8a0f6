package main

import (
	"fmt"
	"io"
)

func cmdRun(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "ckptlab run: not built yet")
	return exitFailed
}
