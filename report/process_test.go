package report

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"ckptlab/folder"
	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// processCSV returns the time model's two tables of r as CSV.
func processCSV(t *testing.T, r *result) (rows, decisions string) {
	t.Helper()
	p, d := r.processTables()
	var a, b bytes.Buffer
	if err := results.WriteCSV(&a, p); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteCSV(&b, d); err != nil {
		t.Fatal(err)
	}
	return a.String(), b.String()
}

// records splits CSV text into its header and rows of fields.
func records(text string) (header []string, rows [][]string) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for _, l := range lines[1:] {
		rows = append(rows, strings.Split(l, ","))
	}
	return strings.Split(lines[0], ","), rows
}

func field(t *testing.T, header, row []string, name string) string {
	t.Helper()
	for i, h := range header {
		if h == name {
			return row[i]
		}
	}
	t.Fatalf("no column %s in %v", name, header)
	return ""
}

// TestProcessAnchor runs the anchor case of SPEC 15 (Daly 2006) end to end:
// 30 subscribers at 0.5 rows/s, 5,001 periods, δ = 5 min, R = 10 min.
func TestProcessAnchor(t *testing.T) {
	r := evaluateYAML(t, "name: x\nsubscribers: 30\nperiods: 5001\nintervals: {from: 1, to: 400}\n"+
		"probabilities: 1\nthroughput: 0.5\ncheckpoint_time: 5m\nrestart_time: 10m\nmtbf: [24h, 6h, 15m]\n")
	rowsText, decText := processCSV(t, r)
	header, rows := records(rowsText)
	if len(rows) != 3*400 {
		t.Fatalf("process.csv has %d rows, want 3 × 400", len(rows))
	}
	if n, _ := r.Exp.ProcessRows(); n != int64(len(rows)) {
		t.Errorf("ProcessRows %d, the table %d", n, len(rows))
	}
	best := 0
	for _, row := range rows {
		if field(t, header, row, "best") == "true" {
			best++
		}
		if w := field(t, header, row, "work_seconds"); w != "300000" {
			t.Fatalf("work_seconds %s, want 5,000 minutes", w)
		}
	}
	if best != 3 {
		t.Errorf("%d best rows, want one per group", best)
	}
	header, decs := records(decText)
	for i, want := range []string{"116.7", "56.71", "9.167"} {
		exact, _ := strconv.ParseFloat(field(t, header, decs[i], "exact_periods"), 64)
		if got := strconv.FormatFloat(exact, 'g', 4, 64); got != want {
			t.Errorf("group %d: exact_periods %s, want %s", i, got, want)
		}
		k, _ := strconv.ParseFloat(field(t, header, decs[i], "best_interval"), 64)
		if d := math.Abs(k-exact) / exact; d > 0.031 {
			t.Errorf("group %d: best interval %v, %.3g from %v", i, k, d, exact)
		}
	}
}

// TestProcessSameBytesForEveryJobs: the simulated figures are the same
// bytes for any -j, exponential and Weibull.
func TestProcessSameBytesForEveryJobs(t *testing.T) {
	for _, dist := range []string{"exponential", "weibull"} {
		src := "name: x\nintervals: [none, 4, 2, 1]\nthroughput: 0.05\ncheckpoint_time: 5m\nrestart_time: 10m\n" +
			"mtbf: [6h, 24h]\nreplications: 3000\nfailure_distribution: " + dist + "\n"
		e, err := experiment.LoadBytes("x.yaml", []byte(src), experiment.Overrides{})
		if err != nil {
			t.Fatal(err)
		}
		var want string
		for _, jobs := range []int{1, 2, 5} {
			r, err := evaluateRun(context.Background(), e, runner.Options{Jobs: jobs})
			if err != nil {
				t.Fatal(err)
			}
			rows, _ := processCSV(t, r)
			switch {
			case jobs == 1:
				want = rows
				header, recs := records(rows)
				if field(t, header, recs[0], "mc_mean_seconds") == "" {
					t.Fatalf("%s: no simulation:\n%s", dist, rows)
				}
			case rows != want:
				t.Errorf("%s, -j %d: process.csv differs from -j 1", dist, jobs)
			}
		}
	}
}

// TestProcessExactAgainstSimulation: on the lesson's stream, each
// exponential simulation lies within four half-widths of the exact value.
func TestProcessExactAgainstSimulation(t *testing.T) {
	r := evaluateYAML(t, "name: x\nthroughput: 0.05\ncheckpoint_time: 5m\nrestart_time: 10m\nmtbf: [6h, 24h]\nreplications: 4000\n")
	rows, _ := processCSV(t, r)
	header, recs := records(rows)
	for _, row := range recs {
		exact, _ := strconv.ParseFloat(field(t, header, row, "expected_seconds"), 64)
		mean, _ := strconv.ParseFloat(field(t, header, row, "mc_mean_seconds"), 64)
		half, _ := strconv.ParseFloat(field(t, header, row, "mc_half_width_seconds"), 64)
		if math.Abs(mean-exact) > 4*half {
			t.Errorf("%v: simulated %v ± %v, exact %v", row, mean, half, exact)
		}
	}
}

