package main

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ckptlab/internal/lessonfigures"
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

// rounded returns a float column as the lesson prints it, round(x, 1).
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

// TestLessonTables checks every number of the lesson's printed tables
// against grid.csv and failures.csv. These come from experiments/lesson.yaml
// run through the command. The numbers are lessonfigures, typed once from
// the lesson.
func TestLessonTables(t *testing.T) {
	dir := runLesson(t)
	grid := readTable(t, filepath.Join(dir, "grid.csv"))
	failures := readTable(t, filepath.Join(dir, "failures.csv"))
	canon := lessonfigures.Canon

	if n := len(grid.rows); n != 4*6 {
		t.Errorf("grid has %d rows, want 24 (4 probabilities × 6 intervals)", n)
	}
	if n := len(failures.rows); n != 11*6 {
		t.Errorf("failures has %d rows, want 66 (11 failures × 6 intervals)", n)
	}
	for _, r := range grid.rows {
		if got := grid.get(t, r, "rows"); got != lessonfigures.StreamRows {
			t.Errorf("rows = %s, want %s", got, lessonfigures.StreamRows)
		}
	}
	// compare checks one printed row against the same cells read back.
	compare := func(t *testing.T, want []string, got ...string) {
		t.Helper()
		for i := range want {
			if canon(want[i]) != got[i] {
				t.Errorf("row %q: read back %q", want, got)
				return
			}
		}
	}

	t.Run("recovery", func(t *testing.T) {
		for _, want := range lessonfigures.Recovery[1:] {
			r := grid.one(t, "interval", canon(want[0]), "probability", "1")
			compare(t, want, canon(want[0]), grid.get(t, r, "checkpoints"), grid.get(t, r, "recomputed"))
		}
	})
	t.Run("matrix", func(t *testing.T) {
		header := lessonfigures.Matrix[0]
		for _, want := range lessonfigures.Matrix[1:] {
			got := []string{want[0]}
			for _, k := range header[1:] {
				r := failures.one(t, "failure_period", want[0], "interval", canon(k))
				got = append(got, failures.get(t, r, "recomputed"))
			}
			compare(t, want, got...)
		}
	})
	t.Run("cost", func(t *testing.T) {
		for _, want := range lessonfigures.Cost[1:] {
			r := grid.one(t, "interval", canon(want[0]), "probability", "1")
			compare(t, want, canon(want[0]),
				grid.get(t, r, "checkpoints"), grid.get(t, r, "certain_cost"),
				grid.get(t, r, "worst"), grid.get(t, r, "worst_total"),
				grid.rounded(t, r, "average"), grid.rounded(t, r, "average_total"))
		}
	})
	t.Run("probability", func(t *testing.T) {
		header := lessonfigures.Probability[0]
		for _, want := range lessonfigures.Probability[1:] {
			p := canon(want[0])
			got := []string{p}
			var best []string
			for _, k := range header[1 : len(header)-1] {
				r := grid.one(t, "interval", canon(k), "probability", p)
				got = append(got, grid.rounded(t, r, "expected_total"))
				if grid.get(t, r, "best") == "true" {
					best = append(best, canon(k))
				}
			}
			compare(t, want, append(got, strings.Join(best, ","))...)
		}
	})
	t.Run("partition", func(t *testing.T) {
		for _, want := range lessonfigures.Partition[1:] {
			k := canon(want[0])
			r := grid.one(t, "interval", k, "probability", "1")
			compare(t, want, k, grid.get(t, r, "recomputed"),
				grid.get(t, r, "busiest_worker_recomputed"), grid.get(t, r, "exactly_once_state"))
			f := failures.one(t, "interval", k, "failure_period", "2026-09")
			compare(t, want, k, failures.get(t, f, "recomputed"),
				failures.get(t, f, "busiest_worker_recomputed"), failures.get(t, f, "exactly_once_state"))
		}
	})
}

// TestRunRefusesTooMuchMemory checks that a run whose counts would not fit
// is refused before any work, with the size and the flag that raises it.
func TestRunRefusesTooMuchMemory(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"run", "-o", out, "--set", "workers={from: 1, to: 100000}", filepath.Join("..", "..", "experiments", "lesson.yaml")}
	if code := Main(args, &stdout, &stderr); code != exitBadUser {
		t.Fatalf("run exited %d, want %d; stderr: %s", code, exitBadUser, stderr.String())
	}
	if msg := stderr.String(); !strings.Contains(msg, "more than --max-memory 4096") || !strings.Contains(msg, "raise the limit with --max-memory") {
		t.Errorf("stderr = %q, want the size and how to raise the limit", msg)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("the refused run wrote %v", entries)
	}
}
