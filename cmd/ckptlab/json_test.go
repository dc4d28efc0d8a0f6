package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"ckptlab/report"
	"ckptlab/results"
)

// runJSON is run's JSON document as a script reads it, with rows as maps.
type runJSON struct {
	Kind       string           `json:"kind"`
	Version    int              `json:"version"`
	Name       string           `json:"name"`
	Experiment []map[string]any `json:"experiment"`
	Headline   []string         `json:"headline"`
	Decisions  []map[string]any `json:"decisions"`
	Breakeven  []map[string]any `json:"breakeven"`
}

// TestRunJSON writes the lesson as CSV and JSON.
// It checks the JSON against the CSVs, cell by cell.
// It checks that -o - writes the same document.
func TestRunJSON(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := ckptlab("run", "-q", "--format", "csv,json", "-o", out, "../../experiments/lesson.yaml")
	if code != 0 {
		t.Fatalf("run = %d\n%s%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "lesson", "lesson.json"))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc runJSON
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc.Kind != results.JSONKindRun || doc.Version != results.RunJSONVersion || doc.Name != "lesson" || len(doc.Headline) == 0 || len(doc.Experiment) == 0 {
		t.Errorf("kind %q version %d name %q, %d headline lines, %d settings", doc.Kind, doc.Version, doc.Name, len(doc.Headline), len(doc.Experiment))
	}
	for _, kv := range doc.Experiment {
		if kv["key"] != "seeds" {
			continue
		}
		if seeds, ok := kv["value"].([]any); !ok || len(seeds) != 1 || seeds[0] != json.Number("20260218") {
			t.Errorf("seeds: %#v, want a list of the number 20260218", kv["value"])
		}
	}
	for _, tab := range []struct {
		name    string
		rows    []map[string]any
		columns []results.Column
	}{{"decisions", doc.Decisions, report.DecisionColumns()}, {"breakeven", doc.Breakeven, report.BreakevenColumns()}} {
		numeric := map[string]bool{} // the columns whose numbers JSON writes as numbers
		for _, c := range tab.columns {
			numeric[c.Name] = c.Kind == results.Int || c.Kind == results.Float || c.Numeric
		}
		f, err := os.Open(filepath.Join(out, "lesson", tab.name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		all, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(tab.rows) != len(all)-1 {
			t.Fatalf("%s: %d rows in JSON, %d in the CSV", tab.name, len(tab.rows), len(all)-1)
		}
		for i, row := range all[1:] {
			for j, col := range all[0] {
				v, ok := tab.rows[i][col]
				if !ok {
					t.Errorf("%s row %d has no %s", tab.name, i, col)
					continue
				}
				if got := fmt.Sprint(v); got != row[j] {
					t.Errorf("%s row %d %s: JSON %s, CSV %s", tab.name, i, col, got, row[j])
				}
				_, isNumber := v.(json.Number)
				if _, err := strconv.ParseFloat(row[j], 64); numeric[col] && err == nil && !isNumber {
					t.Errorf("%s row %d %s: JSON %#v, want the number %s", tab.name, i, col, v, row[j])
				}
			}
		}
	}
	code, stdout, _ = ckptlab("run", "-q", "--format", "json", "-o", "-", "../../experiments/lesson.yaml")
	if code != 0 || stdout != string(data) {
		t.Errorf("-o - = %d, and differs from lesson.json", code)
	}
}

// TestRunJSONAgain writes JSON, again and again, into a folder that holds
// a set of JSON or of CSV. It is never refused. For the same experiment,
// the other format's files are kept.
func TestRunJSONAgain(t *testing.T) {
	out := t.TempDir()
	for _, format := range []string{"json", "json", "csv", "json"} {
		if code, stdout, stderr := ckptlab("run", "-q", "--format", format, "-o", out, "../../experiments/lesson.yaml"); code != 0 {
			t.Fatalf("run --format %s = %d\n%s%s", format, code, stdout, stderr)
		}
	}
	for _, name := range []string{"lesson.json", "grid.csv", "decisions.csv"} {
		if _, err := os.Stat(filepath.Join(out, "lesson", name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestRunJSONStdoutKind checks which document -o - writes.
// One experiment file gives a run document. Several files or a folder give
// one runs document, even a folder of one experiment.
func TestRunJSONStdoutKind(t *testing.T) {
	one := t.TempDir()
	data, err := os.ReadFile("../../experiments/lesson.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(one, "lesson.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		kind string
		runs int
	}{
		{[]string{"../../experiments/lesson.yaml"}, results.JSONKindRun, 0},
		{[]string{"../../experiments/lesson.yaml", "../../experiments/workers.yaml"}, results.JSONKindRuns, 2},
		{[]string{one}, results.JSONKindRuns, 1},
	} {
		code, stdout, stderr := ckptlab(append([]string{"run", "-q", "--format", "json", "-o", "-"}, c.args...)...)
		if code != 0 {
			t.Fatalf("%v: %d\n%s", c.args, code, stderr)
		}
		var doc struct {
			Kind    string    `json:"kind"`
			Version int       `json:"version"`
			Runs    []runJSON `json:"runs"`
		}
		if err := decodeJSON([]byte(stdout), &doc); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if doc.Kind != c.kind || doc.Version != results.RunJSONVersion || len(doc.Runs) != c.runs {
			t.Errorf("%v: kind %s version %d with %d runs, want %s with %d", c.args, doc.Kind, doc.Version, len(doc.Runs), c.kind, c.runs)
		}
		for i, r := range doc.Runs {
			if r.Kind != results.JSONKindRun || len(r.Decisions) == 0 {
				t.Errorf("%v: run %d is of kind %s with %d decisions", c.args, i, r.Kind, len(r.Decisions))
			}
		}
	}
}