// TestProcessOff: without throughput there are no time tables and no
// files of them.
func TestProcessOff(t *testing.T) {
	r := evaluateYAML(t, "name: x\n")
	if p, d := r.processTables(); p.Columns != nil || d.Columns != nil {
		t.Error("time tables without throughput")
	}
	set := r.set([]string{results.FormatCSV})
	if set.Process.Columns != nil {
		t.Error("the set holds process.csv without throughput")
	}
}

// TestProcessRowsWithCases: the plan's count of the time tables' rows is
// their rows, a source two cases share with the same intervals once.
func TestProcessRowsWithCases(t *testing.T) {
	r := evaluateYAML(t, "name: x\nthroughput: 1\ncheckpoint_time: [1m, 5m]\nmtbf: 6h\n"+
		"cases: [{workers: 2}, {workers: 3}, {periods: 24, intervals: [none, 12]}]\n")
	rows, decs := processCSV(t, r)
	_, rs := records(rows)
	_, ds := records(decs)
	n, d := r.Exp.ProcessRows()
	if n != int64(len(rs)) || d != int64(len(ds)) || len(ds) != 4 || len(rs) != 2*6+2*2 {
		t.Errorf("ProcessRows %d and %d, tables %d and %d; want 16 and 4", n, d, len(rs), len(ds))
	}
}

// TestProcessHeadline: the headline's line of a group says the interval in
// periods and time, the share lost and the textbook optima, here those of
// the anchor case at M = 24 h (Young 120, Daly 116.7 minutes; SPEC 15's
// example loses about 9.6 %).
func TestProcessHeadline(t *testing.T) {
	r := evaluateYAML(t, "name: x\nsubscribers: 30\nperiods: 5001\nintervals: [117]\nprobabilities: 1\n"+
		"throughput: 0.5\ncheckpoint_time: 5m\nrestart_time: 10m\nmtbf: 24h\n")
	lines := r.timeHeadline()
	if len(lines) != 1 {
		t.Fatalf("headline %q, want one line", lines)
	}
	const head, tail = "at MTBF 24 h: every 117 periods (1 h 57 min), ", " of the time lost; Young 120, Daly 116.7"
	line := lines[0]
	if !strings.HasPrefix(line, head) || !strings.HasSuffix(line, tail) {
		t.Fatalf("headline %q, want %q…%q", line, head, tail)
	}
	pct, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(line, head), tail), " %"), 64)
	if err != nil || pct < 9 || pct > 10 {
		t.Errorf("headline %q: lost %v %%, want about 9.6", line, pct)
	}
	if set := r.set([]string{results.FormatCSV}); !strings.Contains(strings.Join(set.Headline, "\n"), line) {
		t.Errorf("the set's headline lacks %q", line)
	}
}

