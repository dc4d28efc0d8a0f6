package workbook

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"ckptlab/results"

	"github.com/xuri/excelize/v2"
)

// writeTable writes a table on sheets of at most b.sheetRows data rows
// each: t.Name, then t.Name-2, t.Name-3, ..., each with the header row
// frozen and an autofilter over its rows. The filter and the highlight
// name the rows before any is written, so a table of unknown length (no
// Len, no Count) is read twice: once to count its rows here, once as the
// workbook is saved, to write them (see tableRows). Rows are never held.
func (b *workbook) writeTable(t results.Table) error {
	total := t.Len
	if total == 0 && t.Count != nil {
		total = t.Count()
	}
	if total == 0 {
		for range t.Rows {
			if total%results.CheckEvery == 0 {
				if err := b.ctx.Err(); err != nil {
					return err
				}
			}
			total++
		}
	}
	ts := tableSheet{b: b, t: t}
	rows := tableRows{t: t, numeric: numericTextColumns(t.Columns)}
	for lo := 0; lo == 0 || lo < total; lo += b.sheetRows {
		hi := min(lo+b.sheetRows, total)
		ts.rows = hi - lo
		if err := ts.start(); err != nil {
			return err
		}
		rows.style = ts.style
		part, err := b.addRows(&ts, rows, lo, hi)
		if err != nil {
			return fmt.Errorf("sheet %s: %w", ts.name, err)
		}
		rows.parts = append(rows.parts, part)
		if err := ts.finish(); err != nil {
			return err
		}
	}
	if b.streamRows == nil {
		b.rows = append(b.rows, rows)
	}
	if ts.part > 1 {
		b.notes = append(b.notes, fmt.Sprintf(
			"%s has %d rows, more than the %d data rows a sheet holds: they go on in order over the sheets %s to %s-%d, each with the header.",
			t.Name, total, b.sheetRows, t.Name, t.Name, ts.part))
	}
	return nil
}

// addRows returns the sheet's part of the table, rows lo..hi-1, to be
// written in as the workbook is saved; or, where tests ask for rows
// written through excelize, writes them now.
func (b *workbook) addRows(ts *tableSheet, rows tableRows, lo, hi int) (sheetPart, error) {
	if b.streamRows != nil {
		return sheetPart{lo: lo, hi: hi}, b.streamRows(b.ctx, ts.sw, rows, lo, hi)
	}
	path, err := sheetPath(b.f, ts.name)
	dim := dimensionRef(headerCells(len(ts.t.Columns), hi-lo), hi-lo+1)
	return sheetPart{path: path, dim: dim, lo: lo, hi: hi, cols: ts.cols}, err
}

// sheetPath returns the part of the package that holds a sheet: excelize
// names it after the sheet's ID.
func sheetPath(f *excelize.File, sheet string) (string, error) {
	for id, name := range f.GetSheetMap() {
		if name == sheet {
			return fmt.Sprintf("xl/worksheets/sheet%d.xml", id), nil
		}
	}
	return "", fmt.Errorf("the workbook has no sheet %s", sheet)
}

// tableSheet is the sheet a table is being written to.
type tableSheet struct {
	b     *workbook
	t     results.Table
	sw    *excelize.StreamWriter
	name  string
	part  int   // 1 for the first sheet of the table, 2 for name-2, ...
	rows  int   // data rows of this sheet
	style []int // each column's style
	cols  []byte
}

// start begins the table's next sheet: column widths and styles and the
// frozen header must be set before the first row.
func (ts *tableSheet) start() error {
	ts.part++
	ts.style = make([]int, len(ts.t.Columns))
	ts.name = ts.t.Name
	if ts.part > 1 {
		ts.name = fmt.Sprintf("%s-%d", ts.t.Name, ts.part)
	}
	b := ts.b
	if err := b.newSheet(ts.name); err != nil {
		return err
	}
	var width, keyWidth float64
	keys := keyColumns(ts.t)
	for i, c := range ts.t.Columns {
		width += columnPoints(columnWidth(c))
		if i < keys {
			keyWidth += columnPoints(columnWidth(c))
		}
	}
	if err := b.setUpPrint(ts.name, layOutAt(width, keyWidth, 1, tableScale), 1, keys); err != nil {
		return err
	}
	sw, err := b.f.NewStreamWriter(ts.name)
	if err != nil {
		return err
	}
	ts.sw = sw
	header := make([]any, len(ts.t.Columns))
	numeric := numericTextColumns(ts.t.Columns)
	headerID, err := b.style(headerStyle, results.General)
	if err != nil {
		return err
	}
	// Styles are made in the order cells ask for them (see style): from
	// the last column, as the columns were once set.
	widths := make([]float64, len(ts.t.Columns))
	for i, c := range slices.Backward(ts.t.Columns) {
		widths[i] = columnWidth(c)
		var err error
		if numeric[i] || strings.HasSuffix(c.Name, "_fraction") {
			ts.style[i], err = b.style(centredStyle, quantity(c))
		} else if d := quantity(c); d.NumFmt() != "General" {
			ts.style[i], err = b.style(plainStyle, d)
		}
		if err != nil {
			return err
		}
		header[i] = excelize.Cell{StyleID: headerID, Value: c.Name}
	}
	if b.streamRows != nil {
		if err := setColumns(sw, widths, ts.style); err != nil {
			return err
		}
	} else {
		ts.cols = colsElement(widths, ts.style)
	}
	if err := sw.SetPanes(&excelize.Panes{
		Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: "A2", ActiveCell: "A2", Pane: "bottomLeft"}},
	}); err != nil {
		return err
	}
	if ts.rows > printRows {
		header = append(header, nil, ts.printNotice())
	}
	return sw.SetRow("A1", header)
}

