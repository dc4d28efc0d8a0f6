package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ckptlab/diff"
)

// gitRepo makes a repository in a fresh folder with files committed, and
// changes the current folder to it for the test.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := writeTree(t, files)
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".")
	git(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "experiments")
	t.Chdir(dir)
	return dir
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestDiffRevision compares a folder of experiments at a git revision with
// the folder now. A base changed, a file was deleted, and one was added.
func TestDiffRevision(t *testing.T) {
	dir := gitRepo(t, map[string]string{
		"experiments/base/stream.yaml": "intervals: [none, 6, 4, 3, 2, 1]\n",
		"experiments/common.yaml":      "extends: base/stream.yaml\nworkers: 2\n",
		"experiments/a.yaml":           "extends: common.yaml\nname: a\n",
		"experiments/b.yaml":           "name: b\n",
		"experiments/gone.yaml":        "name: gone\n",
		"other/escape.yaml":            "extends: ../../outside.yaml\nname: escape\n",
	})
	exp := filepath.Join(dir, "experiments")
	os.WriteFile(filepath.Join(exp, "base", "stream.yaml"), []byte("intervals: [none, 6, 4, 3, 2, 1]\nstate_rows: 400\n"), 0o644)
	os.Remove(filepath.Join(exp, "gone.yaml"))
	os.WriteFile(filepath.Join(exp, "new.yaml"), []byte("name: new\n"), 0o644)

	code, stdout, stderr := ckptlab("diff", "--rev", "HEAD", "experiments")
	if code != exitFailed {
		t.Fatalf("diff --rev HEAD experiments = %d, want 1\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"a: HEAD:experiments/a.yaml → experiments/a.yaml\nsettings: 1 key differs\n  state_rows: [subscribers] (default) → [400] (from base/stream.yaml)",
		"p = 0.7500: expected total picks 6 → none (809.1 → 900.0)",
		"\nb: unchanged (HEAD:experiments/b.yaml → experiments/b.yaml, 24 points)\n",
		"gone: HEAD:experiments/gone.yaml is deleted",
		"new: experiments/new.yaml is new",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the report lacks %q:\n%s", want, stdout)
		}
	}
	// escape.yaml at HEAD extends a file outside the repository.
	// It is refused when read at that revision.
	code, _, stderr = ckptlab("diff", "HEAD:other/escape.yaml", "experiments/b.yaml")
	if code != exitBadUser || !strings.Contains(stderr, "outside the repository") {
		t.Errorf("a base outside the repository = %d, %q", code, stderr)
	}
	code, _, stderr = ckptlab("diff", "HEAD:../x.yaml", "experiments/b.yaml")
	if code != exitBadUser || !strings.Contains(stderr, "outside the repository") {
		t.Errorf("a path outside the repository = %d, %q", code, stderr)
	}

	code, stdout, _ = ckptlab("diff", "HEAD:experiments/b.yaml", "experiments/b.yaml")
	if code != exitOK {
		t.Errorf("an unchanged file = %d, want 0:\n%s", code, stdout)
	}
	code, _, stderr = ckptlab("diff", "--rev", "no-such-rev", "experiments")
	if code != exitBadUser || !strings.Contains(stderr, "no-such-rev is not a revision") {
		t.Errorf("an unknown revision = %d, %q", code, stderr)
	}

	code, stdout, _ = ckptlab("diff", "--rev", "HEAD", "--format", "json", "experiments/a.yaml")
	var r diff.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != exitFailed || len(r.Experiments) != 1 || r.Experiments[0].Status != diff.StatusChanged {
		t.Errorf("json = %d, %v: %+v", code, err, r)
	}
	code, stdout, _ = ckptlab("diff", "--rev", "HEAD", "--format", "md", "experiments/")
	if code != exitFailed || !strings.HasPrefix(stdout, "## ckptlab diff: 3 of 4 experiments changed\n") {
		t.Errorf("md = %d:\n%s", code, stdout)
	}
}

