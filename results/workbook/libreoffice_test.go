package workbook_test

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"ckptlab/folder"
	"ckptlab/internal/testkit"
	"ckptlab/results"
	"ckptlab/results/workbook"
	"ckptlab/runner/experiment"
)

// loCSVFilter is LibreOffice's CSV export filter with options: comma,
// double quote, UTF-8, from line 1, en-US; cell contents as stored, not as
// shown (token 9 false), so that a number shown with one decimal comes out
// with all of its digits; and every sheet to its own file (token 12 -1),
// named <book>-<sheet>.csv.
const loCSVFilter = "csv:Text - txt - csv (StarCalc):44,34,76,1,,1033,false,true,false,false,false,-1"

// convertWithLibreOffice has LibreOffice Calc open a workbook and export
// every sheet as CSV; it returns the exported files by sheet name.
func convertWithLibreOffice(t *testing.T, book string) map[string][][]string {
	t.Helper()
	out := soffice(t, loCSVFilter, book)
	prefix := strings.TrimSuffix(filepath.Base(book), ".xlsx") + "-"
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	sheets := map[string][][]string{}
	for _, e := range entries {
		name := strings.TrimSuffix(strings.TrimPrefix(e.Name(), prefix), ".csv")
		data, err := os.ReadFile(filepath.Join(out, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		sheets[name] = readCSV(t, data)
	}
	return sheets
}

// soffice has LibreOffice convert a file with the given filter and returns
// the folder it wrote to. It uses a private profile, so that runs in
// parallel do not share one, and skips the test when LibreOffice is not
// installed.
func soffice(t *testing.T, filter, file string) string {
	t.Helper()
	soffice := testkit.RequireSlow(t, "soffice")[0]
	work := t.TempDir()
	profile := url.URL{Scheme: "file", Path: filepath.Join(work, "profile")}
	out := filepath.Join(work, "out")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, soffice, "-env:UserInstallation="+profile.String(),
		"--headless", "--norestore", "--convert-to", filter, "--outdir", out, file)
	if output, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, output)
	}
	return out
}

