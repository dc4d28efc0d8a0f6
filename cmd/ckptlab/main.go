// Command ckptlab evaluates checkpoint-interval experiments.
// It reads YAML experiment files and expands them into a grid.
// At every point it evaluates the recovery-cost model of the lesson
// "State in Stream Engines". It writes the result tables as CSV, XLSX,
// Markdown and JSON.
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
// A FILE of - reads the experiment from standard input.
// The exit codes are 0 for success, 1 when a run failed, 2 for bad input,
// and 130 when a signal stopped the command.
package main

import (
	"os"

	_ "ckptlab/internal/signals" // first: catches signals from the start
)

func main() {
	w := watchSignals(os.Args[1:], os.Stderr) // before anything else
	os.Exit(w.exitCode(Main(os.Args[1:], os.Stdout, os.Stderr)))
}
