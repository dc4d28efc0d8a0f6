//go:build linux

package main

// The adversarial suite: every promise of the README's "The output folder"
// and "Scaling out" sections, attacked as a careless user, a hostile one
// and a crashing machine would. Each attack asserts that no byte of the
// user's data, nor of the set the folder held before, was lost. It is
// built on Linux only: it mounts a tmpfs, makes FIFOs and stops processes
// with SIGSTOP.
//
// Attacks of other files: TestConcurrentRuns and TestKilledRuns
// (folder_test.go: many runs at once, SIGKILL at random moments of runs),
// TestInterruptedRun (signal_test.go: SIGKILL, SIGINT and SIGTERM in each
// phase of a write), TestSignalAtStart (signal_test.go: a signal at the
// first moments and in a blocking read), TestShardsKilled
// (run_shard_test.go), TestHostileFiles and TestHostileBases
// (readers_test.go: every hostile file against every reader, and hostile
// bases, under a memory cap and a timeout). Forged and
// hostile shard files are attacked in runner (shard_forge_test.go,
// TestMergeRefuses), hostile files for --check in results.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// snapshot returns every entry under root, by path relative to root, with
// what it is. That is a file's mode and bytes, a link's target, a folder,
// or anything else by its kind. Two snapshots are equal when not one byte
// changed.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		fi, err := os.Lstat(path)
		if err != nil {
			return err
		}
		switch m := fi.Mode(); {
		case m&fs.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			out[rel] = "link → " + target
		case m.IsDir():
			out[rel] = "folder"
		case m.IsRegular():
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			out[rel] = fmt.Sprintf("file %v %s", m.Perm(), data)
		default:
			out[rel] = "special " + m.String()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameSnapshot fails the test with the entries that differ.
func sameSnapshot(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for k, v := range before {
		if w, ok := after[k]; !ok {
			t.Errorf("%s: %s is gone", what, k)
		} else if w != v {
			t.Errorf("%s: %s changed (%.60q → %.60q)", what, k, v, w)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			t.Errorf("%s: %s appeared", what, k)
		}
	}
}

// bounded runs ckptlab in a process of its own and returns its exit code
// and output. A process that does not end within a minute has hung on
// something, such as a FIFO or a lock. It is killed and the test fails.
func bounded(t *testing.T, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := helper(t, args...)
	cmd.Env = append(cmd.Env, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		cmd.Process.Kill()
		<-done
		t.Fatalf("ckptlab %v hung; stderr: %s", args, errb.String())
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), out.String(), errb.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, out.String(), errb.String()
}

// exp writes an experiment file of the given name and extra lines, two
// probabilities unless they say otherwise.
func exp(t *testing.T, dir, file, name, extra string) string {
	t.Helper()
	path := filepath.Join(dir, file)
	os.MkdirAll(filepath.Dir(path), 0o755)
	if !strings.Contains(extra, "probabilities:") {
		extra = "probabilities: [1, 0.5]\n" + extra
	}
	if err := os.WriteFile(path, []byte("name: "+name+"\n"+extra), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestFoldersNotOurs attacks the rule of what a run may replace.
// It puts other things where OUT/<name> or its lock file should be.
// They are folders of the user's files, folders holding the run's own
// input, links, files and more. Every command that writes (run, run --shard, merge) must
// refuse and exit 2. It must name the folder and an -o that avoids it.
// It must change nothing under the root.
func TestFoldersNotOurs(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts processes")
	}
	tests := []struct {
		name    string
		prepare func(t *testing.T, root string) (out, file string)
		want    string
	}{
		{"a source folder holding the experiment", func(t *testing.T, root string) (string, string) {
			os.MkdirAll(filepath.Join(root, "src"), 0o755)
			os.WriteFile(filepath.Join(root, "src", "keep.txt"), []byte("x\n"), 0o644)
			return root, exp(t, root, "src/exp.yaml", "src", "")
		}, "holds "},
		{"the folder of the experiment file alone", func(t *testing.T, root string) (string, string) {
			return root, exp(t, root, "lesson/exp.yaml", "lesson", "")
		}, "an input of this run"},
		{"the folder of a base the experiment extends", func(t *testing.T, root string) (string, string) {
			os.MkdirAll(filepath.Join(root, "out", "x"), 0o755)
			os.WriteFile(filepath.Join(root, "out", "x", "base.yaml"), []byte("workers: 2\n"), 0o644)
			return filepath.Join(root, "out"), exp(t, root, "x.yaml", "x", "extends: out/x/base.yaml\n")
		}, "an input of this run"},
		{"a folder of the user's notes", func(t *testing.T, root string) (string, string) {
			os.MkdirAll(filepath.Join(root, "out", "x", "notes"), 0o755)
			os.WriteFile(filepath.Join(root, "out", "x", "notes", "a.md"), []byte("mine"), 0o600)
			return filepath.Join(root, "out"), exp(t, root, "x.yaml", "x", "")
		}, "holds notes, which no ckptlab run wrote"},
		{"a set of ckptlab's with a note added", func(t *testing.T, root string) (string, string) {
			out := filepath.Join(root, "out")
			file := exp(t, root, "x.yaml", "x", "")
			if code, _, stderr := ckptlab("run", "-q", "-o", out, file); code != exitOK {
				t.Fatal(stderr)
			}
			os.WriteFile(filepath.Join(out, "x", "NOTES.txt"), []byte("do not lose"), 0o644)
			return out, file
		}, "holds NOTES.txt, which no ckptlab run wrote"},
		{"a table of the set replaced by a link to the user's file", func(t *testing.T, root string) (string, string) {
			out := filepath.Join(root, "out")
			file := exp(t, root, "x.yaml", "x", "")
			if code, _, stderr := ckptlab("run", "-q", "-o", out, file); code != exitOK {
				t.Fatal(stderr)
			}
			os.WriteFile(filepath.Join(root, "precious.csv"), []byte("mine"), 0o644)
			os.Remove(filepath.Join(out, "x", "grid.csv"))
			os.Symlink(filepath.Join(root, "precious.csv"), filepath.Join(out, "x", "grid.csv"))
			return out, file
		}, "holds grid.csv, which no ckptlab run wrote"},
		{"a link to the user's folder", func(t *testing.T, root string) (string, string) {
			os.MkdirAll(filepath.Join(root, "home"), 0o755)
			os.WriteFile(filepath.Join(root, "home", "thesis.tex"), []byte("years of work"), 0o644)
			os.MkdirAll(filepath.Join(root, "out"), 0o755)
			os.Symlink(filepath.Join(root, "home"), filepath.Join(root, "out", "x"))
			return filepath.Join(root, "out"), exp(t, root, "x.yaml", "x", "")
		}, "is a symbolic link"},
		{"a link to an empty folder", func(t *testing.T, root string) (string, string) {
			os.MkdirAll(filepath.Join(root, "empty"), 0o755)
			os.MkdirAll(filepath.Join(root, "out"), 0o755)
			os.Symlink(filepath.Join(root, "empty"), filepath.Join(root, "out", "x"))
			return filepath.Join(root, "out"), exp(t, root, "x.yaml", "x", "")
		}, "is a symbolic link"},
		{"a file where the folder goes", func(t *testing.T, root string) (string, string) {
			os.MkdirAll(filepath.Join(root, "out"), 0o755)
			os.WriteFile(filepath.Join(root, "out", "x"), []byte("a file"), 0o644)
			return filepath.Join(root, "out"), exp(t, root, "x.yaml", "x", "")
		}, "is a regular file, not a folder of results"},
		{"a FIFO as the lock file", func(t *testing.T, root string) (string, string) {
			os.MkdirAll(filepath.Join(root, "out"), 0o755)
			if err := syscall.Mkfifo(filepath.Join(root, "out", ".x.lock"), 0o644); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(root, "out"), exp(t, root, "x.yaml", "x", "")
		}, "a FIFO where ckptlab keeps the folder's lock file"},
		{"a dangling link as the lock file", func(t *testing.T, root string) (string, string) {
			os.MkdirAll(filepath.Join(root, "out"), 0o755)
			os.Symlink(filepath.Join(root, "elsewhere", "created"), filepath.Join(root, "out", ".x.lock"))
			return filepath.Join(root, "out"), exp(t, root, "x.yaml", "x", "")
		}, "a symbolic link where ckptlab keeps the folder's lock file"},
	}
	commands := []struct {
		name string
		args func(out, file string) []string
	}{
		{"run", func(out, file string) []string { return []string{"run", "-q", "-o", out, file} }},
		{"shard", func(out, file string) []string { return []string{"run", "-q", "--shard", "1/2", "-o", out, file} }},
		{"merge", func(out, file string) []string { return []string{"merge", "-q", "-o", out, file} }},
	}
	for _, tt := range tests {
		for _, c := range commands {
			t.Run(tt.name+"/"+c.name, func(t *testing.T) {
				root := t.TempDir()
				out, file := tt.prepare(t, root)
				before := snapshot(t, root)
				code, _, stderr := bounded(t, nil, c.args(out, file)...)
				if code != exitBadUser || !strings.Contains(stderr, tt.want) {
					t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, tt.want)
				}
				if !strings.Contains(stderr, filepath.Join(out, "x")) && !strings.Contains(stderr, filepath.Join(root, "src")) && !strings.Contains(stderr, filepath.Join(root, "lesson")) {
					t.Errorf("stderr %q names no folder", stderr)
				}
				if !strings.Contains(stderr, "write elsewhere with -o ") {
					t.Errorf("stderr %q names no -o that avoids the folder", stderr)
				}
				sameSnapshot(t, "the root", before, snapshot(t, root))
			})
		}
	}
}

// TestFolderSuggestedWorks checks that the -o a refusal names does take
// the run, and leaves the refused folder as it was.
func TestFolderSuggestedWorks(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root) // the -o named is relative: out, in the folder of the run
	os.MkdirAll(filepath.Join(root, "src"), 0o755)
	os.WriteFile(filepath.Join(root, "src", "keep.txt"), []byte("x\n"), 0o644)
	file := exp(t, root, "src/exp.yaml", "src", "")
	before := snapshot(t, filepath.Join(root, "src"))
	code, _, stderr := ckptlab("run", "-q", "-o", ".", "src/exp.yaml")
	_, other, ok := strings.Cut(stderr, "write elsewhere with -o ")
	if code != exitBadUser || !ok {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	other = strings.TrimSuffix(strings.TrimSpace(other), ")")
	if other != "out" {
		t.Errorf("the -o named is %q, want out", other)
	}
	if code, _, stderr := ckptlab("run", "-q", "-o", other, file); code != exitOK {
		t.Fatalf("run -o %s: exit %d: %s", other, code, stderr)
	}
	if _, err := os.Stat(filepath.Join(root, other, "src", "grid.csv")); err != nil {
		t.Error(err)
	}
	sameSnapshot(t, "src", before, snapshot(t, filepath.Join(root, "src")))
}

// TestLockFileAttacks puts a FIFO and a dangling link where the lock file
// goes, after a set was written. --check neither hangs nor follows them.
// Nothing appears outside OUT.
func TestLockFileAttacks(t *testing.T) {
	for _, kind := range []string{"FIFO", "dangling link"} {
		t.Run(kind, func(t *testing.T) {
			root := t.TempDir()
			out := filepath.Join(root, "out")
			file := exp(t, root, "x.yaml", "x", "")
			if code, _, stderr := ckptlab("run", "-q", "-o", out, file); code != exitOK {
				t.Fatal(stderr)
			}
			lock := filepath.Join(out, ".x.lock")
			os.Remove(lock)
			if kind == "FIFO" {
				syscall.Mkfifo(lock, 0o644)
			} else {
				os.Symlink(filepath.Join(root, "outside"), lock)
			}
			before := snapshot(t, root)
			code, _, stderr := bounded(t, nil, "run", "--check", "-o", out, file)
			if code == exitOK || !strings.Contains(stderr, ".x.lock") {
				t.Errorf("--check exited %d: %s", code, stderr)
			}
			sameSnapshot(t, "the root", before, snapshot(t, root))
		})
	}
}

// TestFewerFormats checks the promise of a run with fewer formats.
// The other formats' files stay, byte for byte, when the experiment and
// version are the same. Otherwise they go, each named on stderr.
func TestFewerFormats(t *testing.T) {
	root := t.TempDir()
	out := filepath.Join(root, "out")
	file := exp(t, root, "x.yaml", "x", "")
	if code, _, stderr := ckptlab("run", "-q", "-o", out, "--format", "csv,xlsx,md,json", file); code != exitOK {
		t.Fatal(stderr)
	}
	folder := filepath.Join(out, "x")
	before := snapshot(t, folder)
	code, _, stderr := ckptlab("run", "-q", "-o", out, "--format", "md", file)
	if code != exitOK || strings.Contains(stderr, "removed") {
		t.Fatalf("exit %d, stderr %q; want the other formats kept in silence", code, stderr)
	}
	sameSnapshot(t, "the same experiment in fewer formats", before, snapshot(t, folder))
	if code, _, stderr := ckptlab("run", "--check", "-o", out, "--format", "csv,xlsx,md,json", file); code != exitOK {
		t.Errorf("--check of every format after the md run: exit %d: %s", code, stderr)
	}

	code, _, stderr = ckptlab("run", "-q", "-o", out, "--format", "md", "--set", "workers=2", file)
	if code != exitOK {
		t.Fatal(stderr)
	}
	for _, name := range []string{"grid.csv", "failures.csv", "decisions.csv", "breakeven.csv", "x.xlsx", "x.json"} {
		if !strings.Contains(stderr, "ckptlab: removed "+filepath.Join(folder, name)+":") {
			t.Errorf("stderr does not name %s as removed:\n%s", name, stderr)
		}
		if _, err := os.Lstat(filepath.Join(folder, name)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s of another experiment is still there", name)
		}
	}
	if strings.Contains(stderr, "x.md") || strings.Contains(stderr, "experiment.yaml") {
		t.Errorf("stderr names a file the run wrote as removed:\n%s", stderr)
	}
}

// TestLeftoversRemoved leaves what killed processes leave.
// These are a shard's temporary file, and a run's staging folder holding
// the shards, killed between moving them and the swap. The last is a
// killed check's scratch folder. The next shard run, merge and check
// remove them, and merge finds the shards.
func TestLeftoversRemoved(t *testing.T) {
	root := t.TempDir()
	out := filepath.Join(root, "out")
	file := exp(t, root, "x.yaml", "x", "")
	for i := 1; i <= 2; i++ {
		if code, _, stderr := ckptlab("run", "-q", "--shard", fmt.Sprintf("%d/2", i), "-o", out, file); code != exitOK {
			t.Fatal(stderr)
		}
	}
	shards := filepath.Join(out, "x", "shards")
	shardBytes := snapshot(t, shards)
	tmp := filepath.Join(shards, ".1-of-2.tmp-4242")
	os.WriteFile(tmp, []byte("ckptlab shard file 1\ntool: half"), 0o644)
	if code, _, stderr := ckptlab("run", "-q", "--shard", "2/2", "-o", out, file); code != exitOK {
		t.Fatal(stderr)
	}
	if _, err := os.Lstat(tmp); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the next shard left %s", tmp)
	}
	// A run killed after it moved shards/ into its staging folder.
	stage := filepath.Join(out, ".x.tmp-99")
	os.MkdirAll(stage, 0o755)
	if err := os.Rename(shards, filepath.Join(stage, "shards")); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := ckptlab("merge", "-q", "-o", out, file); code != exitOK {
		t.Fatalf("merge after a killed swap: exit %d: %s", code, stderr)
	}
	sameSnapshot(t, "the shards", shardBytes, snapshot(t, shards))
	if _, err := os.Lstat(stage); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("merge left %s", stage)
	}

	// A check killed while it rendered the workbook left its scratch
	// folder, its lock no longer held.
	tmpdir := t.TempDir()
	dead := filepath.Join(tmpdir, "ckptlab-check-1234")
	os.MkdirAll(filepath.Join(dead, ".ckptlab-xlsx-5678"), 0o755)
	os.WriteFile(filepath.Join(dead, ".lock"), nil, 0o600)
	os.WriteFile(filepath.Join(dead, "want.xlsx"), []byte("half"), 0o644)
	legacy := filepath.Join(tmpdir, ".ckptlab-xlsx-111")
	os.MkdirAll(legacy, 0o755)
	os.WriteFile(filepath.Join(legacy, "sheet"), []byte("half"), 0o644)
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(legacy, old, old)
	code, _, stderr := bounded(t, []string{"TMPDIR=" + tmpdir}, "run", "--check", "-o", out, file)
	if code != exitOK {
		t.Fatalf("--check: exit %d: %s", code, stderr)
	}
	if entries, _ := os.ReadDir(tmpdir); len(entries) != 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the check left %v in TMPDIR", names)
	}
}

