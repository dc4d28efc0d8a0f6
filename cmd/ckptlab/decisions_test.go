package main

import (
	"bytes"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ckptlab/internal/lessonfigures"
)

// decimals returns a float cell rounded to the given decimals, as the
// lesson's figures are typed.
func (tab table) decimals(t *testing.T, row []string, name string, d int) string {
	t.Helper()
	x, err := strconv.ParseFloat(tab.get(t, row, name), 64)
	if err != nil {
		t.Fatalf("%s = %q: %v", name, tab.get(t, row, name), err)
	}
	return strconv.FormatFloat(x, 'f', d, 64)
}

// TestLessonDecisions runs experiments/lesson.yaml through the command.
// It holds decisions.csv and breakeven.csv to the lesson's figures
// (lessonfigures). It holds the headline printed under -q to the same answers.
func TestLessonDecisions(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"run", "-q", "-o", out, "--format", "csv", filepath.Join("..", "..", "experiments", "lesson.yaml")}
	if code := Main(args, &stdout, &stderr); code != 0 {
		t.Fatalf("run exited %d: %s", code, stderr.String())
	}
	dir := filepath.Join(out, "lesson")
	dec := readTable(t, filepath.Join(dir, "decisions.csv"))
	if n := len(dec.rows); n != 4 {
		t.Errorf("decisions.csv has %d rows, want 4 (one per probability)", n)
	}
	r := dec.one(t, "probability", "1")
	for _, c := range []struct{ got, want string }{
		{dec.get(t, r, "state_rows"), "200"},
		{dec.get(t, r, "best_interval"), lessonfigures.BestInterval},
		{dec.decimals(t, r, "best_expected_total", 1), lessonfigures.BestExpectedTotal},
		{dec.get(t, r, "worst_case_interval"), lessonfigures.WorstCaseInterval},
		{dec.get(t, r, "worst_case_total"), lessonfigures.WorstCaseTotal},
		{dec.get(t, r, "optimal_interval"), lessonfigures.OptimalInterval},
		{dec.decimals(t, r, "optimal_expected_total", 1), lessonfigures.OptimalExpectedTotal},
		{dec.decimals(t, r, "young_interval", 3), lessonfigures.YoungInterval},
		{dec.decimals(t, r, "daly_interval", 3), lessonfigures.DalyInterval},
	} {
		if c.got != c.want {
			t.Errorf("decisions.csv at probability 1: %q, want %q (row %v)", c.got, c.want, r)
		}
	}
	half := dec.one(t, "probability", "0.5")
	if got := dec.decimals(t, half, "optimal_expected_total", 1); got != lessonfigures.OptimalAtHalf {
		t.Errorf("optimal expected total at 0.5 = %s, want %s", got, lessonfigures.OptimalAtHalf)
	}
	if got := dec.decimals(t, half, "best_expected_total", 1); got != lessonfigures.NoneAtHalf {
		t.Errorf("best declared expected total at 0.5 = %s, want none's %s", got, lessonfigures.NoneAtHalf)
	}

	for _, want := range lessonfigures.Schedules[1:] {
		r := dec.one(t, "probability", lessonfigures.Canon(want[0]))
		got := []string{want[0], dec.get(t, r, "schedule_checkpoints"), dec.get(t, r, "schedule_points"),
			dec.decimals(t, r, "schedule_expected_total", 1)}
		if !slices.Equal(got, want) {
			t.Errorf("decisions.csv schedule at probability %s: %v, want %v", want[0], got[1:], want[1:])
		}
	}

	be := readTable(t, filepath.Join(dir, "breakeven.csv"))
	got := [][]string{lessonfigures.Breakeven[0]}
	for _, row := range be.rows {
		got = append(got, []string{be.get(t, row, "interval"), be.get(t, row, "from_fraction"), be.get(t, row, "to_fraction")})
	}
	if !slices.EqualFunc(got, lessonfigures.Breakeven, slices.Equal) {
		t.Errorf("breakeven.csv = %v, want %v", got, lessonfigures.Breakeven)
	}
	if p := be.get(t, be.rows[0], "to_probability"); p != strconv.FormatFloat(11.0/18, 'f', -1, 64) {
		t.Errorf("first break-even probability = %s, want the float64 nearest 11/18", p)
	}

	// The headline comes after the file list, under -q, in words.
	text := stdout.String()
	for _, want := range []string{
		// the envelope first, in units, then what beats the declared intervals
		"lesson: no checkpoint below p = 11/18, every 6 periods up to 11/12, every 4 above (927.3 rows at p = 1)\n" +
			"  not declared: every 7 periods, 763.6 rows at p = 1 against 927.3",
		"at failure probability 1.0000, checkpoint every 4 periods (expected cost 927.3 rows)",
		"worst case least at every 4 periods (1,200 rows)",
		"checkpointing every 7 periods, not declared, would cost 763.6",
		"textbook every 4.90 (Young) or 4.20 (Daly) periods",
		"better than every interval: a schedule of 2 checkpoints, after 2026-05 and 2026-09, costs 727.3",
		"a schedule of 2 checkpoints, after 2026-05 and 2026-09, costs 727.3",
		"a schedule of 1 checkpoint, after 2026-07, costs 609.1",
		"a schedule of 1 checkpoint, after 2026-07, costs 472.7",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("stdout lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "better than every interval"); n != 3 {
		t.Errorf("stdout names a schedule better than every interval %d times, want 3 (at 0.25 holding none is best):\n%s", n, text)
	}
	headline := 0
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if !strings.HasPrefix(line, dir) {
			headline++
		}
	}
	if headline == 0 || headline > 12 {
		t.Errorf("stdout has %d lines of headline after the files, want 1 to 12:\n%s", headline, text)
	}
}

// TestRiskLevelZeroIsExpected runs the lesson with risk_level 0.
// The tail criterion then weighs every run as the expected total does.
func TestRiskLevelZeroIsExpected(t *testing.T) {
	dir := runLesson(t, "--format", "csv", "--set", "risk_level=0", "--set", "probabilities={from: 0, to: 1, step: 0.1}")
	grid := readTable(t, filepath.Join(dir, "grid.csv"))
	for _, r := range grid.rows {
		if tail, e := grid.get(t, r, "tail_total"), grid.get(t, r, "expected_total"); tail != e {
			t.Errorf("tail_total %s, expected_total %s in row %v; want equal at risk level 0", tail, e, r)
		}
	}
}

// TestBusiestWorkerWorst holds grid.csv's busiest_worker_worst to the
// maximum of failures.csv's busiest_worker_recomputed over the failure set.
func TestBusiestWorkerWorst(t *testing.T) {
	dir := runLesson(t, "--format", "csv", "--set", "workers=[1, 3, 4]", "--set", "partition_key=[subscriber, region]")
	grid := readTable(t, filepath.Join(dir, "grid.csv"))
	failures := readTable(t, filepath.Join(dir, "failures.csv"))
	most := map[string]int{}
	for _, r := range failures.rows {
		key := failures.get(t, r, "partition_key") + "/" + failures.get(t, r, "workers") + "/" + failures.get(t, r, "interval")
		b, _ := strconv.Atoi(failures.get(t, r, "busiest_worker_recomputed"))
		most[key] = max(most[key], b)
	}
	for _, r := range grid.rows {
		key := grid.get(t, r, "partition_key") + "/" + grid.get(t, r, "workers") + "/" + grid.get(t, r, "interval")
		if got := grid.get(t, r, "busiest_worker_worst"); got != strconv.Itoa(most[key]) {
			t.Errorf("busiest_worker_worst = %s at %s, want %d", got, key, most[key])
		}
	}
}
