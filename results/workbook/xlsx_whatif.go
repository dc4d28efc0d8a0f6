package workbook

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"ckptlab/internal/words"
	"ckptlab/results"

	"github.com/xuri/excelize/v2"
)

// The what-if sheet's defined names: the cells an analyst types into.
const (
	WhatIfProbabilityName = "whatif_probability"
	WhatIfStateRowsName   = "whatif_state_rows"
	WhatIfSourceName      = "whatif_source"
)

// whatIfSheet is the sheet's name, and the rows of its parts.
const (
	whatIfSheet    = "what-if"
	whatIfInputRow = 4  // probability, state rows, source: rows 4, 5, 6
	whatIfNameRow  = 7  // the name of the source picked
	whatIfBestRow  = 8  // the best interval and its expected total
	whatIfTableRow = 10 // the header of the per-interval table
	// whatIfSources is the most sources the sheet lists to pick from.
	whatIfSources = 1000
	// whatIfCols is how many columns the inputs and the interval table take.
	whatIfCols = 7
	// whatIfScale is the least scale the sheet prints at: a wide table of
	// sources prints over pages across, and the first page still holds
	// the inputs, the note and the interval table whole.
	whatIfScale = 0.6
)

// whatIfChartRows is how many rows of the default height the chart takes.
var whatIfChartRows = int(math.Ceil(chartHeight*pixelPoints/rowPoints)) + 1