// TestCheckKilledLeavesNothingNextTime kills a check while it renders its
// workbook, at a seeded moment, and checks that the next check removes what
// it left in TMPDIR.
func TestCheckKilledLeavesNothingNextTime(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	root := t.TempDir()
	out := filepath.Join(root, "out")
	file := exp(t, root, "x.yaml", "x", "subscribers: 3000\nprobabilities: {from: 0, to: 1, step: 0.001}\n")
	if code, _, stderr := ckptlab("run", "-q", "-o", out, "--format", "xlsx", file); code != exitOK {
		t.Fatal(stderr)
	}
	tmpdir := t.TempDir()
	cmd := helper(t, "run", "--check", "-o", out, "--format", "xlsx", file)
	cmd.Env = append(cmd.Env, "TMPDIR="+tmpdir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	rendering := func() bool {
		m, _ := filepath.Glob(filepath.Join(tmpdir, "ckptlab-check-*", ".ckptlab-xlsx-*"))
		return len(m) > 0
	}
	if !waitFor(rendering, exited) {
		t.Skip("the check ended before it rendered its workbook")
	}
	cmd.Process.Signal(syscall.SIGKILL)
	<-exited
	if m, _ := filepath.Glob(filepath.Join(tmpdir, "ckptlab-check-*")); len(m) == 0 {
		t.Fatal("the killed check left nothing: the test kills too late")
	}
	if code, _, stderr := bounded(t, []string{"TMPDIR=" + tmpdir}, "run", "--check", "-o", out, "--format", "xlsx", file); code != exitOK {
		t.Fatalf("the next check: exit %d: %s", code, stderr)
	}
	if entries, _ := os.ReadDir(tmpdir); len(entries) != 0 {
		t.Errorf("TMPDIR holds %d entries after the next check", len(entries))
	}
}

// TestSameNameConcurrently runs two different experiment files of one
// name into one folder at once, round after round.
// Each time the folder holds one whole set of one of them, never a mix.
// Nothing is left beside it.
func TestSameNameConcurrently(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts many processes")
	}
	root := t.TempDir()
	a := exp(t, root, "a/exp.yaml", "same", "workers: 2\n")
	b := exp(t, root, "b/exp.yaml", "same", "workers: 3\nsubscribers: 400\n")
	var refs []map[string]string
	for _, f := range []string{a, b} {
		ref := t.TempDir()
		if code, _, stderr := ckptlab("run", "-q", "-o", ref, f); code != exitOK {
			t.Fatal(stderr)
		}
		refs = append(refs, snapshot(t, filepath.Join(ref, "same")))
	}
	out := filepath.Join(root, "out")
	for round := range 6 {
		var cmds []*exec.Cmd
		for i := range 4 {
			f := []string{a, b}[(round+i)%2]
			cmd := helper(t, "run", "-q", "-o", out, f)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			cmds = append(cmds, cmd)
		}
		for _, cmd := range cmds {
			if err := cmd.Wait(); err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		got := snapshot(t, filepath.Join(out, "same"))
		if !maps.Equal(got, refs[0]) && !maps.Equal(got, refs[1]) {
			t.Fatalf("round %d: the folder holds neither set whole: %v", round, slices.Sorted(maps.Keys(got)))
		}
		entries, _ := os.ReadDir(out)
		if len(entries) != 2 {
			t.Errorf("round %d: %d entries in OUT, want the folder and its lock", round, len(entries))
		}
	}
}

// TestSignalsDuringRunAndMerge kills runs and merges with SIGKILL at
// seeded random moments. It also stops and continues them with SIGSTOP
// and SIGCONT. After each, the folder holds the previous set or the new
// one, whole, with the shards byte for byte. The next run leaves nothing
// behind. A stopped process holds the lock. A run started meanwhile
// waits, and both end with a whole set.
func TestSignalsDuringRunAndMerge(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts many processes")
	}
	root := t.TempDir()
	out := filepath.Join(root, "out")
	file := exp(t, root, "x.yaml", "x", "subscribers: 2000\nprobabilities: {from: 0, to: 1, step: 0.0005}\n")
	for i := 1; i <= 2; i++ {
		if code, _, stderr := ckptlab("run", "-q", "--shard", fmt.Sprintf("%d/2", i), "-o", out, file); code != exitOK {
			t.Fatal(stderr)
		}
	}
	variants := [][]string{{"--format", "csv"}, {"--format", "csv,xlsx", "--set", "workers=2"}, {"--format", "md", "--set", "workers=3"}}
	var refs []map[string]string
	for _, v := range variants {
		ref := t.TempDir()
		if code, _, stderr := ckptlab(append(append([]string{"run", "-q", "-o", ref}, v...), file)...); code != exitOK {
			t.Fatal(stderr)
		}
		refs = append(refs, snapshot(t, filepath.Join(ref, "x")))
	}
	// The merge's sets are the run's, byte for byte.
	// Only the first variant merges, since --set changes the experiment the
	// shards are of.
	setOf := func() map[string]string {
		s := snapshot(t, filepath.Join(out, "x"))
		for k := range s {
			if k == "shards" || strings.HasPrefix(k, "shards"+string(filepath.Separator)) {
				delete(s, k)
			}
		}
		return s
	}
	if code, _, stderr := ckptlab("merge", "-q", "-o", out, "--format", "csv", file); code != exitOK {
		t.Fatal(stderr)
	}
	shards := snapshot(t, filepath.Join(out, "x", "shards"))
	rng := rand.New(rand.NewPCG(17, 4))
	midWrite := 0 // rounds whose process was killed while it wrote
	defer func() { t.Logf("%d of the 6 processes killed were killed while they wrote", midWrite) }()
	for round := range 12 {
		sig := []syscall.Signal{syscall.SIGKILL, syscall.SIGSTOP}[round%2]
		v := variants[round%len(variants)]
		args := append(append([]string{"run", "-q", "-o", out}, v...), file)
		if round%4 == 2 {
			args = []string{"merge", "-q", "-o", out, "--format", "csv", file}
		}
		var waiter *exec.Cmd
		if sig == syscall.SIGSTOP {
			waiter = helper(t, append(append([]string{"run", "-q", "-o", out}, variants[2]...), file)...)
		}
		cmd := helper(t, args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(400 * time.Millisecond))))
		cmd.Process.Signal(sig)
		if waiter != nil {
			if err := waiter.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Duration(rng.Int64N(int64(200 * time.Millisecond))))
			cmd.Process.Signal(syscall.SIGCONT)
		}
		err := cmd.Wait()
		if waiter != nil {
			if werr := waiter.Wait(); werr != nil {
				t.Fatalf("round %d: the run started while another was stopped: %v", round, werr)
			}
			if err != nil {
				t.Fatalf("round %d: the stopped and continued process: %v", round, err)
			}
		}
		if stale, _ := filepath.Glob(filepath.Join(out, ".x.tmp-*")); len(stale) > 0 {
			midWrite++
		}
		if got := setOf(); !slices.ContainsFunc(refs, func(r map[string]string) bool { return maps.Equal(r, got) }) {
			t.Fatalf("round %d (%v, %v): the folder holds no whole set: %v", round, sig, err, slices.Sorted(maps.Keys(got)))
		}
		sameSnapshot(t, fmt.Sprintf("round %d: the shards", round), shards, snapshot(t, filepath.Join(out, "x", "shards")))
		// The next run cleans up whatever the killed one left.
		if code, _, stderr := ckptlab(append(append([]string{"run", "-q", "-o", out}, variants[0]...), file)...); code != exitOK {
			t.Fatalf("round %d: the next run: %s", round, stderr)
		}
		if !maps.Equal(setOf(), refs[0]) {
			t.Fatalf("round %d: the next run's set is not whole", round)
		}
		if entries, _ := os.ReadDir(out); len(entries) != 2 {
			t.Errorf("round %d: %d entries in OUT after the next run, want the folder and its lock", round, len(entries))
		}
	}
}

