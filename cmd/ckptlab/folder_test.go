package main

import (
	"bytes"
	"ckptlab/folder"
	"context"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// helper returns a command that runs ckptlab with args in a process of its own.
// The process is the test binary, which TestHelperMain turns into the command.
func helper(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, append([]string{"-test.run=^TestHelperMain$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	return cmd
}

// setFiles returns the files of the folder, name to content, and fails if
// it holds anything else than files.
func setFiles(t *testing.T, folder string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(folder)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		if e.Name() == "shards" {
			continue
		}
		if !e.Type().IsRegular() {
			t.Fatalf("%s holds %s, which is not a file", folder, e.Name())
		}
		data, err := os.ReadFile(filepath.Join(folder, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(data)
	}
	return out
}

// whichSet returns the index of the set in sets the folder holds, byte for
// byte and nothing else, or -1.
func whichSet(t *testing.T, folder string, sets []map[string]string) int {
	t.Helper()
	got := setFiles(t, folder)
	for i, s := range sets {
		if maps.Equal(got, s) {
			return i
		}
	}
	return -1
}

// variants are runs of the lesson that write different sets, with other
// formats or other settings.
var variants = [][]string{
	{"--format", "csv,xlsx"},
	{"--format", "csv", "--set", "state_rows=999"},
	{"--format", "md", "--set", "workers=2"},
	{"--format", "csv,md", "--set", "probabilities=[0.5]"},
}

// referenceSets writes each variant once, alone, and returns its files.
func referenceSets(t *testing.T) []map[string]string {
	t.Helper()
	var sets []map[string]string
	for _, v := range variants {
		out := t.TempDir()
		args := append(append([]string{"run", "-q", "-o", out}, v...), lessonFile)
		if code, _, stderr := ckptlab(args...); code != exitOK {
			t.Fatalf("%v exited %d: %s", args, code, stderr)
		}
		sets = append(sets, setFiles(t, filepath.Join(out, "lesson")))
	}
	return sets
}

// checkBeside fails if the output folder holds more than the set's folder
// and its lock. Anything more is a staging folder a run left.
func checkBeside(t *testing.T, out string) {
	t.Helper()
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "lesson" && e.Name() != ".lesson.lock" {
			t.Errorf("%s is left in the output folder", e.Name())
		}
	}
}

// TestConcurrentRuns starts several processes on one folder at once, round
// after round, each writing another set. Every run must exit 0.
// The folder must then hold exactly one of the sets, byte for byte, with
// its shards untouched and nothing left beside it.
// Every other round starts without the lock file. A folder copied or
// restored without its dot files is like that. The runs' checks before
// their work then read the folder while the round's first write begins,
// and that write may be swapping it.
func TestConcurrentRuns(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts many processes")
	}
	sets := referenceSets(t)
	out := t.TempDir()
	shard := filepath.Join(out, "lesson", "shards", "1-of-1")
	os.MkdirAll(filepath.Dir(shard), 0o755)
	os.WriteFile(shard, []byte("a shard"), 0o644)
	const rounds, procs = 12, 8
	seen := map[int]bool{}
	for round := range rounds {
		if round%2 == 0 {
			if err := os.Remove(folder.LockPath(out, "lesson")); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
		}
		cmds := make([]*exec.Cmd, procs)
		errs := make([]bytes.Buffer, procs)
		for i := range cmds {
			v := variants[(round+i)%len(variants)]
			cmds[i] = helper(t, append(append([]string{"run", "-q", "-o", out}, v...), lessonFile)...)
			cmds[i].Stderr = &errs[i]
			if err := cmds[i].Start(); err != nil {
				t.Fatal(err)
			}
		}
		for i, cmd := range cmds {
			if err := cmd.Wait(); err != nil {
				t.Fatalf("round %d: run %d: %v: %s", round, i, err, errs[i].String())
			}
		}
		n := whichSet(t, filepath.Join(out, "lesson"), sets)
		if n < 0 {
			t.Fatalf("round %d: the folder holds %v, not the files of one run", round, keys(setFiles(t, filepath.Join(out, "lesson"))))
		}
		seen[n] = true
		checkBeside(t, out)
		if data, _ := os.ReadFile(shard); string(data) != "a shard" {
			t.Fatalf("round %d: the shard holds %q", round, data)
		}
	}
	t.Logf("the folder held sets %v after the rounds", seen)
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestKilledRuns kills runs at random moments with SIGKILL.
// The folder must hold one run's set whenever a run is killed.
// The next run must leave its own set and nothing else.
func TestKilledRuns(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts many processes")
	}
	sets := referenceSets(t)
	out := t.TempDir()
	if code, _, stderr := ckptlab(append(append([]string{"run", "-q", "-o", out}, variants[0]...), lessonFile)...); code != exitOK {
		t.Fatal(stderr)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var killedWriting int
	for round := range 20 {
		v := variants[(round+1)%len(variants)]
		cmd := helper(t, append(append([]string{"run", "-q", "-o", out}, v...), lessonFile)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.IntN(250)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		if stale, _ := filepath.Glob(filepath.Join(out, ".lesson.tmp-*")); len(stale) > 0 {
			killedWriting++
		}
		if whichSet(t, filepath.Join(out, "lesson"), sets) < 0 {
			t.Fatalf("round %d: killed (%v), the run left %v, not the files of one run", round, err, keys(setFiles(t, filepath.Join(out, "lesson"))))
		}
		next := variants[(round+2)%len(variants)]
		if code, _, stderr := ckptlab(append(append([]string{"run", "-q", "-o", out}, next...), lessonFile)...); code != exitOK {
			t.Fatal(stderr)
		}
		if got, want := whichSet(t, filepath.Join(out, "lesson"), sets), (round+2)%len(variants); got != want {
			t.Fatalf("round %d: after the next run the folder holds set %d, want %d", round, got, want)
		}
		checkBeside(t, out)
	}
	t.Logf("%d of 20 runs were killed while they wrote", killedWriting)
}

// TestDiskFull writes a set into a tmpfs of 1 MiB, then a run too large for it.
// The run must fail with exit 1 and a message that says what to do.
// It must leave the first set and no staging folder.
// The test needs to mount a file system, and skips where it cannot.
func TestDiskFull(t *testing.T) {
	if testing.Short() {
		t.Skip("mounts a file system")
	}
	out := t.TempDir()
	if err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", out).Run(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	defer exec.Command("umount", out).Run()
	code, _, stderr := ckptlab("run", "-q", "-o", out, "--format", "csv", lessonFile)
	if code != exitOK {
		t.Fatalf("a small run exited %d: %s", code, stderr)
	}
	before := setFiles(t, filepath.Join(out, "lesson"))
	code, _, stderr = ckptlab("run", "-q", "-o", out, "--format", "csv,md", "--set", "probabilities={from: 0, to: 1, step: 0.0002}", lessonFile)
	if code != exitFailed || !strings.Contains(stderr, "no space left on device") || !strings.Contains(stderr, "free space") {
		t.Errorf("a run too large for the disk exited %d, want %d and a message saying to free space; stderr: %s", code, exitFailed, stderr)
	}
	if after := setFiles(t, filepath.Join(out, "lesson")); !maps.Equal(before, after) {
		t.Errorf("the failed run changed the folder: %v", keys(after))
	}
	checkBeside(t, out)
}

// syncBuffer is a buffer two goroutines can share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRunSaysItWaits holds the folder's lock as another run would.
// Run must say on stderr that it waits, then write once the lock is free.
func TestRunSaysItWaits(t *testing.T) {
	out := t.TempDir()
	unlock, err := folder.Lock(context.Background(), out, "lesson", nil)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr syncBuffer
	done := make(chan int)
	go func() {
		done <- Main([]string{"run", "-q", "-o", out, "--format", "csv", lessonFile}, &stdout, &stderr)
	}()
	want := "ckptlab run: another ckptlab is writing " + filepath.Join(out, "lesson") + "; waiting for it to finish (Ctrl-C to give up)\n"
	for stderr.String() != want {
		select {
		case code := <-done:
			t.Fatalf("run exited %d while the folder was locked; stderr: %s", code, stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if _, err := os.Stat(filepath.Join(out, "lesson")); err == nil {
		t.Error("run wrote its folder while another held the lock")
	}
	unlock()
	if code := <-done; code != exitOK {
		t.Errorf("run exited %d; stderr: %s", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out, "lesson", "grid.csv")); err != nil {
		t.Errorf("run wrote no grid.csv once the lock was free: %v", err)
	}
}
