//go:build unix

package runner

import (
	"ckptlab/internal/testkit"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// memoryBench is the benchmark set of configurations the memory bound is
// checked on: the shapes that hold the most, each small enough in
// subscribers to run in about a second (memory does not grow with them).
var memoryBench = []struct {
	name, yaml string
	formats    []string
}{
	{"lesson", "", []string{"csv", "xlsx", "md"}},
	{"scale", "subscribers: 20000\nperiods: 120\nintervals: all\nworkers: [1, 2, 4, 8, 16, 32, 64]\n" +
		"probabilities: {from: 0, to: 1, step: 0.05}\n", []string{"csv", "xlsx"}},
	{"sweep", "subscribers: 20000\nperiods: 60\nworkers: {from: 1, to: 1024}\nfailure_periods: [2026-09, 2026-12]\n", []string{"csv", "xlsx"}},
	{"horizon", "subscribers: 5000\nperiods: 600\nintervals: [none, 1, 3, 6, 12, 24, 60, 120]\n" +
		"partition_key: [subscriber, region, type]\nworkers: [4, 64, 256]\n", []string{"csv", "xlsx"}},
	// every interval of long horizons: the outcomes of each interval
	{"horizon960", "subscribers: 2000\nperiods: 960\nintervals: all\n", []string{"csv", "xlsx", "md"}},
	{"horizon3000", "subscribers: 1000\nperiods: 3000\nintervals: all\n", []string{"csv"}},
	// 8 million grid rows, a state_rows axis of 333,334 values
	{"grid8m", "subscribers: 3000\nstate_rows: {from: 0, to: 2000000, step: 6}\n", []string{"csv"}},
	{"staterows", "subscribers: 20000\nperiods: 24\nstate_rows: {from: 0, to: 200000, step: 100}\n", []string{"csv", "xlsx", "md"}},
	{"probabilities", "subscribers: 20000\nperiods: 120\nintervals: all\nprobabilities: {from: 0, to: 1, step: 0.001}\n", []string{"csv", "xlsx", "json"}},
	{"cases", "subscribers: 5000\ncases:\n  - {periods: 24, intervals: all}\n  - {periods: 120, workers: [1, 2, 4, 8]}\n" +
		"exclude:\n  - {interval: none, workers: 4}\n", []string{"csv", "xlsx"}},
	{"seeds", "seeds: {from: 1, to: 150}\nsubscribers: 1000\nperiods: 24\nmissing: 500\nduplicates: 500\n" +
		"partition_key: [subscriber, region, type]\nworkers: [4, 64]\n", []string{"csv", "xlsx"}},
	{"faults", "subscribers: 20000\nperiods: 24\nmissing: 300000\nduplicates: 300000\n" +
		"partition_key: [subscriber, region, type]\nworkers: {from: 1, to: 256}\nfailure_periods: [2026-09]\n", []string{"csv", "xlsx"}},
	// one fault of each kind per hundred records over 3·10^8 records: a
	// source of enough tasks that they share a fault index (faults.go)
	{"faults1pct", "subscribers: 3000000\nperiods: 120\nmissing: 3600000\nduplicates: 3600000\n" +
		"workers: [1, 2, 4, 8, 16, 32, 64]\n", []string{"csv", "xlsx"}},
	// scale.yaml at 10^8 subscribers with one fault of each kind per
	// hundred records: a source cut into windows (five on two cores) whose
	// indexes fill each other's memory, about 12 s of CPU
	{"faults1e8", "subscribers: 100000000\nperiods: 120\nintervals: all\nmissing: 120000000\nduplicates: 120000000\n" +
		"workers: [1, 2, 4, 8, 16, 32, 64]\nprobabilities: {from: 0, to: 1, step: 0.05}\n", []string{"csv"}},
}

// boundSlack is how far above the peak the figure may be: within twice.
const boundSlack = 2

// TestMemoryBoundHolds builds the program, runs it on the benchmark set in
// each of its formats, and checks that its peak resident memory never
// exceeds the figure plan prints for the same run, and that the figure is
// within boundSlack times the peak. It is a bound check, not a timing: the
// figure must hold on any machine. The set takes a minute or two: it
// writes 8 million grid rows and 9 million failures rows, and counts 10^8
// subscribers with faults.
func TestMemoryBoundHolds(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs the program")
	}
	if raceDetector {
		t.Skip("runs a built program, not this one: nothing to race, and minutes under the detector")
	}
	time := testkit.RequireSlow(t, "/usr/bin/time")[0]
	dir := t.TempDir()
	bin := buildProgram(t, dir)
	for _, c := range memoryBench {
		file := filepath.Join(dir, c.name+".yaml")
		if err := os.WriteFile(file, []byte("name: "+c.name+"\n"+c.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, format := range c.formats {
			peak, bound := peakAndBound(t, dir, time, bin, file, format)
			t.Logf("%-8s %-4s peak %4d MiB, plan says at most %4d MiB", c.name, format, peak>>20, bound)
			if peak > bound<<20 {
				t.Errorf("%s as %s: peak resident memory %d MiB, more than the %d MiB plan prints",
					c.name, format, (peak+1<<20-1)>>20, bound)
			}
			if bound<<20 > boundSlack*peak+1<<20 { // the figure is rounded up to a MiB
				t.Errorf("%s as %s: plan prints %d MiB, more than %d times the peak resident memory of %d MiB",
					c.name, format, bound, boundSlack, peak>>20)
			}
		}
	}
}

// BenchmarkMemoryBoundLarge runs the 2M-row workbook of bench/README.md
// (largeWorkbookYAML, as CSV and XLSX) under GNU time, too long a run for
// TestMemoryBoundHolds, and reports its peak resident memory and plan's
// figure; it fails when the figure is below the peak.
func BenchmarkMemoryBoundLarge(b *testing.B) {
	time, err := exec.LookPath("/usr/bin/time")
	if err != nil {
		b.Skip("needs GNU time (/usr/bin/time) to measure the program's own peak")
	}
	dir := b.TempDir()
	bin := buildProgram(b, dir)
	file := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(file, []byte(largeWorkbookYAML), 0o644); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		peak, bound := peakAndBound(b, dir, time, bin, file, "csv,xlsx")
		b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
		b.ReportMetric(float64(bound), "plan-MiB")
		if peak > bound<<20 {
			b.Errorf("peak resident memory %d MiB, more than the %d MiB plan prints", (peak+1<<20-1)>>20, bound)
		}
	}
}

// buildProgram builds ckptlab into dir.
func buildProgram(tb testing.TB, dir string) string {
	tb.Helper()
	bin := filepath.Join(dir, "ckptlab")
	if out, err := exec.Command("go", "build", "-o", bin, "ckptlab/cmd/ckptlab").CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// planMemory is plan's memory line.
var planMemory = regexp.MustCompile(`(?m)^  memory +at most (\d+) MiB$`)

// peakAndBound returns the peak resident memory, in bytes, of a run of the
// experiment file in the given formats, and the figure plan prints for
// it, in MiB.
func peakAndBound(tb testing.TB, dir, time, bin, file, format string) (peak, bound int64) {
	tb.Helper()
	plan, err := exec.Command(bin, "plan", "--format", format, file).Output()
	if err != nil {
		tb.Fatalf("%s: plan: %v", file, err)
	}
	m := planMemory.FindSubmatch(plan)
	if m == nil {
		tb.Fatalf("%s: plan prints no memory line:\n%s", file, plan)
	}
	bound, _ = strconv.ParseInt(string(m[1]), 10, 64)
	return peakOf(tb, dir, time, bin, "run", "-q", "--format", format, "-o", filepath.Join(dir, "out"), file), bound
}

// peakOf runs the program under GNU time and returns its peak resident
// memory. A process this test starts itself inherits the test's own
// high-water mark (Linux keeps it across exec), above the figures of
// small runs; GNU time starts the program from a small process of its own
// and reports the program's peak alone.
func peakOf(t testing.TB, dir, time, bin string, args ...string) int64 {
	t.Helper()
	report := filepath.Join(dir, "maxrss")
	run := exec.Command(time, append([]string{"-f", "%M", "-o", report, bin}, args...)...)
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", args, err, out)
	}
	text, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	kib, err := strconv.ParseInt(strings.TrimSpace(string(text)), 10, 64)
	if err != nil {
		t.Fatalf("GNU time reports %q: %v", text, err)
	}
	return kib << 10
}

// TestHeapLimitCostsNoCollections runs a small CSV run, whose live memory is
// far below plan's figure, with the soft limit run sets and without it
// (GOMEMLIMIT=off), and counts the collections: the limit must not add
// any beyond the collector's own pacing.
func TestHeapLimitCostsNoCollections(t *testing.T) {
	t.Parallel()
	testkit.RequireSlow(t)
	if raceDetector {
		t.Skip("runs a built program, not this one")
	}
	dir := t.TempDir()
	bin := buildProgram(t, dir)
	file := filepath.Join(dir, "small.yaml")
	if err := os.WriteFile(file, []byte("name: small\nsubscribers: 1000000\nperiods: 120\nintervals: all\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	collections := func(limit string) int {
		cmd := exec.Command(bin, "run", "-q", "--format", "csv", "-o", filepath.Join(dir, "out"), file)
		cmd.Env = append(os.Environ(), "GODEBUG=gctrace=1", "GOMEMLIMIT="+limit)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("run: %v\n%s", err, stderr.String())
		}
		return len(regexp.MustCompile(`(?m)^gc \d+ `).FindAllString(stderr.String(), -1))
	}
	with, without := collections(""), collections("off")
	t.Logf("%d collections with the limit, %d without", with, without)
	if with > without+2 {
		t.Errorf("%d collections with the soft limit, %d without: the limit makes the collector work on a run far below plan's figure", with, without)
	}
}