// TestProcessEveryFormat: the headline, the Markdown and the JSON name the
// best interval of each group as process_decisions.csv does.
func TestProcessEveryFormat(t *testing.T) {
	r := evaluateYAML(t, "name: x\nintervals: all\nprobabilities: 1\nthroughput: 0.3\ncheckpoint_time: 5m\n"+
		"restart_time: 10m\nmtbf: [15m, 6h, 24h]\n")
	set := r.set([]string{results.FormatMD, results.FormatJSON})
	_, decText := processCSV(t, r)
	header, decs := records(decText)
	var md, js bytes.Buffer
	if err := results.WriteMarkdown(&md, set); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteJSON(&js, set); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		ProcessDecisions []map[string]any `json:"process_decisions"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.ProcessDecisions) != len(decs) {
		t.Fatalf("JSON has %d process decisions, the CSV %d", len(doc.ProcessDecisions), len(decs))
	}
	words := map[string]string{"none": "no checkpoint", "1": "every period"}
	for i, row := range decs {
		best := field(t, header, row, "best_interval")
		if got := fmt.Sprint(doc.ProcessDecisions[i]["best_interval"]); got != best {
			t.Errorf("group %d: JSON best %v, CSV %s", i, got, best)
		}
		said := words[best]
		if said == "" {
			said = "every " + best + " periods"
		}
		mtbf, _ := strconv.ParseFloat(field(t, header, row, "mtbf_seconds"), 64)
		line := "at MTBF " + results.Duration(mtbf) + ": " + said
		if !strings.Contains(strings.Join(set.Headline, "\n"), line) {
			t.Errorf("headline lacks %q:\n%s", line, strings.Join(set.Headline, "\n"))
		}
		if cell := "| " + results.Duration(mtbf) + " | " + best + " |"; !strings.Contains(md.String(), cell) {
			t.Errorf("Markdown lacks %q", cell)
		}
	}
}

// TestProcessWorkbook: the workbook has the time sheet, a chart of the
// time lost against the interval with a line per MTBF, and the two tables.
func TestProcessWorkbook(t *testing.T) {
	r := evaluateYAML(t, "name: x\nprobabilities: 1\nthroughput: 0.3\ncheckpoint_time: 5m\n"+
		"restart_time: 10m\nmtbf: [15m, 6h, 24h]\n")
	set := r.set([]string{results.FormatXLSX})
	if len(set.TimeCharts) != 1 {
		t.Fatalf("%d time charts, want one", len(set.TimeCharts))
	}
	c := set.TimeCharts[0]
	var names []string
	for _, col := range c.Data.Columns {
		names = append(names, col.Name)
	}
	if want := "interval,MTBF 15 min,MTBF 6 h,MTBF 24 h"; strings.Join(names, ",") != want {
		t.Errorf("chart columns %v, want %s", names, want)
	}
	// The answer each line draws is process_decisions.csv's: its best
	// interval marked at its share of time lost, and named in the answers.
	_, decisions := processCSV(t, r)
	header, rows := records(decisions)
	if len(rows) != 3 {
		t.Fatalf("%d rows of process_decisions.csv, want 3", len(rows))
	}
	marks := 0
	for j, row := range rows {
		best := field(t, header, row, "best_interval")
		lost, _ := strconv.ParseFloat(field(t, header, row, "best_lost_fraction"), 64)
		if got := c.Answers.Rows[0][j+1].Text; got != best {
			t.Errorf("%s: the answers name interval %s, process_decisions.csv %s", names[j+1], got, best)
		}
		if best == "none" {
			if !strings.Contains(c.Note, "At "+names[j+1]+" no checkpoint is best") {
				t.Errorf("%s: best is none, and the note %q does not say so", names[j+1], c.Note)
			}
			continue
		}
		m := c.Marks[marks]
		marks++
		if strconv.FormatFloat(m.X, 'g', -1, 64) != best || m.Y != lost || !strings.HasPrefix(m.Label(), names[j+1]+": every "+best) {
			t.Errorf("%s: mark %+v, want interval %s at %v", names[j+1], m, best, lost)
		}
	}
	if marks != len(c.Marks) {
		t.Errorf("%d marks, want %d", len(c.Marks), marks)
	}
	if !c.LogY {
		t.Error("lines from 5 % to 100,000 % lost are drawn on a linear axis")
	}
	dir := t.TempDir()
	if err := folder.Replace(context.Background(), dir, set, []string{results.FormatXLSX}); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(filepath.Join(dir, "x", "x.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sheets := strings.Join(f.GetSheetList(), ",")
	for _, s := range []string{"time", "process_decisions", "process"} {
		if !strings.Contains(","+sheets+",", ","+s+",") {
			t.Errorf("sheets %s lack %s", sheets, s)
		}
	}
	if title, _ := f.GetCellValue("time", "A1"); !strings.HasPrefix(title, "Time lost against the interval") {
		t.Errorf("time sheet A1 %q", title)
	}
	chartXML := chartPart(t, filepath.Join(dir, "x", "x.xlsx"), "Time lost")
	if !strings.Contains(chartXML, `logBase val="10"`) {
		t.Error("the time chart's y axis is not a log scale")
	}
	// The marks' series is named by the header of their table.
	name := regexp.MustCompile(`'time'!\$([A-Z]+)\$(\d+)</f>`).FindAllStringSubmatch(strings.ReplaceAll(chartXML, "&#39;", "'"), -1)
	if len(name) == 0 {
		t.Fatal("the time chart's series name no cells")
	}
	last := name[len(name)-1]
	if v, _ := f.GetCellValue("time", last[1]+last[2]); v != "least time lost" {
		t.Errorf("the time chart's last series is named %q, want least time lost", v)
	}
	without := set
	without.TimeCharts = nil
	other := t.TempDir()
	if err := folder.Replace(context.Background(), other, without, []string{results.FormatXLSX}); err != nil {
		t.Fatal(err)
	}
	if with, none := chartParts(t, filepath.Join(dir, "x", "x.xlsx")), chartParts(t, filepath.Join(other, "x", "x.xlsx")); with != none+1 {
		t.Errorf("%d charts in the workbook, %d without the time sheet's: want one more", with, none)
	}
}

// chartParts counts the charts of a workbook.
func chartParts(t *testing.T, path string) int {
	t.Helper()
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	n := 0
	for _, e := range z.File {
		if strings.HasPrefix(e.Name, "xl/charts/chart") {
			n++
		}
	}
	return n
}

// chartPart returns the XML of the workbook's chart whose title contains
// title.
func chartPart(t *testing.T, path, title string) string {
	t.Helper()
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	for _, e := range z.File {
		if !strings.HasPrefix(e.Name, "xl/charts/chart") {
			continue
		}
		rc, err := e.Open()
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		_, err = b.ReadFrom(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), title) {
			return b.String()
		}
	}
	t.Fatalf("no chart titled %q", title)
	return ""
}
