package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// TestUnitWeightsChangeNothing runs the lesson with every failure weighed 1
// written out, and with some failures listed at weight 1.
// Every file of every format must be the bytes of the lesson without
// failure_weights.
func TestUnitWeightsChangeNothing(t *testing.T) {
	formats := []string{"--format", "csv,xlsx,md"}
	plain := runLesson(t, formats...)
	for _, set := range []string{"failure_weights={}", "failure_weights={2026-06: 1, 2026-12: 1}"} {
		weighed := runLesson(t, append(formats, "--set", set)...)
		entries, err := os.ReadDir(plain)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() {
				continue
			}
			want, err := os.ReadFile(filepath.Join(plain, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(weighed, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("--set %s: %s differs from the lesson's", set, e.Name())
			}
		}
	}
}

// TestWeightedCriteria runs the lesson with failures weighed.
// It holds grid.csv's criteria to failures.csv's rows, weighed by hand.
// The average is Σ w_f·y_f / W.
// The expected total is p × Σ w_f·y_f / W + certain cost, by the same
// operations, so with the same bits.
// The worst is over the failures of positive weight.
func TestWeightedCriteria(t *testing.T) {
	weights := map[string]int64{"2026-06": 3, "2026-12": 0, "2026-02": 5}
	dir := runLesson(t, "--format", "csv", "--set", "failure_weights={2026-06: 3, 2026-12: 0, 2026-02: 5}")
	grid := readTable(t, filepath.Join(dir, "grid.csv"))
	failures := readTable(t, filepath.Join(dir, "failures.csv"))
	type sums struct{ sum, weight, worst int64 }
	by := map[string]*sums{}
	for _, r := range failures.rows {
		k := failures.get(t, r, "interval")
		if by[k] == nil {
			by[k] = &sums{}
		}
		w, ok := weights[failures.get(t, r, "failure_period")]
		if !ok {
			w = 1
		}
		y, _ := strconv.ParseInt(failures.get(t, r, "recomputed"), 10, 64)
		by[k].sum += w * y
		by[k].weight += w
		if w > 0 {
			by[k].worst = max(by[k].worst, y)
		}
	}
	float := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	for _, r := range grid.rows {
		s := by[grid.get(t, r, "interval")]
		p, _ := strconv.ParseFloat(grid.get(t, r, "probability"), 64)
		certain, _ := strconv.ParseInt(grid.get(t, r, "certain_cost"), 10, 64)
		for _, c := range []struct{ name, want string }{
			{"average", float(float64(s.sum) / float64(s.weight))},
			{"expected_total", float(p*float64(s.sum)/float64(s.weight) + float64(certain))},
			{"worst", strconv.FormatInt(s.worst, 10)},
		} {
			if got := grid.get(t, r, c.name); got != c.want {
				t.Errorf("interval %s at p %v: %s = %s, want %s", grid.get(t, r, "interval"), p, c.name, got, c.want)
			}
		}
	}
}

// TestDeployMonthsExample holds experiments/deploy-months.yaml to the answer
// its comment works out by hand.
// At probability 1 the schedule checkpoints after the two deploy months,
// below the best interval. At 0.5 it is the best interval's own point.
// At 0.25 it has no checkpoint.
func TestDeployMonthsExample(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"run", "-q", "-o", out, "--format", "csv", filepath.Join("..", "..", "experiments", "deploy-months.yaml")}
	if code := Main(args, &stdout, &stderr); code != 0 {
		t.Fatalf("run exited %d: %s", code, stderr.String())
	}
	dec := readTable(t, filepath.Join(out, "deploy-months", "decisions.csv"))
	for _, want := range [][]string{
		{"1", "8", "726.3", "2", "2026-04 2026-10", "621.1"},
		{"0.5", "8", "463.2", "1", "2026-09", "463.2"},
		{"0.25", "none", "300.0", "0", "", "300.0"},
	} {
		r := dec.one(t, "probability", want[0])
		got := []string{want[0], dec.get(t, r, "optimal_interval"), dec.decimals(t, r, "optimal_expected_total", 1),
			dec.get(t, r, "schedule_checkpoints"), dec.get(t, r, "schedule_points"), dec.decimals(t, r, "schedule_expected_total", 1)}
		if !slices.Equal(got, want) {
			t.Errorf("at probability %s: %v, want %v", want[0], got, want)
		}
	}
	if want := "better than every interval: a schedule of 2 checkpoints, after 2026-04 and 2026-10, costs 621.1"; !bytes.Contains(stdout.Bytes(), []byte(want)) {
		t.Errorf("headline lacks %q:\n%s", want, stdout.String())
	}
}
