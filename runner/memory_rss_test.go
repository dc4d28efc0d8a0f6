//go:build unix

package runner

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
)

// memoryBench is the benchmark set of configurations the memory bound is
// checked on: the shapes that hold the most, each small enough in
// subscribers to run in about a second (memory does not grow with them).
var memoryBench = []struct{ name, yaml string }{
	{"scale", "subscribers: 20000\nperiods: 120\nintervals: all\nworkers: [1, 2, 4, 8, 16, 32, 64]\n" +
		"probabilities: {from: 0, to: 1, step: 0.05}\n"},
	{"sweep", "subscribers: 20000\nperiods: 60\nworkers: {from: 1, to: 1024}\nfailure_periods: [2026-09, 2026-12]\n"},
	{"horizon", "subscribers: 5000\nperiods: 600\nintervals: [none, 1, 3, 6, 12, 24, 60, 120]\n" +
		"partition_key: [subscriber, region, type]\nworkers: [4, 64, 256]\n"},
	{"seeds", "seeds: {from: 1, to: 150}\nsubscribers: 1000\nperiods: 24\nmissing: 500\nduplicates: 500\n" +
		"partition_key: [subscriber, region, type]\nworkers: [4, 64]\n"},
	{"faults", "subscribers: 20000\nperiods: 24\nmissing: 300000\nduplicates: 300000\n" +
		"partition_key: [subscriber, region, type]\nworkers: {from: 1, to: 256}\nfailure_periods: [2026-09]\n"},
}

// TestMemoryBoundHolds builds the program, runs it on the benchmark set as
// CSV and as XLSX, and checks that its peak resident memory never exceeds
// the figure plan prints for the same run. It is a bound check, not a
// timing: the figure must hold on any machine.
func TestMemoryBoundHolds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the program")
	}
	// The peak a child reports includes the memory of this process at the
	// moment it started the child (Linux keeps the high-water mark across
	// exec), which only makes the check stricter; under the race detector
	// this process alone is larger than the bounds checked.
	if raceDetector {
		t.Skip("the race detector's test process is larger than the bounds checked")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "ckptlab")
	if out, err := exec.Command("go", "build", "-o", bin, "ckptlab/cmd/ckptlab").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	memory := regexp.MustCompile(`(?m)^  memory +at most (\d+) MiB$`)
	for _, c := range memoryBench {
		file := filepath.Join(dir, c.name+".yaml")
		if err := os.WriteFile(file, []byte("name: "+c.name+"\n"+c.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"csv", "xlsx"} {
			plan, err := exec.Command(bin, "plan", "--format", format, file).Output()
			if err != nil {
				t.Fatalf("%s: plan: %v", c.name, err)
			}
			m := memory.FindSubmatch(plan)
			if m == nil {
				t.Fatalf("%s: plan prints no memory line:\n%s", c.name, plan)
			}
			bound, _ := strconv.ParseInt(string(m[1]), 10, 64)
			run := exec.Command(bin, "run", "-q", "--format", format, "-o", filepath.Join(dir, "out"), file)
			if out, err := run.CombinedOutput(); err != nil {
				t.Fatalf("%s as %s: run: %v\n%s", c.name, format, err, out)
			}
			peak := run.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
			t.Logf("%-8s %-4s peak %4d MiB, plan says at most %4d MiB", c.name, format, peak>>20, bound)
			if peak > bound<<20 {
				t.Errorf("%s as %s: peak resident memory %d MiB, more than the %d MiB plan prints",
					c.name, format, (peak+1<<20-1)>>20, bound)
			}
		}
	}
}
