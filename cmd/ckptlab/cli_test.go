package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"ckptlab/internal/testkit"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// TestCommandLine checks the command line a user meets.
// That is help on stdout, --version and completion scripts.
// It is also GNU flags before, between and after the files.
// Usage errors exit 2 with a pointer to the help.
func TestCommandLine(t *testing.T) {
	out := t.TempDir()
	tests := []struct {
		name           string
		args           []string
		code           int
		stdout, stderr string // substrings; "" checks nothing
		emptyStderr    bool
	}{
		{"help", []string{"--help"}, exitOK, "Available Commands:", "", true},
		{"help command", []string{"help", "run"}, exitOK, "--max-points N", "", true},
		{"run help on stdout", []string{"run", "--help"}, exitOK, "  -o, --out OUT", "", true},
		{"run help lists --check", []string{"run", "-h"}, exitOK, "      --check ", "", true},
		{"version flag", []string{"--version"}, exitOK, "ckptlab " + runner.Version + "\n", "", true},
		{"version command", []string{"version"}, exitOK, "ckptlab " + runner.Version + "\n", "", true},
		{"completion bash", []string{"completion", "bash"}, exitOK, "# bash completion", "", true},
		{"completion zsh", []string{"completion", "zsh"}, exitOK, "#compdef ckptlab", "", true},
		{"completion fish", []string{"completion", "fish"}, exitOK, "complete -c ckptlab", "", true},
		{"no command", nil, exitBadUser, "", "Available Commands:", false},
		{"version with an argument", []string{"version", "x"}, exitBadUser, "", "ckptlab version: takes no arguments (got [\"x\"])\nRun 'ckptlab version --help' for usage.\n", false},
		{"unknown command", []string{"frob"}, exitBadUser, "", "ckptlab: unknown command \"frob\" for \"ckptlab\" (want one of completion, diff, merge, plan, run, validate or version)\nRun 'ckptlab --help' for usage.\n", false},
		{"unknown flag", []string{"run", "--frob", lessonFile}, exitBadUser, "", "ckptlab run: unknown flag: --frob\nRun 'ckptlab run --help' for usage.\n", false},
		{"no file", []string{"run", "-o", out}, exitBadUser, "", "ckptlab run: no experiment file given (want FILE..., or - for standard input)\n", false},
		{"empty -o", []string{"run", "-o", "", lessonFile}, exitBadUser, "", "ckptlab run: -o is empty (want a folder for the results, such as -o out)\n", false},
		{"empty --out=", []string{"plan", "--out=", lessonFile}, exitBadUser, "", "ckptlab plan: -o is empty", false},
		{"bad -j", []string{"run", "-j", "-1", "-o", out, lessonFile}, exitBadUser, "", "-j -1 is not a number of jobs", false},
		{"flags after the file", []string{"run", lessonFile, "-o", out, "--format", "CSV", "-q"}, exitOK, filepath.Join(out, "lesson", "grid.csv"), "", true},
		{"flags between files", []string{"validate", lessonFile, "--set", "workers=2", lessonFile}, exitBadUser, "", lessonFile + ": given twice on the command line (want each file once)\n", false},
		{"one file by two paths", []string{"plan", lessonFile, "./" + lessonFile}, exitBadUser, "",
			"./" + lessonFile + ": the file " + lessonFile + " is, given twice on the command line (want each file once)\n", false},
		{"key=value for --set", []string{"plan", lessonFile, "subscribers=500"}, exitBadUser, "",
			"subscribers=500: cannot read the file: no such file or directory (to override subscribers, write --set subscribers=500)\n", false},
		{"plan of a run refused", []string{"plan", "--set", "periods=12000", "--set", "intervals=all", lessonFile}, exitOK,
			"  refused          a run would be refused: failures.csv would have 143999999 rows, more than --max-points 10000000", "", true},
		{"plan within a raised limit", []string{"plan", "--max-points", "200000000", "--set", "periods=12000", "--set", "intervals=all", lessonFile}, exitOK,
			"  failures rows    143999999\n", "", true},
		{"plan of a run refused for memory", []string{"plan", "--max-memory", "1", lessonFile}, exitOK,
			"more than --max-memory 1", "", true},
		{"--set with commas", []string{"plan", "--set", "intervals=[none,4,6]", "--set=probabilities=[0.5,0.25]", lessonFile}, exitOK, "  intervals        none, 4, 6  # --set\n", "", true},
		{"format case", []string{"plan", "--format", "Csv,XLSX", lessonFile}, exitOK, "lesson.xlsx", "", true},
		{"flow syntax hint", []string{"validate", "--set", "workers={from:1,to:4}", lessonFile}, exitBadUser, "",
			"--set workers: a colon takes a space after it: YAML reads from:1 as one word, not a key and its value (want --set 'workers={from: 1, to: 4}')\n", false},
		{"plan shows table sizes", []string{"plan", "--set", "periods=12000", lessonFile}, exitOK, "  failures rows    71994\n", "", true},
		{"max-memory saturates", []string{"run", "-q", "--max-memory", "9223372036854775807", "-o", out, "--format", "csv", lessonFile}, exitOK, "grid.csv", "", true},
		{"completion without a shell", []string{"completion"}, exitBadUser, "", "ckptlab completion: no shell given", false},
		{"completion of an unknown shell", []string{"completion", "tcsh"}, exitBadUser, "", "unknown command \"tcsh\"", false},
		{"max-points 0", []string{"run", "--max-points", "0", "-o", out, lessonFile}, exitBadUser, "", "--max-points 0 is not a number of rows", false},
		{"empty --shard", []string{"run", "--shard", "", "-o", out, lessonFile}, exitBadUser, "", "--shard is empty", false},
		{"too many shards", []string{"run", "--shard", "1/100001", "-o", out, lessonFile}, exitBadUser, "", "100001 shards are more than 100000", false},
		{"failures.csv guarded", []string{"run", "--format", "csv", "--set", "periods=12000", "--set", "intervals=all", "-o", out, lessonFile}, exitBadUser, "",
			"failures.csv would have 143999999 rows, more than --max-points 10000000", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := ckptlab(tt.args...)
			if code != tt.code || !strings.Contains(stdout, tt.stdout) || !strings.Contains(stderr, tt.stderr) || (tt.emptyStderr && stderr != "") {
				t.Errorf("ckptlab %q = %d\nstdout: %s\nstderr: %s\nwant %d, stdout with %q, stderr with %q", tt.args, code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
}

// TestStdinAndSpecialFiles runs the built command on standard input, a
// FIFO no one writes to, /dev/zero and a file past the size limit.
// Each must end at once with a message, never block or read forever.
func TestStdinAndSpecialFiles(t *testing.T) {
	src, err := os.ReadFile(lessonFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"validate", "plan"} {
		cmd := helper(t, name, "-")
		cmd.Stdin = strings.NewReader(string(src))
		got, err := cmd.Output()
		if err != nil || !strings.Contains(string(got), "<stdin>") {
			t.Errorf("%s - = %v, %s", name, err, got)
		}
	}
	out := t.TempDir()
	cmd := helper(t, "run", "-q", "-o", out, "--format", "csv", "-")
	cmd.Stdin = strings.NewReader(string(src))
	if got, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("run - = %v: %s", err, got)
	}
	if _, err := os.Stat(filepath.Join(out, "lesson", "grid.csv")); err != nil {
		t.Errorf("run - wrote no grid.csv: %v", err)
	}

	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	testkit.MakeFIFO(t, fifo)
	big := filepath.Join(dir, "big.yaml")
	os.WriteFile(big, nil, 0o644)
	os.Truncate(big, experiment.MaxFileBytes+1)
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	for _, tt := range []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"validate", fifo}, "", "is not a regular file but a FIFO"},
		{[]string{"validate", "/dev/zero"}, "", "is not a regular file but a device"},
		{[]string{"run", big}, "", "the file is larger than 4 MiB"},
		{[]string{"validate", "-"}, "/dev/zero", "<stdin>: standard input is larger than 4 MiB"},
		{[]string{"validate", empty}, "", "is a folder without *.yaml or *.yml files"},
	} {
		cmd := helper(t, tt.args...)
		if tt.stdin != "" {
			f, err := os.Open(tt.stdin)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cmd.Stdin = f
		}
		got, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if !strings.Contains(string(got), tt.want) || !(errorsAs(err, &exit) && exit.ExitCode() == exitBadUser) {
			t.Errorf("%v = %v: %s; want exit 2 and %q", tt.args, err, got, tt.want)
		}
	}
}