func TestLibreOfficeReadsTheWorkbook(t *testing.T) {
	set := lessonSet(t)
	out := t.TempDir()
	if err := folder.Replace(context.Background(), out, set, []string{results.FormatCSV, results.FormatXLSX}); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(out, set.Name)
	sheets := convertWithLibreOffice(t, filepath.Join(folder, set.Name+".xlsx"))

	var names []string
	for name := range sheets {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, want := range []string{"summary", "what-if", "charts", "grid", "failures", "recovery", "matrix", "cost", "probability", "partition", "experiment"} {
		if _, ok := sheets[want]; !ok {
			t.Errorf("LibreOffice finds no sheet %s; it finds %v", want, names)
		}
	}

	for _, tab := range []results.Table{set.Grid, set.Failures} {
		data, err := os.ReadFile(filepath.Join(folder, tab.Name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		compareTable(t, tab.Name, tab.Columns, readCSV(t, data), sheets[tab.Name])
	}

	// The view sheets hold the lesson's figures, rounded as it prints them.
	for _, name := range results.ViewNames {
		checkLessonSheet(t, name, sheets[name][3:], sameShown) // below the title, a blank row and the block's title
	}
}

// sameShown reports whether a value exported as stored is shown as the
// lesson prints it: with as many decimals as the printed figure has.
func sameShown(printed, stored string) bool {
	if printed == stored {
		return true
	}
	_, frac, ok := strings.Cut(printed, ".")
	x, err := strconv.ParseFloat(stored, 64)
	if !ok || err != nil {
		return false
	}
	return strconv.FormatFloat(x, 'f', len(frac), 64) == printed
}

func TestLibreOfficeReadsASplitWorkbook(t *testing.T) {
	const sheetRows = 10
	set := syntheticSet(t, 35, 12)
	book := filepath.Join(t.TempDir(), "split.xlsx")
	if err := os.WriteFile(book, workbookBytes(t, set, sheetRows), 0o644); err != nil {
		t.Fatal(err)
	}
	sheets := convertWithLibreOffice(t, book)
	for _, tc := range []struct {
		tab   results.Table
		parts []string
	}{
		{set.Grid, []string{"grid", "grid-2", "grid-3", "grid-4"}},
		{set.Failures, []string{"failures", "failures-2"}},
	} {
		records := csvRecords(t, tc.tab)
		all := [][]string{records[0]}
		for _, part := range tc.parts {
			rows, ok := sheets[part]
			if !ok || len(rows) == 0 {
				t.Fatalf("LibreOffice finds no sheet %s", part)
			}
			all = append(all, rows[1:]...)
		}
		compareTable(t, tc.tab.Name, tc.tab.Columns, records, all)
	}
}

func TestLibreOfficeImportsTheCharts(t *testing.T) {
	book := filepath.Join(t.TempDir(), "lesson.xlsx")
	if err := os.WriteFile(book, workbookBytes(t, lessonSet(t), 0), 0o644); err != nil {
		t.Fatal(err)
	}
	// Saved as OpenDocument, the chart LibreOffice read is an object of
	// its own, with the ranges it plots.
	ods := filepath.Join(soffice(t, "ods", book), "lesson.ods")
	data, err := os.ReadFile(ods)
	if err != nil {
		t.Fatal(err)
	}
	// The first is expected total against probability: a scatter chart of
	// the figures in charts!A4:H10 (the declared probabilities and the
	// break-evens), a line per interval named by its header, the
	// recommended ones first, and the envelope among them.
	// (Object 1 is the what-if sheet's.)
	chart := zipEntry(t, data, "Object 2/content.xml")
	for _, want := range []string{
		`chart:class="chart:scatter"`,
		`table:cell-range-address="charts.A4:charts.A10"`,
		`chart:values-cell-range-address="charts.B4:charts.B10"`,
		`chart:label-cell-address="charts.B3:charts.B3"`,
		`chart:values-cell-range-address="charts.E4:charts.E10"`,
		`chart:label-cell-address="charts.E3:charts.E3"`,
		`chart:values-cell-range-address="charts.H4:charts.H10"`,
		`chart:label-cell-address="charts.H3:charts.H3"`,
		// the y axis stops at 1,500, cutting interval 1's 2,400
		`chart:minimum="0" chart:maximum="1500"`,
		// the break-even marks, from their table under the figures, each
		// point with its label
		`chart:values-cell-range-address="charts.B13:charts.B14" chart:label-cell-address="charts.C12:charts.C12" chart:class="chart:scatter"><chart:domain table:cell-range-address="charts.A13:charts.A14"/>`,
		`<text:span>p = 11/18: none → 6</text:span>`,
		`<text:span>p = 11/12: 6 → 4</text:span>`,
	} {
		if !strings.Contains(chart, want) {
			t.Errorf("LibreOffice's chart lacks %s", want)
		}
	}
}

// TestLibreOfficeReadsTheWorkersLogAxis checks that LibreOffice reads the
// x axis of a sweep to 32 workers as logarithmic.
func TestLibreOfficeReadsTheWorkersLogAxis(t *testing.T) {
	e := experiment.Lesson("workers")
	e.Workers = []int{1, 2, 4, 8, 16, 32}
	book := filepath.Join(t.TempDir(), "workers.xlsx")
	if err := os.WriteFile(book, workbookBytes(t, evaluatedSet(t, e), 0), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(soffice(t, "ods", book), "workers.ods"))
	if err != nil {
		t.Fatal(err)
	}
	chart := zipEntry(t, data, "Object 4/content.xml") // what-if, expected total, saw-tooth, workers
	if !strings.Contains(chart, "against workers") {
		t.Fatal("Object 4 is not the workers chart")
	}
	if !strings.Contains(chart, `chart:logarithmic="true"`) {
		t.Error("LibreOffice reads the workers axis as even, want logarithmic")
	}
}

// TestLibreOfficeOpensASheetOfTooManyPages has LibreOffice open a
// workbook with a view sheet that would print on more pages than a
// sheet's page breaks allow, laid out to be read on screen, beside one
// that keeps as many breaks as a sheet holds: both are read whole, the
// first with its note.
func TestLibreOfficeOpensASheetOfTooManyPages(t *testing.T) {
	const rows = 40 // a block a page (see PagedView)
	views := []results.View{
		workbook.PagedView("screen", 3000, rows),
		workbook.PagedView("print", workbook.MaxPageBreaks+1, rows),
	}
	set := syntheticSet(t, 3, 2)
	set.Views = views
	book := filepath.Join(t.TempDir(), "pages.xlsx")
	if err := os.WriteFile(book, workbookBytes(t, set, 0), 0o644); err != nil {
		t.Fatal(err)
	}
	sheets := convertWithLibreOffice(t, book)
	for _, v := range views {
		got, ok := sheets[v.Name]
		if !ok {
			t.Fatalf("LibreOffice finds no sheet %s", v.Name)
		}
		var blocks, last int
		for blk := range v.All() {
			blocks++
			last = len(blk.Rows)
		}
		// The title, the note row, then per block its title, header and rows, and a blank row between blocks.
		if want := 2 + blocks*(rows+3) - 1; len(got) != want || last != rows {
			t.Errorf("sheet %s: LibreOffice reads %d rows, want %d", v.Name, len(got), want)
		}
		note := ""
		if len(got) > 1 && len(got[1]) > 0 {
			note = got[1][0]
		}
		if wantNote := v.Name == "screen"; strings.HasPrefix(note, "This sheet would print on 3,000 pages") != wantNote {
			t.Errorf("sheet %s: its note reads %q", v.Name, note)
		}
	}
}
