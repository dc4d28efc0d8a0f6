package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// writeExperiment writes an experiment file into a fresh folder and
// returns its path.
func writeExperiment(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// ckptlab runs the command in-process.
func ckptlab(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Main(args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestValidateErrors has one case per class of error an experiment file
// can have. Each must fail validate with exit code 2 and exactly one line
// on stderr: FILE:LINE:COL: KEY: message.
func TestValidateErrors(t *testing.T) {
	tests := []struct {
		class     string
		src       string
		line, col int
		msg       string
	}{
		{"unknown key", "name: x\nworker: 4\n", 2, 1,
			"worker: unknown key (did you mean workers?)"},
		{"unknown key in a range", "name: x\nworkers: {from: 1, to: 4, by: 2}\n", 2, 27,
			"workers.by: unknown key in a range (want from, to or step)"},
		{"duplicate key", "name: x\nworkers: 4\nworkers: 8\n", 3, 1,
			"workers: duplicate key (want it once; first at line 2)"},
		{"mapping for a scalar", "name: x\nstart: {year: 2026}\n", 2, 8,
			"start: a mapping is not a month (want YYYY-MM)"},
		{"list for a scalar", "name: x\nmissing: [1]\n", 2, 10,
			"missing: a list is not a count of missing records (want a whole number >= 0)"},
		{"quoted number", "name: x\nworkers: \"4\"\n", 2, 10,
			`workers: "4" is not a worker count (want a whole number >= 1, without quotes)`},
		{"fraction for a whole number", "name: x\nworkers: 2.5\n", 2, 10,
			"workers: 2.5 is not a worker count (want a whole number >= 1)"},
		{"below the minimum", "name: x\nworkers: 0\n", 2, 10,
			"workers: 0 is not a worker count (want >= 1)"},
		{"above a safety cap", "name: x\nperiods: 12001\n", 2, 10,
			"periods: 12001 is not a period count (want <= 12000, a safety cap)"},
		{"seed out of range", "name: x\nseeds: 4294967296\n", 2, 8,
			"seeds: 4294967296 is not a seed (want 0..4294967295)"},
		{"probability out of range", "name: x\nprobabilities: [0.5, 1.25]\n", 2, 22,
			"probabilities[1]: 1.25 is not a probability (want a number in 0..1)"},
		{"interval beyond the periods", "name: x\nseeds: 1\nsubscribers: 20\nperiods: 12\nstart: 2026-01\ndescription: x\nintervals: [6, 4, 0]\n", 7, 19,
			"intervals[2]: 0 is not an interval (want none, all, or 1..12)"},
		{"interval beyond the smallest periods", "name: x\nperiods: [12, 6]\nfailure_period: 2026-03\nintervals: [none, 8]\n", 4, 19,
			"intervals[1]: 8 is not an interval (want none, all, or 1..6)"},
		{"label not a failure period", "name: x\nfailure_period: 2026-01\n", 2, 17,
			"failure_period: 2026-01 is not a period after the first of every periods value (want 2026-02..2026-12)"},
		{"label beyond the smallest periods", "name: x\nperiods: [12, 8]\nfailure_period: 2026-05\nfailure_periods: [2026-03, 2026-09]\n", 4, 28,
			"failure_periods[1]: 2026-09 is not a period after the first of every periods value (want 2026-02..2026-08)"},
		{"not a label", "name: x\nfailure_period: 2026-9\n", 2, 17,
			"failure_period: 2026-9 is not a period label (want YYYY-MM)"},
		{"default that no longer fits", "name: x\nperiods: 6\nintervals: all\n", 2, 10,
			"periods: 6 leaves the default failure_period 2026-09 outside 2026-02..2026-06 (want failure_period set within them)"},
		{"empty axis", "name: x\nworkers: []\n", 2, 10,
			"workers: empty list (want at least one worker count)"},
		{"value listed twice", "name: x\nworkers: [2, 2]\n", 2, 14,
			"workers[1]: 2 is listed twice (want each worker count once)"},
		{"step 0", "name: x\nworkers: {from: 1, to: 4, step: 0}\n", 2, 33,
			"workers.step: 0 is not a step (want a whole number other than 0)"},
		{"range going the wrong way", "name: x\nworkers: {from: 4, to: 1}\n", 2, 10,
			"workers: range from 4 down to 1 needs a negative step (want step: -1 or from <= to)"},
		{"step going the wrong way", "name: x\nprobabilities: {from: 0, to: 1, step: -0.1}\n", 2, 39,
			"probabilities.step: step -0.1 leads from 0 away from 1 (want a step of the other sign)"},
		{"range without an end", "name: x\nworkers: {from: 1}\n", 2, 10,
			"workers: range has no to (want {from: A, to: B, step: S})"},
		{"range too long", "name: x\nseeds: {from: 0, to: 2000000}\n", 2, 8,
			"seeds: range has 2000001 values (want at most 1000000, a safety cap)"},
		{"int64 overflow", "name: x\nstate_rows: 9223372036854775808\n", 2, 13,
			"state_rows: 9223372036854775808 does not fit in 64 bits (want a whole number >= 0 or subscribers)"},
		{"NaN", "name: x\nprobabilities: .nan\n", 2, 16,
			"probabilities: .nan is not a finite number (want a number in 0..1)"},
		{"infinity", "name: x\nprobabilities: [-.inf]\n", 2, 17,
			"probabilities[0]: -.inf is not a finite number (want a number in 0..1)"},
		{"octal-looking number", "name: x\nworkers: 010\n", 2, 10,
			"workers: 010 has a leading zero, which YAML reads as octal (want a whole number >= 1, in decimal)"},
		{"top level not a mapping", "- name: x\n", 1, 1,
			"the top level is a list, not a mapping (want key: value lines)"},
		{"name climbing out", "name: ../x\n", 1, 7,
			"name: ../x is not a valid name (want [a-z0-9][a-z0-9_-]{0,63}, it names the output folder)"},
		{"name with a separator", "name: a/b\n", 1, 7,
			"name: a/b is not a valid name (want [a-z0-9][a-z0-9_-]{0,63}, it names the output folder)"},
		{"absolute name", "name: /tmp/x\n", 1, 7,
			"name: /tmp/x is not a valid name (want [a-z0-9][a-z0-9_-]{0,63}, it names the output folder)"},
		{"unsupported version", "version: 2\nname: x\n", 1, 10,
			"version: 2 is not a supported version (want 1)"},
		{"syntax error", "name: x\nworkers: [1, 2\n", 2, 1,
			"syntax error: did not find expected ',' or ']'"},
		{"tab indentation", "name: x\nworkers:\n\t- 1\n", 3, 1,
			"workers: a tab: YAML indents with spaces, never tabs (want spaces in place of the tab)"},
		{"colon without a space", "name: x\nworkers: {from:1,to:4}\n", 2, 10,
			"workers: a colon takes a space after it: YAML reads from:1 as one word, not a key and its value (want {from: 1, to: 4})"},
		{"misspelled word", "name: x\npartition_key: regoin\n", 2, 16,
			"partition_key: regoin is not a partition key (want subscriber, region or type; did you mean region?)"},
		{"misspelled key", "name: x\nprobability: 1\n", 2, 1,
			"probability: unknown key (did you mean probabilities?)"},
		{"range with dots", "name: x\nprobabilities: 0..1\n", 2, 16,
			"probabilities: 0..1 is not how YAML writes a range (want {from: 0, to: 1, step: …})"},
		{"two documents", "name: x\n---\nname: y\n", 2, 1,
			"a second YAML document starts here (want one document per file)"},
		{"anchor", "name: x\nworkers: &w 4\n", 2, 10,
			"workers: anchor &w is not allowed (want the value written out)"},
		{"merge key", "name: x\n<<: {workers: 4}\n", 2, 1,
			"merge key << is not allowed (want the keys written out)"},
		{"tag", "name: x\nworkers: !n 4\n", 2, 10,
			"workers: tag !n is not allowed (want a plain value)"},
	}
	for _, tt := range tests {
		t.Run(tt.class, func(t *testing.T) {
			path := writeExperiment(t, "x.yaml", tt.src)
			code, stdout, stderr := ckptlab("validate", path)
			if code != exitBadUser {
				t.Errorf("exit code %d, want %d", code, exitBadUser)
			}
			if want := fmt.Sprintf("%s:%d:%d: %s\n", path, tt.line, tt.col, tt.msg); stderr != want {
				t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
			}
			if stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
		})
	}
}

// TestValidateEveryError checks that a file with several errors has all
// of them reported, in order, and that the errors of every file are.
func TestValidateEveryError(t *testing.T) {
	a := writeExperiment(t, "a.yaml", "name: a\nworkers: 0\nseeds: [1, 1]\ncolour: blue\nintervals: [none, 13]\n")
	b := writeExperiment(t, "b.yaml", "name: ../b\n")
	c := writeExperiment(t, "c.yaml", "name: c\n")
	code, stdout, stderr := ckptlab("validate", a, b, c)
	want := a + ":2:10: workers: 0 is not a worker count (want >= 1)\n" +
		a + ":3:12: seeds[1]: 1 is listed twice (want each seed once)\n" +
		a + ":4:1: colour: unknown key (want one of version, extends, name, description, seeds, subscribers, periods, " +
		"start, missing, duplicates, partition_key, workers, state_rows, risk_level, probabilities, intervals, failure_period, failure_periods, failure_weights, throughput, checkpoint_time, restart_time, mtbf, failure_distribution, weibull_shape, replications, cases, exclude)\n" +
		a + ":5:19: intervals[1]: 13 is not an interval (want none, all, or 1..12)\n" +
		b + ":1:7: name: ../b is not a valid name (want [a-z0-9][a-z0-9_-]{0,63}, it names the output folder)\n"
	if code != exitBadUser || stdout != "" || stderr != want {
		t.Errorf("validate = %d\nstdout %q\nstderr:\n%s\nwant:\n%s", code, stdout, stderr, want)
	}
}

func TestValidateOK(t *testing.T) {
	a := writeExperiment(t, "a.yaml", "name: a\n")
	b := writeExperiment(t, "b.yaml", "name: b\nworkers: {from: 1, to: 16}\n")
	code, stdout, stderr := ckptlab("validate", a, b)
	if want := a + ": ok\n" + b + ": ok\n"; code != exitOK || stdout != want || stderr != "" {
		t.Errorf("validate = %d\nstdout %q, want %q\nstderr %q", code, stdout, want, stderr)
	}
}

func TestValidateShippedExperiments(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "experiments", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no experiments: %v", err)
	}
	if code, _, stderr := ckptlab(append([]string{"validate"}, files...)...); code != exitOK {
		t.Errorf("validate experiments/*.yaml = %d:\n%s", code, stderr)
	}
}

func TestValidateOverrides(t *testing.T) {
	path := writeExperiment(t, "x.yaml", "name: x\nworkers: 2\n")
	tests := []struct {
		name string
		env  string // CKPTLAB_WORKERS, when set
		args []string
		code int
		err  string
	}{
		{"set", "", []string{"--set", "workers=0", path}, exitBadUser, "--set workers: 0 is not a worker count (want >= 1)\n"},
		{"set after the file", "", []string{path, "--set=workers=[1, 0]"}, exitBadUser,
			"--set workers[1]: 0 is not a worker count (want >= 1)\n"},
		{"env", "0", []string{path}, exitBadUser, "env CKPTLAB_WORKERS: 0 is not a worker count (want >= 1)\n"},
		{"set over a bad env", "0", []string{"--set", "workers=3", path}, exitBadUser,
			"env CKPTLAB_WORKERS: 0 is not a worker count (want >= 1)\n"},
		{"good overrides", "5", []string{"--set", "workers={from: 1, to: 16}", path}, exitOK, ""},
		{"unknown key", "", []string{"--set", "Workers=3", path}, exitBadUser, "--set Workers: unknown key (did you mean workers?)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.env != "" {
				t.Setenv("CKPTLAB_WORKERS", tt.env)
			}
			code, _, stderr := ckptlab(append([]string{"validate"}, tt.args...)...)
			if code != tt.code || stderr != tt.err {
				t.Errorf("validate %v = %d, %q; want %d, %q", tt.args, code, stderr, tt.code, tt.err)
			}
		})
	}
}

