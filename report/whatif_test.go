package report

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"ckptlab/internal/testkit"
	"ckptlab/results"
	"ckptlab/results/workbook"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
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
func whatIfWorkbook(t *testing.T, file string, sets ...string) (*result, string) {
	t.Helper()
	e, err := experiment.Load(filepath.Join("..", "experiments", file), experiment.Overrides{Sets: sets})
	if err != nil {
		t.Fatal(err)
	}
	r, err := evaluateRun(context.Background(), e, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := workbook.Write(context.Background(), &buf, r.set([]string{results.FormatXLSX}), ""); err != nil {
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
func wantWhatIf(t *testing.T, r *result, source int) (totals []string, best string) {
	t.Helper()
	w := r.whatIf()
	return wantWhatIfAt(t, r, source, w.Probability, w.StateRows)
}

// wantWhatIfAt is wantWhatIf at probability p and state rows.
func wantWhatIfAt(t *testing.T, r *result, source int, p float64, stateRows int64) (totals []string, best string) {
	t.Helper()
	w := r.whatIf()
	src := w.Sources[source-1]
	var sr *runner.SourceResult
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
		if d.sr.Source != sr.Source || d.prob != p || int64(d.stateRows) != stateRows {
			continue
		}
		for _, c := range sr.Parts[0].Costs {
			totals = append(totals, results.FloatValue(expectedTotal(c, d.prob, d.stateRows)).String())
		}
		// decisions.csv's best_interval, as its table writes it
		for row := range r.decisionsTable().Rows {
			if row[0].Int == int64(sr.Source.Seed) && row[1].Int == int64(sr.Source.Subscribers) && row[2].Int == int64(sr.Source.Periods) &&
				row[3].Int == stateRows && row[4].Float == p {
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

// recalcEngine is a spreadsheet program that recalculates workbooks on
// load: recalc returns each one's what-if sheet as it computes it.
type recalcEngine struct {
	name   string
	recalc func(t *testing.T, tool string, paths []string) [][][]string
}

var recalcEngines = []struct {
	tool string // the program, found on PATH
	recalcEngine
}{
	{"soffice", recalcEngine{"LibreOffice", recalcWithLibreOffice}},
	{"ssconvert", recalcEngine{"Gnumeric", recalcWithGnumeric}},
}

// lookEngine finds an engine's program, a slow test's (internal/testkit).
func lookEngine(t *testing.T, tool string) string {
	t.Helper()
	return testkit.RequireSlow(t, tool)[0]
}

// recalcWithLibreOffice has LibreOffice recalculate every formula on load
// and export the what-if sheet, cells as stored: one run for every
// workbook, whose names must differ.
func recalcWithLibreOffice(t *testing.T, soffice string, paths []string) [][][]string {
	t.Helper()
	work := t.TempDir()
	if err := os.MkdirAll(filepath.Join(work, "profile", "user"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "profile", "user", "registrymodifications.xcu"), []byte(recalcProfile), 0o644); err != nil {
		t.Fatal(err)
	}
	profile := url.URL{Scheme: "file", Path: filepath.Join(work, "profile")}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	// the what-if sheet, the second, cells as stored
	filter := "csv:Text - txt - csv (StarCalc):44,34,76,1,,1033,false,true,false,false,false,2"
	args := append([]string{"-env:UserInstallation=" + profile.String(),
		"--headless", "--norestore", "--convert-to", filter, "--outdir", work}, paths...)
	out, err := exec.CommandContext(ctx, soffice, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("soffice: %v\n%s", err, out)
	}
	var sheets [][][]string
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".xlsx")
		matches, _ := filepath.Glob(filepath.Join(work, name+"*.csv"))
		if len(matches) != 1 {
			t.Fatalf("soffice wrote %v for %s\n%s", matches, name, out)
		}
		sheets = append(sheets, readShown(t, matches[0]))
	}
	return sheets
}

// recalcWithGnumeric has Gnumeric's ssconvert recalculate each workbook
// and export its what-if sheet, cells as stored.
func recalcWithGnumeric(t *testing.T, ssconvert string, paths []string) [][][]string {
	t.Helper()
	var sheets [][][]string
	for _, path := range paths {
		csvPath := filepath.Join(t.TempDir(), "what-if.csv")
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		cmd := exec.CommandContext(ctx, ssconvert, "--recalc", "-T", "Gnumeric_stf:stf_assistant",
			"-O", "sheet=what-if format=raw separator=, quoting-mode=auto", path, csvPath)
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("ssconvert: %v\n%s", err, out)
		}
		sheets = append(sheets, readShown(t, csvPath))
	}
	return sheets
}

// readShown reads a sheet exported as CSV.
func readShown(t *testing.T, path string) [][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = -1
	shown, err := cr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return shown
}

// typeInputs writes values into cells of the what-if sheet of the
// workbook at path, saved under dir as name.xlsx.
func typeInputs(t *testing.T, path, dir, name string, cells map[string]any) string {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for cell, v := range cells {
		if err := f.SetCellValue("what-if", cell, v); err != nil {
			t.Fatal(err)
		}
	}
	typed := filepath.Join(dir, name+".xlsx")
	if err := f.SaveAs(typed); err != nil {
		t.Fatal(err)
	}
	return typed
}

// whatIfCheck is a workbook with inputs typed in and what its what-if
// sheet must show.
type whatIfCheck struct {
	what       string
	path       string
	want       []string
	wantBest   string
	wantSource string
}

// recalcAll has every engine recalculate the checks' workbooks and
// compares each what-if sheet with what it must show.
func recalcAll(t *testing.T, checks []whatIfCheck) {
	for _, e := range recalcEngines {
		t.Run(e.name, func(t *testing.T) {
			tool := lookEngine(t, e.tool)
			paths := make([]string, len(checks))
			for i, c := range checks {
				paths[i] = c.path
			}
			for i, shown := range e.recalc(t, tool, paths) {
				c := checks[i]
				got, best := whatIfShown(shown, len(c.want))
				if !slices.EqualFunc(got, c.want, sameTotal) || best != c.wantBest {
					t.Errorf("%s: %s recalculates totals %v, best %s; ckptlab computes %v, best %s",
						c.what, e.name, got, best, c.want, c.wantBest)
				}
				if len(shown) > 6 && len(shown[6]) > 1 && shown[6][1] != c.wantSource {
					t.Errorf("%s: %s names the source picked %q, want %q", c.what, e.name, shown[6][1], c.wantSource)
				}
			}
		})
	}
}

// TestWhatIfRecalculates types other values into the what-if sheet's
// input cells, has LibreOffice and Gnumeric recalculate the workbook and
// export the sheet, and compares its totals and best interval with what
// ckptlab computes at those values: a run with the same probability and
// state rows (grid.csv's expected_total, decisions.csv's best_interval).
func TestWhatIfRecalculates(t *testing.T) {
	t.Parallel()
	testkit.RequireSlow(t)
	dir := t.TempDir()
	var checks []whatIfCheck
	for i, tc := range []whatIfCase{
		{"lesson.yaml", "0.3", "500", 1},
		{"lesson.yaml", "1", "0", 1},
		{"faults.yaml", "0.8", "150", 3},
		{"long-horizon.yaml", "0.05", "1000", 1},
		{"paired-sizes.yaml", "0.61", "200", 2},
	} {
		_, path := whatIfWorkbook(t, tc.file)
		p, _ := strconv.ParseFloat(tc.prob, 64)
		rows, _ := strconv.Atoi(tc.stateRows)
		typed := typeInputs(t, path, dir, "typed-"+strconv.Itoa(i), map[string]any{"B4": p, "B5": rows, "B6": tc.source})
		r, _ := whatIfWorkbook(t, tc.file, "probabilities="+tc.prob, "state_rows="+tc.stateRows)
		want, wantBest := wantWhatIf(t, r, tc.source)
		checks = append(checks, whatIfCheck{
			what: fmt.Sprintf("%s at p %s, state rows %s, source %d", tc.file, tc.prob, tc.stateRows, tc.source),
			path: typed, want: want, wantBest: wantBest, wantSource: r.whatIf().Sources[tc.source-1].Title,
		})
	}
	recalcAll(t, checks)
}

// TestWhatIfRecalculatesShipped has LibreOffice and Gnumeric recalculate
// the what-if sheet of every shipped experiment at its first and last
// source, the inputs as the sheet has them (each source's own state rows),
// and compares the totals and best interval with decisions.csv.
func TestWhatIfRecalculatesShipped(t *testing.T) {
	t.Parallel()
	testkit.RequireSlow(t)
	if raceDetector {
		t.Skip("runs other programs: nothing to race, and minutes under the detector")
	}
	files, err := filepath.Glob(filepath.Join("..", "experiments", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no shipped experiments: %v", err)
	}
	dir := t.TempDir()
	var checks []whatIfCheck
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".yaml")
		r, path := whatIfWorkbook(t, filepath.Base(file))
		srcs := r.whatIf().Sources
		for _, source := range slices.Compact([]int{1, len(srcs)}) {
			// The sheet's probability, or the source's highest where its
			// case declares another, typed in: decisions.csv has it.
			p := declaredProbability(r, srcs[source-1], r.whatIf().Probability)
			typed := typeInputs(t, path, dir, fmt.Sprintf("%s-%d", name, source), map[string]any{"B4": p, "B6": source})
			want, wantBest := wantWhatIfAt(t, r, source, p, srcs[source-1].StateRows)
			checks = append(checks, whatIfCheck{
				what: fmt.Sprintf("%s, source %d of %d", name, source, len(srcs)),
				path: typed, want: want, wantBest: wantBest, wantSource: srcs[source-1].Title,
			})
		}
	}
	recalcAll(t, checks)
}

// declaredProbability is p where the source of the what-if sheet has a
// decision at p and its own state rows, else its highest such probability.
func declaredProbability(r *result, src results.WhatIfSource, p float64) float64 {
	highest := math.Inf(-1)
	for d := range r.decisions {
		title := "seed " + strconv.Itoa(int(d.sr.Source.Seed)) + ", " + results.Count.FormatInt(int64(d.sr.Source.Subscribers)) +
			" subscribers, " + results.Count.FormatInt(int64(d.sr.Source.Periods)) + " periods"
		if title != src.Title || int64(d.stateRows) != src.StateRows {
			continue
		}
		if d.prob == p {
			return p
		}
		highest = max(highest, d.prob)
	}
	return highest
}

// TestWhatIfStatesSchedule checks that the what-if sheet states the best
// schedule at its first inputs (SPEC 12's figures for the lesson) in a
// wrapped row under the interval table that no formula reads, and says
// so where the best interval is the best schedule.
func TestWhatIfStatesSchedule(t *testing.T) {
	for _, tc := range []struct {
		sets []string
		want []string
	}{
		{nil, []string{"p = 1.0000, state rows 200: 2 checkpoints, after 2026-05 and 2026-09, 727.3 rows", "not recalculated"}},
		{[]string{"probabilities=0.75"}, []string{"1 checkpoint, after 2026-07, 609.1 rows"}},
		{[]string{"probabilities=0.25"}, []string{"p = 0.2500", "the best interval is also the best schedule: interval none, 300.0 rows"}},
		{[]string{"seeds=[20260218, 7]"}, []string{"best schedule of source 1 at p = 1.0000"}},
	} {
		_, path := whatIfWorkbook(t, "lesson.yaml", tc.sets...)
		f, err := excelize.OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := f.GetRows("what-if")
		if err != nil {
			t.Fatal(err)
		}
		at := slices.IndexFunc(rows, func(r []string) bool { return len(r) > 0 && strings.HasPrefix(r[0], "best schedule") })
		if at < 0 {
			t.Fatalf("%v: the what-if sheet states no schedule", tc.sets)
		}
		for _, w := range tc.want {
			if !strings.Contains(rows[at][0], w) {
				t.Errorf("%v: the schedule's row %q does not say %q", tc.sets, rows[at][0], w)
			}
		}
		cell := fmt.Sprintf("A%d", at+1)
		if at+1 != 18 { // under the six intervals, rows 11 to 16, and a blank row
			t.Errorf("%v: the schedule is stated in %s, want A18", tc.sets, cell)
		}
		merged, err := f.GetMergeCells("what-if")
		if err != nil {
			t.Fatal(err)
		}
		end := fmt.Sprintf("G%d", at+1)
		if !slices.ContainsFunc(merged, func(m excelize.MergeCell) bool { return m.GetStartAxis() == cell && m.GetEndAxis() == end }) {
			t.Errorf("%v: %s is not merged across A:G", tc.sets, cell)
		}
		var chars float64
		for _, col := range []string{"A", "B", "C", "D", "E", "F", "G"} {
			w, err := f.GetColWidth("what-if", col)
			if err != nil {
				t.Fatal(err)
			}
			chars += w
		}
		height, err := f.GetRowHeight("what-if", at+1)
		if err != nil {
			t.Fatal(err)
		}
		if lines := math.Ceil(float64(len([]rune(rows[at][0]))) / chars); height < 15*lines {
			t.Errorf("%v: the schedule's row is %.0f points tall for %.0f lines of text", tc.sets, height, lines)
		}
		style, err := f.GetCellStyle("what-if", cell)
		if err != nil {
			t.Fatal(err)
		}
		if s, err := f.GetStyle(style); err != nil || s.Alignment == nil || !s.Alignment.WrapText {
			t.Errorf("%v: %s does not wrap its text", tc.sets, cell)
		}
		// every cell or range a formula reads, by its rows
		ref := regexp.MustCompile(`\$?[A-Z]+\$?(\d+)(?::\$?[A-Z]+\$?(\d+))?`)
		for r := range rows {
			for c := range rows[r] {
				name, _ := excelize.CoordinatesToCellName(c+1, r+1)
				fm, _ := f.GetCellFormula("what-if", name)
				for _, m := range ref.FindAllStringSubmatch(fm, -1) {
					lo, _ := strconv.Atoi(m[1])
					hi := lo
					if m[2] != "" {
						hi, _ = strconv.Atoi(m[2])
					}
					if lo <= at+1 && at+1 <= hi {
						t.Errorf("%v: %s's formula %s reads the schedule's row", tc.sets, name, fm)
					}
				}
			}
		}
		f.Close()
	}
}
