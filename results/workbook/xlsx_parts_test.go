package workbook_test

import (
	"archive/zip"
	"bytes"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ckptlab/results"
	"ckptlab/runner/experiment"

	"github.com/xuri/excelize/v2"
)

// TestXLSXPartsExcelSafe checks what Excel relies on that excelize writes
// wrong: every scatter chart's x values a number reference with its cache
// filled (a string reference gets the chart removed when Excel repairs
// the file), every series' values cached, each sheet's dimension the range
// of its cells, and no made-up document dates.
func TestXLSXPartsExcelSafe(t *testing.T) {
	for _, sheetRows := range []int{0, 10} { // packed sheets, and tables split over sheets
		data := workbookBytes(t, syntheticSet(t, 35, 12), sheetRows)
		if sheetRows == 0 {
			data = workbookBytes(t, lessonSet(t), 0)
		}
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		f := openWorkbook(t, data)
		charts := 0
		for _, e := range zr.File {
			switch {
			case strings.HasPrefix(e.Name, "xl/charts/chart"):
				charts++
				x := zipEntry(t, data, e.Name)
				if strings.Contains(x, "<xVal><strRef>") {
					t.Errorf("%s: scatter x values are a string reference", e.Name)
				}
				if strings.Contains(x, "<scatterChart>") && !regexp.MustCompile(`<xVal><numRef><f>[^<]+</f><numCache><formatCode>General</formatCode><ptCount val="\d+"/><pt idx="0"><v>`).MatchString(x) {
					t.Errorf("%s: scatter x values are not a number reference with a cache", e.Name)
				}
				if strings.Contains(x, "<numCache><formatCode></formatCode></numCache>") {
					t.Errorf("%s: a series has an empty cache", e.Name)
				}
			case e.Name == "docProps/core.xml":
				if x := zipEntry(t, data, e.Name); strings.Contains(x, "2006-09-16") || strings.Contains(x, "dcterms:created") {
					t.Errorf("docProps/core.xml has a made-up date: %s", x)
				}
			}
		}
		if charts == 0 {
			t.Error("no chart in the workbook")
		}
		for i, sheet := range f.GetSheetList() {
			rows, err := f.GetRows(sheet)
			if err != nil {
				t.Fatal(err)
			}
			lastCol, lastRow := 1, 1
			for r, row := range rows {
				for c, v := range row {
					if v != "" {
						lastCol, lastRow = max(lastCol, c+1), max(lastRow, r+1)
					}
				}
			}
			x := zipEntry(t, data, "xl/worksheets/sheet"+strconv.Itoa(i+1)+".xml")
			m := regexp.MustCompile(`<dimension ref="([^"]+)"`).FindStringSubmatch(x)
			if m == nil {
				t.Errorf("sheet %s has no dimension", sheet)
				continue
			}
			end, _ := excelize.CoordinatesToCellName(lastCol, lastRow)
			// a dimension may reach past the last cell with a value (an
			// empty formula result), never short of it
			if want := "A1:" + end; m[1] != want {
				c, r, err := excelize.CellNameToCoordinates(strings.TrimPrefix(m[1], "A1:"))
				if err != nil || c < lastCol || r < lastRow {
					t.Errorf("sheet %s has dimension %s, its cells end at %s", sheet, m[1], end)
				}
			}
		}
	}
}