// setColumns sets a stream-written sheet's column widths and styles (0
// for none) through excelize, from the last column: excelize puts the
// column last set first in <cols>, and so leaves them in the ascending
// order Excel requires.
func setColumns(sw *excelize.StreamWriter, widths []float64, styles []int) error {
	for i, w := range slices.Backward(widths) {
		col := i + 1
		if err := sw.SetColWidth(col, col, w); err != nil {
			return err
		}
		if styles[i] != 0 {
			if err := sw.SetColStyle(col, col, styles[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// colsElement returns the <cols> element setColumns has excelize write,
// byte for byte (TestSheetRowsMatchExcelize compares them): a <col> a
// column, in order. Each call of excelize's copies every column set so
// far, by reflection, which for the columns of a table sheet was a tenth
// of a small workbook's time; the table sheets, packed, get this one
// instead (see packTable), and their stream writers are given no columns.
func colsElement(widths []float64, styles []int) []byte {
	if len(widths) == 0 {
		return nil
	}
	b := append(make([]byte, 0, 64*len(widths)), "<cols>"...)
	for i, w := range widths {
		b = append(b, `<col min="`...)
		b = strconv.AppendInt(b, int64(i+1), 10)
		b = append(b, `" max="`...)
		b = strconv.AppendInt(b, int64(i+1), 10)
		b = append(b, `" width="`...)
		b = strconv.AppendFloat(b, w, 'f', -1, 64)
		b = append(b, `" customWidth="1"`...)
		if styles[i] != 0 {
			b = append(b, ` style="`...)
			b = strconv.AppendInt(b, int64(styles[i]), 10)
			b = append(b, '"')
		}
		b = append(b, "/>"...)
	}
	return append(b, "</cols>"...)
}

// headerCells is how many cells wide a table sheet of cols columns and
// rows data rows is: its columns, and past printRows a blank and the note
// where the full table is.
func headerCells(cols, rows int) int {
	if rows > printRows {
		return cols + 2
	}
	return cols
}

// printRows is the most data rows a table sheet prints: past it the
// printed pages would run to hundreds, and the CSV file is the place to
// read the whole table.
const printRows = 2000

// setPrintArea limits a sheet of more than printRows rows to its header
// and first printRows rows when printed.
func (ts *tableSheet) setPrintArea() error {
	if ts.rows <= printRows {
		return nil
	}
	// The notice beside the header is outside the printed columns: the
	// printed pages carry it in their header.
	if err := ts.b.setHeader(ts.name, ts.printNotice()); err != nil {
		return err
	}
	return ts.b.f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Area", Scope: ts.name,
		RefersTo: fmt.Sprintf("'%s'!$A$1:$%s$%d", ts.name, columnName(max(len(ts.t.Columns), 1)), printRows+1)})
}

// printNotice says that a sheet longer than printRows prints its first
// rows, and where the whole table is.
func (ts *tableSheet) printNotice() string {
	return fmt.Sprintf("Printed: the header and the first %s rows of %s; the full table is %s.csv.", results.Count.
		FormatInt(printRows), results.Count.FormatInt(int64(ts.rows)), ts.t.Name)
}

// finish puts the autofilter over the sheet's rows, highlights the best
// rows, and ends its stream.
func (ts *tableSheet) finish() error {
	ref := "A1:" + cellName(max(len(ts.t.Columns), 1), ts.rows+1)
	if err := ts.b.f.AutoFilter(ts.name, ref, nil); err != nil {
		return fmt.Errorf("sheet %s: %w", ts.name, err)
	}
	if err := ts.highlightBest(); err != nil {
		return fmt.Errorf("sheet %s: %w", ts.name, err)
	}
	if err := ts.setPrintArea(); err != nil {
		return fmt.Errorf("sheet %s: %w", ts.name, err)
	}
	if err := ts.sw.Flush(); err != nil {
		return fmt.Errorf("sheet %s: %w", ts.name, err)
	}
	return nil
}

// columnWidth is a column's width in characters: room for the header and
// its filter button, and for the values the column's kind usually holds.
func columnWidth(c results.Column) float64 {
	least := 12
	switch c.Kind {
	case results.Int:
		least = 10
	case results.Bool:
		least = 8
	}
	return float64(max(len(c.Name)+3, least))
}

// highlightBest gives the rows whose best cell is TRUE a green fill, by a
// conditional format over the data rows: one rule for the whole sheet,
// whatever its length, and the highlight follows the rows when they are
// sorted or filtered. A table without a boolean best column gets none.
func (ts *tableSheet) highlightBest() error {
	col := slices.IndexFunc(ts.t.Columns, func(c results.Column) bool { return c.Name == "best" && c.Kind == results.Bool })
	if col < 0 || ts.rows == 0 {
		return nil
	}
	id, err := ts.b.conditionalStyle(markedStyle)
	if err != nil {
		return err
	}
	ref := "A2:" + cellName(len(ts.t.Columns), ts.rows+1)
	return ts.b.f.SetConditionalFormat(ts.name, ref, []excelize.ConditionalFormatOptions{{
		Type: "formula", Criteria: fmt.Sprintf("$%s2=TRUE", columnName(col+1)), Format: &id,
	}})
}

// keyColumns returns how many leading columns of a table name its row,
// repeated at the left of every page when the table prints wider than
// one: the axes of a grid point, of a failure, of a decision or of a
// break-even piece.
func keyColumns(t results.Table) int {
	if n, ok := map[string]int{"grid": 8, "failures": 7, "decisions": 5, "breakeven": 4}[t.Name]; ok {
		return min(n, len(t.Columns))
	}
	return 1
}
