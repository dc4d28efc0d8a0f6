package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ckptlab/runner"
)

// shardCase is an experiment run in shards, with the environment each
// engine gives task k (0-based) of n.
type shardCase struct {
	name, engine string
	args         []string // the experiment file and its --set overrides
	n            int
	env          func(k, n int) []string
	shard        string // the --shard value
}

var shardCases = []shardCase{
	{"lesson", "Kubernetes", []string{lessonFile}, 3,
		func(k, n int) []string { return []string{fmt.Sprintf("JOB_COMPLETION_INDEX=%d", k)} }, "auto/3"},
	{"faults", "Slurm", []string{filepath.Join("..", "..", "experiments", "faults.yaml")}, 4,
		func(k, n int) []string {
			return []string{fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", 10+k), "SLURM_ARRAY_TASK_MIN=10", fmt.Sprintf("SLURM_ARRAY_TASK_COUNT=%d", n)}
		}, "auto"},
	{"sources", "AWS Batch", []string{filepath.Join("testdata", "golden", "sources", "experiment.yaml")}, 3,
		func(k, n int) []string {
			return []string{fmt.Sprintf("AWS_BATCH_JOB_ARRAY_INDEX=%d", k), fmt.Sprintf("AWS_BATCH_JOB_ARRAY_SIZE=%d", n)}
		}, "auto"},
	{"one large source", "Cloud Run", []string{"--set", "subscribers=[30, 60000]", "--set", "missing=30", "--set", "duplicates=20",
		"--set", "partition_key=[subscriber, type]", "--set", "workers=[3, 8]", lessonFile}, 4,
		func(k, n int) []string {
			return []string{fmt.Sprintf("CLOUD_RUN_TASK_INDEX=%d", k), fmt.Sprintf("CLOUD_RUN_TASK_COUNT=%d", n)}
		}, "auto"},
	{"matrix", "a CI matrix", []string{"--set", "seeds=[1, 2, 3, 4, 5]", lessonFile}, 2,
		func(k, n int) []string { return nil }, ""},
}

// engineVars are the variables of every engine.
// A test's subprocess gets only those of the engine it plays.
var engineVars = []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN",
	"SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_STEP", "AWS_BATCH_JOB_ARRAY_INDEX", "AWS_BATCH_JOB_ARRAY_SIZE",
	"CLOUD_RUN_TASK_INDEX", "CLOUD_RUN_TASK_COUNT"}

// shardProcess returns the command running ckptlab with args in a process
// of its own, with the extra environment. The process is the test binary
// (see TestHelperMain).
func shardProcess(t *testing.T, env []string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, append([]string{"-test.run=^TestHelperMain$", "--"}, args...)...)
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(engineVars, name)
	})
	cmd.Env = append(cmd.Env, append(env, mainEnv+"=1")...)
	return cmd
}

// TestShardsAsProcesses runs each case's shards as concurrent processes in
// its engine's environment, merges them, and checks every file against one
// unsharded run, byte for byte.
func TestShardsAsProcesses(t *testing.T) {
	t.Parallel()
	formats := []string{"--format", "csv,xlsx,md"}
	for _, c := range shardCases {
		t.Run(c.name+" on "+c.engine, func(t *testing.T) {
			out, ref := t.TempDir(), t.TempDir()
			var wg sync.WaitGroup
			for k := range c.n {
				shard := c.shard
				if shard == "" {
					shard = fmt.Sprintf("%d/%d", k+1, c.n)
				}
				cmd := shardProcess(t, c.env(k, c.n), append([]string{"run", "-q", "-o", out, "--shard", shard}, c.args...)...)
				wg.Go(func() {
					if b, err := cmd.CombinedOutput(); err != nil {
						t.Errorf("task %d: %v: %s", k, err, b)
					}
				})
			}
			wg.Wait()
			if t.Failed() {
				return
			}
			var merged, ran, stderr bytes.Buffer
			if code := Main(slices.Concat([]string{"merge", "-o", out}, formats, c.args), &merged, &stderr); code != 0 {
				t.Fatalf("merge exited %d: %s", code, stderr.String())
			}
			if code := Main(slices.Concat([]string{"run", "-q", "-o", ref}, formats, c.args), &ran, &stderr); code != 0 {
				t.Fatalf("run exited %d: %s", code, stderr.String())
			}
			sameFiles(t, ref, out)
			if got := strings.ReplaceAll(merged.String(), out, ref); got != ran.String() {
				t.Errorf("merge printed\n%s\nwant what run prints:\n%s", got, ran.String())
			}
		})
	}
}

