package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunTimeBadInput: a mistake in the keys of the time model is a located
// error, exit 2, and nothing is written.
func TestRunTimeBadInput(t *testing.T) {
	const on = "throughput: 1\ncheckpoint_time: 5m\nmtbf: 1h\n"
	for _, c := range []struct{ name, src, want string }{
		{"negative", "throughput: 1\ncheckpoint_time: -5m\nmtbf: 1h\n", ":3:18: checkpoint_time: -5m is a negative duration"},
		{"zero-mtbf", "throughput: 1\ncheckpoint_time: 5m\nmtbf: 0\n", ":4:7: mtbf: 0 is not a mean time between failures"},
		{"zero-throughput", "throughput: 0\ncheckpoint_time: 5m\nmtbf: 1h\n", ":2:13: throughput: 0 is not a throughput"},
		{"no-throughput", "mtbf: 1h\n", ":2:7: mtbf: has no effect without throughput"},
		{"weibull", on + "failure_distribution: weibull\n", ":5:23: failure_distribution: weibull is simulated"},
		{"replications", on + "replications: 2000000\n", ":5:15: replications: 2000000 is not a replication count (want <= 1000000, a safety cap)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeExperiment(t, "x.yaml", "name: x\n"+c.src)
			out := filepath.Join(t.TempDir(), "out")
			code, stdout, stderr := ckptlab("run", "-q", "-o", out, path)
			if code != exitBadUser || stdout != "" || !strings.Contains(stderr, path+c.want) {
				t.Errorf("run = %d\nstdout %q\nstderr %s\nwant %s%s", code, stdout, stderr, path, c.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("%s written: %v", out, err)
			}
		})
	}
}

// TestShardsCarryTime: shards and merge write the time model's tables byte
// for byte as an unsharded run does; the counts suffice.
func TestShardsCarryTime(t *testing.T) {
	path := writeExperiment(t, "x.yaml", "name: x\nseeds: [1, 2, 3]\nthroughput: 0.3\ncheckpoint_time: 5m\n"+
		"restart_time: 10m\nmtbf: [6h, 24h]\nreplications: 500\n")
	whole, sharded := filepath.Join(t.TempDir(), "w"), filepath.Join(t.TempDir(), "s")
	for _, args := range [][]string{
		{"run", "-q", "--format", "csv", "-o", whole, path},
		{"run", "-q", "--shard", "1/2", "-o", sharded, path},
		{"run", "-q", "--shard", "2/2", "-o", sharded, path},
		{"merge", "-q", "--format", "csv", "-o", sharded, path},
	} {
		if code, _, stderr := ckptlab(args...); code != 0 {
			t.Fatalf("%v = %d: %s", args, code, stderr)
		}
	}
	for _, name := range []string{"process.csv", "process_decisions.csv"} {
		a, err := os.ReadFile(filepath.Join(whole, "x", name))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(sharded, "x", name))
		if err != nil {
			t.Fatal(err)
		}
		if string(a) != string(b) {
			t.Errorf("%s of the merged shards differs from the unsharded run's", name)
		}
		if strings.Count(string(a), "\n") < 2 {
			t.Errorf("%s has no rows:\n%s", name, a)
		}
	}
}

// TestPlanTime: plan states the time model's tables, their rows and the
// replications' limit, and --max-points counts those rows.
func TestPlanTime(t *testing.T) {
	path := writeExperiment(t, "x.yaml", "name: x\nthroughput: 1\ncheckpoint_time: 5m\n"+
		"mtbf: {from: 1h, to: 20h, step: 1h}\nreplications: 10\n")
	code, stdout, stderr := ckptlab("plan", "--format", "csv", path)
	if code != 0 {
		t.Fatalf("plan = %d: %s", code, stderr)
	}
	for _, want := range []string{"process rows     120", "process decisions 20 rows", "replications     10 per point (at most 1000000)",
		"out/x/process.csv", "out/x/process_decisions.csv"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("plan lacks %q:\n%s", want, stdout)
		}
	}
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr = ckptlab("run", "-q", "--max-points", "100", "-o", out, path)
	if code == 0 || !strings.Contains(stderr, "process.csv would have 120 rows, more than --max-points 100") {
		t.Errorf("run --max-points 100 = %d: %s", code, stderr)
	}
}
