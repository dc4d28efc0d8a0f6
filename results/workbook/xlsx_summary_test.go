package workbook_test

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"ckptlab/results"
	"ckptlab/results/workbook"
	"ckptlab/runner/experiment"
)

// tableOf returns a table of the given rows.
func tableOf(name string, cols []results.Column, rows [][]results.Value) results.Table {
	return results.Block{Columns: cols, Rows: rows}.Table(name)
}

// decidedSet returns the lesson's set with decision tables, break-even
// pieces and a headline made up for the writers to show: two state-row
// counts, so that the decision map has two columns. Their figures are
// inputs, not checked against the model.
func decidedSet(t testing.TB) results.Set {
	s := lessonSet(t)
	i, f, x := results.IntValue, results.FloatValue, results.TextValue
	var decisions [][]results.Value
	for _, sr := range []int64{200, 400} {
		for _, d := range []struct {
			p    float64
			best string
		}{{1, "4"}, {0.75, "6"}, {0.5, "none"}, {0.25, "none"}} {
			best := d.best
			if sr == 400 && d.p == 1 {
				best = "6"
			}
			decisions = append(decisions, []results.Value{
				i(20260218), i(200), i(12), i(sr), f(d.p), x(best), f(927.3), x("4"), i(1200),
				x("4"), f(1200), x("7"), f(763.6), x("3.7"), x("none"),
				i(2), x("2026-05 2026-09"), f(727.3),
			})
		}
	}
	s.Decisions = tableOf("decisions", workbook.DecisionColumns, decisions)
	s.BestIntervals = results.Table{} // the maps read these decisions
	s.Breakeven = tableOf("breakeven", workbook.BreakevenColumns, [][]results.Value{
		{i(20260218), i(200), i(12), i(200), x("none"), f(0), f(11.0 / 18), x("0"), x("11/18")},
		{i(20260218), i(200), i(12), i(200), x("6"), f(11.0 / 18), f(11.0 / 12), x("11/18"), x("11/12")},
		{i(20260218), i(200), i(12), i(200), x("4"), f(11.0 / 12), f(1), x("11/12"), x("1")},
	})
	s.Headline = []string{
		"lesson: interval none is best for probabilities up to 11/18, 6 up to 11/12, then 4.",
		"Over every interval, 7 beats every declared one at probability 1.",
	}
	return s
}

