//go:build linux

package deploy

import (
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// cluster is a one-node Slurm cluster on localhost.
// It has its own munged, configuration, key, state, spool and ports.
// Nothing of the machine's own Slurm or munge is read or changed.
type cluster struct {
	env []string // SLURM_CONF, for the client commands
}

// startCluster starts munged, slurmctld and slurmd under root.
// It waits until the node is idle.
// All three are stopped when the test ends.
// cred_expire is lowered from its default of 120 s.
// That is also how long a requeued task waits before it starts again.
func startCluster(t *testing.T, root string) *cluster {
	t.Helper()
	dirs := map[string]string{}
	for _, d := range []string{"munge", "socket", "state", "spool", "log"} {
		dirs[d] = filepath.Join(root, d)
		if err := os.Mkdir(dirs[d], 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(dirs["munge"], 0o700); err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(dirs["munge"], "munge.key")
	if err := os.WriteFile(key, []byte(rand.Text()+rand.Text()), 0o600); err != nil {
		t.Fatal(err)
	}
	socket := filepath.Join(dirs["socket"], "munge.socket")
	startDaemon(t, dirs["log"], "munged", nil, "munged", "--foreground",
		"--socket="+socket, "--key-file="+key,
		"--pid-file="+filepath.Join(dirs["munge"], "munged.pid"),
		"--seed-file="+filepath.Join(dirs["munge"], "munged.seed"),
		"--log-file="+filepath.Join(dirs["log"], "munged-file.log"))
	waitFor(t, "munged's socket", 30*time.Second, func() bool {
		_, err := os.Stat(socket)
		return err == nil
	})

	ports := freePorts(t, 2)
	conf := filepath.Join(root, "slurm.conf")
	text := fmt.Sprintf(`# A one-node cluster for deploy/slurm_engine_test.go.
ClusterName=ckptlabtest
SlurmctldHost=localhost
SlurmctldPort=%d
SlurmdPort=%d
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=%s,cred_expire=10
SlurmUser=root
SlurmdUser=root
StateSaveLocation=%s
SlurmdSpoolDir=%s
SlurmctldPidFile=%s/slurmctld.pid
SlurmdPidFile=%s/slurmd.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/builtin
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
NodeName=localhost CPUs=2 RealMemory=4096 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
`, ports[0], ports[1], socket, dirs["state"], dirs["spool"],
		dirs["state"], dirs["spool"])
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &cluster{env: []string{"SLURM_CONF=" + conf}}
	startDaemon(t, dirs["log"], "slurmctld", c.env, "slurmctld", "-D", "-i", "-f", conf)
	startDaemon(t, dirs["log"], "slurmd", c.env, "slurmd", "-D", "-N", "localhost", "-f", conf)
	waitFor(t, "the node to be idle", 60*time.Second, func() bool {
		out, err := tryRun(root, c.env, "sinfo", "-h", "-o", "%T")
		return err == nil && strings.TrimSpace(out) == "idle"
	})
	return c
}

// freePorts returns n TCP ports free on localhost.
// It holds them open together, so that they differ.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

// job returns the fields of `scontrol show job -o ID`.
// It returns one map per job or array task.
func (c *cluster) job(t *testing.T, id string) []map[string]string {
	t.Helper()
	out := run(t, "", c.env, "scontrol", "show", "job", "-o", id)
	var jobs []map[string]string
	for line := range strings.Lines(out) {
		fields := map[string]string{}
		for _, f := range strings.Fields(line) {
			if k, v, ok := strings.Cut(f, "="); ok {
				fields[k] = v
			}
		}
		jobs = append(jobs, fields)
	}
	return jobs
}

// state returns the state of a job or array task, with its reason.
func (c *cluster) state(t *testing.T, id string) string {
	t.Helper()
	j := c.job(t, id)
	if len(j) != 1 {
		t.Fatalf("scontrol show job %s: %d jobs, want 1", id, len(j))
	}
	return j[0]["JobState"] + " " + j[0]["Reason"]
}

// idle waits until the cluster has no job left pending or running.
func (c *cluster) idle(t *testing.T) {
	t.Helper()
	waitFor(t, "every job to end", 5*time.Minute, func() bool {
		out, err := tryRun("", c.env, "squeue", "-h", "-o", "%i")
		return err == nil && strings.TrimSpace(out) == ""
	})
}

// running reports whether a process runs program with every one of args
// among its arguments.
func running(program string, args ...string) bool {
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, path := range cmdlines {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		if exe, _ := os.Readlink(filepath.Join(filepath.Dir(path), "exe")); exe != program {
			continue
		}
		argv := strings.Split(string(data), "\x00")
		if !slices.ContainsFunc(args, func(a string) bool { return !slices.Contains(argv, a) }) {
			return true
		}
	}
	return false
}

var submitted = regexp.MustCompile(`^shards: job (\d+); merge: job (\d+),`)

// submit runs deploy/slurm/submit.sh as a user does, in work.
// It returns the job IDs of the array and the merge.
func (c *cluster) submit(t *testing.T, work string, env []string, args ...string) (shards, merge string) {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("slurm", "submit.sh"))
	if err != nil {
		t.Fatal(err)
	}
	out := run(t, work, append(env, c.env...), "bash", append([]string{script}, args...)...)
	m := submitted.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("submit.sh printed %q, want the job IDs", out)
	}
	return m[1], m[2]
}

// TestSlurmEngine runs deploy/slurm/submit.sh on a real one-node cluster.
// The merge of 4 shards must equal one unsharded run.
// A task cancelled mid-way must leave no shard file.
// It must cancel the merge, not leave it pending for ever.
// Running the same command again is the README's resume.
// It must recompute only that shard and merge the same tables.
// One task resubmitted alone (TASKS=2) must compute that task's shard, 3 of 4.
// It must not compute 1 of 1.
func TestSlurmEngine(t *testing.T) {
	needEngine(t, "munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "scontrol", "sinfo", "bash")
	root := tempRoot(t, "ckptlab-slurm-")
	c := startCluster(t, root)
	bin := filepath.Join(root, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	ckptlab := buildCkptlab(t, bin)
	work := filepath.Join(root, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	file, err := filepath.Abs(filepath.Join("..", "experiments", "scale.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	path := "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")

	// reference writes one unsharded run into OUT and returns its folder.
	reference := func(out string, flags ...string) string {
		args := append([]string{"run", "-q", "-o", out, "--format", "csv,xlsx,md"}, flags...)
		run(t, work, nil, ckptlab, append(args, file)...)
		return filepath.Join(out, "scale")
	}

	t.Run("merge", func(t *testing.T) {
		out := filepath.Join(work, "out")
		env := []string{path, "OUT=" + out}
		shards, merge := c.submit(t, work, env, "4", file)
		c.idle(t)
		if got := c.state(t, merge); got != "COMPLETED None" {
			t.Fatalf("merge job %s: %s, want COMPLETED", merge, got)
		}
		for _, task := range c.job(t, shards) {
			if task["JobState"] != "COMPLETED" {
				t.Errorf("task %s_%s: %s, want COMPLETED", shards, task["ArrayTaskId"], task["JobState"])
			}
		}
		plan := run(t, work, nil, ckptlab, "plan", "-o", out, "--format", "csv,xlsx,md", file)
		mib := regexp.MustCompile(`(?m)^  memory +at most (\d+) MiB$`).FindStringSubmatch(plan)
		if mib == nil {
			t.Fatalf("ckptlab plan printed no memory figure:\n%s", plan)
		}
		if got := c.job(t, merge)[0]["MinMemoryNode"]; got != mib[1]+"M" {
			t.Errorf("the merge job requests %s of memory, want the %s MiB ckptlab plan says", got, mib[1])
		}
		sameTables(t, reference(filepath.Join(root, "ref")), filepath.Join(out, "scale"))
	})

	t.Run("resume", func(t *testing.T) {
		// 10^9 subscribers over eleven worker counts that share no small
		// multiple, so that they are binned in six groups: a shard counts
		// for seconds, long enough to be cancelled while it runs.
		set := []string{"--set", "subscribers=1000000000", "--set", "workers=[61, 67, 71, 73, 79, 83, 89, 97, 101, 103, 107]"}
		out := filepath.Join(work, "out-resume")
		shardDir := filepath.Join(out, "scale", "shards")
		env := []string{path, "OUT=" + out}
		shards, merge := c.submit(t, work, env, append([]string{"4", file}, set...)...)
		task := shards + "_1"
		waitFor(t, "task "+task+" to start counting", 2*time.Minute, func() bool {
			if state := c.state(t, task); !strings.HasPrefix(state, "PENDING") && !strings.HasPrefix(state, "RUNNING") {
				t.Fatalf("task %s: %s before it could be cancelled", task, state)
			}
			return running(ckptlab, "--shard", "2/4", out)
		})
		run(t, work, c.env, "scancel", task)
		c.idle(t)
		if got := c.state(t, task); !strings.HasPrefix(got, "CANCELLED") {
			t.Fatalf("task %s: %s, want CANCELLED (it ended before scancel: make its shard larger)", task, got)
		}
		if got := c.state(t, merge); got != "CANCELLED DependencyNeverSatisfied" {
			t.Fatalf("merge job %s after a cancelled shard: %s, want CANCELLED DependencyNeverSatisfied", merge, got)
		}
		before := statAll(t, shardDir)
		if want := []string{"1-of-4", "3-of-4", "4-of-4"}; !slices.Equal(filesIn(t, shardDir), want) {
			t.Fatalf("shard files after cancelling shard 2: %v, want %v", filesIn(t, shardDir), want)
		}

		// The README's resume: the same command again.
		_, merge = c.submit(t, work, env, append([]string{"4", file}, set...)...)
		c.idle(t)
		if got := c.state(t, merge); got != "COMPLETED None" {
			t.Fatalf("merge job %s after resuming: %s, want COMPLETED", merge, got)
		}
		for name, info := range before {
			now, err := os.Stat(filepath.Join(shardDir, name))
			if err != nil || !os.SameFile(info, now) {
				t.Errorf("shard file %s was written again on resuming (%v); a complete shard is not recomputed", name, err)
			}
		}
		ref := reference(filepath.Join(root, "ref-resume"), set...)
		sameTables(t, ref, filepath.Join(out, "scale"))

		// One task resubmitted alone: Slurm gives it MIN = COUNT = 1, and
		// it must still compute shard 3 of 4.
		lost := filepath.Join(shardDir, "3-of-4")
		want, err := os.ReadFile(lost)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(lost); err != nil {
			t.Fatal(err)
		}
		_, merge = c.submit(t, work, append(env, "TASKS=2"), append([]string{"4", file}, set...)...)
		c.idle(t)
		if got := c.state(t, merge); got != "COMPLETED None" {
			t.Fatalf("merge job %s after resubmitting task 2: %s, want COMPLETED", merge, got)
		}
		if got, err := os.ReadFile(lost); err != nil || string(got) != string(want) {
			t.Fatalf("task 2 resubmitted alone did not write shard 3-of-4 again as it was (%v)", err)
		}
		sameTables(t, ref, filepath.Join(out, "scale"))
	})
}
