package workbook_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"ckptlab/internal/lessonfigures"
	"ckptlab/results"
	"ckptlab/results/workbook"
)

// workbookBytes writes the set's workbook, with at most sheetRows data rows
// a sheet (0 for the default), and returns its bytes.
func workbookBytes(t testing.TB, s results.Set, sheetRows int) []byte {
	t.Helper()
	var buf bytes.Buffer
	var err error
	if sheetRows > 0 {
		err = workbook.WriteSheetRows(&buf, s, sheetRows)
	} else {
		err = workbook.Write(context.Background(), &buf, s, "")
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// openWorkbook reads a workbook written to memory.
func openWorkbook(t testing.TB, data []byte) *excelize.File {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// heldFloat returns the number a workbook cell holds for x: x rounded to
// the 15 significant digits a spreadsheet keeps.
func heldFloat(x float64) float64 {
	v, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 15, 64), 64)
	if err != nil {
		panic(err)
	}
	return v
}

// sameCell reports whether a cell read back from a workbook or a
// spreadsheet's export holds the CSV field of a column of the given kind:
// text and integers exactly, floats as the 15 digits a cell holds, booleans
// as a boolean (true, TRUE or 1).
func sameCell(kind results.Kind, field, cell string) bool {
	switch kind {
	case results.Float:
		want, err1 := strconv.ParseFloat(field, 64)
		got, err2 := strconv.ParseFloat(cell, 64)
		return err1 == nil && err2 == nil && heldFloat(want) == got
	case results.Bool:
		return map[string]string{"1": "true", "TRUE": "true", "0": "false", "FALSE": "false"}[cell] == field
	}
	return field == cell
}

// compareTable checks that rows read back from a sheet hold the CSV
// records of a table, header included.
func compareTable(t *testing.T, sheet string, cols []results.Column, want, got [][]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("sheet %s has %d rows, want %d", sheet, len(got), len(want))
	}
	bad := 0
	for i := range min(len(got), len(want)) {
		if i == 0 {
			if !slices.Equal(got[0], want[0]) {
				t.Errorf("sheet %s header %v, want %v", sheet, got[0], want[0])
			}
			continue
		}
		if len(got[i]) != len(cols) {
			t.Errorf("sheet %s row %d has %d cells, want %d", sheet, i+1, len(got[i]), len(cols))
			continue
		}
		for j, c := range cols {
			if !sameCell(c.Kind, want[i][j], got[i][j]) {
				if bad++; bad <= 5 {
					t.Errorf("sheet %s row %d column %s holds %q, want %q", sheet, i+1, c.Name, got[i][j], want[i][j])
				}
			}
		}
	}
}

func TestXLSXSheets(t *testing.T) {
	f := openWorkbook(t, workbookBytes(t, lessonSet(t), 0))
	want := []string{"summary", "what-if", "charts", "grid", "failures", "decisions", "breakeven", "recovery", "matrix", "cost", "probability", "partition", "experiment"}
	if got := f.GetSheetList(); !slices.Equal(got, want) {
		t.Errorf("sheets %v, want %v", got, want)
	}
}