func TestXLSXDecisionSheets(t *testing.T) {
	set := decidedSet(t)
	f := openWorkbook(t, workbookBytes(t, set, 0))
	want := []string{"summary", "what-if", "charts", "grid", "failures", "decisions", "breakeven",
		"recovery", "matrix", "cost", "probability", "partition", "experiment"}
	if got := f.GetSheetList(); !slices.Equal(got, want) {
		t.Fatalf("sheets %v, want %v", got, want)
	}
	for _, tab := range []results.Table{set.Decisions, set.Breakeven} {
		got, err := f.GetRows(tab.Name, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		compareTable(t, tab.Name, tab.Columns, csvRecords(t, tab), got)
		if panes, _ := f.GetPanes(tab.Name); !panes.Freeze || panes.YSplit != 1 {
			t.Errorf("sheet %s: header not frozen", tab.Name)
		}
	}
	// Interval columns hold numbers; none and fractions stay text.
	for cell, want := range map[string]excelize.CellType{
		"decisions!F2": excelize.CellTypeUnset, "decisions!F4": excelize.CellTypeInlineString,
		"decisions!N2": excelize.CellTypeUnset, "decisions!O2": excelize.CellTypeInlineString,
		"breakeven!E2": excelize.CellTypeInlineString, "breakeven!E3": excelize.CellTypeUnset,
		"breakeven!I2": excelize.CellTypeInlineString,
	} {
		sheet, ref, _ := strings.Cut(cell, "!")
		if got, _ := f.GetCellType(sheet, ref); got != want {
			t.Errorf("%s has type %v, want %v", cell, got, want)
		}
	}
}

// TestSummaryMapsReadBestIntervals checks that the summary's decision
// maps read the set's best intervals, when it has them, and not the
// decisions: the workbook is the same bytes, and the decisions are read
// once, for their sheet.
func TestSummaryMapsReadBestIntervals(t *testing.T) {
	set := decidedSet(t)
	want := workbookBytes(t, set, 0)
	var block results.Block
	for row := range set.Decisions.Rows {
		block.Rows = append(block.Rows, slices.Clone(row[:6]))
	}
	block.Columns = set.Decisions.Columns[:6]
	set.BestIntervals = block.Table("best_intervals")
	if got := set.BestIntervals.Header(); !slices.Equal(got, []string{"seed", "subscribers", "periods", "state_rows", "probability", "best_interval"}) {
		t.Fatalf("best intervals' columns %v", got)
	}
	passes := 0
	set.Decisions.Len = len(block.Rows) // the sheet needs no pass to count them
	rows := set.Decisions.Rows
	set.Decisions.Rows = func(yield func([]results.Value) bool) {
		passes++
		rows(yield)
	}
	if got := workbookBytes(t, set, 0); !bytes.Equal(got, want) {
		t.Error("the workbook differs when its maps read the best intervals")
	}
	if passes != 1 {
		t.Errorf("the workbook read the decisions %d times, want once", passes)
	}
}

func TestXLSXSummary(t *testing.T) {
	set := decidedSet(t)
	f := openWorkbook(t, workbookBytes(t, set, 0))
	rows, err := f.GetRows("summary")
	if err != nil {
		t.Fatal(err)
	}
	text := func(r []string) string { return strings.Join(r, "|") }
	var lines []string
	for _, r := range rows {
		lines = append(lines, text(r))
	}
	find := func(want string) int {
		return slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, want) })
	}
	if rows[0][0] != "ckptlab: lesson" {
		t.Errorf("the summary starts %q, want the experiment's name", rows[0])
	}
	for _, want := range []string{
		"probabilities 1, 0.75, 0.5, 0.25; intervals none, 6, 4, 3, 2, 1", // the settings, plain
		set.Headline[0], set.Headline[1],
		"Break-even", "(seed 20260218, subscribers 200, periods 12, state rows 200)",
		"interval|from probability|to probability|from fraction|to fraction",
		"none|0.0000|0.6111|0|11/18", "6|0.6111|0.9167|11/18|11/12",
		"Decision map", "failure probability|200|400",
		"Key figures", "failure probability|best|expected total|saves vs none|runner-up|saves vs it",
		// the lesson's totals at p = 1: 4 at 927.3, none 1,200.0, 6 at 945.5
		"1.0000|4|927.3|272.7 (1.29×)|6|18.2 (1.02×)",
	} {
		if find(want) < 0 {
			t.Errorf("the summary lacks %q:\n%s", want, strings.Join(lines, "\n"))
		}
	}
	// The break-even header: a cell per column, each wrapped and set in
	// from its cell's edge, so that no two run together.
	head := find("interval|from probability|to probability")
	for j := range rows[head] {
		cell := cellName(j+1, head+1)
		st := cellStyle(t, f, "summary", cell)
		if a := st.Alignment; a == nil || !a.WrapText || a.Indent < 1 || st.Font == nil || !st.Font.Bold {
			t.Errorf("break-even header %s (%s) has alignment %+v: want bold, wrapped, indented", cell, rows[head][j], a)
		}
	}
	// The map: probability down, state rows across, best interval in each
	// cell, each cell coloured by its interval.
	top := find("failure probability|200|400")
	if top < 0 {
		t.FailNow()
	}
	wantMap := []string{"1.0000|4|6", "0.7500|6|6", "0.5000|none|none", "0.2500|none|none"}
	if got := lines[top+1 : top+5]; !slices.Equal(got, wantMap) {
		t.Errorf("decision map %q, want %q", got, wantMap)
	}
	formats, err := f.GetConditionalFormats("summary")
	if err != nil {
		t.Fatal(err)
	}
	ref := "B" + strconv.Itoa(top+2) + ":C" + strconv.Itoa(top+5)
	var types []string
	for _, r := range formats[ref] {
		types = append(types, r.Type)
	}
	if want := []string{"cell", "cell", "cell"}; !slices.Equal(types, want) {
		t.Errorf("the decision map %s has conditional formats %v, want %v (none, 4, 6); all: %+v", ref, types, want, formats)
	}
}