// TestDiffBadInput checks that every mistake exits 2 with a message that
// says what to do.
func TestDiffBadInput(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.yaml": "name: a\n", "bad.yaml": "name: b\nworkers: 0\n", "folder/x.txt": ""})
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", filepath.Join(dir, "a.yaml")}, "want OLD and NEW, got 1 argument"},
		{[]string{"diff", filepath.Join(dir, "a.yaml"), filepath.Join(dir, "nowhere")}, "no such file or folder (want an output folder, an experiment file, or REV:PATH"},
		{[]string{"diff", filepath.Join(dir, "a.yaml"), filepath.Join(dir, "folder")}, "is not an output folder of ckptlab"},
		{[]string{"diff", filepath.Join(dir, "a.yaml"), filepath.Join(dir, "bad.yaml")}, "workers: 0 is not a worker count (want >= 1)"},
		{[]string{"diff", "--format", "pdf", filepath.Join(dir, "a.yaml"), filepath.Join(dir, "a.yaml")}, "--format pdf is not a format of diff (want text, md, json)"},
		{[]string{"diff", "--rev", "HEAD"}, "--rev HEAD names no file"},
	} {
		code, _, stderr := ckptlab(tt.args...)
		if code != exitBadUser || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v = %d, %q; want 2 and %q", tt.args[1:], code, stderr, tt.want)
		}
	}
	a := filepath.Join(dir, "a.yaml")
	if code, _, _ := ckptlab("diff", a, a); code != exitOK {
		t.Errorf("diff of a file with itself = %d, want 0", code)
	}
	if code, _, _ := ckptlab("diff", "--set", "workers=8", a, a); code != exitOK {
		t.Errorf("diff with --set on both sides = %d, want 0", code)
	}
}

// TestDiffOutputFolders compares a folder a run wrote with an experiment
// file, and with a changed file.
func TestDiffOutputFolders(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.yaml": "name: a\n", "a5.yaml": "name: a\nintervals: [none, 6, 4, 3, 2]\n"})
	a, out := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "out")
	if code, _, stderr := ckptlab("run", "-q", "--format", "csv", "-o", out, a); code != 0 {
		t.Fatal(stderr)
	}
	if code, stdout, _ := ckptlab("diff", filepath.Join(out, "a"), a); code != exitOK {
		t.Errorf("a run against its file = %d:\n%s", code, stdout)
	}
	code, stdout, _ := ckptlab("diff", filepath.Join(out, "a"), filepath.Join(dir, "a5.yaml"))
	if code != exitFailed || !strings.Contains(stdout, "intervals: [none, 6, 4, 3, 2, 1] (default) → [none, 6, 4, 3, 2]; removed 1") ||
		!strings.Contains(stdout, "grid.csv: 20 points in both unchanged; 4 points only in the old side\n") {
		t.Errorf("a removed interval = %d:\n%s", code, stdout)
	}
}

// hugeFile is an experiment that run refuses at once, of 48,000,000 grid rows.
const hugeFile = "name: huge\nseeds: {from: 1, to: 100000}\nsubscribers: 1000000\nperiods: 120\nintervals: {from: 1, to: 120}\n"

// TestDiffLimits checks that diff refuses at once, with run's message, an
// experiment file that run refuses under --max-points or --max-memory.
// That holds on either side and in a folder at a revision.
// Diff refuses it before it evaluates any side.
func TestDiffLimits(t *testing.T) {
	dir := gitRepo(t, map[string]string{"a.yaml": "name: a\n", "huge.yaml": "name: huge\n", "folder/a.yaml": "name: a\n", "folder/huge.yaml": "name: huge\n"})
	os.WriteFile(filepath.Join(dir, "huge.yaml"), []byte(hugeFile), 0o644)
	os.WriteFile(filepath.Join(dir, "folder", "huge.yaml"), []byte(hugeFile), 0o644)
	for _, tt := range []struct {
		diff, run []string // the diff, and the run that refuses the same file
		file      string   // the file refused
	}{
		{[]string{"a.yaml", "huge.yaml"}, []string{"huge.yaml"}, "huge.yaml"},
		{[]string{"huge.yaml", "a.yaml"}, []string{"huge.yaml"}, "huge.yaml"},
		{[]string{"--rev", "HEAD", "folder"}, []string{filepath.Join("folder", "huge.yaml")}, filepath.Join("folder", "huge.yaml")},
		{[]string{"--max-points", "10", "a.yaml", "a.yaml"}, []string{"--max-points", "10", "a.yaml"}, "a.yaml"},
		{[]string{"--max-memory", "1", "a.yaml", "a.yaml"}, []string{"--max-memory", "1", "a.yaml"}, "a.yaml"},
	} {
		start := time.Now()
		code, stdout, stderr := ckptlab(append([]string{"diff"}, tt.diff...)...)
		took := time.Since(start)
		_, _, runErr := ckptlab(append([]string{"run", "-q", "--format", "csv", "-o", filepath.Join(dir, "out")}, tt.run...)...)
		why, ok := strings.CutPrefix(runErr, "ckptlab run: "+tt.file+": ")
		if !ok {
			t.Fatalf("run %v: %q", tt.run, runErr)
		}
		if code != exitBadUser || stdout != "" || stderr != "ckptlab diff: "+tt.file+": "+why {
			t.Errorf("diff %v = %d, %q, %q; want 2 and run's message %q", tt.diff, code, stdout, stderr, why)
		}
		if took > 10*time.Second {
			t.Errorf("diff %v took %v to refuse", tt.diff, took)
		}
	}
	if code, _, stderr := ckptlab("diff", "--max-points", "0", "a.yaml", "a.yaml"); code != exitBadUser || !strings.Contains(stderr, "--max-points 0 is not a number of rows") {
		t.Errorf("--max-points 0 = %d, %q", code, stderr)
	}
}