func TestXLSXTablesHoldTheCSV(t *testing.T) {
	set := lessonSet(t)
	f := openWorkbook(t, workbookBytes(t, set, 0))
	for _, tab := range []results.Table{set.Grid, set.Failures} {
		got, err := f.GetRows(tab.Name, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		compareTable(t, tab.Name, tab.Columns, csvRecords(t, tab), got)
	}
}

func TestXLSXTableLayout(t *testing.T) {
	set := lessonSet(t)
	f := openWorkbook(t, workbookBytes(t, set, 0))
	filters := map[string]string{}
	for _, d := range f.GetDefinedName() {
		if d.Name == "_xlnm._FilterDatabase" {
			filters[d.Scope] = d.RefersTo
		}
	}
	for _, tc := range []struct {
		sheet  string
		cols   []results.Column
		filter string
	}{
		{"grid", workbook.GridColumns, "'grid'!$A$1:$V$25"},
		{"failures", workbook.FailureColumns, "'failures'!$A$1:$K$67"},
	} {
		t.Run(tc.sheet, func(t *testing.T) {
			panes, err := f.GetPanes(tc.sheet)
			if err != nil {
				t.Fatal(err)
			}
			if !panes.Freeze || panes.YSplit != 1 || panes.XSplit != 0 || panes.TopLeftCell != "A2" {
				t.Errorf("panes %+v, want the header row frozen", panes)
			}
			if got := filters[tc.sheet]; got != tc.filter {
				t.Errorf("autofilter %q, want %q", got, tc.filter)
			}
			for i, c := range tc.cols {
				col, _ := excelize.ColumnNumberToName(i + 1)
				width, err := f.GetColWidth(tc.sheet, col)
				if err != nil {
					t.Fatal(err)
				}
				if width < float64(len(c.Name)) {
					t.Errorf("column %s (%s) is %g wide, narrower than its header", col, c.Name, width)
				}
				id, err := f.GetCellStyle(tc.sheet, col+"2")
				if err != nil {
					t.Fatal(err)
				}
				st, err := f.GetStyle(id)
				if err != nil {
					t.Fatal(err)
				}
				format := ""
				if st.CustomNumFmt != nil {
					format = *st.CustomNumFmt
				}
				want := ""
				if c.Kind == results.Int || c.Kind == results.Float {
					want = c.Shown().NumFmt()
				}
				if want == "General" {
					want = ""
				}
				switch c.Name { // the number style, typed once here
				case "seed":
					want = ""
				case "probability":
					want = "0.0000"
				case "rows", "recomputed", "workers", "worst_total":
					want = "#,##0"
				case "expected_total", "tail_total", "average":
					want = "#,##0.0"
				}
				if format != want {
					t.Errorf("column %s (%s) has number format %q, want %q", col, c.Name, format, want)
				}
			}
		})
	}
}

// checkLessonSheet checks a view sheet's block (its header row and the rows
// below it) against the lesson's printed table of the same name: every
// printed row must be there, found by its first cell, with every cell the
// same by same(printed, shown). A sheet may show more rows than the lesson
// printed (every declared interval), never other figures.
func checkLessonSheet(t *testing.T, name string, block [][]string, same func(printed, shown string) bool) {
	t.Helper()
	printed, ok := lessonfigures.Sheets[name]
	if !ok {
		t.Fatalf("the lesson prints no table %q", name)
	}
	for _, want := range printed {
		var got []string
		for _, row := range block {
			if len(row) > 0 && same(lessonfigures.Canon(want[0]), row[0]) {
				got = row
			}
		}
		if len(got) < len(want) {
			t.Errorf("sheet %s has no row %q", name, want)
			continue
		}
		for j := range want {
			if !same(lessonfigures.Canon(want[j]), got[j]) {
				t.Errorf("sheet %s shows %q, the lesson prints %q", name, got, want)
				break
			}
		}
	}
}

func TestXLSXViewSheets(t *testing.T) {
	set := lessonSet(t)
	f := openWorkbook(t, workbookBytes(t, set, 0))
	for _, v := range set.Views {
		t.Run(v.Name, func(t *testing.T) {
			rows, err := f.GetRows(v.Name)
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) < 4 || len(rows[0]) == 0 || rows[0][0] != v.Title {
				t.Fatalf("sheet starts %q, want the view's title %q", rows[:min(len(rows), 1)], v.Title)
			}
			if len(v.Blocks) != 1 {
				t.Fatalf("%d blocks, want the lesson's one", len(v.Blocks))
			}
			if got := rows[2]; len(got) != 1 || got[0] != v.Blocks[0].Title {
				t.Errorf("row 3 is %q, want the block's title %q", got, v.Blocks[0].Title)
			}
			for _, cell := range []string{"A1", "A3", "A4", "B4"} {
				if st := cellStyle(t, f, v.Name, cell); st.Font == nil || !st.Font.Bold {
					t.Errorf("%s is not bold", cell)
				}
			}
			// The lesson's figures, in the number style (thousands separated).
			checkLessonSheet(t, v.Name, rows[3:], func(printed, shown string) bool {
				shown = strings.ReplaceAll(shown, ",", "")
				p, err1 := strconv.ParseFloat(printed, 64)
				x, err2 := strconv.ParseFloat(shown, 64)
				return sameShown(printed, shown) || err1 == nil && err2 == nil && p == x
			})
		})
	}
}