func errorsAs(err error, target **exec.ExitError) bool {
	e, ok := err.(*exec.ExitError)
	*target = e
	return ok
}

// failingWriter fails every write, as standard output does on a full disk.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestLostStdout checks that a command whose results on standard output
// were lost does not exit 0.
func TestLostStdout(t *testing.T) {
	var stderr strings.Builder
	code := Main([]string{"run", "-q", "--format", "csv", "-o", t.TempDir(), lessonFile}, failingWriter{}, &stderr)
	if code != exitFailed || !strings.Contains(stderr.String(), "cannot write to standard output: no space left on device") {
		t.Errorf("run with a failing stdout = %d, stderr %q; want %d and the reason", code, stderr.String(), exitFailed)
	}
}

// TestPanicIsNotBadInput checks that a panic, a bug of ckptlab, exits 1
// with a message that says so. It never exits 2, the code of bad input.
func TestPanicIsNotBadInput(t *testing.T) {
	var stdout, stderr strings.Builder
	code := Main([]string{"plan", lessonFile}, panicWriter{}, &stderr)
	if code != exitFailed || !strings.Contains(stderr.String(), "ckptlab: internal error: a test panic (a bug of ckptlab, not of the input") {
		t.Errorf("Main exited %d, stderr %q, stdout %q", code, stderr.String(), stdout.String())
	}
}

// panicWriter panics on its first write.
type panicWriter struct{}

func (panicWriter) Write([]byte) (int, error) { panic("a test panic") }
