package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// reposTree is a repository of experiments as a user keeps one.
// It has a base in the folder that is valid only once extended, and one in
// base/. The first sets periods: 8, which leaves the default
// failure_period out.
var reposTree = map[string]string{
	"experiments/common.yaml":      "periods: 8\n",
	"experiments/job-c.yml":        "extends: common.yaml\nname: job-c\nfailure_period: 2026-05\n",
	"experiments/base/stream.yaml": "workers: 8\nintervals: [none, 4, 2]\n",
	"experiments/large.yaml":       "extends: base/stream.yaml\nname: large\nsubscribers: 400\n",
}

// binary returns a folder holding ckptlab, for shell steps that call
// ckptlab by name. That ckptlab is a script that runs the test binary as
// the command.
func binary(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	script := "#!/bin/sh\n" + mainEnv + "=1 exec '" + exe + "' -test.run='^TestHelperMain$' -- \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "ckptlab"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// process runs ckptlab in its own process, in dir.
func process(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := helper(t, args...)
	cmd.Dir = dir
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errorsAs(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

// TestRepositoryOfExperiments runs every command a user runs on a folder
// of experiments with bases, then forgets a name, and leaves a file empty.
func TestRepositoryOfExperiments(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := gitRepo(t, reposTree)
	base := "experiments/common.yaml: ok (a base, extended by experiments/job-c.yml)\n"
	steps := []struct {
		args []string
		code int
		want string // in stdout and stderr
	}{
		{[]string{"validate", "experiments/"}, 0, "experiments/job-c.yml: ok\nexperiments/large.yaml: ok\n" + base},
		{[]string{"validate", "experiments/common.yaml"}, 0, "experiments/common.yaml: ok (a base)\n"},
		{[]string{"plan", "experiments/"}, 0, "periods          8  # from common.yaml\n"},
		{[]string{"run", "-q", "--format", "csv", "-o", "out", "experiments/"}, 0, "ckptlab run: skipped experiments/common.yaml: a base, which has no name\n"},
		{[]string{"run", "--check", "--format", "csv", "-o", "out", "experiments/"}, 0, "are as the experiments give them"},
		{[]string{"diff", "--rev", "HEAD", "--format", "md", "experiments/"}, 0, "job-c"},
	}
	for _, s := range steps {
		code, stdout, stderr := process(t, dir, s.args...)
		if code != s.code || !strings.Contains(stdout+stderr, s.want) {
			t.Errorf("ckptlab %s = %d, want %d with %q:\n%s%s", strings.Join(s.args, " "), code, s.code, s.want, stdout, stderr)
		}
	}

	forgot := "experiments/forgot.yaml:1:1: has no name, and no experiment here extends it: add `name:` to run it\n"
	empty := "experiments/empty.yaml:1:1: is empty: it sets no key (want key: value lines, and name: to run it as an experiment)\n"
	for _, tt := range []struct{ file, src, want string }{
		{"forgot.yaml", "subscribers: 300\n", forgot},
		{"empty.yaml", "", empty},
	} {
		path := filepath.Join(dir, "experiments", tt.file)
		if err := os.WriteFile(path, []byte(tt.src), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"validate", "experiments/"},
			{"plan", "experiments/"},
			{"run", "-q", "-o", "out2", "experiments/"},
			{"run", "--check", "-o", "out", "experiments/"},
			{"diff", "--rev", "HEAD", "--format", "md", "experiments/"},
		} {
			code, stdout, stderr := process(t, dir, args...)
			if code != exitBadUser || stderr != tt.want || stdout != "" {
				t.Errorf("%s: ckptlab %s = %d\n%s%s\nwant 2 and\n%s", tt.file, strings.Join(args, " "), code, stdout, stderr, tt.want)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "out2")); err == nil {
			t.Errorf("%s: a refused run wrote out2", tt.file)
		}
		if tt.file == "empty.yaml" {
			code, stdout, stderr := process(t, dir, "validate", "experiments/empty.yaml")
			if code != exitBadUser || stderr != tt.want {
				t.Errorf("validate of an empty file by name = %d\n%s%s", code, stdout, stderr)
			}
		}
		os.Remove(path)
	}
}

// TestDiffRecipe runs the shell step of deploy/github/diff.yml as written,
// on a branch that changes a base. ckptlab stands for go run ./cmd/ckptlab.
// The step passes and says the change differs. A forgotten name fails it.
func TestDiffRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	yml, err := os.ReadFile(filepath.Join("..", "..", "deploy", "github", "diff.yml"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)run: \|\n((?:          .*?\n)+)`).FindSubmatch(yml)
	if m == nil {
		t.Fatal("no shell step in diff.yml")
	}
	step := strings.ReplaceAll(string(m[1]), "go run ./cmd/ckptlab", "ckptlab")
	if !strings.Contains(step, "ckptlab diff --rev origin/main") {
		t.Fatalf("the step runs no diff --rev origin/main:\n%s", step)
	}
	bin := binary(t)
	dir := gitRepo(t, reposTree)
	git(t, dir, "update-ref", "refs/remotes/origin/main", "HEAD")
	git(t, dir, "checkout", "-q", "-b", "change")
	os.WriteFile(filepath.Join(dir, "experiments", "base", "stream.yaml"), []byte("workers: 2\nintervals: [none, 4, 2]\n"), 0o644)

	shell := func() (code int, output, summary string, log string) {
		out, sum := filepath.Join(t.TempDir(), "output"), filepath.Join(t.TempDir(), "summary")
		cmd := exec.Command("bash", "-e", "-c", step)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
			"GITHUB_OUTPUT="+out, "GITHUB_STEP_SUMMARY="+sum)
		b, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if errorsAs(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		o, _ := os.ReadFile(out)
		s, _ := os.ReadFile(sum)
		return code, string(o), string(s), string(b)
	}
	code, output, summary, log := shell()
	if code != 0 || output != "differs=1\n" || !strings.Contains(summary, "large") || strings.Contains(summary, "common.yaml") {
		t.Errorf("the step on a changed base = %d, output %q\n%s\nsummary:\n%s", code, output, log, summary)
	}
	os.WriteFile(filepath.Join(dir, "experiments", "forgot.yaml"), []byte("subscribers: 300\n"), 0o644)
	code, _, _, log = shell()
	if code != exitBadUser || !strings.Contains(log, "experiments/forgot.yaml:1:1: has no name, and no experiment here extends it") {
		t.Errorf("the step with a forgotten name = %d, want 2 naming it:\n%s", code, log)
	}
}

// TestHintsThatWork follows the hints of ckptlab's messages as a user
// would, and checks that each does what it says.
func TestHintsThatWork(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	lesson, err := filepath.Abs(lessonFile)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tt := range []struct{ typed, want string }{
		{"rn", `ckptlab: unknown command "rn" for "ckptlab" (did you mean run?)`},
		{"valdiate", `ckptlab: unknown command "valdiate" for "ckptlab" (did you mean validate?)`},
		{"lesson.yaml", `ckptlab: unknown command "lesson.yaml" for "ckptlab" (to run the file, write ckptlab run lesson.yaml)`},
	} {
		code, _, stderr := process(t, dir, tt.typed, lesson)
		if code != exitBadUser || !strings.HasPrefix(stderr, tt.want+"\n") {
			t.Errorf("ckptlab %s = %d, %q; want 2 and %q", tt.typed, code, stderr, tt.want)
		}
	}

	// The value --max-points suggests passes every table.
	code, _, stderr := process(t, dir, "run", "-q", "--max-points", "10", "-o", "out", lesson)
	m := regexp.MustCompile(`raise the limit with --max-points (\d+) to run it`).FindStringSubmatch(stderr)
	if code != exitBadUser || m == nil {
		t.Fatalf("run over --max-points = %d, %q; want 2 and a --max-points to raise it to", code, stderr)
	}
	if code, _, stderr := process(t, dir, "run", "-q", "--max-points", m[1], "-o", "out", lesson); code != 0 {
		t.Errorf("run with the --max-points %s suggested = %d: %s", m[1], code, stderr)
	}

	// Every format in the help.
	for _, args := range [][]string{{"--help"}, {"run", "--help"}} {
		_, stdout, _ := process(t, dir, args...)
		if !strings.Contains(stdout, "csv,xlsx,md,json") {
			t.Errorf("ckptlab %s lacks csv,xlsx,md,json:\n%s", strings.Join(args, " "), stdout)
		}
	}
	_, stdout, _ := process(t, dir, "run", "--help")
	if !strings.Contains(stdout, "ckptlab run [-o OUT] [--set key=value]... [--format csv,xlsx,md,json]") {
		t.Errorf("run --help's usage line omits a format:\n%s", stdout)
	}

	// A missing base is named once.
	os.WriteFile(filepath.Join(dir, "x.yaml"), []byte("name: x\nextends: base/nope.yaml\n"), 0o644)
	code, _, stderr = process(t, dir, "validate", "x.yaml")
	if want := "x.yaml:2:10: extends: there is no file base/nope.yaml (want the path of an experiment file, relative to the folder of x.yaml)\n"; code != exitBadUser || stderr != want {
		t.Errorf("validate with a missing base = %d, %q; want %q", code, stderr, want)
	}
}

// TestRerunFromTheFolder runs the command experiment.yaml's header gives,
// twice, from the output folder. Each run replaces that folder with the
// same tables. A run from where it began still replaces it too.
func TestRerunFromTheFolder(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	lesson, err := filepath.Abs(lessonFile)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if code, _, stderr := process(t, dir, "run", "-q", "--format", "csv", "--set", "workers=2", "-o", "out", lesson); code != 0 {
		t.Fatal(stderr)
	}
	folder := filepath.Join(dir, "out", "lesson")
	first := setFiles(t, folder)
	m := regexp.MustCompile(`(?m)^# Run it again, from this folder, with: ckptlab (.*)$`).FindStringSubmatch(first["experiment.yaml"])
	if m == nil {
		t.Fatalf("experiment.yaml gives no command to run it again:\n%s", first["experiment.yaml"])
	}
	args := strings.Fields(m[1])
	for i := range 2 {
		code, stdout, stderr := process(t, folder, args...)
		if code != 0 {
			t.Fatalf("run %d of ckptlab %s in %s = %d\n%s%s", i+1, m[1], folder, code, stdout, stderr)
		}
		entries, _ := os.ReadDir(filepath.Join(dir, "out"))
		if len(entries) != 2 { // lesson and its lock file
			t.Errorf("out holds %d entries after run %d, want lesson and its lock", len(entries), i+1)
		}
		got := setFiles(t, folder) // fails on a folder written inside it
		for _, name := range []string{"grid.csv", "failures.csv", "decisions.csv", "breakeven.csv"} {
			if got[name] != first[name] {
				t.Errorf("run %d: %s differs from the first run's", i+1, name)
			}
		}
	}
	if code, _, stderr := process(t, dir, "run", "-q", "-o", "out", lesson); code != 0 {
		t.Errorf("a run from where the first began = %d: %s", code, stderr)
	}
}
