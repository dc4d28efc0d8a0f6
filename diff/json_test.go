package diff

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ckptlab/folder"
	"ckptlab/report"
	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// csvFolder writes the lesson's tables as CSV into a fresh folder and
// returns the output folder.
func csvFolder(t *testing.T) string {
	t.Helper()
	e, err := experiment.LoadBytes("x.yaml", []byte(lesson), experiment.Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Evaluate(context.Background(), e, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	set, err := report.Set(context.Background(), res, []string{results.FormatCSV})
	if err != nil {
		t.Fatal(err)
	}
	if err := folder.Replace(context.Background(), out, set, []string{results.FormatCSV}); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(out, e.Name)
}

// setCell sets the cell of a table of the folder at a row (1 is the first
// after the header) and column.
func setCell(t *testing.T, dir, table string, row int, column, value string) {
	t.Helper()
	path := filepath.Join(dir, table+".csv")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	j := slices.Index(rows[0], column)
	if j < 0 {
		t.Fatalf("%s.csv has no column %s", table, column)
	}
	rows[row][j] = value
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.WriteAll(rows)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestJSONNonFinite: cells that hold NaN or an infinity, and changes whose
// difference overflows, are written as null: the report is one valid
// document, and text and Markdown still render.
func TestJSONNonFinite(t *testing.T) {
	for _, tt := range []struct {
		name          string
		table, column string
		old, new      string
		want          []string // in the JSON, spaces removed
	}{
		{"a NaN cell", gridTable, "expected_total", "1200", "NaN", []string{`"first":{"at":{`, `"old":1200,"new":null,"delta":0,`}},
		{"an overflowing delta", gridTable, "expected_total", "-1.7e308", "1.7e308", []string{`"old":-1.7e308,"new":1.7e308,"delta":null,"relative":null`}},
		{"an infinite cell", gridTable, "average", "+Inf", "1", []string{`"old":null,"new":1,"delta":null,"relative":null`}},
		{"a NaN cost of a decision", decisionsTable, "best_expected_total", "927.2727272727273", "NaN", []string{`"old":{"best_interval":4,"best_expected_total":927.2727272727273}`, `"new":{"best_interval":6,"best_expected_total":null}`}},
		{"a total no JSON number", decisionsTable, "best_expected_total", "927.2727272727273", "0x1p-2", []string{`"best_expected_total":0.25`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			oldDir, newDir := csvFolder(t), csvFolder(t)
			setCell(t, oldDir, tt.table, 1, tt.column, tt.old)
			setCell(t, newDir, tt.table, 1, tt.column, tt.new)
			if tt.table == decisionsTable { // a choice that changed lists its cost
				setCell(t, newDir, tt.table, 1, "best_interval", "6")
			}
			old, err := FolderSide(oldDir)
			if err != nil {
				t.Fatal(err)
			}
			new, err := FolderSide(newDir)
			if err != nil {
				t.Fatal(err)
			}
			e, err := Pair(old, new)
			if err != nil {
				t.Fatal(err)
			}
			r := &Report{Kind: results.JSONKindDiff, Version: results.DiffJSONVersion, Experiments: []Experiment{e}}
			var b bytes.Buffer
			if err := Write(&b, r, FormatJSON); err != nil {
				t.Fatalf("json: %v", err)
			}
			if !json.Valid(b.Bytes()) {
				t.Fatalf("not one JSON document:\n%s", b.String())
			}
			compact := strings.Join(strings.Fields(b.String()), "")
			for _, w := range tt.want {
				if !strings.Contains(compact, w) {
					t.Errorf("the JSON lacks %s:\n%s", w, b.String())
				}
			}
			for _, format := range []string{FormatText, FormatMD} {
				if err := Write(&bytes.Buffer{}, r, format); err != nil {
					t.Errorf("%s: %v", format, err)
				}
			}
		})
	}
}
