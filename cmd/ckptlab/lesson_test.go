package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The lesson's printed tables, typed once from the lesson's text
// (shared/seed, "State in Stream Engines"): the independent truth that
// experiments/lesson.yaml, run through the real command, must reproduce.
var (
	lessonIntervals = []string{"none", "6", "4", "3", "2", "1"}

	// stream job 2200 rows, failure 2026-09: interval, checkpoints, recomputed rows.
	lessonRecovery = [][3]string{
		{"none", "0", "1600"},
		{"6", "2", "400"},
		{"3", "4", "400"},
		{"1", "12", "0"},
	}

	// failure × interval (None, 6, 4, 3, 2, 1).
	lessonMatrix = map[string][6]int{
		"2026-02": {200, 200, 200, 200, 200, 0},
		"2026-03": {400, 400, 400, 400, 0, 0},
		"2026-04": {600, 600, 600, 0, 200, 0},
		"2026-05": {800, 800, 0, 200, 0, 0},
		"2026-06": {1000, 1000, 200, 400, 200, 0},
		"2026-07": {1200, 0, 400, 0, 0, 0},
		"2026-08": {1400, 200, 600, 200, 200, 0},
		"2026-09": {1600, 400, 0, 400, 0, 0},
		"2026-10": {1800, 600, 200, 0, 200, 0},
		"2026-11": {2000, 800, 400, 200, 0, 0},
		"2026-12": {2200, 1000, 600, 400, 200, 0},
	}

	// interval, checkpoints, certain cost, worst, worst total, average, average total.
	lessonCost = [][7]string{
		{"none", "0", "0", "2200", "2200", "1200.0", "1200.0"},
		{"6", "2", "400", "1000", "1400", "545.5", "945.5"},
		{"4", "3", "600", "600", "1200", "327.3", "927.3"},
		{"3", "4", "800", "400", "1200", "218.2", "1018.2"},
		{"2", "6", "1200", "200", "1400", "109.1", "1309.1"},
		{"1", "12", "2400", "0", "2400", "0.0", "2400.0"},
	}

	// failure probability, expected totals for None, 6, 4, 3, 2, 1, best.
	lessonProbability = [][8]string{
		{"1", "1200.0", "945.5", "927.3", "1018.2", "1309.1", "2400.0", "4"},
		{"0.75", "900.0", "809.1", "845.5", "963.6", "1281.8", "2400.0", "6"},
		{"0.5", "600.0", "672.7", "763.6", "909.1", "1254.5", "2400.0", "none"},
		{"0.25", "300.0", "536.4", "681.8", "854.5", "1227.3", "2400.0", "none"},
	}

	// interval, whole job from scratch, busiest worker with partitioned
	// state, exactly-once state.
	lessonPartition = [][4]string{
		{"none", "1600", "408", "1600"},
		{"6", "400", "102", "400"},
		{"3", "400", "102", "400"},
		{"1", "0", "0", "0"},
	}
)

// table is a CSV file read back, with its rows addressable by column name.
type table struct {
	header map[string]int
	rows   [][]string
}

func readTable(t *testing.T, path string) table {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	tab := table{header: map[string]int{}, rows: recs[1:]}
	for i, name := range recs[0] {
		tab.header[name] = i
	}
	return tab
}

// find returns the rows whose named columns have the given values.
func (tab table) find(t *testing.T, where ...string) [][]string {
	t.Helper()
	var out [][]string
next:
	for _, r := range tab.rows {
		for i := 0; i < len(where); i += 2 {
			if r[tab.col(t, where[i])] != where[i+1] {
				continue next
			}
		}
		out = append(out, r)
	}
	return out
}

// one returns the single row whose named columns have the given values.
func (tab table) one(t *testing.T, where ...string) []string {
	t.Helper()
	rows := tab.find(t, where...)
	if len(rows) != 1 {
		t.Fatalf("%d rows where %v, want 1", len(rows), where)
	}
	return rows[0]
}

func (tab table) col(t *testing.T, name string) int {
	t.Helper()
	i, ok := tab.header[name]
	if !ok {
		t.Fatalf("no column %q", name)
	}
	return i
}

func (tab table) get(t *testing.T, row []string, name string) string {
	t.Helper()
	return row[tab.col(t, name)]
}

