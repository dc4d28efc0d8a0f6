package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// reposTree is a repository of experiments as a user keeps one: a base in
// the folder that is valid only once extended (periods: 8 leaves the
// default failure_period out), and one in base/.
var reposTree = map[string]string{
	"experiments/common.yaml":      "periods: 8\n",
	"experiments/job-c.yml":        "extends: common.yaml\nname: job-c\nfailure_period: 2026-05\n",
	"experiments/base/stream.yaml": "workers: 8\nintervals: [none, 4, 2]\n",
	"experiments/large.yaml":       "extends: base/stream.yaml\nname: large\nsubscribers: 400\n",
}

// binary returns a folder holding ckptlab, a script that runs the test
// binary as the command, for shell steps that call ckptlab by name.
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
// on a branch that changes a base, with ckptlab for go run ./cmd/ckptlab:
// the step passes and says the change differs; a forgotten name fails it.
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