// cellStyle returns the style of a cell.
func cellStyle(t *testing.T, f *excelize.File, sheet, cell string) *excelize.Style {
	t.Helper()
	id, err := f.GetCellStyle(sheet, cell)
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.GetStyle(id)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestXLSXBestIsHighlighted(t *testing.T) {
	f := openWorkbook(t, workbookBytes(t, lessonSet(t), 0))
	// The best intervals of the lesson: 4 at 1.0, 6 at 0.75, none below.
	best := map[string]bool{"D5": true, "C6": true, "B7": true, "B8": true}
	for row := 5; row <= 8; row++ {
		for col := 2; col <= 7; col++ {
			cell, _ := excelize.CoordinatesToCellName(col, row)
			st := cellStyle(t, f, "probability", cell)
			filled := st.Fill.Pattern == 1 && len(st.Fill.Color) == 1
			if filled != best[cell] {
				t.Errorf("probability!%s filled %v, want %v", cell, filled, best[cell])
			}
			if st.CustomNumFmt == nil || *st.CustomNumFmt != results.Total.NumFmt() {
				t.Errorf("probability!%s is not shown as a total", cell)
			}
		}
	}
}

func TestXLSXCharts(t *testing.T) {
	set := lessonSet(t)
	data := workbookBytes(t, set, 0)
	f := openWorkbook(t, data)
	type series struct {
		Name string `xml:"tx>strRef>f"`
		X    string `xml:"xVal>numRef>f"`
		Y    string `xml:"yVal>numRef>f"`
		Cat  string `xml:"cat>strRef>f"`
		Val  string `xml:"val>numRef>f"`
	}
	var chart struct {
		Scatter []struct {
			Series []series `xml:"ser"`
		} `xml:"chart>plotArea>scatterChart"`
		Line []struct {
			Series []series `xml:"ser"`
		} `xml:"chart>plotArea>lineChart"`
		Axes []struct {
			Title string `xml:"title>tx>rich>p>r>t"`
		} `xml:"chart>plotArea>valAx"`
	}
	// The lesson's first chart on the charts sheet (the what-if sheet's is
	// chart 1): expected total against probability, a
	// scatter chart (numeric x) with a line per declared interval, each
	// named "interval k" by its header cell.
	if err := xml.Unmarshal([]byte(zipEntry(t, data, "xl/charts/chart2.xml")), &chart); err != nil {
		t.Fatal(err)
	}
	if len(chart.Scatter) != 1 || len(chart.Scatter[0].Series) != 8 {
		t.Fatalf("chart 1 is %+v, want a scatter chart of 6 lines, the envelope and the break-even marks", chart)
	}
	var names []string
	for _, s := range chart.Scatter[0].Series[:7] {
		cell := strings.TrimPrefix(s.Name, "'charts'!")
		name, err := f.GetCellValue("charts", strings.ReplaceAll(cell, "$", ""))
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
		if !strings.HasPrefix(s.X, "'charts'!$A$") || !strings.HasPrefix(s.Y, "'charts'!$") {
			t.Errorf("series %s plots %s against %s, want columns of the charts sheet against column A", name, s.Y, s.X)
		}
	}
	want := []string{"interval none", "interval 6", "interval 4", "envelope", "interval 3", "interval 2", "interval 1"}
	if !slices.Equal(names, want) {
		t.Errorf("series names %q, want %q", names, want)
	}
	var titles []string
	for _, a := range chart.Axes {
		titles = append(titles, a.Title)
	}
	if !slices.Equal(titles, []string{"failure probability", "expected total (rows)"}) {
		t.Errorf("axis titles %q, want the probability and the expected total", titles)
	}

	// The second: the saw-tooth, a line chart over the failure periods.
	chart.Scatter, chart.Line = nil, nil
	if err := xml.Unmarshal([]byte(zipEntry(t, data, "xl/charts/chart3.xml")), &chart); err != nil {
		t.Fatal(err)
	}
	if len(chart.Line) != 1 || len(chart.Line[0].Series) != 6 {
		t.Fatalf("chart 2 is %+v, want a line chart of 6 lines", chart)
	}
	rows, err := f.GetRows("charts")
	if err != nil {
		t.Fatal(err)
	}
	// The saw-tooth's table holds the lesson's failure × interval matrix,
	// shown in the number style (thousands separated).
	found := false
	for i, r := range rows {
		if len(r) > 0 && r[0] == "failure period" {
			found = true
			var header []string
			for _, h := range lessonfigures.Matrix[0] {
				header = append(header, lessonfigures.Canon(h))
			}
			checkLessonSheet(t, "matrix", append([][]string{header}, rows[i+1:]...),
				func(printed, shown string) bool { return printed == strings.ReplaceAll(shown, ",", "") })
		}
	}
	if !found {
		t.Error("the charts sheet has no table headed failure period")
	}
}

// zipEntry returns the content of an entry of a zip archive.
func zipEntry(t *testing.T, data []byte, name string) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	r, err := zr.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestXLSXExperimentSheet(t *testing.T) {
	set := lessonSet(t)
	f := openWorkbook(t, workbookBytes(t, set, 0))
	rows, err := f.GetRows("experiment")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rows {
		if len(r) >= 2 && r[0] != "" {
			got[r[0]] = r[1]
		}
	}
	h := sha256.New()
	for _, kv := range set.Config {
		// A reader's form of the YAML flow value: no quotes, no brackets.
		want := kv.Value
		if u, err := strconv.Unquote(want); err == nil {
			want = u
		}
		want = strings.TrimSuffix(strings.TrimPrefix(want, "["), "]")
		if got[kv.Key] != want {
			t.Errorf("experiment sheet: %s = %q, want %q", kv.Key, got[kv.Key], want)
		}
		io.WriteString(h, kv.Key+": "+kv.Value+"\n")
	}
	if len(set.Config) < 16 {
		t.Errorf("the configuration has %d keys, want every key of an experiment file", len(set.Config))
	}
	if got["ckptlab version"] != set.Version || set.Version == "" {
		t.Errorf("version %q, want %q", got["ckptlab version"], set.Version)
	}
	hash := hex.EncodeToString(h.Sum(nil))
	if got["configuration sha256"] != hash || set.ConfigHash() != hash {
		t.Errorf("configuration sha256 %q, ConfigHash %q, want %q", got["configuration sha256"], set.ConfigHash(), hash)
	}
}

func TestXLSXSplitsLongTables(t *testing.T) {
	const sheetRows = 10
	set := syntheticSet(t, 35, 12)
	f := openWorkbook(t, workbookBytes(t, set, sheetRows))
	want := []string{"summary", "what-if", "charts", "grid", "grid-2", "grid-3", "grid-4", "failures", "failures-2",
		"decisions", "breakeven", "recovery", "matrix", "cost", "probability", "partition", "experiment"}
	if got := f.GetSheetList(); !slices.Equal(got, want) {
		t.Fatalf("sheets %v, want %v", got, want)
	}
	for _, tc := range []struct {
		tab    results.Table
		sheets []string
	}{
		{set.Grid, want[3:7]},
		{set.Failures, want[7:9]},
	} {
		records := csvRecords(t, tc.tab)
		all := [][]string{records[0]}
		for i, sheet := range tc.sheets {
			rows, err := f.GetRows(sheet, excelize.Options{RawCellValue: true})
			if err != nil {
				t.Fatal(err)
			}
			if n := len(rows) - 1; n > sheetRows || (i < len(tc.sheets)-1 && n != sheetRows) {
				t.Errorf("sheet %s has %d data rows, want %d", sheet, n, sheetRows)
			}
			if !slices.Equal(rows[0], records[0]) {
				t.Errorf("sheet %s header %v, want %v", sheet, rows[0], records[0])
			}
			if panes, _ := f.GetPanes(sheet); !panes.Freeze {
				t.Errorf("sheet %s: header not frozen", sheet)
			}
			all = append(all, rows[1:]...)
		}
		compareTable(t, tc.tab.Name, tc.tab.Columns, records, all)
	}
	rows, _ := f.GetRows("experiment")
	var notes []string
	for _, r := range rows {
		if len(r) == 2 && r[0] == "note" {
			notes = append(notes, r[1])
		}
	}
	if len(notes) != 2 || !strings.Contains(notes[0], "grid-4") || !strings.Contains(notes[1], "failures-2") {
		t.Errorf("experiment sheet notes %q, want one on grid to grid-4 and one on failures to failures-2", notes)
	}
}

func TestXLSXSameBytes(t *testing.T) {
	for _, tc := range []struct {
		name      string
		set       results.Set
		sheetRows int
	}{
		{"lesson", lessonSet(t), 0},
		{"split grid", syntheticSet(t, 95, 31), 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first := workbookBytes(t, tc.set, tc.sheetRows)
			for i := range 5 {
				if again := workbookBytes(t, tc.set, tc.sheetRows); !bytes.Equal(again, first) {
					t.Fatalf("write %d differs from the first (%d and %d bytes)", i+2, len(again), len(first))
				}
			}
			core := zipEntry(t, first, "docProps/core.xml")
			if strings.Contains(core, "W3CDTF") {
				t.Errorf("docProps/core.xml carries a date: %s", core)
			}
		})
	}
}
