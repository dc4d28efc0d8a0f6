// Command ckptlab evaluates checkpoint-interval experiments: it reads YAML
// experiment files, expands them into a grid, evaluates the recovery-cost
// model of the lesson "State in Stream Engines" at every point, and writes
// the result tables as CSV, XLSX, Markdown and JSON.
//
// Usage:
//
//	ckptlab run [-o OUT] [--set key=value]... [--format csv,xlsx,md,json] [-j N] [-q] [--max-points N] [--max-memory MiB] [--check] [--shard I/N|auto[/N]] FILE...
//	ckptlab merge [-o OUT] [--set key=value]... [--format csv,xlsx,md,json] [-q] [--verify sample|all|none] FILE...
//	ckptlab validate [--set key=value]... FILE...
//	ckptlab plan [-o OUT] [--set key=value]... [--format csv,xlsx,md,json] FILE...
//	ckptlab version (or ckptlab --version)
//	ckptlab completion bash|zsh|fish|powershell
//
// A FILE of - reads the experiment from standard input. Exit codes: 0
// success, 1 a run failed, 2 bad input, 130 stopped by a signal.
package main

import (
	"os"

	_ "ckptlab/internal/signals" // first: catches signals from the start
)

func main() {
	w := watchSignals(os.Args[1:], os.Stderr) // before anything else
	os.Exit(w.exitCode(Main(os.Args[1:], os.Stdout, os.Stderr)))
}
