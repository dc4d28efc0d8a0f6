package main

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"ckptlab/internal/words"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// Exit codes of every subcommand.
const (
	exitOK      = 0
	exitFailed  = 1 // a run failed, or --check found a difference
	exitBadUser = 2 // bad input: usage, an invalid experiment file
)

// exitCode is the error a command returns once it has said what went wrong.
// Main exits with the code and prints nothing more.
type exitCode int

func (c exitCode) Error() string { return fmt.Sprintf("exit code %d", int(c)) }

// usageError is a mistake in the command line.
// Main prints it with a pointer to the command's help and exits 2.
type usageError struct {
	cmd *cobra.Command
	err error
}

func (u usageError) Error() string { return u.err.Error() }

// usagef returns a usageError of cmd.
func usagef(cmd *cobra.Command, format string, args ...any) error {
	return usageError{cmd, fmt.Errorf(format, args...)}
}

// Main runs ckptlab with the given arguments (without the program name).
// It returns the process exit code. Tests call it in-process.
//
// A panic is a bug of ckptlab, never bad input. Main says so and returns 1.
// It does not return the 2 of bad input that Go gives a panic that ends
// the process.
func Main(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "ckptlab: internal error: %v (a bug of ckptlab, not of the input; please report it with the command line)\n%s", p, debug.Stack())
			code = exitFailed
		}
	}()
	out := &resultWriter{w: stdout}
	code = execute(args, out, stderr)
	if out.err != nil && code == exitOK {
		fmt.Fprintf(stderr, "ckptlab: cannot write to standard output: %v; the results printed there are lost (the files written are complete)\n", out.err)
		return exitFailed
	}
	return code
}

// execute runs the command line and returns its exit code.
func execute(args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	// cobra reads os.Args when given nil: no arguments must stay none
	// (a test binary's own flags, -update among them, are no command's).
	root.SetArgs(append([]string{}, args...))
	cmd, err := root.ExecuteC()
	var code exitCode
	var usage usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &code):
		return int(code)
	case errors.As(err, &usage):
		cmd = usage.cmd
	}
	// A usage error, or an error of cobra's own: an unknown command, a
	// wrong number of arguments.
	fmt.Fprintf(stderr, "%s: %v\nRun '%s --help' for usage.\n", cmd.CommandPath(), err, cmd.CommandPath())
	return exitBadUser
}

// resultWriter is standard output, remembering its first error.
// What ckptlab prints there is a result: the files a run wrote, its
// headline, a plan, or the Markdown of -o -. A command whose results were
// lost to a full disk or a closed pipe must not exit 0.
type resultWriter struct {
	w   io.Writer
	err error
}

func (r *resultWriter) Write(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.w.Write(p)
	if err != nil {
		r.err = err
	}
	return n, err
}

// newRoot returns the ckptlab command with its subcommands.
// Each subcommand has its own file: run.go, validate.go, plan.go, version.go
// and merge.go. A new subcommand is one more constructor added here.
func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "ckptlab",
		Short: "ckptlab evaluates how often a streaming job should checkpoint its state",
		Long: `ckptlab evaluates how often a streaming job should checkpoint its state.

It expands YAML experiment files into a grid of parameter combinations,
evaluates the recovery-cost model at every point and writes the result
tables as CSV, an XLSX workbook, Markdown and JSON (--format csv,xlsx,md,json)
into OUT/<name>/.
A FILE of - reads the experiment from standard input.

Exit codes: 0 success, 1 a run failed (or --check found a difference),
2 bad input (usage, an invalid experiment file), 130 stopped by a signal.`,
		Version:       runner.Version,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          unknownCommand,
		RunE: func(cmd *cobra.Command, args []string) error {
			cmd.SetOut(stderr)
			cmd.Usage()
			return exitCode(exitBadUser)
		},
	}
	root.SuggestionsMinimumDistance = 2 // rn for run, valdiate for validate
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetVersionTemplate("ckptlab {{.Version}}\n")
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return usageError{cmd, err} })
	root.AddCommand(newRunCmd(stdout, stderr), newValidateCmd(stdout, stderr),
		newPlanCmd(stdout, stderr), newVersionCmd(stdout), newMergeCmd(stdout, stderr),
		newDiffCmd(stdout, stderr))
	// cobra's completion command prints its help and exits 0 when the shell
	// is missing or unknown; here that is a usage error, as for every other
	// command.
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.Args = cobra.NoArgs
			c.RunE = func(cmd *cobra.Command, _ []string) error {
				return usagef(cmd, "no shell given (want bash, zsh, fish or powershell)")
			}
		}
	}
	return root
}

// unknownCommand refuses an argument of ckptlab itself, which names no command.
// It lists the commands the argument may misspell.
func unknownCommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if experiment.IsExperimentFile(args[0]) {
		return usagef(cmd, "unknown command %q for %q (to run the file, write ckptlab run %s)", args[0], cmd.CommandPath(), args[0])
	}
	if near := cmd.SuggestionsFor(args[0]); len(near) > 0 {
		return usagef(cmd, "unknown command %q for %q (did you mean %s?)", args[0], cmd.CommandPath(), words.Or(near))
	}
	return usagef(cmd, "unknown command %q for %q (want one of %s)", args[0], cmd.CommandPath(), words.Or(commandNames(cmd)))
}

// commandNames lists the commands a user may run.
func commandNames(cmd *cobra.Command) []string {
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	return names
}

