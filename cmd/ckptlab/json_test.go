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

	"ckptlab/results"
	"ckptlab/runner"
)

// runJSON is run's JSON document as a script reads it: rows as maps.
type runJSON struct {
	Kind       string           `json:"kind"`
	Version    int              `json:"version"`
	Name       string           `json:"name"`
	Experiment []map[string]any `json:"experiment"`
	Headline   []string         `json:"headline"`
	Decisions  []map[string]any `json:"decisions"`
	Breakeven  []map[string]any `json:"breakeven"`
}

// TestRunJSON writes the lesson as CSV and JSON and checks the JSON
// against the CSVs, cell by cell, and that -o - writes the same document.
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
	}{{"decisions", doc.Decisions, runner.DecisionColumns()}, {"breakeven", doc.Breakeven, runner.BreakevenColumns()}} {
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