// TestFullDisk writes a set into a small tmpfs, then a run that does not fit.
// The run fails with exit 1 and a hint. The previous set stays byte for
// byte as it was, with nothing left beside it. The test needs to mount a
// tmpfs, as root or in a user namespace where mounting works. Where it
// cannot, it is skipped and says so.
func TestFullDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("mounts a file system")
	}
	mnt := t.TempDir()
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=600k"); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v): the full-disk attack needs root or a user namespace", err)
	}
	defer syscall.Unmount(mnt, 0)
	root := t.TempDir()
	out := filepath.Join(mnt, "out")
	file := exp(t, root, "x.yaml", "x", "")
	if code, _, stderr := ckptlab("run", "-q", "-o", out, "--format", "csv", file); code != exitOK {
		t.Fatal(stderr)
	}
	before := snapshot(t, mnt)
	code, _, stderr := ckptlab("run", "-q", "-o", out, "--format", "csv,xlsx,md", "--set", "probabilities={from: 0, to: 1, step: 0.001}", file)
	if code != exitFailed || !strings.Contains(stderr, "no space left on device") || !strings.Contains(stderr, "the previous results are unchanged") {
		t.Errorf("exit %d, stderr %q; want 1 and the disk named full", code, stderr)
	}
	sameSnapshot(t, "the tmpfs", before, snapshot(t, mnt))
}
