package runner

import (
	"bytes"
	"ckptlab/internal/slowtest"
	"context"
	"encoding/csv"
	"math"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"ckptlab/results"
	"ckptlab/runner/experiment"

	"github.com/xuri/excelize/v2"
)

// whatIfCase is an experiment and the values typed into the what-if
// sheet's inputs; zero values keep the sheet's own.
type whatIfCase struct {
	file      string
	prob      string
	stateRows string
	source    int // from 1
}

// whatIfWorkbook evaluates an experiment file with overrides and writes
// its workbook; it returns the result and the workbook's path.
func whatIfWorkbook(t *testing.T, file string, sets ...string) (*Result, string) {
	t.Helper()
	e, err := experiment.Load(filepath.Join("..", "experiments", file), experiment.Overrides{Sets: sets})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Evaluate(context.Background(), e, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := results.WriteXLSX(&buf, r.Set([]string{results.FormatXLSX})); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), e.Name+".xlsx")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return r, path
}

// wantWhatIf returns what the what-if sheet must show for source (from 1)
// of r: each declared interval's expected_total from grid.csv, at the
// sheet's state rows and probability (the answer's first envelope's, at
// its greatest probability), and the decision's best interval there.
func wantWhatIf(t *testing.T, r *Result, source int) (totals []string, best string) {
	t.Helper()
	w := r.WhatIf()
	src := w.Sources[source-1]
	var sr *SourceResult
	for _, s := range r.Sources {
		if s.Source.Periods == src.Periods && "seed "+strconv.Itoa(int(s.Source.Seed))+", "+results.Count.FormatInt(int64(s.Source.Subscribers))+" subscribers, "+results.Count.FormatInt(int64(s.Source.Periods))+" periods" == src.Title {
			sr = s
			break
		}
	}
	if sr == nil {
		t.Fatalf("no source %q", src.Title)
	}
	for d := range r.decisions {
		if d.sr.Source != sr.Source || d.prob != w.Probability || int64(d.stateRows) != w.StateRows {
			continue
		}
		for _, c := range sr.Parts[0].Costs {
			totals = append(totals, results.FloatValue(expectedTotal(c, d.prob, d.stateRows)).String())
		}
		// decisions.csv's best_interval, as its table writes it
		for row := range r.DecisionsTable().Rows {
			if row[0].Int == int64(sr.Source.Seed) && row[1].Int == int64(sr.Source.Subscribers) && row[2].Int == int64(sr.Source.Periods) &&
				row[3].Int == w.StateRows && row[4].Float == w.Probability {
				best = row[5].String()
				break
			}
		}
		return totals, best
	}
	t.Fatalf("no decision of %s", src.Title)
	return nil, ""
}

// whatIfShown reads the what-if sheet's expected totals and best interval
// from rows as a spreadsheet holds them.
func whatIfShown(rows [][]string, intervals int) (totals []string, best string) {
	for i := range intervals {
		r := 10 + i // row 11, from 0
		if r < len(rows) && len(rows[r]) > 5 {
			totals = append(totals, rows[r][5])
		} else {
			totals = append(totals, "")
		}
	}
	if len(rows) > 7 && len(rows[7]) > 1 {
		best = rows[7][1]
	}
	return totals, best
}

// sameTotal reports whether a cell's text is the float64 want to the 15
// significant digits a spreadsheet cell holds.
func sameTotal(got, want string) bool {
	g, err1 := strconv.ParseFloat(got, 64)
	w, err2 := strconv.ParseFloat(want, 64)
	return err1 == nil && err2 == nil && math.Abs(g-w) <= 1e-14*max(1, math.Abs(w))
}

// TestWhatIfCachedValues checks that the what-if sheet's formulas cache
// what ckptlab computes: each interval's expected total of grid.csv and
// the best interval of decisions.csv, for the first decision.
func TestWhatIfCachedValues(t *testing.T) {
	for _, file := range []string{"lesson.yaml", "faults.yaml", "long-horizon.yaml", "paired-sizes.yaml", "workers.yaml"} {
		r, path := whatIfWorkbook(t, file)
		f, err := excelize.OpenFile(path, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		rows, err := f.GetRows("what-if")
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		want, wantBest := wantWhatIf(t, r, 1)
		got, best := whatIfShown(rows, len(want))
		if !slices.EqualFunc(got, want, sameTotal) || best != wantBest {
			t.Errorf("%s: what-if caches totals %v, best %s; ckptlab computes %v, best %s", file, got, best, want, wantBest)
		}
	}
}

// recalcProfile is a LibreOffice profile that recalculates every formula
// of an OOXML file on load, instead of showing the cached values.
const recalcProfile = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
`

// TestWhatIfRecalculates types other values into the what-if sheet's
// input cells, has LibreOffice recalculate the workbook on load and export
// the sheet, and compares its totals and best interval with what ckptlab
// computes at those values: a run with the same probability and state rows
// (grid.csv's expected_total, decisions.csv's best_interval).
func TestWhatIfRecalculates(t *testing.T) {
	t.Parallel()
	soffice := slowtest.Require(t, "soffice")[0]
	for _, tc := range []whatIfCase{
		{"lesson.yaml", "0.3", "500", 1},
		{"lesson.yaml", "1", "0", 1},
		{"faults.yaml", "0.8", "150", 3},
		{"long-horizon.yaml", "0.05", "1000", 1},
		{"paired-sizes.yaml", "0.61", "200", 1},
	} {
		_, path := whatIfWorkbook(t, tc.file)
		f, err := excelize.OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := strconv.ParseFloat(tc.prob, 64)
		rows, _ := strconv.Atoi(tc.stateRows)
		for cell, v := range map[string]any{"B4": p, "B5": rows, "B6": tc.source} {
			if err := f.SetCellValue("what-if", cell, v); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.Save(); err != nil {
			t.Fatal(err)
		}
		f.Close()

		work := t.TempDir()
		if err := os.MkdirAll(filepath.Join(work, "profile", "user"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, "profile", "user", "registrymodifications.xcu"), []byte(recalcProfile), 0o644); err != nil {
			t.Fatal(err)
		}
		profile := url.URL{Scheme: "file", Path: filepath.Join(work, "profile")}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		// the what-if sheet, the second, cells as stored
		filter := "csv:Text - txt - csv (StarCalc):44,34,76,1,,1033,false,true,false,false,false,2"
		cmd := exec.CommandContext(ctx, soffice, "-env:UserInstallation="+profile.String(),
			"--headless", "--norestore", "--convert-to", filter, "--outdir", work, path)
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("soffice: %v\n%s", err, out)
		}
		matches, _ := filepath.Glob(filepath.Join(work, "*.csv"))
		if len(matches) != 1 {
			t.Fatalf("soffice wrote %v\n%s", matches, out)
		}
		data, err := os.ReadFile(matches[0])
		if err != nil {
			t.Fatal(err)
		}
		cr := csv.NewReader(bytes.NewReader(data))
		cr.FieldsPerRecord = -1
		shown, err := cr.ReadAll()
		if err != nil {
			t.Fatal(err)
		}

		r, _ := whatIfWorkbook(t, tc.file, "probabilities="+tc.prob, "state_rows="+tc.stateRows)
		want, wantBest := wantWhatIf(t, r, tc.source)
		got, best := whatIfShown(shown, len(want))
		if !slices.EqualFunc(got, want, sameTotal) || best != wantBest {
			t.Errorf("%s at p %s, state rows %s, source %d: LibreOffice recalculates totals %v, best %s; ckptlab computes %v, best %s",
				tc.file, tc.prob, tc.stateRows, tc.source, got, best, want, wantBest)
		}
	}
}