func TestValidateUsage(t *testing.T) {
	code, stdout, stderr := ckptlab("validate")
	if code != exitBadUser || stdout != "" || !strings.Contains(stderr, "no experiment file given") {
		t.Errorf("validate without files = %d, %q, %q", code, stdout, stderr)
	}
	if code, _, _ := ckptlab("validate", "--help"); code != exitOK {
		t.Errorf("validate --help = %d, want 0", code)
	}
	path := filepath.Join(t.TempDir(), "none.yaml")
	code, _, stderr = ckptlab("validate", path)
	if want := path + ": cannot read the file: no such file or directory\n"; code != exitBadUser || stderr != want {
		t.Errorf("validate of a missing file = %d, %q; want 2, %q", code, stderr, want)
	}
}

// TestValidateWritesNothing runs validate and plan in an empty working
// folder and checks that it stays empty, as the experiment's folder does.
func TestValidateWritesNothing(t *testing.T) {
	path := writeExperiment(t, "x.yaml", "name: x\n")
	bad := filepath.Join(filepath.Dir(path), "bad.yaml")
	if err := os.WriteFile(bad, []byte("name: x\nworkers: 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	t.Chdir(work)
	list := func(dir string) []string {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	before := list(filepath.Dir(path))
	for _, args := range [][]string{
		{"validate", path}, {"validate", bad}, {"plan", path}, {"plan", "-o", "out", "--format", "csv,xlsx,md", path},
	} {
		ckptlab(args...)
	}
	if got := list(work); len(got) != 0 {
		t.Errorf("the working folder holds %v, want nothing", got)
	}
	if after := list(filepath.Dir(path)); !slices.Equal(before, after) {
		t.Errorf("the experiment's folder went from %v to %v", before, after)
	}
}

func TestPlan(t *testing.T) {
	path := writeExperiment(t, "sweep.yaml",
		"name: sweep\ndescription: every interval, 21 probabilities\nintervals: all\nprobabilities: {from: 0, to: 1, step: 0.05}\n")
	code, stdout, stderr := ckptlab("plan", "-o", "results", "--format", "csv,xlsx", "--set", "workers=[2, 4]", path)
	want := "sweep  " + path + `
  version          1  # default
  description      every interval, 21 probabilities
  seeds            20260218  # default
  subscribers      200  # default
  periods          12  # default
  start            2026-01  # default
  missing          0  # default
  duplicates       0  # default
  partition_key    subscriber  # default
  workers          2, 4  # --set
  state_rows       subscribers  # default
  risk_level       0.95  # default
  probabilities    0, 0.05, 0.1, … 1 (21 values)
  intervals        all (none and 1..P for each periods value P)
  failure_period   2026-09  # default
  failure_periods  all (every period but the first)  # default
  sources          1
  grid rows        546
  failures rows    286
  memory           at most ` + memoryLine(t, path, "workers=[2, 4]") + `
  writes           results/sweep/grid.csv
                   results/sweep/failures.csv
                   results/sweep/decisions.csv
                   results/sweep/breakeven.csv
                   results/sweep/sweep.xlsx
                   results/sweep/experiment.yaml
`
	if code != exitOK || stdout != want || stderr != "" {
		t.Errorf("plan = %d, stderr %q, stdout:\n%s\nwant:\n%s", code, stderr, stdout, want)
	}
}

func TestPlanErrors(t *testing.T) {
	good := writeExperiment(t, "good.yaml", "name: good\n")
	bad := writeExperiment(t, "bad.yaml", "name: bad\nworkers: 0\n")
	tests := []struct {
		args []string
		err  string
	}{
		{[]string{bad}, bad + ":2:10: workers: 0 is not a worker count (want >= 1)\n"},
		{[]string{"--format", "pdf", good}, `ckptlab plan: invalid argument "pdf" for "--format" flag: "pdf" is not a format (want a list of csv, xlsx, md, json)` +
			"\nRun 'ckptlab plan --help' for usage.\n"},
		{[]string{"--set", "periods=1", good}, "--set periods: 1 is not a period count (want >= 2)\n"},
	}
	for _, tt := range tests {
		code, stdout, stderr := ckptlab(append([]string{"plan"}, tt.args...)...)
		if code != exitBadUser || stdout != "" || stderr != tt.err {
			t.Errorf("plan %v = %d, stdout %q, stderr %q; want 2, %q", tt.args, code, stdout, stderr, tt.err)
		}
	}
	if code, _, stderr := ckptlab("plan"); code != exitBadUser || !strings.Contains(stderr, "no experiment file given") {
		t.Errorf("plan without files = %d, %q", code, stderr)
	}
}

// memoryLine returns the figure plan prints for the experiment at path
// with the given override and views: TestMemoryBoundHolds in runner checks
// that it bounds a real run.
func memoryLine(t *testing.T, path, set string) string {
	t.Helper()
	e, err := experiment.Load(path, experiment.OverridesFromEnv([]string{set}))
	if err != nil {
		t.Fatal(err)
	}
	return runner.MiB(runner.MemoryBytes(e, 0, []string{"csv", "xlsx"}))
}
