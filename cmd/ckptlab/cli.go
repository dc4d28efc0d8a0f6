package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Exit codes of every subcommand.
const (
	exitOK      = 0
	exitFailed  = 1 // a run failed, or --check found a difference
	exitBadUser = 2 // bad input: usage, an invalid experiment file
)

const usage = `ckptlab evaluates how often a streaming job should checkpoint its state.

Usage:

	ckptlab run [-o OUT] [--set key=value]... [--format csv,xlsx,md] [-j N] [-q] [--max-points N] [--max-memory MiB] [--check] [--shard I/N|auto[/N]] FILE...
	ckptlab merge [-o OUT] [--set key=value]... [--format csv,xlsx,md] [-q] FILE...
	ckptlab validate [--set key=value]... FILE...
	ckptlab plan [-o OUT] [--set key=value]... [--format csv,xlsx,md] FILE...
	ckptlab version

Run 'ckptlab COMMAND --help' for the flags of a command.
Exit codes: 0 success, 1 a run failed, 2 bad input.
`

// command is one subcommand: it gets the arguments after its name and
// returns the exit code.
type command func(args []string, stdout, stderr io.Writer) int

// Main runs ckptlab with the given arguments (without the program name) and
// returns the process exit code. Tests call it in-process.
func Main(args []string, stdout, stderr io.Writer) int {
	commands := map[string]command{
		"run":      cmdRun,
		"validate": cmdValidate,
		"plan":     cmdPlan,
		"version":  cmdVersion,
		"merge":    cmdMerge,
	}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitBadUser
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "ckptlab: unknown command %q\n\n%s", args[0], usage)
		return exitBadUser
	}
	return cmd(args[1:], stdout, stderr)
}

// newFlagSet returns a flag set that reports to stderr and prints the
// command's usage line and flags for --help.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: ckptlab %s\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses flags that may stand before, between or after the file
// arguments, as users type them (`ckptlab run x.yaml -o out`). It returns
// the files, whether --help was asked for, and the exit code of a usage error.
func parseFlags(fs *flag.FlagSet, args []string) (files []string, code int, done bool) {
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, exitOK, true
			}
			return nil, exitBadUser, true
		}
		args = fs.Args()
		for len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			files = append(files, args[0])
			args = args[1:]
		}
		if len(args) == 0 {
			return files, exitOK, false
		}
		if args[0] == "--" {
			return append(files, args[1:]...), exitOK, false
		}
	}
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, " ") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