// TestXLSXChartColoursByInterval checks that a chart colours each line by
// its interval, not its position: the lesson's expected-total chart draws
// none, 6, 4, 3, 2 and 1 in their palette colours, the recommended ones
// (none, 6 and 4) first and wider than the others, the envelope after them.
func TestXLSXChartColoursByInterval(t *testing.T) {
	data := workbookBytes(t, lessonSet(t), 0)
	x := zipEntry(t, data, "xl/charts/chart2.xml")
	lines := regexp.MustCompile(`<ser>.*?<spPr><a:ln cap="rnd" w="(\d+)"><a:solidFill><a:srgbClr val="([0-9A-F]{6})">`).FindAllStringSubmatch(x, -1)
	names := []string{"none", "6", "4", "envelope", "3", "2", "1"}
	if len(lines) != len(names) {
		t.Fatalf("%d coloured lines, want %d", len(lines), len(names))
	}
	for i, name := range names {
		want, _, _ := results.IntervalStyle(name)
		if name == "envelope" {
			want = "404040"
		}
		if lines[i][2] != want {
			t.Errorf("interval %s is drawn %s, want its colour %s", name, lines[i][2], want)
		}
		if wide := lines[i][1] == lines[0][1]; wide != (i < 3) {
			t.Errorf("interval %s is drawn %s EMU wide, the recommended %s", name, lines[i][1], lines[0][1])
		}
	}
}

// TestXLSXWhatIfChartColoursByInterval checks that the what-if sheet's
// column chart, one series whose columns are the intervals, fills each
// column with its interval's palette colour, as every other chart draws it.
func TestXLSXWhatIfChartColoursByInterval(t *testing.T) {
	data := workbookBytes(t, lessonSet(t), 0)
	x := zipEntry(t, data, "xl/charts/chart1.xml")
	if !strings.Contains(x, "Expected total by interval, at the inputs above") {
		t.Fatal("chart1.xml is not the what-if chart")
	}
	points := regexp.MustCompile(`<dPt><idx val="(\d+)"/>.*?<a:srgbClr val="([0-9A-F]{6})"/>`).FindAllStringSubmatch(x, -1)
	names := []string{"none", "6", "4", "3", "2", "1"}
	if len(points) != len(names) {
		t.Fatalf("%d coloured columns, want %d", len(points), len(names))
	}
	for i, name := range names {
		want, _, _ := results.IntervalStyle(name)
		if points[i][1] != strconv.Itoa(i) || points[i][2] != want {
			t.Errorf("column %s of interval %s is drawn %s, want column %d in %s", points[i][1], name, points[i][2], i, want)
		}
	}
}

// TestXLSXWhatIfPrintsWhole checks the what-if sheet of a workbook of
// one source and of two: its note's row is tall enough for the note's
// lines, its chart covers no cell with a value, every input cell has a
// data validation, and no formula reads a one-cell INDEX range.
func TestXLSXWhatIfPrintsWhole(t *testing.T) {
	two := experiment.Lesson("two")
	two.Seeds = []uint32{20260218, 7}
	two.Missing = 5
	for name, set := range map[string]results.Set{"lesson": lessonSet(t), "two sources": evaluatedSet(t, two)} {
		t.Run(name, func(t *testing.T) {
			data := workbookBytes(t, set, 0)
			f := openWorkbook(t, data)
			note, err := f.GetCellValue("what-if", "A2")
			if err != nil {
				t.Fatal(err)
			}
			height, err := f.GetRowHeight("what-if", 2)
			if err != nil {
				t.Fatal(err)
			}
			// A line of the merged note A2:G2 holds at most the columns' widths in characters.
			var chars float64
			for _, col := range []string{"A", "B", "C", "D", "E", "F", "G"} {
				w, err := f.GetColWidth("what-if", col)
				if err != nil {
					t.Fatal(err)
				}
				chars += w
			}
			if lines := math.Ceil(float64(len([]rune(note))) / chars); height < 15*lines {
				t.Errorf("the note's row is %.0f points tall for %.1f lines of text", height, lines)
			}
			x := zipEntry(t, data, "xl/drawings/drawing1.xml")
			anchor := regexp.MustCompile(`<xdr:from><xdr:col>(\d+)</xdr:col>.*?<xdr:row>(\d+)</xdr:row>.*?<xdr:to><xdr:col>(\d+)</xdr:col>.*?<xdr:row>(\d+)</xdr:row>`).FindStringSubmatch(x)
			if anchor == nil {
				t.Fatal("the what-if chart has no two-cell anchor")
			}
			c0, _ := strconv.Atoi(anchor[1])
			r0, _ := strconv.Atoi(anchor[2])
			c1, _ := strconv.Atoi(anchor[3])
			r1, _ := strconv.Atoi(anchor[4])
			rows, err := f.GetRows("what-if")
			if err != nil {
				t.Fatal(err)
			}
			for r := r0; r <= r1 && r < len(rows); r++ {
				for c := c0; c <= c1 && c < len(rows[r]); c++ {
					if rows[r][c] != "" {
						cell, _ := excelize.CoordinatesToCellName(c+1, r+1)
						t.Errorf("the chart covers %s, which holds %q", cell, rows[r][c])
					}
				}
			}
			dvs, err := f.GetDataValidations("what-if")
			if err != nil {
				t.Fatal(err)
			}
			var refs []string
			for _, dv := range dvs {
				refs = append(refs, dv.Sqref)
			}
			for _, in := range []string{"B4", "B5", "B6"} {
				if !slices.Contains(refs, in) {
					t.Errorf("input %s has no data validation (validations on %v)", in, refs)
				}
			}
			sheet := zipEntry(t, data, "xl/worksheets/sheet2.xml")
			for _, m := range regexp.MustCompile(`INDEX\(\$([A-Z]+)\$(\d+):\$([A-Z]+)\$(\d+),`).FindAllStringSubmatch(sheet, -1) {
				if m[1] == m[3] && m[2] == m[4] {
					t.Errorf("a formula reads the one-cell range %s", m[0])
				}
			}
		})
	}
}