// rounded returns a float column as the lesson prints it: round(x, 1).
func (tab table) rounded(t *testing.T, row []string, name string) string {
	t.Helper()
	x, err := strconv.ParseFloat(tab.get(t, row, name), 64)
	if err != nil {
		t.Fatal(err)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// runLesson runs experiments/lesson.yaml through the command, as a user
// would, and returns the output folder.
func runLesson(t *testing.T, extra ...string) string {
	t.Helper()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := append([]string{"run", "-o", out}, extra...)
	args = append(args, filepath.Join("..", "..", "experiments", "lesson.yaml"))
	if code := Main(args, &stdout, &stderr); code != 0 {
		t.Fatalf("run exited %d: %s", code, stderr.String())
	}
	return filepath.Join(out, "lesson")
}

func TestLessonTables(t *testing.T) {
	dir := runLesson(t)
	grid := readTable(t, filepath.Join(dir, "grid.csv"))
	failures := readTable(t, filepath.Join(dir, "failures.csv"))

	if n := len(grid.rows); n != 4*6 {
		t.Errorf("grid has %d rows, want 24 (4 probabilities × 6 intervals)", n)
	}
	if n := len(failures.rows); n != 11*6 {
		t.Errorf("failures has %d rows, want 66 (11 failures × 6 intervals)", n)
	}
	for _, r := range grid.rows {
		if got := grid.get(t, r, "rows"); got != "2200" {
			t.Errorf("rows = %s, want 2200 (stream job 2200 rows)", got)
		}
	}

	t.Run("recovery", func(t *testing.T) {
		for _, want := range lessonRecovery {
			r := grid.one(t, "interval", want[0], "probability", "1")
			got := [3]string{want[0], grid.get(t, r, "checkpoints"), grid.get(t, r, "recomputed")}
			if got != want {
				t.Errorf("recovery at 2026-09 = %v, want %v", got, want)
			}
		}
	})
	t.Run("matrix", func(t *testing.T) {
		if len(lessonMatrix) != 11 {
			t.Fatalf("the lesson's matrix has 11 failures, typed %d", len(lessonMatrix))
		}
		for failure, want := range lessonMatrix {
			for i, k := range lessonIntervals {
				r := failures.one(t, "failure_period", failure, "interval", k)
				if got := failures.get(t, r, "recomputed"); got != strconv.Itoa(want[i]) {
					t.Errorf("failure %s, interval %s: recomputed %s, want %d", failure, k, got, want[i])
				}
			}
		}
	})
	t.Run("cost", func(t *testing.T) {
		for _, want := range lessonCost {
			r := grid.one(t, "interval", want[0], "probability", "1")
			got := [7]string{want[0],
				grid.get(t, r, "checkpoints"), grid.get(t, r, "certain_cost"),
				grid.get(t, r, "worst"), grid.get(t, r, "worst_total"),
				grid.rounded(t, r, "average"), grid.rounded(t, r, "average_total")}
			if got != want {
				t.Errorf("cost = %v, want %v", got, want)
			}
		}
	})
	t.Run("probability", func(t *testing.T) {
		for _, want := range lessonProbability {
			var got [8]string
			got[0] = want[0]
			var best []string
			for i, k := range lessonIntervals {
				r := grid.one(t, "interval", k, "probability", want[0])
				got[1+i] = grid.rounded(t, r, "expected_total")
				if grid.get(t, r, "best") == "true" {
					best = append(best, k)
				}
			}
			got[7] = strings.Join(best, ",")
			if got != want {
				t.Errorf("probability table row = %v, want %v", got, want)
			}
		}
	})
	t.Run("partition", func(t *testing.T) {
		for _, want := range lessonPartition {
			r := grid.one(t, "interval", want[0], "probability", "1")
			got := [4]string{want[0], grid.get(t, r, "recomputed"),
				grid.get(t, r, "busiest_worker_recomputed"), grid.get(t, r, "exactly_once_state")}
			if got != want {
				t.Errorf("partition = %v, want %v", got, want)
			}
			for _, f := range failures.find(t, "interval", want[0], "failure_period", "2026-09") {
				got := [4]string{want[0], failures.get(t, f, "recomputed"),
					failures.get(t, f, "busiest_worker_recomputed"), failures.get(t, f, "exactly_once_state")}
				if got != want {
					t.Errorf("failures.csv at 2026-09 = %v, want %v", got, want)
				}
			}
		}
	})
}
