package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"ckptlab/compare"
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
// the folder now: a base changed, a file deleted, one added.
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
	// escape.yaml at HEAD extends a file outside the repository: refused
	// when read at that revision.
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
	var r compare.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != exitFailed || len(r.Experiments) != 1 || r.Experiments[0].Status != compare.StatusChanged {
		t.Errorf("json = %d, %v: %+v", code, err, r)
	}
	code, stdout, _ = ckptlab("diff", "--rev", "HEAD", "--format", "md", "experiments/")
	if code != exitFailed || !strings.HasPrefix(stdout, "## ckptlab diff: 3 of 4 experiments changed\n") {
		t.Errorf("md = %d:\n%s", code, stdout)
	}
}

// TestDiffBadInput: every mistake exits 2 with a message that says what
// to do.
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