// writeWhatIf writes the what-if sheet: input cells for the failure
// probability, the rows one checkpoint writes and the source (defined
// names whatif_probability, whatif_state_rows, whatif_source), then for
// each declared interval its checkpoints, weighted sum of rows recomputed,
// certain cost and expected total as live formulas of the inputs and of
// the sums the run counted, the best interval by formula (ties to the
// first declared, as decisions.csv), the best schedule at the first
// inputs as a stated figure, and a chart bound to the formulas.
// Where the sources' state rows differ, each source's are an input of its
// row and the state rows cell reads the picked source's.
// Each formula cell caches the value ckptlab computed for the first
// decision, so the sheet reads right before any recalculation.
func (b *workbook) writeWhatIf(w *results.WhatIf) error {
	if w == nil || len(w.Sources) == 0 || len(w.Intervals) == 0 {
		return nil
	}
	sheet := whatIfSheet
	if err := b.newSheet(sheet); err != nil {
		return err
	}
	srcs := w.Sources[:min(len(w.Sources), whatIfSources)]
	perSource := false
	titleWidth := 24
	for _, s := range srcs {
		perSource = perSource || s.StateRows != srcs[0].StateRows
		titleWidth = max(titleWidth, len(s.Title)+2)
	}
	// The sources' columns: source, number, periods, failure weight, state
	// rows where they differ, then a sum per interval.
	sumCol := 5
	if perSource {
		sumCol = 6
	}
	widths := []float64{float64(titleWidth), 14, 22, 16, 16, 16, 10}
	for range sumCol - 1 + len(w.Intervals) - len(widths) {
		widths = append(widths, 12)
	}
	var width, keyWidth float64
	for i, x := range widths {
		width += columnPoints(x)
		if i < 2 {
			keyWidth += columnPoints(x)
		}
	}
	var chars float64
	for _, x := range widths[:whatIfCols] {
		chars += x
	}
	if err := b.setUpPrint(sheet, layOutAt(width, keyWidth, 0, whatIfScale), 0, 2); err != nil {
		return err
	}
	sw, err := b.f.NewStreamWriter(sheet)
	if err != nil {
		return err
	}
	if err := setColWidths(sw, widths); err != nil {
		return err
	}
	vs := viewSheet{b: b, name: sheet, sw: sw}
	st := func(role styleRole, q results.Quantity) int {
		if err == nil {
			var id int
			id, err = b.style(role, q)
			return id
		}
		return 0
	}
	input := map[results.Quantity]int{results.Probability: st(inputStyle, results.Probability), results.Count: st(inputStyle, results.Count)}
	header, numberHeader, wrap := st(headerStyle, results.General), st(numberHeaderStyle, results.General), st(wrapStyle, results.General)
	centred, count, total, bold := st(centredStyle, results.General), st(plainStyle, results.Count), st(plainStyle, results.Total), st(blockStyle, results.General)
	markedTotal := st(markedStyle, results.Total)
	if err != nil {
		return err
	}
	row := func(r int, cells ...any) error {
		if err == nil {
			err = sw.SetRow(cellName(1, r), cells)
		}
		return err
	}
	k := len(w.Intervals)
	first, last := whatIfTableRow+1, whatIfTableRow+k
	// The schedule's row, under the table, and the chart below it.
	schedRow, chartRow := last+2, last+3
	if w.Schedule != nil {
		chartRow = last + 4
	}
	srcHeader := chartRow + whatIfChartRows + 2
	s1, sn := srcHeader+1, srcHeader+len(srcs)
	abs := func(col string, r1, r2 int) string { return fmt.Sprintf("$%s$%d:$%s$%d", col, r1, col, r2) }
	// pick is the picked source's cell of a column of the sources' table:
	// a plain reference when there is one source, since a one-cell INDEX
	// range is read apart in some spreadsheet programs.
	pick := func(col string) string {
		if len(srcs) == 1 {
			return fmt.Sprintf("$%s$%d", col, s1)
		}
		return fmt.Sprintf("INDEX(%s,%s)", abs(col, s1, sn), WhatIfSourceName)
	}
	intervals, totals := abs("A", first, last), abs("F", first, last)
	src := w.Sources[0]

	if err := vs.title(1, "What if: type a failure probability, a checkpoint's size or a source below; the totals and the best interval follow", titleStyle); err != nil {
		return err
	}
	note := "Yellow cells are inputs. For interval k, expected total = probability × rows recomputed (weighted sum over the failure set) / failure weight + checkpoints × state rows, checkpoints = periods ÷ k rounded down (0 for none), as decisions.csv computes it; the best is the least, ties to the interval declared first. Every declared interval is weighed, excluded points too."
	if perSource {
		note += " The sources write checkpoints of different sizes: each source's state rows are an input of its row in the table of sources, and the state rows above follow the source picked (a number typed there holds for every source)."
	}
	note = strings.TrimSpace(note + " " + w.Note)
	// A line of wrapped text holds fewer characters than the columns' widths
	// in digits; a tenth less leaves room.
	lines := int(math.Ceil(float64(len([]rune(note))) / (chars * 0.9)))
	if err == nil {
		err = sw.SetRow("A2", []any{excelize.Cell{StyleID: wrap, Value: note}}, excelize.RowOpts{Height: rowHeight(lines)})
	}
	if err == nil {
		err = sw.MergeCell("A2", columnName(whatIfCols)+"2")
	}
	stateRows := excelize.Cell{StyleID: input[results.Count], Value: w.StateRows}
	stateHelp := "the rows one checkpoint writes"
	if perSource {
		stateRows = excelize.Cell{StyleID: count, Formula: pick("E"), Value: w.StateRows}
		stateHelp = "the rows one checkpoint writes: the source's, from the table of sources"
	}
	row(whatIfInputRow, excelize.Cell{StyleID: bold, Value: "failure probability"},
		excelize.Cell{StyleID: input[results.Probability], Value: w.Probability}, "the probability that a run fails, from 0 to 1")
	row(whatIfInputRow+1, excelize.Cell{StyleID: bold, Value: "state rows"}, stateRows, stateHelp)
	row(whatIfInputRow+2, excelize.Cell{StyleID: bold, Value: "source"},
		excelize.Cell{StyleID: input[results.Count], Value: 1},
		fmt.Sprintf("the number of a source in the table of sources, 1 to %d", len(srcs)))
	row(whatIfNameRow, excelize.Cell{StyleID: bold, Value: "source picked"},
		excelize.Cell{Formula: pick("A"), Value: src.Title})

	// The cached values: the first source at the first decision's inputs.
	cks := make([]int64, k)
	es := make([]float64, k)
	best := 0
	for i, name := range w.Intervals {
		if n, err := strconv.Atoi(name); err == nil && n > 0 {
			cks[i] = int64(src.Periods / n)
		}
		es[i] = w.Totals[i]
		if es[i] < es[best] {
			best = i
		}
	}
	row(whatIfBestRow, excelize.Cell{StyleID: bold, Value: "best interval"},
		excelize.Cell{StyleID: centred, Formula: fmt.Sprintf("INDEX(%s,MATCH(MIN(%s),%s,0))", intervals, totals, totals), Value: numericCellValue(results.TextValue(w.Intervals[best]))},
		excelize.Cell{StyleID: bold, Value: "least expected total"},
		excelize.Cell{StyleID: markedTotal, Formula: fmt.Sprintf("MIN(%s)", totals), Value: es[best]})
	row(whatIfTableRow, excelize.Cell{StyleID: header, Value: "interval"},
		excelize.Cell{StyleID: numberHeader, Value: "checkpoints"},
		excelize.Cell{StyleID: numberHeader, Value: "rows recomputed (sum)"},
		excelize.Cell{StyleID: numberHeader, Value: "failure weight"},
		excelize.Cell{StyleID: numberHeader, Value: "certain cost"},
		excelize.Cell{StyleID: numberHeader, Value: "expected total"},
		excelize.Cell{StyleID: header, Value: ""})
	for i, name := range w.Intervals {
		r := first + i
		mark := ""
		if i == best {
			mark = "best"
		}
		row(r, excelize.Cell{StyleID: centred, Value: numericCellValue(results.TextValue(name))},
			excelize.Cell{StyleID: count, Formula: fmt.Sprintf("IF(ISNUMBER(A%d),INT(%s/A%d),0)", r, pick("C"), r), Value: cks[i]},
			excelize.Cell{StyleID: count, Formula: pick(columnName(sumCol + i)), Value: src.Sums[i]},
			excelize.Cell{StyleID: count, Formula: pick("D"), Value: src.Weight},
			excelize.Cell{StyleID: count, Formula: fmt.Sprintf("B%d*%s", r, WhatIfStateRowsName), Value: cks[i] * w.StateRows},
			excelize.Cell{StyleID: total, Formula: fmt.Sprintf("%s*C%d/D%d+E%d", WhatIfProbabilityName, r, r, r), Value: es[i]},
			excelize.Cell{StyleID: bold, Formula: fmt.Sprintf(`IF(A%d=$B$%d,"best","")`, r, whatIfBestRow), Value: mark})
	}
	if w.Schedule != nil {
		text := scheduleText(w, w.Intervals[best])
		lines := int(math.Ceil(float64(len([]rune(text))) / (chars * 0.9)))
		if err == nil {
			err = sw.SetRow(cellName(1, schedRow), []any{excelize.Cell{StyleID: wrap, Value: text}}, excelize.RowOpts{Height: rowHeight(lines)})
		}
		if err == nil {
			err = sw.MergeCell(cellName(1, schedRow), cellName(whatIfCols, schedRow))
		}
	}
	if err := vs.title(srcHeader-1, "Sources: what the run counted, by number", blockStyle); err != nil {
		return err
	}
	hdr := []any{excelize.Cell{StyleID: header, Value: "source"}, excelize.Cell{StyleID: numberHeader, Value: "number"},
		excelize.Cell{StyleID: numberHeader, Value: "periods"}, excelize.Cell{StyleID: numberHeader, Value: "failure weight"}}
	if perSource {
		hdr = append(hdr, excelize.Cell{StyleID: numberHeader, Value: "state rows"})
	}
	for _, name := range w.Intervals {
		hdr = append(hdr, excelize.Cell{StyleID: numberHeader, Value: "sum, interval " + name})
	}
	row(srcHeader, hdr...)
	for j, s := range srcs {
		cells := []any{s.Title, excelize.Cell{StyleID: count, Value: j + 1},
			excelize.Cell{StyleID: count, Value: s.Periods}, excelize.Cell{StyleID: count, Value: s.Weight}}
		if perSource {
			cells = append(cells, excelize.Cell{StyleID: input[results.Count], Value: s.StateRows})
		}
		for _, y := range s.Sums {
			cells = append(cells, excelize.Cell{StyleID: count, Value: y})
		}
		row(s1+j, cells...)
	}
	if err != nil {
		return err
	}
	for _, dn := range []struct {
		name string
		row  int
	}{{WhatIfProbabilityName, whatIfInputRow}, {WhatIfStateRowsName, whatIfInputRow + 1}, {WhatIfSourceName, whatIfInputRow + 2}} {
		if err := b.f.SetDefinedName(&excelize.DefinedName{Name: dn.name, RefersTo: fmt.Sprintf("'%s'!$B$%d", sheet, dn.row)}); err != nil {
			return err
		}
	}
	validations := []struct {
		ref     string
		kind    excelize.DataValidationType
		lo, hi  any
		message string
	}{
		{fmt.Sprintf("B%d", whatIfInputRow), excelize.DataValidationTypeDecimal, 0, 1, "a failure probability is a number from 0 to 1"},
		{fmt.Sprintf("B%d", whatIfInputRow+1), excelize.DataValidationTypeWhole, 0, maxStateRows, "state rows are a whole number, 0 or more"},
		{fmt.Sprintf("B%d", whatIfInputRow+2), excelize.DataValidationTypeWhole, 1, len(srcs), fmt.Sprintf("a source is a whole number from 1 to %d", len(srcs))},
	}
	if perSource {
		validations = append(validations, validations[1])
		validations[3].ref = fmt.Sprintf("E%d:E%d", s1, sn)
	}
	for _, v := range validations {
		dv := excelize.NewDataValidation(true)
		dv.Sqref = v.ref
		if err := dv.SetRange(v.lo, v.hi, v.kind, excelize.DataValidationOperatorBetween); err != nil {
			return err
		}
		dv.SetError(excelize.DataValidationErrorStyleStop, "Not an input value", v.message)
		if err := b.f.AddDataValidation(sheet, dv); err != nil {
			return fmt.Errorf("sheet %s: %w", sheet, err)
		}
	}
	ref := func(col string) string { return fmt.Sprintf("'%s'!%s", sheet, abs(col, first, last)) }
	label := excelize.Font{Color: "000000", Size: 9}
	chart := &excelize.Chart{
		Type:      excelize.Col,
		Dimension: excelize.ChartDimension{Width: chartWidth, Height: chartHeight},
		Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "Expected total by interval, at the inputs above",
			Font: &excelize.Font{Color: "000000", Size: 11, Bold: true}}}},
		Legend: excelize.ChartLegend{Position: "none"},
		XAxis:  excelize.ChartAxis{Font: label, Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "interval (periods between checkpoints)", Font: &label}}}},
		YAxis: excelize.ChartAxis{Font: label, MajorGridLines: true, Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "expected total (rows)", Font: &label}}},
			NumFmt: excelize.ChartNumFmt{CustomNumFmt: "#,##0"}}, // rows, thousands separated, as the line charts
		Series: []excelize.ChartSeries{{
			Name:       fmt.Sprintf("'%s'!$F$%d", sheet, whatIfTableRow),
			Categories: ref("A"),
			Values:     ref("F"),
		}},
	}
	if err := b.f.AddChart(sheet, "A"+strconv.Itoa(chartRow), chart); err != nil {
		return fmt.Errorf("sheet %s: chart: %w", sheet, err)
	}
	points := make([]string, len(w.Intervals))
	for i, name := range w.Intervals {
		points[i], _, _ = results.IntervalStyle(name)
	}
	b.charts = append(b.charts, chartCache{ys: [][]float64{w.Totals}, points: points})
	return sw.Flush()
}