// TestXLSXDecisionMapColoursByInterval checks that the lesson's decision
// map fills each cell with a light tint of its interval's palette colour
// (none grey), not a red-to-green scale.
func TestXLSXDecisionMapColoursByInterval(t *testing.T) {
	f, err := excelize.OpenReader(bytes.NewReader(workbookBytes(t, lessonSet(t), 0)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	formats, err := f.GetConditionalFormats("summary")
	if err != nil {
		t.Fatal(err)
	}
	fills := map[string]string{}
	for _, rules := range formats {
		for _, r := range rules {
			if r.Type == "3_color_scale" {
				t.Errorf("the summary still has a colour scale (%s to %s)", r.MinColor, r.MaxColor)
			}
			if r.Type != "cell" || r.Format == nil {
				continue
			}
			st, err := f.GetConditionalStyle(*r.Format)
			if err != nil || len(st.Fill.Color) == 0 {
				continue
			}
			fills[strings.Trim(r.Value, `"`)] = strings.TrimPrefix(strings.ToUpper(st.Fill.Color[0]), "#")
		}
	}
	for _, name := range []string{"6", "4"} {
		c, _, _ := results.IntervalStyle(name)
		got, ok := fills[name]
		if !ok {
			t.Errorf("interval %s has no fill on the decision map (fills %v)", name, fills)
			continue
		}
		if got == c || got == "FFFFFF" {
			t.Errorf("interval %s is filled %s, want a light tint of %s", name, got, c)
		}
		for k := 0; k < 6; k += 2 {
			g, _ := strconv.ParseUint(got[k:k+2], 16, 8)
			w, _ := strconv.ParseUint(c[k:k+2], 16, 8)
			if g < w {
				t.Errorf("interval %s is filled %s, darker than its colour %s", name, got, c)
			}
		}
	}
	if fills["none"] == "" || fills["none"] == fills["6"] || fills["none"] == fills["4"] {
		t.Errorf("none is filled %q, want a fill of its own", fills["none"])
	}
}

// cellName returns the name of the cell in column col and row row, from 1.
func cellName(col, row int) string {
	name, _ := excelize.CoordinatesToCellName(col, row)
	return name
}

// TestXLSXSummaryMapsAlike checks that sources alike in their decisions,
// seeds apart, share one decision map named by their seeds, and their key
// figures one row a decision point, the seeds counted.
func TestXLSXSummaryMapsAlike(t *testing.T) {
	e := experiment.Lesson("seeds")
	e.Seeds = []uint32{1, 2, 3}
	f := openWorkbook(t, workbookBytes(t, evaluatedSet(t, e), 0))
	rows, err := f.GetRows("summary")
	if err != nil {
		t.Fatal(err)
	}
	var maps, figures int
	for _, r := range rows {
		line := strings.Join(r, "|")
		if strings.HasPrefix(line, "Decision map") {
			maps++
			if !strings.HasSuffix(line, "seeds 1, 2, 3 (alike), 200 subscribers, 12 periods") {
				t.Errorf("the map is titled %q", line)
			}
		}
		if strings.HasPrefix(line, "3|") && strings.Contains(line, "×") {
			figures++
		}
	}
	if maps != 1 || figures != 4 {
		t.Errorf("%d decision maps and %d key-figure rows of 3 seeds, want 1 and 4", maps, figures)
	}
}