// sameFiles checks that every file of every experiment folder in ref is in
// out with the same bytes.
func sameFiles(t *testing.T, ref, out string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(ref, "*", "*"))
	if len(files) == 0 {
		t.Fatal("the unsharded run wrote nothing")
	}
	for _, path := range files {
		rel, _ := filepath.Rel(ref, path)
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(out, rel))
		if err != nil {
			t.Errorf("merge: %v", err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the merge wrote %d bytes that differ from one run's %d", rel, len(got), len(want))
		}
	}
}

// TestShardExitCodes checks the refusals of run --shard and merge.
// Bad usage exits 2, and missing or damaged shard files exit 1.
// Each comes with a message that says what to do.
func TestShardExitCodes(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"run", "-q", "-o", out, "--shard", "2/4", lessonFile}, &stdout, &stderr); code != 0 {
		t.Fatalf("run --shard 2/4 exited %d: %s", code, stderr.String())
	}
	path := filepath.Join(out, "lesson", "shards", "2-of-4")
	if strings.TrimSpace(stdout.String()) != path {
		t.Errorf("run --shard printed %q, want the shard file's path %q", stdout.String(), path)
	}
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run", "-o", out, "--shard", "5/4", lessonFile}, exitBadUser, "shard 5 of 4 does not exist"},
		{[]string{"run", "-o", out, "--shard", "0/4", lessonFile}, exitBadUser, "shard 0 of 4 does not exist"},
		{[]string{"run", "-o", out, "--shard", "2/4", "--check", lessonFile}, exitBadUser, "a shard writes none"},
		{[]string{"run", "-q", "-o", out, "--shard", "2/4", lessonFile}, exitOK, "already complete for this experiment; not recomputed"},
		{[]string{"merge", "-o", out, lessonFile}, exitFailed, "3 of 4 shard files missing: 1, 3, 4"},
		{[]string{"merge", "-o", out, "--set", "state_rows=400", lessonFile}, exitFailed, "made from another experiment"},
		{[]string{"merge", "-o", out, "no-such.yaml"}, exitBadUser, "no-such.yaml"},
		{[]string{"merge", "-o", out}, exitBadUser, "no experiment file given"},
		{[]string{"merge", "-o", "-", lessonFile}, exitBadUser, "-o - names no folder"},
		{[]string{"run", "-o", "-", "--format", "md", "--shard", "1/2", lessonFile}, exitBadUser, "-o - names no folder"},
	}
	for _, tt := range tests {
		stderr.Reset()
		if code := Main(tt.args, &stdout, &stderr); code != tt.code || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("ckptlab %s: exit %d, stderr %q; want %d and %q", strings.Join(tt.args, " "), code, stderr.String(), tt.code, tt.want)
		}
	}
}

// TestKilledShard kills a shard process at several moments of its work.
// The shard file is then absent or complete, never half-written.
// A rerun finishes it, and a further rerun keeps it.
// The merge equals one run.
func TestKilledShard(t *testing.T) {
	t.Parallel()
	args := []string{"--set", "subscribers=20000000", lessonFile}
	out, ref := t.TempDir(), t.TempDir()
	path := filepath.Join(out, "lesson", "shards", "1-of-2")
	var killedEarly int
	for _, delay := range []time.Duration{0, 5, 20, 50, 100, 200} {
		os.Remove(path)
		cmd := shardProcess(t, nil, append([]string{"run", "-q", "-o", out, "--shard", "1/2"}, args...)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if _, err := os.Stat(path); err != nil {
			killedEarly++
		} else if _, err := runner.ReadShardFile(path, 1<<30); err != nil {
			t.Errorf("killed after %v ms: the shard file is there but %v", delay, err)
		}
		entries, _ := os.ReadDir(filepath.Dir(path))
		for _, e := range entries {
			if name := e.Name(); name != "1-of-2" && !strings.HasPrefix(name, ".") {
				t.Errorf("killed after %v ms: %s appeared", delay, name)
			}
		}
	}
	t.Logf("%d of 6 kills came before the shard file was complete", killedEarly)
	for i, want := range []string{"", "not recomputed"} {
		b, err := shardProcess(t, nil, append([]string{"run", "-q", "-o", out, "--shard", "1/2"}, args...)...).CombinedOutput()
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("rerun %d: %v: %s; want it to say %q", i+1, err, b, want)
		}
	}
	var stdout, stderr bytes.Buffer
	for _, run := range [][]string{
		slices.Concat([]string{"run", "-q", "-o", out, "--shard", "2/2"}, args),
		slices.Concat([]string{"merge", "-q", "-o", out, "--format", "csv"}, args),
		slices.Concat([]string{"run", "-q", "-o", ref, "--format", "csv"}, args),
	} {
		if code := Main(run, &stdout, &stderr); code != 0 {
			t.Fatalf("ckptlab %s exited %d: %s", strings.Join(run, " "), code, stderr.String())
		}
	}
	sameFiles(t, ref, out)
}