// TestXLSXChartAxisAndMarks checks the lesson's expected-total chart: its y
// axis stops above the lower envelope and below interval 1's 2,400, the
// sheet's note naming the line it cuts; its last series marks the
// break-even crossings at the probabilities breakeven.csv gives, each
// labelled with the intervals it changes between.
func TestXLSXChartAxisAndMarks(t *testing.T) {
	set := lessonSet(t)
	data := workbookBytes(t, set, 0)
	x := zipEntry(t, data, "xl/charts/chart2.xml")

	// The y axis, the second value axis: 0 to 1,500.
	yAxis := regexp.MustCompile(`<valAx><axId val="100000001"></axId><scaling><orientation val="minMax"></orientation><max val="([0-9.]+)"></max><min val="0"></min>`).FindStringSubmatch(x)
	if yAxis == nil {
		t.Fatal("the y axis has no maximum and minimum 0")
	}
	top, _ := strconv.ParseFloat(yAxis[1], 64)
	var envelope, highest float64
	for _, r := range set.Charts[0].Data.Rows {
		lowest := r[1].Float
		for _, v := range r[1:] {
			lowest, highest = min(lowest, v.Float), max(highest, v.Float)
		}
		envelope = max(envelope, lowest)
	}
	if top != 1500 || top <= envelope || top >= highest {
		t.Errorf("the y axis stops at %v; want 1500, above the envelope's %v and below the highest line's %v", top, envelope, highest)
	}
	f := openWorkbook(t, data)
	rows, err := f.GetRows("charts")
	if err != nil {
		t.Fatal(err)
	}
	if note := rows[1][0]; !strings.Contains(note, "The y axis stops at 1,500") || !strings.Contains(note, "interval 1 reaches 2,400.0, off the chart") {
		t.Errorf("the chart's note %q does not say where the axis stops and which line it cuts", note)
	}

	// The break-even crossings: the start of every piece but the first.
	var want []float64
	prob := slices.Index(set.Breakeven.Header(), "from_probability")
	for r := range set.Breakeven.Rows {
		if p := r[prob].Float; p > 0 {
			want = append(want, p)
		}
	}
	sers := regexp.MustCompile(`(?s)<ser>.*?</ser>`).FindAllString(x, -1)
	marks := sers[len(sers)-1]
	name := regexp.MustCompile(`<tx><strRef><f>'charts'!\$([A-Z]+)\$(\d+)</f>`).FindStringSubmatch(strings.ReplaceAll(marks, "&#39;", "'"))
	if name == nil {
		t.Fatalf("the last series has no name cell: %s", marks)
	}
	if v, _ := f.GetCellValue("charts", name[1]+name[2]); v != "break-even" {
		t.Errorf("the last series is named %q, want break-even", v)
	}
	xval := regexp.MustCompile(`<xVal>.*?</xVal>`).FindString(marks)
	var got []float64
	for _, m := range regexp.MustCompile(`<v>([^<]+)</v>`).FindAllStringSubmatch(xval, -1) {
		v, _ := strconv.ParseFloat(m[1], 64)
		got = append(got, v)
	}
	if len(got) != len(want) || len(want) != 2 {
		t.Fatalf("break-even marks at %v, breakeven.csv's crossings at %v (want 2)", got, want)
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("break-even mark %d at %v, breakeven.csv's at %v", i, got[i], want[i])
		}
	}
	for _, label := range []string{"<a:t>p = 11/18: none → 6</a:t>", "<a:t>p = 11/12: 6 → 4</a:t>"} {
		if !strings.Contains(marks, label) {
			t.Errorf("the break-even marks lack the label %s", label)
		}
	}
	if !strings.Contains(marks, `<spPr><a:ln><a:noFill></a:noFill></a:ln></spPr><marker><symbol val="diamond">`) {
		t.Error("the break-even marks are joined by a line")
	}
}