// experimentFiles is the positional-argument check of the commands that
// read experiment files. They need at least one.
func experimentFiles(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return usagef(cmd, "no experiment file given (want FILE..., or - for standard input)")
	}
	return nil
}

// addSetFlag adds the repeatable --set flag.
// It is a string array, not a slice, because a value holds commas
// (--set intervals=[none,4,6]).
func addSetFlag(cmd *cobra.Command, sets *[]string) {
	addSetFlagUsage(cmd, sets, "override a key, `key=value` with the value in YAML flow syntax (repeatable)")
}

// addSetFlagUsage adds --set with its own usage text.
func addSetFlagUsage(cmd *cobra.Command, sets *[]string, usage string) {
	cmd.Flags().StringArrayVar(sets, "set", nil, usage)
}

// addRootFlag adds --allow-outside-root.
func addRootFlag(cmd *cobra.Command, outside *bool) {
	cmd.Flags().BoolVar(outside, "allow-outside-root", false, "read bases outside the experiment's repository (or, outside one, its folder)")
}

// addQuietFlag adds -q/--quiet.
func addQuietFlag(cmd *cobra.Command, quiet *bool) {
	cmd.Flags().BoolVarP(quiet, "quiet", "q", false, "show no progress bar (one is shown only when stderr is a terminal)")
}

// formatsFlag is the --format flag, a comma-separated list of formats.
// It is read without regard to case.
type formatsFlag struct{ list []string }

func (f *formatsFlag) String() string { return strings.Join(f.list, ",") }
func (f *formatsFlag) Type() string   { return "formats" }
func (f *formatsFlag) Set(s string) error {
	list, err := parseFormats(s)
	if err != nil {
		return err
	}
	f.list = list
	return nil
}

// addFormatFlag adds --format with the default formats.
func addFormatFlag(cmd *cobra.Command, f *formatsFlag) {
	f.list, _ = parseFormats(defaultFormats)
	cmd.Flags().Var(f, "format", "comma-separated output `formats`: csv, xlsx, md, json")
}

// limitFlags are the flags of the limits a run is checked against before
// any work. Plan checks them too.
type limitFlags struct {
	jobs      int
	maxPoints int64
	maxMemory int64 // MiB
}

// addLimitFlags adds -j, --max-points and --max-memory.
// The refuse text says what passing a limit does ("refuse a run").
func addLimitFlags(cmd *cobra.Command, f *limitFlags, refuse string) {
	fl := cmd.Flags()
	fl.IntVarP(&f.jobs, "jobs", "j", 0, "draw sources on `N` goroutines (0, the default: one per core)")
	fl.Int64Var(&f.maxPoints, "max-points", 10_000_000, refuse+" any of whose tables (grid.csv, failures.csv) would have more than `N` rows")
	fl.Int64Var(&f.maxMemory, "max-memory", 4096, refuse+" that would hold more than `MiB` mebibytes of counts and views")
}

// check refuses limits that are no numbers of their kind.
func (f *limitFlags) check(cmd *cobra.Command) error {
	switch {
	case f.maxPoints < 1:
		return usagef(cmd, "--max-points %d is not a number of rows (want >= 1)", f.maxPoints)
	case f.maxMemory < 1:
		return usagef(cmd, "--max-memory %d is not a number of mebibytes (want >= 1)", f.maxMemory)
	case f.jobs < 0:
		return usagef(cmd, "-j %d is not a number of jobs (want >= 1, or 0 for one per core)", f.jobs)
	}
	return nil
}

// limits returns the limits of a run in the given formats.
func (f *limitFlags) limits(formats []string) runner.Limits {
	return runner.Limits{MaxPoints: f.maxPoints, MaxMemoryMiB: f.maxMemory, Jobs: f.jobs, Formats: formats}
}

// addOutFlag adds -o/--out.
func addOutFlag(cmd *cobra.Command, out *string, usage string) {
	cmd.Flags().StringVarP(out, "out", "o", "out", usage)
}

// checkOut refuses an empty -o, which would write into the current folder.
func checkOut(cmd *cobra.Command, out string) error {
	if strings.TrimSpace(out) == "" {
		return usagef(cmd, "-o is empty (want a folder for the results, such as -o out)")
	}
	return nil
}

// loadExperiments reads the experiment files for a command that runs them.
// It also reads the files of the folders among them.
// It applies the environment's and sets' overrides.
// On stderr it names each base of a folder it skips, which an experiment
// of the run extends. On an error it prints every error of every file.
// It then returns exit code 2 as the error.
func loadExperiments(cmd string, files, sets []string, outside bool, stderr io.Writer) ([]*experiment.Experiment, error) {
	b, err := loadBatch(files, sets, outside, experiment.RunBases, stderr)
	for _, base := range b.Bases {
		fmt.Fprintf(stderr, "ckptlab %s: skipped %s: a base, which has no name\n", cmd, base.Path)
	}
	return b.Experiments, err
}

// loadBatch is loadExperiments for either treatment of bases.
// With outside, bases are read wherever they lie (--allow-outside-root).
func loadBatch(files, sets []string, outside bool, bases experiment.Bases, stderr io.Writer) (experiment.Batch, error) {
	b, err := experiment.LoadArgs(experiment.DiskFiles(outside), files, experiment.OverridesFromEnv(sets), bases)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return b, exitCode(exitBadUser)
	}
	return b, nil
}