// TestShardsBesideRuns runs shards, runs and merges of one experiment at
// once on one output folder, as users of a shared volume may.
// Every shard file must survive the runs' swaps of the folder.
// The final merge must equal one run.
func TestShardsBesideRuns(t *testing.T) {
	t.Parallel()
	args := []string{"--format", "csv", "--set", "seeds=[1, 2, 3]", lessonFile}
	out, ref := t.TempDir(), t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := Main(slices.Concat([]string{"run", "-q", "-o", ref}, args), &stdout, &stderr); code != 0 {
		t.Fatalf("run exited %d: %s", code, stderr.String())
	}
	for round := range 3 {
		os.RemoveAll(filepath.Join(out, "lesson", "shards"))
		var cmds []*exec.Cmd
		for i := 1; i <= 4; i++ {
			cmds = append(cmds, shardProcess(t, nil, slices.Concat([]string{"run", "-q", "-o", out, "--shard", fmt.Sprintf("%d/4", i)}, args)...))
			if i%2 == 0 {
				cmds = append(cmds, shardProcess(t, nil, slices.Concat([]string{"run", "-q", "-o", out}, args)...))
			}
		}
		var wg sync.WaitGroup
		for _, cmd := range cmds {
			wg.Go(func() {
				if b, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("round %d: %s: %v: %s", round, strings.Join(cmd.Args[3:], " "), err, b)
				}
			})
		}
		wg.Wait()
		if code := Main(slices.Concat([]string{"merge", "-q", "-o", out}, args), &stdout, &stderr); code != 0 {
			t.Fatalf("round %d: merge exited %d: %s", round, code, stderr.String())
		}
		sameFiles(t, ref, out)
	}
}

// TestShardKeyAndVerify checks run --shard and merge with CKPTLAB_SHARD_KEY
// and --verify. Signed shards merge with their key. They are refused with
// another key (exit 1). An empty key or a bad --verify is a usage error
// (exit 2). The variable is not read as a key of the experiment.
func TestShardKeyAndVerify(t *testing.T) {
	out := t.TempDir()
	t.Setenv("CKPTLAB_SHARD_KEY", "the key")
	for i := 1; i <= 2; i++ {
		if code, _, stderr := ckptlab("run", "-q", "-o", out, "--shard", fmt.Sprintf("%d/2", i), lessonFile); code != exitOK {
			t.Fatalf("run --shard %d/2 with a key: exit %d: %s", i, code, stderr)
		}
	}
	shard := filepath.Join(out, "lesson", "shards", "1-of-2")
	if data, _ := os.ReadFile(shard); !bytes.Contains(data, []byte("\nhmac-sha256: ")) {
		t.Fatalf("%s is not signed", shard)
	}
	tests := []struct {
		key  string // "-" for no variable
		args []string
		code int
		want string
	}{
		{"the key", []string{"merge", "-q", "-o", out, lessonFile}, exitOK, ""},
		{"the key", []string{"merge", "-q", "-o", out, "--verify", "all", lessonFile}, exitOK, ""},
		{"-", []string{"merge", "-q", "-o", out, "--verify", "none", lessonFile}, exitOK, ""},
		{"another key", []string{"merge", "-q", "-o", out, lessonFile}, exitFailed, shard + ": its signature is not one made with the key of CKPTLAB_SHARD_KEY"},
		{"", []string{"merge", "-q", "-o", out, lessonFile}, exitBadUser, "CKPTLAB_SHARD_KEY is set but empty"},
		{"", []string{"run", "-q", "-o", out, "--shard", "1/2", lessonFile}, exitBadUser, "CKPTLAB_SHARD_KEY is set but empty"},
		{"the key", []string{"merge", "-q", "-o", out, "--verify", "some", lessonFile}, exitBadUser, `--verify "some": want sample`},
		{"the key", []string{"validate", lessonFile}, exitOK, ""},
	}
	for _, tt := range tests {
		if tt.key == "-" {
			os.Unsetenv("CKPTLAB_SHARD_KEY")
		} else {
			os.Setenv("CKPTLAB_SHARD_KEY", tt.key)
		}
		code, _, stderr := ckptlab(tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.want) {
			t.Errorf("CKPTLAB_SHARD_KEY=%q ckptlab %s: exit %d, stderr %q; want %d and %q", tt.key, strings.Join(tt.args, " "), code, stderr, tt.code, tt.want)
		}
	}
}