// TestXLSXWorkersLogAxis checks that a sweep to more than 16 workers
// spaces its workers chart's x axis by doubling, and one to 8 does not.
func TestXLSXWorkersLogAxis(t *testing.T) {
	for _, tc := range []struct {
		workers []int
		log     bool
	}{{[]int{1, 2, 4, 8, 16, 32}, true}, {[]int{1, 2, 4, 8}, false}} {
		e := experiment.Lesson("workers")
		e.Workers = tc.workers
		data := workbookBytes(t, evaluatedSet(t, e), 0)
		x := zipEntry(t, data, "xl/charts/chart4.xml") // what-if, expected total, saw-tooth, workers
		if !strings.Contains(x, "against workers") {
			t.Fatal("chart4.xml is not the workers chart")
		}
		if got := strings.Contains(x, `<valAx><axId val="100000000"></axId><scaling><logBase val="2"/>`); got != tc.log {
			t.Errorf("workers %v: the x axis is logarithmic %v, want %v", tc.workers, got, tc.log)
		}
	}
}

// TestXLSXCategoryLabelsFit checks that a line chart's x labels that do
// not fit side by side are turned, and past 16 skipped evenly: the
// lesson's saw-tooth has 11 labels of 7 characters (turned, none
// skipped); a 60-period stream's has 59 (turned, every 4th shown).
func TestXLSXCategoryLabelsFit(t *testing.T) {
	long := experiment.Lesson("long")
	long.Periods = []int{60}
	for _, tc := range []struct {
		name string
		set  results.Set
		skip string // "" for none
	}{{"lesson", lessonSet(t), ""}, {"60 periods", evaluatedSet(t, long), "4"}} {
		x := zipEntry(t, workbookBytes(t, tc.set, 0), "xl/charts/chart3.xml")
		ax := regexp.MustCompile(`<catAx>.*</catAx>`).FindString(x)
		if !strings.Contains(ax, `<txPr><a:bodyPr anchor="ctr" anchorCtr="true" rot="-2700000"`) {
			t.Errorf("%s: the saw-tooth's x labels are not turned", tc.name)
		}
		skip := regexp.MustCompile(`<tickLblSkip val="(\d+)">`).FindStringSubmatch(ax)
		if (skip == nil) != (tc.skip == "") || (skip != nil && skip[1] != tc.skip) {
			t.Errorf("%s: x labels skipped %v, want %q", tc.name, skip, tc.skip)
		}
	}
}