// whatIfPointsShown is the most checkpoint points the schedule's row names;
// a longer schedule is named by its first and last points.
const whatIfPointsShown = 6

// scheduleText states the best schedule at the sheet's first inputs
// (source 1's, named where there are more), best being the best declared
// interval there: "best schedule at p = 1.0000, state rows 200: 2
// checkpoints, after 2026-05 and 2026-09, 727.3 rows".
func scheduleText(w *results.WhatIf, best string) string {
	s := w.Schedule
	of := ""
	if len(w.Sources) > 1 {
		of = " of source 1"
	}
	at := fmt.Sprintf("best schedule%s at p = %s, state rows %s: ", of, results.Probability.Format(w.Probability), results.Count.FormatInt(w.StateRows))
	const held = " (not recalculated: it holds for the starting inputs)"
	if !s.Beats {
		return at + "the best interval is also the best schedule: interval " + best + ", " + results.Total.Format(s.Total) + " rows" + held
	}
	if len(s.Points) == 0 {
		return at + "no checkpoint, " + results.Total.Format(s.Total) + " rows, below every interval above" + held
	}
	after := words.And(s.Points)
	if len(s.Points) > whatIfPointsShown {
		after = strings.Join(s.Points[:whatIfPointsShown-2], ", ") + ", … and " + s.Points[len(s.Points)-1]
	}
	n := len(s.Points)
	return fmt.Sprintf("%s%s %s, after %s, %s rows, below every interval above%s", at, results.Count.FormatInt(int64(n)), words.Plural(n, "checkpoint", "checkpoints"), after, results.Total.Format(s.Total), held)
}

// maxStateRows is the most state rows the what-if sheet's inputs accept:
// a bound the data validation needs, far past any checkpoint.
const maxStateRows = 1e15
