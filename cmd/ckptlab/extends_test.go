package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree writes files, path → contents, under a fresh folder and
// returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// sharedTree is a folder of two experiments and a base they share, and a
// base beside them.
var sharedTree = map[string]string{
	"exp/base/stream.yaml": "subscribers: 300\nworkers: [2, 4]\nintervals: [none, 6, 4]\n",
	"exp/common.yaml":      "extends: base/stream.yaml\nprobabilities: [1, 0.5]\n",
	"exp/a.yaml":           "extends: common.yaml\nname: a\n",
	"exp/b.yml":            "extends: base/stream.yaml\nname: b\nsubscribers: 400\n",
	"exp/notes.txt":        "not an experiment\n",
}

// TestFolderArgument runs, validates and plans a folder.
// Its files go in lexical order. The base among them is skipped and named
// on stderr.
func TestFolderArgument(t *testing.T) {
	dir := writeTree(t, sharedTree)
	exp := filepath.Join(dir, "exp")
	out := filepath.Join(dir, "out")
	code, stdout, stderr := ckptlab("run", "-q", "--format", "csv", "-o", out, exp)
	if code != 0 {
		t.Fatalf("run = %d\n%s%s", code, stdout, stderr)
	}
	if want := "ckptlab run: skipped " + filepath.Join(exp, "common.yaml") + ": a base, which has no name\n"; stderr != want {
		t.Errorf("stderr = %q, want %q", stderr, want)
	}
	if ia, ib := strings.Index(stdout, filepath.Join(out, "a", "grid.csv")), strings.Index(stdout, filepath.Join(out, "b", "grid.csv")); ia < 0 || ib < ia {
		t.Errorf("stdout, want a then b:\n%s", stdout)
	}
	yaml, err := os.ReadFile(filepath.Join(out, "a", "experiment.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"subscribers: [300]  # from base/stream.yaml\n", "probabilities: [1, 0.5]  # from common.yaml\n", "name: a\n"} {
		if !strings.Contains(string(yaml), want) {
			t.Errorf("experiment.yaml lacks %q:\n%s", want, yaml)
		}
	}
	if strings.Contains(string(yaml), "extends") {
		t.Errorf("experiment.yaml names extends:\n%s", yaml)
	}
	if code, stdout, stderr := ckptlab("run", "-q", "--check", "--format", "csv", "-o", out, exp); code != 0 {
		t.Errorf("run --check of the folder = %d\n%s%s", code, stdout, stderr)
	}

	code, stdout, stderr = ckptlab("validate", exp)
	want := filepath.Join(exp, "a.yaml") + ": ok\n" + filepath.Join(exp, "b.yml") + ": ok\n" + filepath.Join(exp, "common.yaml") + ": ok (a base, extended by " + filepath.Join(exp, "a.yaml") + ")\n"
	if code != 0 || stdout != want {
		t.Errorf("validate = %d\n%s%s\nwant\n%s", code, stdout, stderr, want)
	}
	code, stdout, _ = ckptlab("plan", exp)
	if code != 0 || !strings.Contains(stdout, "workers          2, 4  # from base/stream.yaml\n") || strings.Contains(stdout, "extends") {
		t.Errorf("plan = %d, want values from the base marked, and no extends:\n%s", code, stdout)
	}
}

// TestBaseRefused runs a base by name, and a folder whose experiments
// share a name.
func TestBaseRefused(t *testing.T) {
	dir := writeTree(t, sharedTree)
	common := filepath.Join(dir, "exp", "common.yaml")
	for _, cmd := range []string{"run", "plan", "merge"} {
		code, _, stderr := ckptlab(cmd, common)
		want := common + ":1:1: is a base: it has no name (want a name: line in it to run it, or run a file that extends it)\n"
		if code != exitBadUser || stderr != want {
			t.Errorf("%s of a base = %d, %q; want 2, %q", cmd, code, stderr, want)
		}
	}
	if code, _, _ := ckptlab("validate", common); code != 0 {
		t.Errorf("validate of a base = %d, want 0", code)
	}
	twice := writeTree(t, map[string]string{"x/one.yaml": "name: same\n", "x/two.yaml": "name: same\nworkers: 2\n"})
	code, _, stderr := ckptlab("plan", filepath.Join(twice, "x"))
	if code != exitBadUser || !strings.Contains(stderr, "two.yaml: name: same is also the name of "+filepath.Join(twice, "x", "one.yaml")) {
		t.Errorf("plan of two experiments named same = %d, %q", code, stderr)
	}
	bases := writeTree(t, map[string]string{"x/base.yaml": "workers: 2\n"})
	code, _, stderr = ckptlab("run", filepath.Join(bases, "x"))
	if code != exitBadUser || !strings.Contains(stderr, "base.yaml:1:1: has no name, and no experiment here extends it: add `name:` to run it") {
		t.Errorf("run of a folder of bases = %d, %q", code, stderr)
	}
}

// TestBaseChangesHash checks that the resolved experiment, and so the
// hash, follows a base. --check of a file whose base changed differs.
func TestBaseChangesHash(t *testing.T) {
	dir := writeTree(t, sharedTree)
	out := filepath.Join(dir, "out")
	a := filepath.Join(dir, "exp", "a.yaml")
	if code, _, stderr := ckptlab("run", "-q", "--format", "csv", "-o", out, a); code != 0 {
		t.Fatal(stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "exp", "base", "stream.yaml"), []byte("subscribers: 301\nworkers: [2, 4]\nintervals: [none, 6, 4]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := ckptlab("run", "-q", "--check", "--format", "csv", "-o", out, a)
	if code != exitFailed || !strings.Contains(stdout, "experiment.yaml") {
		t.Errorf("--check after the base changed = %d, want 1 naming experiment.yaml:\n%s", code, stdout)
	}
}