// TestDiffSet checks that --set applies to every experiment file on both
// sides. It is refused for an output folder.
func TestDiffSet(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.yaml": "name: a\n", "a300.yaml": "name: a\nstate_rows: 300\n"})
	t.Chdir(dir)
	if code, _, stderr := ckptlab("run", "-q", "--format", "csv", "-o", "out", "a.yaml"); code != 0 {
		t.Fatal(stderr)
	}
	for _, tt := range []struct {
		args []string
		code int
		want string // in stdout, or stderr for exit 2
	}{
		{[]string{"a.yaml", "a300.yaml"}, exitFailed, "state_rows: [subscribers] (default) → [300]"},
		{[]string{"--set", "state_rows=300", "a.yaml", "a300.yaml"}, exitOK, "a: unchanged (a.yaml → a300.yaml, 24 points)\n"},
		{[]string{"--set", "state_rows=300", "a300.yaml", "a.yaml"}, exitOK, "a: unchanged"},
		{[]string{"--set", "intervals=[none, 6]", "a.yaml", "a300.yaml"}, exitFailed, "state_rows: [subscribers] (default) → [300]"},
		{[]string{"--set", "state_rows=300", "out/a", "a.yaml"}, exitBadUser, "ckptlab diff: out/a: --set applies to experiment files, and out/a is an output folder"},
		{[]string{"--set", "state_rows=300", "a.yaml", "out/a"}, exitBadUser, "out/a is an output folder, read as a run wrote it (drop --set"},
		{[]string{"out/a", "a.yaml"}, exitOK, "a: unchanged"},
	} {
		code, stdout, stderr := ckptlab(append([]string{"diff"}, tt.args...)...)
		got := stdout
		if tt.code == exitBadUser {
			got = stderr
		}
		if code != tt.code || !strings.Contains(got, tt.want) {
			t.Errorf("diff %v = %d, want %d and %q:\n%s%s", tt.args, code, tt.code, tt.want, stdout, stderr)
		}
	}
}

// TestDiffRevPath checks that REV:PATH reads PATH from the repository's
// root, as git does. REV:./PATH reads it from the current folder.
func TestDiffRevPath(t *testing.T) {
	dir := gitRepo(t, map[string]string{"experiments/a.yaml": "name: a\n", "a.yaml": "name: a\nstate_rows: 300\n"})
	t.Chdir(filepath.Join(dir, "experiments"))
	for _, tt := range []struct {
		old  string
		code int
		want string
	}{
		{"HEAD:experiments/a.yaml", exitOK, "a: unchanged (HEAD:experiments/a.yaml → a.yaml"},
		{"HEAD:./a.yaml", exitOK, "a: unchanged (HEAD:./a.yaml → a.yaml"},
		{"HEAD:a.yaml", exitFailed, "state_rows: [300] → [subscribers] (default)"}, // the root's a.yaml
		{"HEAD:../a.yaml", exitFailed, "state_rows: [300] → [subscribers] (default)"},
		{"HEAD:nowhere.yaml", exitBadUser, "nowhere.yaml"},
	} {
		code, stdout, stderr := ckptlab("diff", tt.old, "a.yaml")
		if code != tt.code || !strings.Contains(stdout+stderr, tt.want) {
			t.Errorf("diff %s a.yaml = %d, want %d and %q:\n%s%s", tt.old, code, tt.code, tt.want, stdout, stderr)
		}
	}
	// --rev names files as the current folder does, and labels them as git.
	os.WriteFile("a.yaml", []byte("name: a\nworkers: 2\n"), 0o644)
	code, stdout, _ := ckptlab("diff", "--rev", "HEAD", "a.yaml")
	if code != exitFailed || !strings.HasPrefix(stdout, "a: HEAD:experiments/a.yaml → a.yaml\n") {
		t.Errorf("diff --rev HEAD a.yaml in experiments/ = %d:\n%s", code, stdout)
	}
}

// TestDiffRevGit checks that diff --rev starts git a bounded number of
// times, however many files it compares. It lists no whole tree.
// It runs nothing a hostile repository configures.
func TestDiffRevGit(t *testing.T) {
	files := map[string]string{"experiments/base/stream.yaml": "intervals: [none, 6, 4]\n", ".gitattributes": "*.yaml filter=evil diff=evil\n"}
	for i := range 12 {
		files[fmt.Sprintf("experiments/e%02d.yaml", i)] = fmt.Sprintf("name: e%02d\nextends: base/stream.yaml\n", i)
	}
	for i := range 100 {
		files[fmt.Sprintf("other/f%03d.txt", i)] = "x\n"
	}
	dir := gitRepo(t, files)
	realGit, _ := exec.LookPath("git")
	bin := t.TempDir()
	log := filepath.Join(bin, "log")
	os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\necho \"$1 $2\" >> "+log+"\nexec "+realGit+" \"$@\"\n"), 0o755)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	pwned := filepath.Join(dir, "pwned")
	for _, kv := range [][2]string{
		{"core.fsmonitor", "touch " + pwned}, {"core.pager", "touch " + pwned}, {"core.hooksPath", bin},
		{"diff.external", "touch " + pwned}, {"filter.evil.smudge", "touch " + pwned}, {"filter.evil.clean", "touch " + pwned},
		{"diff.evil.textconv", "touch " + pwned}, {"core.sshCommand", "touch " + pwned},
	} {
		git(t, dir, "config", kv[0], kv[1])
	}
	os.WriteFile(filepath.Join(dir, "experiments", "base", "stream.yaml"), []byte("intervals: [none, 6, 4, 3]\n"), 0o644)
	os.Remove(log)

	code, stdout, stderr := ckptlab("diff", "--rev", "HEAD", "experiments")
	if code != exitFailed || strings.Count(stdout, "intervals: [none, 6, 4] (from base/stream.yaml) → [none, 6, 4, 3]") != 12 {
		t.Fatalf("diff --rev HEAD experiments = %d:\n%s%s", code, stdout, stderr)
	}
	data, _ := os.ReadFile(log)
	calls := strings.Split(strings.TrimSpace(string(data)), "\n")
	t.Logf("git ran: %q", calls)
	if len(calls) > 3 || strings.Contains(string(data), "ls-tree") {
		t.Errorf("diff --rev of 12 files ran git %d times, want at most 3 and no ls-tree:\n%s", len(calls), data)
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Errorf("diff --rev ran a command the repository's configuration names")
	}
}

// TestDiffRevMarkdownFits checks diff --rev of a folder of many experiments
// that share a changed base. It writes Markdown under GitHub's limit of a
// comment, shortened, naming every experiment.
func TestDiffRevMarkdownFits(t *testing.T) {
	files := map[string]string{"experiments/base/stream.yaml": "intervals: [none, 6, 4, 3, 2, 1]\n"}
	const n = 150
	for i := range n {
		files[fmt.Sprintf("experiments/job-%03d.yaml", i)] = fmt.Sprintf("name: job-%03d\nextends: base/stream.yaml\n", i)
	}
	dir := gitRepo(t, files)
	os.WriteFile(filepath.Join(dir, "experiments", "base", "stream.yaml"), []byte("intervals: [none, 6, 4, 3, 2, 1]\nstate_rows: 400\n"), 0o644)
	code, md, stderr := ckptlab("diff", "--rev", "HEAD", "--format", "md", "experiments")
	if code != exitFailed {
		t.Fatalf("diff --rev = %d: %s", code, stderr)
	}
	if len(md) >= diff.MarkdownLimit || !strings.HasPrefix(md, "## ckptlab diff: 150 of 150 experiments changed\n\nShortened to fit") {
		t.Errorf("%d bytes of Markdown, want a shortened report under %d:\n%.400s", len(md), diff.MarkdownLimit, md)
	}
	for i := range n {
		if name := fmt.Sprintf("job-%03d", i); !strings.Contains(md, "### "+strings.ReplaceAll(name, "_", `\_`)+"\n") && !strings.Contains(md, "| "+name+" |") {
			t.Errorf("%s is not named", name)
		}
	}
}
